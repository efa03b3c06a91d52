"""How many labelled answers a system's pass rate needs, planned for the three estimators lesson 14 applies.

Lesson 14 estimates each generating model's pass rate three ways on the same labels
(:func:`ragmetrics_edu.agreement.estimate_pass_rate`: people's share alone, prediction-powered inference,
Rogan–Gladen). This module plans the labels each needs for an interval of a given half-width
(:func:`ragmetrics_edu.agreement.plan_pass_rate`), from a judge's dev error rates at **one threshold per design
across lessons**: word overlap at the threshold lesson 14 chose and scored test with (its F1-best on lesson 14's
dev sample, read from lesson 14's log ``log14``), each design new in lesson 15 at its F1-best on all RAGTruth
dev (lesson 14 never scored them). The rates are taken over every model's dev answers (pooled) and over each
answering model's own (about 50 each): lesson 14 shows they differ, so the plan gives both.

The plan assumes the judge scores :data:`SYSTEM_ANSWERS` answers of the system (its own noise enters PPI and
Rogan–Gladen), and labels drawn at random from the system's answers. Each plan is a normal approximation, which
asks for too few labels where a pass rate is near 0 or 1; people's share alone is also planned with Wilson's
interval (method ``"labels_wilson"``: ``labels_needed(..., method="labels", interval="wilson")``), the interval
lesson 14 reads it with.
"""

from __future__ import annotations

import math
from typing import Any

from ...agreement import labels_needed, plan_pass_rate
from ...agreement.planning import MAX_ANSWERS, METHODS
from ...errors import InputError
from ...validate import integer
from .choice import candidate_figures
from .log import checked_log, lesson14_threshold
from .protocol import BASELINE

__all__ = ["PLANNED", "HALF_WIDTHS", "SYSTEM_ANSWERS", "threshold_for", "rates", "labels_plan", "plan_summary"]

#: the designs whose label needs the lesson plans
PLANNED = (BASELINE, "cheap_combination", "support_min")
#: the interval half-widths planned
HALF_WIDTHS = (0.10, 0.05)
#: the answers of one system the judge scores (an assumption of the plan, printed with it)
SYSTEM_ANSWERS = 1000


def threshold_for(design: str, log: Any, log14: Any) -> tuple[float, str]:
    """The threshold ``design`` flags below, and where it comes from: word overlap's is lesson 14's (the one its
    test figure used), a lesson-15 design's its F1-best on all RAGTruth dev."""
    if not isinstance(design, str):
        raise InputError("design", "a design's name: " + ", ".join(PLANNED), design)
    if design == BASELINE:
        return lesson14_threshold(log14, BASELINE), "lesson 14's dev threshold"
    fig = candidate_figures(log).get(design) if isinstance(design, str) else None
    if not fig:
        raise InputError("design", "a design of lesson 15 with dev figures: " + ", ".join(PLANNED), design)
    return float(fig["threshold"]), "F1-best on all RAGTruth dev"


def rates(design: str, log: Any, log14: Any, model: str | None = None) -> dict[str, Any]:
    """The judge's dev TPR (passing answers it passes), TNR (failing answers it flags) and the pass rate θ, over
    every model's dev answers (``model=None``) or one answering model's, at :func:`threshold_for`'s threshold."""
    log = checked_log(log)
    part = log["parts"]["ragtruth-dev"]
    threshold, _ = threshold_for(design, log, log14)
    models = {row["model"] for row in part["items"]}
    if model is not None and (not isinstance(model, str) or model not in models):
        raise InputError("model", "an answering model of RAGTruth dev: " + ", ".join(sorted(models)), model)
    pairs = [(row["failed"], v >= threshold) for row, v in zip(part["items"], part["scores"][design], strict=True)
             if not math.isnan(v) and (model is None or row["model"] == model)]
    passing = [p for f, p in pairs if not f]
    failing = [p for f, p in pairs if f]
    return {"labels": len(pairs), "threshold": threshold, "pass_rate": len(passing) / len(pairs),
            "tpr": sum(passing) / len(passing) if passing else math.nan,
            "tnr": sum(not p for p in failing) / len(failing) if failing else math.nan}


def labels_plan(log: Any, log14: Any, system_answers: int = SYSTEM_ANSWERS) -> Any:
    """One row per (design, whose rates, method): the rates, and the labels each of :data:`HALF_WIDTHS` needs
    (inf: no number of labels reaches it). ``rates_from`` is "pooled" or an answering model; ``method`` is one of
    the three estimators, or ``"labels_wilson"``: people's share alone planned with Wilson's half-width."""
    import pandas as pd  # lazy: pandas loads with the first table

    log = checked_log(log)
    system_answers = integer("system_answers", system_answers, low=1, high=MAX_ANSWERS,
                             expected=f"a whole number of answers from 1 to {MAX_ANSWERS:.0e}")
    models = sorted({row["model"] for row in log["parts"]["ragtruth-dev"]["items"]})
    rows = []
    for design in PLANNED:
        for model in (None, *models):
            r = rates(design, log, log14, model)
            if any(math.isnan(r[k]) for k in ("tpr", "tnr")) or not 0 < r["pass_rate"] < 1:
                continue   # a model with no failing (or passing) dev answer: its rates are not measured
            plans = {h: plan_pass_rate(r["pass_rate"], r["tpr"], r["tnr"], half_width=h,
                                       system_answers=system_answers) for h in HALF_WIDTHS}
            wilson = {h: labels_needed(r["tpr"], r["tnr"], r["pass_rate"], half_width=h, method="labels",
                                       interval="wilson").score for h in HALF_WIDTHS}
            for method in (*METHODS, "labels_wilson"):
                row = {"design": design, "rates_from": model or "pooled", "labels": r["labels"],
                       "threshold": r["threshold"], "tpr": r["tpr"], "tnr": r["tnr"], "j": r["tpr"] + r["tnr"] - 1,
                       "pass_rate": r["pass_rate"], "method": method}
                row.update({f"labels_pm_{h:.2f}": wilson[h] if method == "labels_wilson" else plans[h].values[method]
                            for h in HALF_WIDTHS})
                rows.append(row)
    return pd.DataFrame(rows)


def plan_summary(plan: Any) -> Any:
    """:func:`labels_plan`'s table per (design, method): the labels with pooled rates, and the fewest and most
    over the answering models' own rates (how many models had rates to plan with)."""
    import pandas as pd  # lazy

    if not isinstance(plan, pd.DataFrame) or "rates_from" not in plan.columns:
        raise InputError("plan", "the table labels_plan() returns", plan)
    rows = []
    for (design, method), part in plan.groupby(["design", "method"], sort=False):
        pooled = part[part["rates_from"] == "pooled"].iloc[0]
        own = part[part["rates_from"] != "pooled"]
        row = {"design": design, "method": method}
        for h in HALF_WIDTHS:
            key = f"labels_pm_{h:.2f}"
            row[f"pooled_{h:.2f}"] = pooled[key]
            row[f"models_{h:.2f}"] = f"{_n(own[key].min())} to {_n(own[key].max())}"
        row["models"] = len(own)
        rows.append(row)
    return pd.DataFrame(rows)


def _n(value: float) -> str:
    return "no number" if math.isinf(value) else f"{value:.0f}"
