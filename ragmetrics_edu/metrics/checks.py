"""Input checks that belong to one metric family, kept out of the public functions' way.

The checks every public function shares are :mod:`ragmetrics_edu.validate`'s; these are the ones a metric of
this package needs, one function per metric where it checks several arguments (in the order the public
function always checked them, so the first bad argument named stays the same). Each only checks and
converts what a caller passed, raising ``InputError``; none computes a score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..cores import g_eval as g_eval_core
from ..errors import InputError
from ..ranking.checks import precision_total
from ..validate import (
    YES,
    as_list,
    choice,
    flag,
    integer,
    is_list,
    number,
    optional_number,
    optional_texts,
    plain,
    probability,
    same_length,
    text,
    text_list,
    verdict_list,
)
from .variants import VARIANTS


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
    variant = choice("variant", variant, VARIANTS["context_precision"])
    flags = [1 if v == YES else 0 for v in verdict_list("verdicts", verdicts)]
    texts = optional_texts("nodes", nodes, len(flags), "node text")
    threshold = probability("threshold", threshold)
    if total_relevant is not None and variant != "average_precision":
        raise InputError("total_relevant", "None unless variant='average_precision'", total_relevant)
    return flags, variant, texts, precision_total(variant, total_relevant, flags), threshold


EMBEDDING_VARIANTS = VARIANTS["answer_relevancy_embedding"]
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


CORRECTNESS_VARIANTS = VARIANTS["answer_correctness"]


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


ENTITY_VARIANTS = VARIANTS["context_entity_recall"]


def context_entity_recall(variant: Any, reference_entities: Any, context_entities: Any, normalize: Any,
                          threshold: Any) -> tuple[str, list[str], list[str], bool, float | None]:
    """Context entity recall's variant, the two entity lists, ``normalize`` and the threshold."""
    variant = choice("variant", variant, ENTITY_VARIANTS)
    reference = text_list("reference_entities", reference_entities)
    context = text_list("context_entities", context_entities)
    return variant, reference, context, flag("normalize", normalize), probability("threshold", threshold)


G_EVAL_VARIANTS = VARIANTS["g_eval"]
#: the default scales live in the core, which show_code shows (they change the score)
G_EVAL_SCALES = g_eval_core.SCALES


def scale_of(variant: str, scale: tuple[int, int] | None) -> tuple[int, int]:
    """The score range of a G-Eval variant: ``scale`` when given, else 1–5 (paper) or 0–10 (DeepEval)."""
    if scale is None:
        return G_EVAL_SCALES[variant]
    pair = as_list("scale", scale, "two whole numbers (low, high)")
    expected = "two whole numbers (low, high) with 0 <= low < high <= 100"
    if len(pair) != 2:
        raise InputError("scale", expected, scale)
    low, high = (integer("scale", v, low=0, high=100, expected=expected) for v in pair)
    if low >= high:
        raise InputError("scale", expected, scale)
    return low, high


def score_probabilities(value: Any, low: int, high: int) -> dict[int, float]:
    """G-Eval's ``probabilities`` checked: score (in range) -> probability."""
    if not isinstance(value, Mapping):
        raise InputError("probabilities", "a dict mapping each score to its probability", value)
    out: dict[int, float] = {}
    for key, p in value.items():
        key = integer("probabilities", key, low=low, high=high, expected=f"scores from {low} to {high} as keys")
        out[key] = number(f"probabilities[{key}]", p, "a probability between 0 and 1", low=0.0, high=1.0)
    return out


def g_eval(variant: Any, scale: Any, threshold: Any, samples: Any, reply_score: Any, probabilities: Any
           ) -> tuple[str, int, int, dict[int, float] | None, list[int] | None, int | None, float | None]:
    """G-Eval's variant, scale (low, high), probabilities, samples, reply score and threshold: at least one of
    the probabilities, the samples and the reply's score."""
    variant = choice("variant", variant, G_EVAL_VARIANTS)
    low, high = scale_of(variant, scale)
    threshold = probability("threshold", threshold)
    if samples is not None:
        samples = [integer(f"samples[{i}]", s, low=low, high=high, expected=f"a whole score from {low} to {high}")
                   for i, s in enumerate(as_list("samples", samples, "a non-empty list of sampled scores"))]
    if reply_score is not None:
        reply_score = integer("reply_score", reply_score, low=low, high=high,
                              expected=f"a whole score from {low} to {high}, or None")
    probs = None if probabilities is None else score_probabilities(probabilities, low, high)
    if probs is None and samples is not None and not samples:
        raise InputError("samples", "a non-empty list of sampled scores", samples)
    if probs is None and samples is None and reply_score is None:
        raise InputError("probabilities", "the score tokens' probabilities, sampled scores or the reply's score", None)
    return variant, low, high, probs, samples, reply_score, threshold


