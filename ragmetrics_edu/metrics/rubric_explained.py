"""The explanation of a G-Eval result (where its weights came from, its formula with the numbers, its narrative)
and of an aspect critic's.

The arithmetic is :mod:`ragmetrics_edu.cores.g_eval`'s and :mod:`ragmetrics_edu.cores.aspect_critic`'s; nothing
here computes the score."""

from __future__ import annotations

from typing import Any

from ..cores.aspect_critic import COLUMNS as ASPECT_COLUMNS
from ..cores.g_eval import COLUMNS as G_EVAL_COLUMNS
from ..results import MetricResult, fmt

G_EVAL_GENERAL = r"\text{score} = \frac{\sum_s p(s)\, s - \text{low}}{\text{high} - \text{low}}"


def g_eval_source(variant: str, probs: dict[int, float] | None, samples: list[int] | None,
                  rows: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """Where the weights came from (``values["weights_from"]``) and what the result notes about it."""
    notes: list[str] = []
    if probs is not None:
        low = rows[0]["score"]
        kept = [s for s in probs if rows[s - low]["kept"]]  # in the order given, as the core summed them
        total = sum(probs[s] for s in kept)
        if variant == "deepeval" and len(kept) < len([p for p in probs.values() if p > 0]):
            notes.append("DeepEval's rule: scores under 1 % probability were dropped before renormalising.")
        if total < 0.5:
            notes.append(f"The scores in range hold only {fmt(total)} of the probability at the score's position; "
                         "the rest went to other tokens.")
        return "probabilities", notes
    if samples is not None:
        notes.append(f"No token probabilities: the expectation is estimated from {len(samples)} sampled scores, "
                     "as the G-Eval paper does.")
        return f"the mean of {len(samples)} sampled scores", notes
    notes.append("No token probabilities and no samples: the score is the reply's own, unweighted (DeepEval "
                 "falls back the same way without saying so).")
    return "the reply's own score", notes


def g_eval_formula(rows: list[dict[str, Any]], values: dict[str, Any], score: float) -> str:
    """The weighted sum and the rescaling, with the numbers."""
    weighted, low, high = values["weighted"], values["low"], values["high"]
    return (r"\text{weighted} = " + " + ".join(f"{fmt(r['share'])} \\cdot {r['score']}" for r in rows if r["share"])
            + f" = {fmt(weighted)};\\quad \\text{{score}} = \\frac{{{fmt(weighted)} - {low}}}{{{high} - {low}}} = {fmt(score)}")


def g_eval_narrative(source: str, values: dict[str, Any], reply_score: int | None, score: float) -> list[str]:
    """The steps in words."""
    weighted, low, high = values["weighted"], values["low"], values["high"]
    return [f"Scale {low} to {high}; weights from {source}.",
            f"Weighted score: {fmt(weighted)} (the most likely score is {values['most_likely']}"
            + (f"; the reply wrote {reply_score}" if reply_score is not None else "") + ").",
            f"Score on [0, 1]: ({fmt(weighted)} - {low}) / ({high} - {low}) = {fmt(score)}."]


def aspect_critic_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any],
                         threshold: float | None) -> MetricResult:
    """An aspect critic's result: the majority, in words and with the counts."""
    yes, n, aspect = values["yes"], values["votes"], values["aspect"]
    return MetricResult(
        metric="aspect_critic", score=score, variant="ragas", columns=ASPECT_COLUMNS, rows=rows, values=values,
        formula=rf"\text{{score}} = [\,{yes} > {n}/2\,] = {fmt(score)}",
        formula_general=r"\text{score} = [\,\#\text{yes} > n/2\,]",
        narrative=[f"Aspect: {aspect!r}." if aspect else "Aspect: (not given).",
                   f"{yes} of {n} votes say yes (share {fmt(values['yes_share'])}); the majority decides: {fmt(score)}."],
        notes=[], threshold=threshold, inputs={"votes": [row["verdict"] for row in rows], "aspect": aspect})


def g_eval_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], variant: str,
                  probs: dict[int, float] | None, samples: list[int] | None, reply_score: int | None,
                  threshold: float | None, probabilities: Any) -> MetricResult:
    """G-Eval's result (``probabilities``: as the caller gave them, kept in the inputs)."""
    low, high = values["low"], values["high"]
    source, notes = g_eval_source(variant, probs, samples, rows)
    return MetricResult(
        metric="g_eval", score=score, variant=variant, columns=G_EVAL_COLUMNS, rows=rows,
        values={"weighted": values["weighted"], "most_likely": values["most_likely"], "reply_score": reply_score,
                "low": low, "high": high, "weights_from": source},
        formula=g_eval_formula(rows, values, score), formula_general=G_EVAL_GENERAL,
        narrative=g_eval_narrative(source, values, reply_score, score), notes=notes, threshold=threshold,
        inputs={"probabilities": None if probabilities is None else dict(probabilities),
                "samples": None if samples is None else list(samples), "variant": variant, "scale": [low, high]})
