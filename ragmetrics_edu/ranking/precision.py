"""The per-k precision terms behind average precision and context precision.

For a ranked list with relevance r_k (1 relevant, 0 not), walk down the ranking: at each k the
precision of the first k items times r_k is a term; the score is the sum of the terms over a
denominator D. Classic average precision divides by every relevant document in the corpus
(``total_relevant``); context precision's variants (:mod:`ragmetrics_edu.metrics.context_precision`)
divide by the relevant items retrieved (DeepEval) or that plus 1e-10 (Ragas). One walk, three
denominators: :func:`per_k_precision` builds the result for each.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import InputError
from ..results import MetricResult, fmt
from ..validate import YES, count, verdict_list

VARIANTS = ("deepeval", "ragas", "average_precision")
RAGAS_EPSILON = 1e-10
GENERAL = {
    "deepeval": r"\frac{1}{R}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
    "ragas": r"\frac{1}{R + 10^{-10}}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
    "average_precision": r"\frac{1}{R_{\mathrm{total}}}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
}


def relevance_flags(relevance: Sequence[Any], field: str = "relevance") -> list[int]:
    """Relevance verdicts (yes/no, 0/1, bools) as 1/0 flags, checked."""
    return [1 if v == YES else 0 for v in verdict_list(field, relevance)]


def per_k_precision(flags: list[int], variant: str, *, texts: list[str] | None = None,
                    total_relevant: int | None = None, threshold: float | None = None,
                    question: str | None = None) -> MetricResult:
    """The per-k terms of ``flags`` (checked 1/0) summed over the ``variant``'s denominator, as a
    ``context_precision`` result with every step (``variant`` one of :data:`VARIANTS`)."""
    rows: list[dict[str, Any]] = []
    relevant_so_far = 0
    total = 0.0
    for k, r in enumerate(flags, start=1):
        relevant_so_far += r
        p_at_k = relevant_so_far / k
        term = p_at_k * r
        total += term
        row: dict[str, Any] = {"k": k}
        if texts is not None:
            row["node"] = texts[k - 1]
        row.update(relevant=r, relevant_so_far=relevant_so_far, precision_at_k=p_at_k, term=term)
        rows.append(row)

    relevant = relevant_so_far
    notes: list[str] = []
    denominator: float
    if variant == "average_precision":
        if total_relevant is None:
            total_relevant = relevant
            notes.append("total_relevant not given: assumed every relevant document was retrieved, "
                         f"so R_total = {relevant} and the score equals the DeepEval variant.")
        total_relevant = count("total_relevant", total_relevant)
        if total_relevant < relevant:
            raise InputError("total_relevant", f"at least the {relevant} relevant nodes retrieved", total_relevant)
        denominator = float(total_relevant)
    elif variant == "ragas":
        denominator = relevant + RAGAS_EPSILON
    else:
        denominator = float(relevant)

    if not flags:
        score = 0.0
        notes.append("No nodes were retrieved: the score is defined as 0. DeepEval returns 0 and legacy "
                     "ragas.metrics gives 0 / 1e-10 = 0; ragas.metrics.collections raises instead "
                     "(ContextPrecision.ascore: 'retrieved_contexts cannot be empty').")
    elif denominator == 0 or relevant == 0:
        score = 0.0
        notes.append("No retrieved node is relevant: "
                     + ("DeepEval returns 0 rather than dividing by zero." if variant == "deepeval"
                        else "the sum is 0, so the score is 0."))
    else:
        score = total / denominator
    if variant == "ragas" and relevant:
        notes.append("Ragas adds 1e-10 to the denominator, so the score is a hair below the exact "
                     f"fraction: {total / relevant!r} without it, {score!r} with it.")

    d_tex = {"deepeval": str(relevant), "ragas": f"{relevant} + 10^{{-10}}",
             "average_precision": str(denominator if variant != "average_precision" else total_relevant)}[variant]
    terms = " + ".join(rf"\frac{{{row['relevant_so_far']}}}{{{row['k']}}}\cdot {row['relevant']}" for row in rows) or "0"
    formula = rf"\frac{{1}}{{{d_tex}}}\left({terms}\right) = \frac{{{fmt(total)}}}{{{d_tex}}} = {fmt(score)}"

    narrative = [
        f"Mark each of the {len(flags)} retrieved nodes relevant (1) or not (0): {flags}.",
        "Walk down the ranking; at each position k count the relevant nodes so far and divide by k "
        "(precision@k); the term at k is that precision times r_k, so only relevant positions add.",
        "Terms: " + ", ".join(fmt(r["term"]) for r in rows) + f"; their sum is {fmt(total)}.",
        {"deepeval": f"Divide by the number of relevant nodes retrieved, R = {relevant}.",
         "ragas": f"Divide by the number of relevant nodes retrieved plus 1e-10, R = {relevant}.",
         "average_precision": f"Divide by every relevant document in the corpus, R_total = {d_tex}."}[variant],
    ]
    return MetricResult(
        metric="context_precision", variant=variant, score=score,
        columns=tuple(rows[0].keys()) if rows else ("k", "relevant", "relevant_so_far", "precision_at_k", "term"),
        rows=rows,
        values={"relevant_count": relevant, "sum_of_terms": total, "denominator": denominator, "n": len(flags)},
        formula=formula, formula_general=GENERAL[variant], narrative=narrative, notes=notes,
        threshold=threshold, inputs={"verdicts": flags, "nodes": texts, "question": question},
    )


def average_precision(relevance: Sequence[Any], total_relevant: int | None = None) -> MetricResult:
    """Classic average precision: the per-k terms of context precision over ``total_relevant``."""
    result = per_k_precision(relevance_flags(relevance), "average_precision", total_relevant=total_relevant)
    result.metric, result.variant = "average_precision", None
    return result


__all__ = ["GENERAL", "RAGAS_EPSILON", "VARIANTS", "average_precision", "per_k_precision", "relevance_flags"]
