"""Embedding-based metrics: answer relevancy (Ragas' generated-question form) and
answer semantic similarity. Both keep the cosine's parts (dot product and norms).

The numbers depend on the embedder: with the offline hashing embedder they are a
teaching stand-in, not what a neural model gives (see ``ragmetrics_edu.embeddings``).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import answer_relevancy_embedding as relevancy_core
from ..cores import computed_by
from ..cores import semantic_similarity as similarity_core
from ..cores.cosine import clamp
from ..embeddings.embedders import HashingEmbedder, embedder_name, resolve
from ..errors import InputError
from ..results import MetricResult, fmt
from ..validate import as_list, choice, is_list, plain, probability, text, text_list

VARIANTS = ("ragas", "ragas_legacy", "ragas_collections")


def clamp_cosine(cos: float) -> tuple[float, str]:
    """Clamp a cosine into [-1, 1]; float rounding can give 1.0000000000000002.

    Returns the clamped value and a note saying what was clamped ("" when nothing was)."""
    if -1.0 <= cos <= 1.0:
        return cos, ""
    clamped = clamp(cos)
    return clamped, (f"Float rounding gave a cosine of {cos!r}, outside [-1, 1]; it is clamped to {clamped!r} "
                     "(a cosine cannot exceed 1 in magnitude).")


def _stand_in_note(embedder: Any) -> list[str]:
    if isinstance(embedder, HashingEmbedder):
        return [f"Embedder: {embedder.name}, the offline teaching stand-in; a neural embedder gives "
                "other (usually higher) similarities for paraphrases."]
    return [f"Embedder: {embedder_name(embedder)}."]


#: The most generated questions one call embeds (each is embedded and compared: the work grows with them).
MAX_GENERATED = 100


@computed_by("answer_relevancy_embedding")
def answer_relevancy_embedding(
    question: str,
    generated_questions: Sequence[str],
    embedder: Any = None,
    noncommittal: bool | Sequence[bool] = False,
    *,
    threshold: float | None = None,
    variant: str = "ragas",
) -> MetricResult:
    """Ragas 0.4 answer relevancy: mean cosine of N questions generated from the answer
    to the real question, set to 0 when every generation flagged the answer noncommittal.

    ``noncommittal``: one flag for all generations, or one per generated question.
    No generated questions: NaN with ``variant="ragas"`` (also ``"ragas_legacy"``), as the legacy
    ``ragas/metrics/_answer_relevance.py``, ``ResponseRelevancy._calculate_score``; 0.0 with
    ``"ragas_collections"``, as ``ragas/metrics/collections/answer_relevancy/metric.py``,
    ``AnswerRelevancy.ascore``. Each cosine is only clamped to [-1, 1] against float rounding.
    """
    variant = choice("variant", variant, VARIANTS)
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
    elif isinstance(noncommittal, Sequence) and not isinstance(noncommittal, str) and all(isinstance(f, bool) for f in noncommittal):
        flags = list(noncommittal)
        if len(flags) != len(generated):
            raise InputError("noncommittal", f"one flag per generated question ({len(generated)})", flags)
    else:
        raise InputError("noncommittal", "True/False or a list of bools, one per generated question", noncommittal)
    threshold = probability("threshold", threshold)
    emb = resolve(embedder)
    vectors = emb.embed([question] + generated) if generated else [[]]

    score, rows, values = relevancy_core.answer_relevancy_embedding(vectors[0], vectors[1:], generated, flags, variant)

    notes = _stand_in_note(emb)
    for row in rows:
        clamp_note = clamp_cosine(row.pop("raw"))[1]
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
    formula = (rf"\frac{{1}}{{{len(rows)}}}\left({cos_list}\right) = {fmt(mean)}" if rows else r"\text{no questions} \Rightarrow \mathrm{NaN}")
    if all_noncommittal:
        formula += r" \;\times 0 \text{ (noncommittal)} = 0"
    return MetricResult(
        metric="answer_relevancy_embedding", variant="ragas" if variant == "ragas_legacy" else variant, score=score,
        columns=relevancy_core.COLUMNS, rows=rows, values=values,
        formula=formula,
        formula_general=r"\frac{1}{N}\sum_{i=1}^{N}\cos(E_{g_i}, E_o) \times (1 - \text{noncommittal})",
        narrative=[f"A judge wrote {len(rows)} questions that the answer would answer.",
                   "Embed the real question and each generated one; cosine = dot / (|q| |g|).",
                   "Average the cosines; the score is 0 only if every generation flagged the answer noncommittal."],
        notes=notes, threshold=threshold,
        inputs={"question": question, "generated_questions": generated, "embedder": embedder_name(emb)},
    )


@computed_by("semantic_similarity")
def semantic_similarity(
    answer: str, ground_truth: str, embedder: Any = None, *, threshold: float | None = None
) -> MetricResult:
    """Cosine similarity of the answer's and the ground truth's embeddings (a bi-encoder).

    With ``threshold`` the score becomes 1.0 when the cosine reaches it and 0.0 otherwise,
    as Ragas does; the cosine itself stays in ``values`` and the step table. A threshold of 0
    binarises here too, whereas both Ragas APIs test ``if self.threshold:`` and so return the
    raw cosine (``ragas/metrics/_answer_similarity.py``, ``AnswerSimilarity._ascore``;
    ``ragas/metrics/collections/_semantic_similarity.py``, ``SemanticSimilarity.ascore``).
    The cosine is clamped to [-1, 1] against float rounding (a note says when).
    """
    answer = text("answer", answer)
    ground_truth = text("ground_truth", ground_truth)
    threshold = probability("threshold", threshold)
    emb = resolve(embedder)
    E_a, E_g = emb.embed([answer, ground_truth])

    score, rows, values = similarity_core.semantic_similarity(E_a, E_g, threshold)

    raw, cos, dot, na, ng = values.pop("raw"), values["cosine"], values["dot"], values["norm_answer"], \
        values["norm_ground_truth"]
    clamp_note = clamp_cosine(raw)[1]
    notes = _stand_in_note(emb) + ([clamp_note] if clamp_note else [])
    formula = rf"\frac{{{fmt(dot)}}}{{{fmt(na)} \times {fmt(ng)}}} = {fmt(cos)}"
    if threshold is not None:
        rows.append({"quantity": f"cosine >= {fmt(threshold)}", "value": score})
        formula += rf" \;\Rightarrow\; [{fmt(cos)} \ge {fmt(threshold)}] = {fmt(score)}"
        notes.insert(0, "With a threshold Ragas turns the similarity into 0 or 1.")
        if threshold == 0:
            notes.insert(1, f"Threshold 0 binarises here (score {fmt(score)}); both Ragas APIs test "
                            f"`if self.threshold:`, which is false for 0, so Ragas returns the raw cosine {fmt(cos)}.")
    return MetricResult(
        metric="semantic_similarity", variant="ragas", score=score, columns=similarity_core.COLUMNS, rows=rows,
        values=values,
        formula=formula, formula_general=r"\cos(a, g) = \frac{E_a \cdot E_g}{\lVert E_a\rVert\,\lVert E_g\rVert}",
        narrative=["Embed the answer and the ground truth with the same embedder.",
                   f"Dot product {fmt(dot)}; norms {fmt(na)} and {fmt(ng)}.",
                   f"Cosine = {fmt(dot)} / ({fmt(na)} × {fmt(ng)}) = {fmt(cos)}."],
        notes=notes, threshold=threshold,
        inputs={"answer": answer, "ground_truth": ground_truth, "embedder": embedder_name(emb)},
    )
