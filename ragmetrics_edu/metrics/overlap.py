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
from ..results import MetricResult, fmt
from ..text import tokenize
from ..validate import optional_number, text, text_list

__all__ = ["word_overlap", "shared_words"]


def shared_words(item: str, against: str) -> tuple[set[str], set[str]]:
    """``item``'s content words, and those of them found in ``against``."""
    words = set(tokenize(item))
    return words, words & set(tokenize(against))


@computed_by("word_overlap")
def word_overlap(answer: str, contexts: Sequence[str], *, threshold: float | None = None) -> MetricResult:
    """The share of ``answer``'s content words found anywhere in ``contexts``, with each word's row."""
    answer_text = text("answer", answer)
    nodes = text_list("contexts", contexts)
    threshold = optional_number("threshold", threshold, "a number between 0 and 1, or None", low=0.0, high=1.0)

    score, rows, values = core.word_overlap(set(tokenize(answer_text)), set(tokenize("\n".join(nodes))))

    words, found = values["answer_words"], values["found"]
    notes = [] if words else ["The answer has no content words: nothing can be checked, so it scores 0."]
    return MetricResult(
        metric="word_overlap", score=score, variant=None, columns=core.COLUMNS, rows=rows, values=values,
        formula=rf"\frac{{{found}}}{{{words}}} = {fmt(score)}" if words else "",
        formula_general=r"\frac{|\text{answer words} \cap \text{context words}|}{|\text{answer words}|}",
        narrative=[f"The answer has {words} content words; {found} of them occur in the contexts.",
                   f"Word overlap = {found} / {max(words, 1)} = {fmt(score)}."],
        notes=notes, threshold=threshold, inputs={"answer": answer_text, "contexts": nodes})
