"""Lesson 15's choice: every candidate of the written rule (:mod:`.protocol`) on all 50 RAGTruth dev sources, and
the rule applied to their figures.

Each function takes lesson 15's log (what ``course.alignment.study.load_log()`` returns): the log stores the
candidates' figures when it is built (the bootstraps take seconds); ``candidate_figures(log, fresh=True)`` computes
them again from its scores.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from ...agreement import auc_difference, validation_report
from ...agreement.validation import stratified_auc_of
from ...errors import InputError
from ...validate import flag
from .log import checked_log
from .protocol import BASELINE, CANDIDATES, LEVEL, RESAMPLES, SEED

__all__ = ["candidate_figures", "paired", "choose", "candidate_table", "takeaway"]


def _figures(part: dict[str, Any], name: str) -> dict[str, Any] | None:
    """AUC, paired difference from word overlap, AUC within each answering model and counts, on the answers of
    ``part`` that ``name`` scored (None: it scored none)."""
    values = part["scores"].get(name)
    if values is None:
        return None
    keep = [k for k, v in enumerate(values) if not math.isnan(v)]
    rows = [part["items"][k] for k in keep]
    failed, groups, models = [r["failed"] for r in rows], [r["group"] for r in rows], [r["model"] for r in rows]
    mine = [values[k] for k in keep]
    overlap = [part["scores"][BASELINE][k] for k in keep]
    report = validation_report(failed, mine, groups=groups, level=LEVEL, n_resamples=RESAMPLES, seed=SEED)
    against = auc_difference(failed, mine, overlap, groups=groups, names=(name, BASELINE), level=LEVEL,
                             n_resamples=RESAMPLES, seed=SEED)
    mixed = any({f for f, m in zip(failed, models, strict=True) if m == model} == {True, False} for model in set(models))
    none = {"score": math.nan, "ci": None}
    # a stratum per answering model; where no model wrote both kinds (HaluEval's pairs) there is no within figure
    boot: dict[str, Any] = {"level": LEVEL, "n_resamples": RESAMPLES, "seed": SEED}
    within = stratified_auc_of(failed, mine, models, groups=groups, **boot) if mixed else none
    within_paired = stratified_auc_of(failed, mine, models, groups=groups, other=overlap, **boot) if mixed else none
    return {"answers": len(keep), "sources": len(set(groups)), "hallucinated": sum(failed),
            "auc": report.score, "ci": report.ci, "threshold": report.values["threshold"], "f1": report.values["f1"],
            "vs_overlap": against.score, "vs_overlap_ci": against.ci,
            "within_model_auc": within["score"], "within_model_ci": within["ci"],
            "within_vs_overlap": within_paired["score"], "within_vs_overlap_ci": within_paired["ci"]}


def candidate_figures(log: Any, *, fresh: bool = False) -> dict[str, dict[str, Any] | None]:
    """Every candidate's dev figures (None: not measured), and its HaluEval dev figures where recorded."""
    log = checked_log(log)
    if not flag("fresh", fresh) and isinstance(log.get("figures"), dict):
        return copy.deepcopy(log["figures"])
    rt = log["parts"]["ragtruth-dev"]
    halu = log["parts"].get("halueval-dev")
    out: dict[str, dict[str, Any] | None] = {}
    for name in CANDIDATES:
        fig = _figures(rt, name)
        if fig is not None:
            fig["all_dev"] = fig["sources"] == len({r["group"] for r in rt["items"]}) and fig["answers"] == len(rt["items"])
            hf = _figures(halu, name) if halu is not None else None
            fig["halueval_vs_overlap_ci"] = None if hf is None else hf["vs_overlap_ci"]
            for key in ("answers", "auc", "ci", "vs_overlap"):
                fig[f"halueval_{key}"] = None if hf is None else hf[key]
        out[name] = fig
    return out


def _paired_on(part: dict[str, Any], keep: list[int], first: str, second: str) -> Any:
    """The protocol's paired AUC difference ``first`` minus ``second`` on the answers ``keep`` (intervals over sources)."""
    return auc_difference([part["items"][k]["failed"] for k in keep], [part["scores"][first][k] for k in keep],
                          [part["scores"][second][k] for k in keep], groups=[part["items"][k]["group"] for k in keep],
                          names=(first, second), level=LEVEL, n_resamples=RESAMPLES, seed=SEED)


