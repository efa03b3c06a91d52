"""The explanation of a word overlap result: its formula with the numbers, its narrative, its note.

The arithmetic is :mod:`ragmetrics_edu.cores.word_overlap`'s; nothing here computes the score."""

from __future__ import annotations

from typing import Any

from ..cores.word_overlap import COLUMNS
from ..results import MetricResult, fmt


def overlap_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], answer: str, contexts: list[str],
                   threshold: float | None) -> MetricResult:
    """Word overlap's result."""
    words, found = values["answer_words"], values["found"]
    notes = [] if words else ["The answer has no content words: nothing can be checked, so it scores 0."]
    return MetricResult(
        metric="word_overlap", score=score, variant=None, columns=COLUMNS, rows=rows, values=values,
        formula=rf"\frac{{{found}}}{{{words}}} = {fmt(score)}" if words else "",
        formula_general=r"\frac{|\text{answer words} \cap \text{context words}|}{|\text{answer words}|}",
        narrative=[f"The answer has {words} content word{'' if words == 1 else 's'}; {found} of them occur in the contexts.",
                   f"Word overlap = {found} / {max(words, 1)} = {fmt(score)}."],
        notes=notes, threshold=threshold, inputs={"answer": answer, "contexts": contexts})
