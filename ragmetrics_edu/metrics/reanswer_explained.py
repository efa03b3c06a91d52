"""The explanation of faithfulness by re-answering: its formula with the numbers, its narrative, its notes.

The arithmetic is :mod:`ragmetrics_edu.cores.faithfulness_overlap_reanswer`'s; nothing here computes the score."""

from __future__ import annotations

from typing import Any, Sequence

from ..cores.faithfulness_overlap_reanswer import COLUMNS
from ..results import MetricResult, fmt


def reanswer_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], candidate: str,
                    judge_answer: str, context: Sequence[str], compare: str, threshold: float | None) -> MetricResult:
    """The re-answer design's result (``values["judge_answer"]`` first, as it always was)."""
    weight, agree, ground, answered = (values["grounding_weight"], values["agreement"], values["grounding"],
                                       values["answered"])
    candidate_words = sorted(row["word"] for row in rows if row["in_answer"])
    notes: list[str] = []
    if not candidate_words:
        notes.append("The answer has no content words: nothing can be checked, so it scores 0.")
    elif not answered and weight == 0:
        notes.append("The judge found no answer in the context and grounding_weight is 0: the score is NaN.")
    if not answered:
        notes.append(f"The judge replied {judge_answer!r}: the context does not answer the question, so "
                     "agreement is left out" + (" and the score is the grounding alone." if weight > 0 else "."))
    formula = (rf"\text{{score}} = {fmt(weight)} \cdot {fmt(ground)} + {fmt(1 - weight)} \cdot {fmt(agree)} = {fmt(score)}"
               if answered and candidate_words else "")
    narrative = [f"The judge answered the question from the context: {judge_answer!r}.",
                 f"Content words of the answer: {', '.join(candidate_words) or '(none)'}."]
    if answered:
        narrative.append(f"Agreement ({compare}) of the answer's words with the judge's answer: {fmt(agree)}.")
    narrative.append(f"Grounding: {fmt(ground)} of the answer's content words occur in the context.")
    narrative.append(f"Score = {fmt(weight)} x grounding + {fmt(1 - weight)} x agreement = {fmt(score)}.")
    return MetricResult(
        metric="faithfulness_reanswer", score=score, variant=f"{compare}, grounding_weight {fmt(weight)}",
        columns=COLUMNS, rows=rows, values={"judge_answer": judge_answer, **values},
        formula=formula,
        formula_general=r"\text{score} = w \cdot \text{grounding} + (1 - w) \cdot \text{agreement}",
        narrative=narrative, notes=notes, threshold=threshold,
        inputs={"answer": candidate, "context": list(context), "compare": compare, "grounding_weight": weight})
