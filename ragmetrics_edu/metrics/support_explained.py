"""The explanation of support per sentence and of quote-then-verify: formula with the numbers, narrative, notes.

The arithmetic is :mod:`ragmetrics_edu.cores.faithfulness_support`'s and :mod:`ragmetrics_edu.cores.faithfulness_quote`'s
(the sentences a score aggregates are the core's ``counted``); nothing here computes the score."""

from __future__ import annotations

from typing import Any

from ..cores.faithfulness_quote import COLUMNS as QUOTE_COLUMNS
from ..cores.faithfulness_quote import QUOTE_MATCH
from ..cores.faithfulness_support import COLUMNS, counted
from ..results import MetricResult, fmt

WHAT = {"min": "the least supported sentence", "mean": "the mean support",
        "min_claims": "the least supported sentence that makes a claim"}


def support_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], answer: str,
                   places: list[tuple[int, int]]) -> MetricResult:
    """Support per sentence's result."""
    aggregate, threshold, spans = values["aggregate"], values["threshold_sentence"], values["spans"]
    kept = counted(rows, aggregate)
    notes: list[str] = []
    if not rows:
        notes.append("The answer has no sentence: nothing is claimed, so it scores 1.0.")
    elif not kept:
        notes.append("Every sentence says the passages do not give the answer: nothing is claimed, so it scores 1.0.")
    narrative = [f"The answer has {len(rows)} sentence(s); the judge's p(yes) for each: "
                 + ", ".join(fmt(r["p_yes"]) for r in rows) + ".",
                 f"{len(spans)} sentence(s) fall below {fmt(threshold)} and are reported as spans.",
                 f"Score = {WHAT[aggregate]} = {fmt(score)}."]
    op = r"\operatorname{mean}" if aggregate == "mean" else r"\min"
    formula = rf"\text{{score}} = {op}({', '.join(fmt(p) for p in kept)}) = {fmt(score)}" if kept else ""
    return MetricResult(
        metric="faithfulness_support", score=score, variant=aggregate, columns=COLUMNS, rows=rows, values=values,
        formula=formula, formula_general=r"\text{score} = \min_i p_i(\text{yes})",
        narrative=narrative, notes=notes,
        inputs={"answer": answer, "offsets": places, "aggregate": aggregate})


def quote_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], answer: str,
                 places: list[tuple[int, int]], checks: list[dict[str, Any]], quotes: list[Any],
                 passages: list[str]) -> MetricResult:
    """Quote-then-verify's result: support per sentence's, with the quotes' columns and words (``values`` holds
    the quotes' counts after the support's, as the core returned them)."""
    result = support_result(score, rows, values, answer, places)
    result.columns = (*result.columns, *QUOTE_COLUMNS)
    result.narrative[0] = (f"The answer has {len(checks)} sentence(s); {values['verified']} quote(s) were found "
                           f"in the passages (at least {fmt(QUOTE_MATCH)} of their words in one unbroken run). Each "
                           "sentence's support is the share of its content words in its verified quote (0 when not "
                           "verified): " + ", ".join(fmt(c["support"]) for c in checks) + ".")
    result.formula_general = r"\text{score} = \min_i \text{support}_i"
    result.metric = "faithfulness_quote"
    result.inputs.update(quotes=list(quotes), context=passages)
    return result