def paired(first: str, second: str, log: Any) -> dict[str, Any]:
    """The paired AUC difference ``first`` minus ``second`` on the RAGTruth dev answers both scored, with its interval
    over sources (None under 10 sources; with 10 to 30 it tends to be too narrow)."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    for field, name in (("first", first), ("second", second)):
        if not isinstance(name, str) or name not in part["scores"]:
            raise InputError(field, "a score the log holds: " + ", ".join(sorted(part["scores"])), name)
    keep = [k for k in range(len(part["items"]))
            if not math.isnan(part["scores"][first][k]) and not math.isnan(part["scores"][second][k])]
    found = _paired_on(part, keep, first, second)
    return {"score": found.score, "ci": found.ci, "answers": len(keep),
            "sources": len({part["items"][k]["group"] for k in keep})}


def choose(log: Any) -> tuple[str, list[str]]:
    """The written rule applied to the dev figures: the chosen default and the reason for each candidate."""
    figures = candidate_figures(log)
    reasons: list[str] = []
    eligible: dict[str, float] = {}
    for name, fig in figures.items():
        if name == BASELINE:
            continue
        judged = name != "cheap_combination"
        halu = None if fig is None else fig["halueval_vs_overlap_ci"]
        if fig is None or not fig["all_dev"]:
            reasons.append(f"{name}: not measured on every dev answer, not a candidate.")
        elif judged and halu is None:
            reasons.append(f"{name}: no HaluEval dev figure, reported but not chosen.")
        elif judged and halu is not None and halu[1] < 0:
            reasons.append(f"{name}: significantly below word overlap on HaluEval dev, excluded.")
        else:
            eligible[name] = fig["auc"]
    if not eligible:
        return BASELINE, reasons + ["No candidate is eligible: counting words stays the default."]
    best = max(eligible, key=lambda n: eligible[n])
    if (figures[best] or {})["vs_overlap_ci"][0] > 0:
        return best, reasons + [f"{best} has the best RAGTruth dev AUC and its paired interval against word overlap "
                                "lies wholly above 0: it replaces word overlap."]
    return BASELINE, reasons + [f"{best} has the best RAGTruth dev AUC, but its paired interval against word "
                                "overlap includes 0: counting words stays the default."]


def _ci(pair: Any) -> str:
    return "-" if pair is None else f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def candidate_table(log: Any) -> Any:
    """Every candidate's dev figures as a table (pandas), "not measured" rows included."""
    import pandas as pd  # lazy: pandas loads with the first table

    rows = []
    for name, fig in candidate_figures(log).items():
        if fig is None:
            rows.append({"candidate": name, "answers": 0, "sources": 0, "hallucinated": 0, "auc": "not measured"})
            continue
        rows.append({"candidate": name, "answers": fig["answers"], "sources": fig["sources"],
                     "hallucinated": fig["hallucinated"], "auc": f"{fig['auc']:.3f} {_ci(fig['ci'])}",
                     "vs_overlap": f"{fig['vs_overlap']:+.3f} {_ci(fig['vs_overlap_ci'])}",
                     "within_model": f"{fig['within_model_auc']:.3f} {_ci(fig['within_model_ci'])}",
                     "within_vs_overlap": f"{fig['within_vs_overlap']:+.3f} {_ci(fig['within_vs_overlap_ci'])}"})
    return pd.DataFrame(rows).fillna("-")


def takeaway(log: Any) -> str:
    """The lesson's lead, written from the figures: what the rule chose and how the best candidate compares."""
    figures = candidate_figures(log)
    chosen, _ = choose(log)
    complete = {n: f for n, f in figures.items() if f is not None and n != BASELINE and f["all_dev"]}
    partial = [n for n, f in figures.items() if f is not None and n != BASELINE and not f["all_dev"]]
    missing = [n for n, f in figures.items() if f is None]
    overlap = figures[BASELINE] or {}
    lead = f"On all {overlap.get('answers')} RAGTruth dev answers ({overlap.get('sources')} sources), "
    if complete:
        best = max(complete, key=lambda n: complete[n]["auc"])
        fig = complete[best]
        ci = fig["vs_overlap_ci"]
        interval = "no interval" if ci is None else f"95 % interval {ci[0]:+.3f} to {ci[1]:+.3f}"
        lead += (f"the best candidate measured on every answer is {best} (AUC {fig['auc']:.3f}, word overlap "
                 f"{overlap.get('auc', 0):.3f}); its paired difference from word overlap is {fig['vs_overlap']:+.3f} "
                 f"({interval}). ")
    else:
        lead += f"no candidate but word overlap (AUC {overlap.get('auc', 0):.3f}) was measured on every answer. "
    if partial:
        lead += f"Measured on part of dev only, not candidates yet: {', '.join(partial)}. "
    if missing:
        lead += f"Not measured: {', '.join(missing)}. "
    if chosen == BASELINE:
        return lead + "By the written rule, counting words (\"word_overlap\") stays evaluate()'s default faithfulness design."
    return lead + f"By the written rule, {chosen} replaces word overlap as evaluate()'s default faithfulness design."
