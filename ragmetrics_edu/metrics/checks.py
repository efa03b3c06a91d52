"""Input checks that belong to one metric family, kept out of the public functions' way.

The checks every public function shares are :mod:`ragmetrics_edu.validate`'s; these are the ones a metric of
this package needs, one function per metric where it checks several arguments (in the order the public
function always checked them, so the first bad argument named stays the same). Each only checks and
converts what a caller passed, raising ``InputError``; none computes a score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import InputError
from ..ranking.checks import precision_total
from ..ranking.precision import VARIANTS as PRECISION_VARIANTS
from ..validate import (
    YES,
    as_list,
    choice,
    is_list,
    number,
    optional_texts,
    plain,
    probability,
    same_length,
    text,
    text_list,
    verdict_list,
)


def attribution(nodes: Any, marks: list[str]) -> list[int | None]:
    """Context recall's ``nodes``, checked: per statement, the 1-based node it is attributed to, or None
    (None for every statement when ``nodes`` is None; a node only for a statement judged "yes")."""
    if nodes is None:
        return [None] * len(marks)
    nodes = as_list("nodes", nodes, "a list with, per statement, a 1-based node index or None")
    same_length("verdicts", marks, "nodes", nodes)
    out: list[int | None] = []
    for i, (n, v) in enumerate(zip(nodes, marks, strict=True)):
        n = plain(n)
        if n is None:
            out.append(None)
        elif isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InputError(f"nodes[{i}]", "a 1-based node index (1, 2, ...) or None", n)
        elif v != YES:
            raise InputError(f"nodes[{i}]", "None for a statement judged not attributable", n)
        else:
            out.append(n)
    return out


def context_precision(verdicts: Any, variant: Any, nodes: Any, total_relevant: Any, threshold: Any
                      ) -> tuple[list[int], str, list[str] | None, int | None, float | None]:
    """Context precision's arguments: the 1/0 flags, the variant, the node texts, ``total_relevant`` (only
    with average precision) and the threshold."""
    variant = choice("variant", variant, PRECISION_VARIANTS)
    flags = [1 if v == YES else 0 for v in verdict_list("verdicts", verdicts)]
    texts = optional_texts("nodes", nodes, len(flags), "node text")
    threshold = probability("threshold", threshold)
    if total_relevant is not None and variant != "average_precision":
        raise InputError("total_relevant", "None unless variant='average_precision'", total_relevant)
    return flags, variant, texts, precision_total(variant, total_relevant, flags), threshold


EMBEDDING_VARIANTS = ("ragas", "ragas_legacy", "ragas_collections")
#: The most generated questions one call embeds (each is embedded and compared: the work grows with them).
MAX_GENERATED = 100


def semantic_similarity(answer: Any, ground_truth: Any, threshold: Any) -> tuple[str, str, float | None]:
    """Semantic similarity's two texts and threshold."""
    return text("answer", answer), text("ground_truth", ground_truth), probability("threshold", threshold)


def answer_relevancy_embedding(variant: Any, question: Any, generated_questions: Any, noncommittal: Any,
                               threshold: Any) -> tuple[str, str, list[str], list[bool], float | None]:
    """Answer relevancy's (embedding form) variant, question, generated questions, one noncommittal flag per
    generated question, and threshold."""
    variant = choice("variant", variant, EMBEDDING_VARIANTS)
    question = text("question", question)
    generated = text_list("generated_questions", generated_questions)
    if len(generated) > MAX_GENERATED:
        raise InputError("generated_questions", f"at most {MAX_GENERATED} generated questions (Ragas asks for 3)",
                         f"{len(generated)} questions")
    noncommittal = plain(noncommittal)
    if is_list(noncommittal):
        noncommittal = [plain(f) for f in as_list("noncommittal", noncommittal)]
    if isinstance(noncommittal, bool):
        flags = [noncommittal] * len(generated)
    elif (isinstance(noncommittal, Sequence) and not isinstance(noncommittal, str)
          and all(isinstance(f, bool) for f in noncommittal)):
        flags = list(noncommittal)
        if len(flags) != len(generated):
            raise InputError("noncommittal", f"one flag per generated question ({len(generated)})", flags)
    else:
        raise InputError("noncommittal", "True/False or a list of bools, one per generated question", noncommittal)
    return variant, question, generated, flags, probability("threshold", threshold)


CORRECTNESS_VARIANTS = ("ragas", "ragas_legacy", "ragas_collections")


@dataclass(frozen=True)
class Correctness:
    """Answer correctness's arguments, checked; ``similarity`` None means: compute it from the two texts."""

    tp: list[str]
    fp: list[str]
    fn: list[str]
    similarity: float | None
    w_f: float
    w_s: float
    beta: float
    threshold: float | None
    variant: str


def weights_of(value: Any) -> tuple[float, float]:
    """``weights`` checked: two non-negative finite numbers (factual, semantic), not both zero."""
    if is_list(value):
        value = [plain(w) for w in as_list("weights", value, "two non-negative numbers (factual, semantic)")]
    ok = (isinstance(value, Sequence) and not isinstance(value, (str, bytes)) and len(value) == 2
          and all(isinstance(w, (int, float)) and not isinstance(w, bool) and _finite(w) and w >= 0 for w in value)
          and sum(value) > 0)
    if not ok:
        raise InputError("weights", "two non-negative numbers (factual, semantic), not both zero", value)
    return float(value[0]), float(value[1])


def _finite(x: Any) -> bool:
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def beta_of(value: Any) -> float:
    """``beta`` checked: a positive finite number whose square is finite."""
    beta = number("beta", value, "a positive finite number (1 gives F1)", low=0.0, low_open=True)
    if not math.isfinite(beta * beta):
        raise InputError("beta", "a positive number whose square is finite", value)
    return beta


def answer_correctness(tp: Any, fp: Any, fn: Any, similarity: Any, weights: Any, beta: Any, answer: Any,
                       ground_truth: Any, threshold: Any, variant: Any) -> Correctness:
    """Answer correctness's arguments. A similarity is needed unless the semantic weight is 0 (then it is 0.0
    when not given); without one, ``answer`` and ``ground_truth`` must be given to compute it."""
    variant = choice("variant", variant, CORRECTNESS_VARIANTS)
    lists = [text_list(name, value) for name, value in (("tp", tp), ("fp", fp), ("fn", fn))]
    w_f, w_s = weights_of(weights)
    beta = beta_of(beta)
    if similarity is not None:
        similarity = number("similarity", similarity, "a cosine similarity between -1 and 1", low=-1.0, high=1.0)
    if w_s == 0 and similarity is None:
        similarity = 0.0
    elif similarity is None and (answer is None or ground_truth is None):
        raise InputError("similarity", "a number, or answer= and ground_truth= to compute it with an embedder",
                         similarity)
    return Correctness(lists[0], lists[1], lists[2], similarity, w_f, w_s, beta, probability("threshold", threshold),
                       variant)
