"""The figures of lessons 13 and 14: a G-Eval score distribution, ROC curves with intervals on one part of a
choice log (:mod:`.choice`), and one design's AUC by generating model or span kind as dots with whiskers."""

from __future__ import annotations

import math
from typing import Any, Sequence

from ...agreement import plot_roc, roc_auc, validation_report
from ...errors import InputError
from ...plots import figure_and_axes
from ...results import MetricResult, fmt
from ...validate import as_list
from .choice import checked_log, complete
from .tables import breakdown

__all__ = ["score_distribution", "roc_curves", "auc_by_group"]


def score_distribution(result: MetricResult, ax: Any = None):
    """G-Eval's probability for each score as bars, with the weighted score and the most likely one marked."""
    if not isinstance(result, MetricResult) or result.metric != "g_eval":
        raise InputError("result", "a G-Eval result (designs.g_eval)", result)
    fig, ax = figure_and_axes(ax, figsize=(5.0, 2.8))
    scores = [r["score"] for r in result.rows]
    shares = [r["share"] for r in result.rows]
    ax.bar(scores, shares, color="#7aa6c2", width=0.6, label="share of probability")
    weighted, likely = result.values["weighted"], result.values["most_likely"]
    ax.axvline(weighted, color="#c0392b", linewidth=2, label=f"weighted {fmt(weighted, 3)}")
    ax.axvline(likely, color="0.3", linestyle=":", linewidth=1.5, label=f"most likely {likely}")
    ax.set_xticks(scores)
    ax.set_xlabel("score")
    ax.set_ylabel("probability (renormalised)")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def _part(log: Any, part: str) -> dict[str, Any]:
    log = checked_log(log)
    if not isinstance(part, str) or part not in log["parts"]:
        raise InputError("part", "one of " + ", ".join(log["parts"]), part)
    return log["parts"][part]


def roc_curves(log: dict[str, Any], designs: Sequence[str], part: str = "ragtruth-dev", ax: Any = None):
    """ROC curves of several designs on the same answers of a part, each labelled with its AUC and interval."""
    p = _part(log, part)
    designs = as_list("designs", designs, "a list of design names")
    unknown = [d for d in designs if not isinstance(d, str) or d not in p["scores"]]
    if unknown:
        raise InputError("designs", "designs of this part: " + ", ".join(p["scores"]), unknown[0])
    idx = complete(p, designs)
    failed = [p["items"][i]["failed"] for i in idx]
    groups = [p["items"][i]["group"] for i in idx]
    curves = []
    for d in designs:
        values = [p["scores"][d][i] for i in idx]
        ci = validation_report(failed, values, groups=groups, threshold=0.5).ci
        curves.append((d, failed, values, ci))
    return plot_roc(curves, ax, title=f"{part}: {len(idx)} answers, {len(set(groups))} sources")


def auc_by_group(log: dict[str, Any], design: str, by: str = "model", part: str = "ragtruth-dev", ax: Any = None):
    """AUC of one design within each generating model (or span kind): dots with their interval as whiskers, beside
    a line at its pooled AUC over every answer of the part (the reading the groups are compared with)."""
    log = checked_log(log)
    table = breakdown(design, by, part, log)
    scored = log["parts"][part]
    idx = complete(scored, [design])
    pooled = roc_auc([scored["items"][i]["failed"] for i in idx], [scored["scores"][design][i] for i in idx])
    fig, ax = figure_and_axes(ax, figsize=(6.0, 0.45 * len(table) + 1.2))
    ax.axvline(pooled, color="#c0392b", linewidth=1.5, label=f"pooled over every answer: {pooled:.3f}")
    for row_number, row in enumerate(table.itertuples()):
        if not math.isnan(row.auc_low):
            ax.plot([row.auc_low, row.auc_high], [row_number, row_number], color="0.4", linewidth=1.5)
        ax.plot([row.auc], [row_number], "o", color="#2b6f9e")
    ax.axvline(0.5, color="0.7", linestyle="--", linewidth=1)
    counts = table["answers"] if "answers" in table else table["hallucinated"]
    ax.set_yticks(range(len(table)), [f"{g} ({n})" for g, n in zip(table["group"], counts, strict=True)], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"ROC AUC of {design} within the group (dashed: chance)")
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0), frameon=False)   # above the axes: no dot hidden
    fig.tight_layout()
    return fig
