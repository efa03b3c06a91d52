"""The explanation of the embedding metrics (semantic similarity, answer relevancy's embedding form): the
formula with the numbers, the narrative, the notes (which embedder, a clamped cosine, Ragas' variants).

The arithmetic is :mod:`ragmetrics_edu.cores.semantic_similarity`'s and
:mod:`ragmetrics_edu.cores.answer_relevancy_embedding`'s (the cosine is :mod:`ragmetrics_edu.cores.cosine`'s: a note
on a clamped cosine reads its unclamped value from the parts the step table keeps); nothing here computes a score.
"""

from __future__ import annotations

from typing import Any

from ..cores.answer_relevancy_embedding import COLUMNS as RELEVANCY_COLUMNS
from ..cores.cosine import clamp, cosine_of
from ..cores.semantic_similarity import COLUMNS as SIMILARITY_COLUMNS
from ..embeddings.embedders import HashingEmbedder, embedder_name
from ..results import MetricResult, fmt


def clamp_cosine(cos: float) -> tuple[float, str]:
    """Clamp a cosine into [-1, 1]; float rounding can give 1.0000000000000002.

    Returns the clamped value and a note saying what was clamped ("" when nothing was)."""
    if -1.0 <= cos <= 1.0:
        return cos, ""
    clamped = clamp(cos)
    return clamped, (f"Float rounding gave a cosine of {cos!r}, outside [-1, 1]; it is clamped to {clamped!r} "
                     "(a cosine cannot exceed 1 in magnitude).")


def stand_in_note(embedder: Any) -> list[str]:
    """Which embedder computed the vectors (the offline one is a teaching stand-in)."""
    if isinstance(embedder, HashingEmbedder):
        return [f"Embedder: {embedder.name}, the offline teaching stand-in; a neural embedder gives "
                "other (usually higher) similarities for paraphrases."]
    return [f"Embedder: {embedder_name(embedder)}."]


def similarity_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], embedder: Any, answer: str,
                      ground_truth: str, threshold: float | None) -> MetricResult:
    """Semantic similarity's result."""
    cos, dot, na, ng = values["cosine"], values["dot"], values["norm_answer"], values["norm_ground_truth"]
    clamp_note = clamp_cosine(cosine_of(dot, na, ng))[1]
    notes = stand_in_note(embedder) + ([clamp_note] if clamp_note else [])
    formula = rf"\frac{{{fmt(dot)}}}{{{fmt(na)} \times {fmt(ng)}}} = {fmt(cos)}"
    if threshold is not None:
        rows.append({"quantity": f"cosine >= {fmt(threshold)}", "value": score})
        formula += rf" \;\Rightarrow\; [{fmt(cos)} \ge {fmt(threshold)}] = {fmt(score)}"
        notes.insert(0, "With a threshold Ragas turns the similarity into 0 or 1.")
        if threshold == 0:
            notes.insert(1, f"Threshold 0 binarises here (score {fmt(score)}); both Ragas APIs test "
                            f"`if self.threshold:`, which is false for 0, so Ragas returns the raw cosine {fmt(cos)}.")
    return MetricResult(
        metric="semantic_similarity", variant="ragas", score=score, columns=SIMILARITY_COLUMNS, rows=rows,
        values=values,
        formula=formula, formula_general=r"\cos(a, g) = \frac{E_a \cdot E_g}{\lVert E_a\rVert\,\lVert E_g\rVert}",
        narrative=["Embed the answer and the ground truth with the same embedder.",
                   f"Dot product {fmt(dot)}; norms {fmt(na)} and {fmt(ng)}.",
                   f"Cosine = {fmt(dot)} / ({fmt(na)} × {fmt(ng)}) = {fmt(cos)}."],
        notes=notes, threshold=threshold,
        inputs={"answer": answer, "ground_truth": ground_truth, "embedder": embedder_name(embedder)},
    )


def relevancy_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], embedder: Any, question: str,
                     generated: list[str], flags: list[bool], threshold: float | None, variant: str) -> MetricResult:
    """Answer relevancy's (embedding form) result."""
    notes = stand_in_note(embedder)
    for row in rows:
        clamp_note = clamp_cosine(cosine_of(row["dot"], row["norm_question"], row["norm_generated"]))[1]
        if clamp_note:
            notes.append(f"Generated question {row['i']}: " + clamp_note)
    mean, all_noncommittal = values["mean_cosine"], values["all_noncommittal"]
    if not rows:
        notes.insert(0, "No generated questions: the legacy ragas.metrics API returns NaN, ragas.metrics.collections "
                        f"returns 0.0; this is variant {variant!r}.")
    elif all_noncommittal:
        notes.insert(0, "Every generation flagged the answer noncommittal, so Ragas sets the score to 0.")
    elif any(flags):
        notes.insert(0, "Some but not all generations flagged the answer noncommittal; Ragas 0.4 zeroes "
                        "the score only when all of them do, so the mean stands.")
    cos_list = " + ".join(fmt(r["cosine"]) for r in rows)
    formula = (rf"\frac{{1}}{{{len(rows)}}}\left({cos_list}\right) = {fmt(mean)}" if rows
               else r"\text{no questions} \Rightarrow \mathrm{NaN}")
    if all_noncommittal:
        formula += r" \;\times 0 \text{ (noncommittal)} = 0"
    return MetricResult(
        metric="answer_relevancy_embedding", variant="ragas" if variant == "ragas_legacy" else variant, score=score,
        columns=RELEVANCY_COLUMNS, rows=rows, values=values,
        formula=formula,
        formula_general=r"\frac{1}{N}\sum_{i=1}^{N}\cos(E_{g_i}, E_o) \times (1 - \text{noncommittal})",
        narrative=[f"A judge wrote {len(rows)} questions that the answer would answer.",
                   "Embed the real question and each generated one; cosine = dot / (|q| |g|).",
                   "Average the cosines; the score is 0 only if every generation flagged the answer noncommittal."],
        notes=notes, threshold=threshold,
        inputs={"question": question, "generated_questions": generated, "embedder": embedder_name(embedder)},
    )
