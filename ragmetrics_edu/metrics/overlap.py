"""Word overlap as a faithfulness score: the share of the answer's content words found in the contexts.

No model, no call: the answer and the contexts are reduced to content words (:func:`ragmetrics_edu.text.tokenize`:
lower-cased, stop words dropped, plurals lightly stemmed) and the score is |answer ∩ contexts| / |answer|.
It is the baseline every judged faithfulness design must beat, and on the course's two labelled sets
(HaluEval QA and RAGTruth QA) the design the evidence chose (see notebook 14). An answer with no content
words scores 0 (nothing to check), and the result says so.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import computed_by
from ..cores import word_overlap as core
from ..errors import InputError
from ..results import MetricResult
from ..text import tokenize
from ..validate import as_list
from . import checks
from .overlap_explained import overlap_result
from .scored import Scored

__all__ = ["word_overlap", "word_overlap_batch", "shared_words"]


def shared_words(item: str, against: str) -> tuple[set[str], set[str]]:
    """``item``'s content words, and those of them found in ``against``."""
    words = set(tokenize(item))
    return words, words & set(tokenize(against))


@computed_by("word_overlap")
def word_overlap(answer: str, contexts: Sequence[str], *, threshold: float | None = None) -> MetricResult:
    """The share of ``answer``'s content words found anywhere in ``contexts``, with each word's row."""
    answer_text, nodes, threshold = checks.word_overlap(answer, contexts, threshold)
    score, rows, values = core.word_overlap(set(tokenize(answer_text)), set(tokenize("\n".join(nodes))))
    return overlap_result(score, rows, values, answer_text, nodes, threshold)


@computed_by("word_overlap")
def word_overlap_batch(answers: Sequence[Any], contexts: Sequence[Any]) -> list[Scored | None]:
    """Many cases' word overlap at once (``answers[i]`` against ``contexts[i]``): for each, the score and values
    :func:`word_overlap` gives, from the same core (:mod:`ragmetrics_edu.cores.word_overlap`), without checking
    each case's fields one by one or building its result (evaluate()'s fast path; tests/library/test_batch_scores.py
    checks the two agree).

    A case whose answer is not text or whose contexts are not a list of texts is None: :func:`word_overlap` on it
    says what is wrong. The words of a text met before (a passage shared by many rows) are not counted again
    (:func:`ragmetrics_edu.text.tokenize` keeps them)."""
    answers = as_list("answers", answers, "a list of answers, one per case")
    contexts = as_list("contexts", contexts, "a list with one list of contexts per case")
    if len(answers) != len(contexts):
        raise InputError("contexts", f"one list of contexts per answer ({len(answers)})", f"{len(contexts)} lists")
    out: list[Scored | None] = []
    for answer, nodes in zip(answers, contexts, strict=True):
        if not (isinstance(answer, str) and isinstance(nodes, list) and all(isinstance(n, str) for n in nodes)):
            out.append(None)
            continue
        score, _, values = core.word_overlap(set(tokenize(answer)), set(tokenize("\n".join(nodes))))
        out.append(Scored(score, values, "word_overlap"))  # the core's step table is not kept
    return out