def word_overlap(answer: Any, contexts: Any, threshold: Any) -> tuple[str, list[str], float | None]:
    """Word overlap's answer, contexts and threshold."""
    return (text("answer", answer), text_list("contexts", contexts),
            optional_number("threshold", threshold, "a number between 0 and 1, or None", low=0.0, high=1.0))


def statements_and_verdicts(field: str, statements: Any, verdicts: Any, allow_idk: bool = False,
                            verdicts_field: str = "verdicts") -> tuple[list[str], list[str]]:
    """A ratio metric's items (named ``field``: statements or claims) and one verdict per item (named
    ``verdicts_field``: a metric with two such lists names each, e.g. ``response_verdicts`` and
    ``reference_verdicts``, so an error says which list is wrong)."""
    items = text_list(field, statements)
    marks = verdict_list(verdicts_field, verdicts, allow_idk=allow_idk)
    same_length(field, items, verdicts_field, marks)
    return items, marks


def node_statements_and_verdicts(node_statements: Any, node_verdicts: Any, nodes: Any
                                 ) -> tuple[list[Any], list[list[str]], list[list[str]], list[str] | None]:
    """Contextual relevancy's per-node statements and verdicts (and the node texts, when given)."""
    node_statements = as_list("node_statements", node_statements, "a list with one list of statements per node")
    node_verdicts = as_list("node_verdicts", node_verdicts, "a list with one list of verdicts per node")
    same_length("node_statements", node_statements, "node_verdicts", node_verdicts)
    if nodes is not None:
        nodes = text_list("nodes", nodes)
        same_length("node_statements", node_statements, "nodes", nodes)
    items, marks = [], []
    for n, (stmts, verdicts) in enumerate(zip(node_statements, node_verdicts, strict=True)):
        items.append(text_list(f"node_statements[{n}]", stmts))
        marks.append(verdict_list(f"node_verdicts[{n}]", verdicts))
        same_length(f"node_statements[{n}]", items[-1], f"node_verdicts[{n}]", marks[-1])
    return node_statements, items, marks, nodes


def context_recall(variant: Any, statements: Any, verdicts: Any, nodes: Any, threshold: Any
                   ) -> tuple[str, list[str], list[str], list[int | None], float | None]:
    """Context recall's variant, statements, verdicts, each statement's node (or None) and threshold."""
    variant = choice("variant", variant, VARIANTS["context_recall"])
    items, marks = statements_and_verdicts("statements", statements, verdicts)
    return variant, items, marks, attribution(nodes, marks), probability("threshold", threshold)


def contextual_relevancy(variant: Any, node_statements: Any, node_verdicts: Any, nodes: Any, threshold: Any
                         ) -> tuple[str, list[Any], list[list[str]], list[list[str]], list[str] | None, float | None]:
    """Contextual relevancy's variant, per-node statements (as given and checked), verdicts, nodes, threshold."""
    variant = choice("variant", variant, VARIANTS["contextual_relevancy"])
    given, items, marks, nodes = node_statements_and_verdicts(node_statements, node_verdicts, nodes)
    return variant, given, items, marks, nodes, probability("threshold", threshold)


def faithfulness(variant: Any, penalize_ambiguous: Any, claims: Any, verdicts: Any, context: Any, threshold: Any
                 ) -> tuple[str, bool, list[str], list[str], list[str] | None, float | None]:
    """Faithfulness's variant, ``penalize_ambiguous``, claims, verdicts (idk allowed), context and threshold."""
    variant = choice("variant", variant, VARIANTS["faithfulness"])
    penalize_ambiguous = flag("penalize_ambiguous", penalize_ambiguous)
    items, marks = statements_and_verdicts("claims", claims, verdicts, allow_idk=True)
    if context is not None:
        context = text_list("context", context)
    return variant, penalize_ambiguous, items, marks, context, probability("threshold", threshold)
