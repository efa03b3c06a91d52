"""The explanation of a context precision (or average precision) result: its formula with the numbers,
its narrative and its notes. The arithmetic is :mod:`ragmetrics_edu.cores.context_precision`'s; nothing
here computes the score."""

from __future__ import annotations

from typing import Any

from ..cores.context_precision import COLUMNS
from ..results import MetricResult, fmt

GENERAL = {
    "deepeval": r"\frac{1}{R}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
    "ragas": r"\frac{1}{R + 10^{-10}}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
    "average_precision": r"\frac{1}{R_{\mathrm{total}}}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
}


def precision_notes(variant: str, flags: list[int], relevant: int, total: float, score: float) -> list[str]:
    """What the result notes about empty lists, no relevant node and Ragas' 1e-10."""
    notes = []
    if not flags:
        notes.append("No nodes were retrieved: the score is defined as 0. DeepEval returns 0 and legacy "
                     "ragas.metrics gives 0 / 1e-10 = 0; ragas.metrics.collections raises instead "
                     "(ContextPrecision.ascore: 'retrieved_contexts cannot be empty').")
    elif relevant == 0:
        notes.append("No retrieved node is relevant: "
                     + ("DeepEval returns 0 rather than dividing by zero." if variant == "deepeval"
                        else "the sum is 0, so the score is 0."))
    if variant == "ragas" and relevant:
        notes.append("Ragas adds 1e-10 to the denominator, so the score is a hair below the exact "
                     f"fraction: {total / relevant!r} without it, {score!r} with it.")
    return notes


def _denominator_tex(variant: str, relevant: int, denominator: float, total_relevant: int | None) -> str:
    return {"deepeval": str(relevant), "ragas": f"{relevant} + 10^{{-10}}",
            "average_precision": str(denominator if variant != "average_precision" else total_relevant)}[variant]


def precision_formula(variant: str, rows: list[dict[str, Any]], relevant: int, denominator: float,
                      total_relevant: int | None, total: float, score: float) -> str:
    """The formula with every term written out."""
    d_tex = _denominator_tex(variant, relevant, denominator, total_relevant)
    terms = " + ".join(rf"\frac{{{row['relevant_so_far']}}}{{{row['k']}}}\cdot {row['relevant']}" for row in rows) or "0"
    return rf"\frac{{1}}{{{d_tex}}}\left({terms}\right) = \frac{{{fmt(total)}}}{{{d_tex}}} = {fmt(score)}"


def precision_narrative(variant: str, flags: list[int], rows: list[dict[str, Any]], relevant: int, total: float,
                        denominator: float, total_relevant: int | None) -> list[str]:
    """The steps in words."""
    d_tex = _denominator_tex(variant, relevant, denominator, total_relevant)
    return [
        f"Mark each of the {len(flags)} retrieved nodes relevant (1) or not (0): {flags}.",
        "Walk down the ranking; at each position k count the relevant nodes so far and divide by k "
        "(precision@k); the term at k is that precision times r_k, so only relevant positions add.",
        "Terms: " + ", ".join(fmt(r["term"]) for r in rows) + f"; their sum is {fmt(total)}.",
        {"deepeval": f"Divide by the number of relevant nodes retrieved, R = {relevant}.",
         "ragas": f"Divide by the number of relevant nodes retrieved plus 1e-10, R = {relevant}.",
         "average_precision": f"Divide by every relevant document in the corpus, R_total = {d_tex}."}[variant],
    ]


def precision_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], variant: str,
                     flags: list[int], texts: list[str] | None, total_relevant: int | None, threshold: float | None,
                     question: str | None) -> MetricResult:
    """A context precision (or average precision) result with every step; the node texts, when given,
    join the step table beside k."""
    relevant, total, denominator = values["relevant_count"], values["sum_of_terms"], values["denominator"]
    notes: list[str] = []
    if variant == "average_precision" and total_relevant is None:
        total_relevant = relevant
        notes.append("total_relevant not given: assumed every relevant document was retrieved, "
                     f"so R_total = {relevant} and the score equals the DeepEval variant.")
    if texts is not None:
        rows = [{"k": row["k"], "node": text, **row} for row, text in zip(rows, texts, strict=True)]
    notes += precision_notes(variant, flags, relevant, total, score)
    return MetricResult(
        metric="context_precision", variant=variant, score=score,
        columns=tuple(rows[0].keys()) if rows else COLUMNS, rows=rows, values=values,
        formula=precision_formula(variant, rows, relevant, denominator, total_relevant, total, score),
        formula_general=GENERAL[variant],
        narrative=precision_narrative(variant, flags, rows, relevant, total, denominator, total_relevant),
        notes=notes, threshold=threshold, inputs={"verdicts": flags, "nodes": texts, "question": question},
    )
