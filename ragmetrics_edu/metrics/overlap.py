"""Word overlap as a faithfulness score: the share of the answer's content words found in the contexts.

No model, no call: the answer and the contexts are reduced to content words (:func:`ragmetrics_edu.text.tokenize`:
lower-cased, stop words dropped, plurals lightly stemmed) and the score is |answer ∩ contexts| / |answer|.
It is the baseline every judged faithfulness design must beat, and on the course's two labelled sets
(HaluEval QA and RAGTruth QA) the design the evidence chose (see notebook 14). An answer with no content
words scores 0 (nothing to check), and the result says so.
"""

from __future__ import annotations

from typing import Sequence

from ..cores import computed_by
from ..cores import word_overlap as core
from ..results import MetricResult
from ..text import tokenize
from . import checks
from .overlap_explained import overlap_result

__all__ = ["word_overlap", "shared_words"]


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
