"""Lesson 14's last question: what share of one system's answers really pass?

Each generating model of RAGTruth is a system. Its labelled dev answers (about 50, people's verdicts) and its test
answers (the judge's verdicts only) feed :func:`ragmetrics_edu.agreement.estimate_pass_rate` three ways, on the
same labels: people's share alone (``"labels"``), prediction-powered inference (``"ppi"``, PPI++ with a tuned
λ) and Rogan–Gladen's correction (``"rogan_gladen"``) with the model's own error rates, and once more with the
error rates of every model's labels (``rogan_gladen_pooled``: do the rates transfer?). The check is the share
people found passing among the model's test answers, a fresh sample of the same system.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ...agreement import estimate_pass_rate
from ...data import ragtruth
from ...errors import InputError
from ...plots import figure_and_axes
from ...validate import choice, number
from .choice import checked_log, complete
from .tables import threshold_of

__all__ = ["ESTIMATES", "check_share_se", "NORMAL_MIN", "SHORT", "model_inputs", "pass_rate_by_model", "pass_rate_reading", "pass_rate_display",
           "pooled_labels", "plot_pass_rates"]

#: the estimates set side by side, each with the method it calls and where its labels come from
ESTIMATES = {
    "labels": ("labels", "model"),
    "ppi": ("ppi", "model"),
    "rogan_gladen": ("rogan_gladen", "model"),
    "rogan_gladen_pooled": ("rogan_gladen", "all"),
}

#: PPI's interval is the normal (CLT) one, which fails near 0 or 1: with fewer than this many labelled answers on
#: the rarer side (passing or failing, n·min(θ̂, 1 − θ̂)), read labels alone's Wilson interval instead (a common
#: rule of thumb for the normal approximation of a share; written before the lesson's figures)
NORMAL_MIN = 10


def _dev_part(log: dict[str, Any], design: str) -> dict[str, Any]:
    every = log["parts"]["ragtruth-dev-all"]
    return every if design in every["scores"] else log["parts"]["ragtruth-dev"]


def model_inputs(model: str, design: str | None = None, log: dict[str, Any] | None = None, *,
                 labels_from: str = "model") -> dict[str, Any]:
    """The three lists :func:`~ragmetrics_edu.agreement.estimate_pass_rate` reads for one generating model, True
    meaning the answer passes: ``people`` and ``judge_on_labelled`` on the labelled dev answers (the model's own,
    or every model's with ``labels_from="all"``), ``judge_on_all`` on the model's test answers; with ``truth``,
    the share people found passing among those test answers. The judge is ``design`` (the rule's choice by
    default) at its dev threshold: an answer scored below it is flagged."""
    log = checked_log(log)
    if "ragtruth-test" not in log["parts"]:
        raise InputError("log", "a choice log with test scores", "a log without them")
    design = log["chosen"] if design is None else design
    threshold = threshold_of(log, design)
    if not isinstance(model, str) or model not in ragtruth.MODELS:   # names keep their case (mistral-7B)
        raise InputError("model", "one of " + ", ".join(ragtruth.MODELS), model)
    labels_from = choice("labels_from", labels_from, ("model", "all"))
    dev, test = _dev_part(log, design), log["parts"]["ragtruth-test"]
    labelled = [i for i in complete(dev, [design]) if labels_from == "all" or dev["items"][i]["model"] == model]
    system = [i for i in complete(test, [design]) if test["items"][i]["model"] == model]
    if not labelled or not system:
        raise InputError("model", "a model with answers in the dev and test parts", model)
    return {"people": [not dev["items"][i]["failed"] for i in labelled],
            "judge_on_labelled": [dev["scores"][design][i] >= threshold for i in labelled],
            "judge_on_all": [test["scores"][design][i] >= threshold for i in system],
            "truth": 1 - sum(test["items"][i]["failed"] for i in system) / len(system),
            "threshold": threshold}


def pooled_labels(design: str | None = None, log: dict[str, Any] | None = None) -> dict[str, int]:
    """The labelled dev answers ``rogan_gladen_pooled`` takes its error rates from (every model's): how many, from
    how many sources, and the most from one source. Answers to one source share its passages, so they are not
    independent, while the delta-method standard error treats every label as if it were."""
    log = checked_log(log)
    design = log["chosen"] if design is None else design
    threshold_of(log, design)   # checks the design: one with RAGTruth dev figures
    dev = _dev_part(log, design)
    per_source = Counter(dev["items"][i]["group"] for i in complete(dev, [design]))
    return {"labels": sum(per_source.values()), "sources": len(per_source),
            "most_per_source": max(per_source.values(), default=0)}


def pass_rate_by_model(design: str | None = None, log: dict[str, Any] | None = None, *,
                       level: float = 0.95) -> Any:
    """One row per (generating model, estimate of :data:`ESTIMATES`): the labels it rests on, the judged test
    answers, the estimate with its interval at ``level``, its width, and whether it covers people's test share
    (an undefined estimate, e.g. Rogan–Gladen when TPR + TNR is not above 1, has NaN and covers nothing), with the
    standard error ``se`` where the method gives one and PPI's tuned weight ``lam``. ``clipped`` says the estimate
    fell outside [0, 1] and was clipped (``raw`` is the unclipped estimate); ``rarer`` is how many labelled answers
    fall on the rarer side (passing or failing), and ``wilson_instead`` marks the PPI rows whose normal interval is
    not trusted there (``rarer`` under :data:`NORMAL_MIN`, or λ = 0, which is labels alone)."""
    import pandas as pd  # lazy

    log = checked_log(log)
    level = number("level", level, "a confidence level strictly between 0 and 1", low=0.0, high=1.0,
                   low_open=True, high_open=True)
    rows = []
    for model in ragtruth.MODELS:
        for name, (method, labels_from) in ESTIMATES.items():
            given = model_inputs(model, design, log, labels_from=labels_from)
            result = estimate_pass_rate(given["people"], given["judge_on_labelled"], given["judge_on_all"],
                                        method=method, level=level)
            low, high = result.ci if result.ci else (math.nan, math.nan)
            raw = result.values.get("estimate_unclipped", result.score)
            rarer = min(sum(given["people"]), len(given["people"]) - sum(given["people"]))
            lam = result.values.get("lam", math.nan)
            rows.append({"model": model, "estimate": name, "labels": len(given["people"]),
                         "judged": len(given["judge_on_all"]), "people_share": given["truth"],
                         "value": result.score, "low": low, "high": high, "width": high - low,
                         "se": result.values.get("se", math.nan), "lam": lam,
                         "covers": bool(low <= given["truth"] <= high),
                         "raw": raw, "clipped": bool(raw == raw and raw != result.score), "rarer": rarer,
                         "wilson_instead": bool(method == "ppi" and (rarer < NORMAL_MIN or lam == 0))})
    return pd.DataFrame(rows)


#: the short column names of :func:`pass_rate_display` (a printed row stays within 100 columns)
SHORT = {"labels": "labels", "ppi": "ppi", "rogan_gladen": "rg_own", "rogan_gladen_pooled": "rg_pooled"}


def pass_rate_display(table: Any) -> Any:
    """:func:`pass_rate_by_model`'s table with one row per model and one column per estimate (short names:
    :data:`SHORT`), each cell the estimate and its interval ("undefined" where the estimate is), beside the labels
    it rests on (``n``) and people's share on the model's test answers (``test``). An estimate that fell outside
    [0, 1] shows as clipped with its raw value, not as a certain 0 or 1."""
    _check(table)

    def cell(v: float, lo: float, hi: float, raw: float, clipped: bool) -> str:
        if v != v:
            return "undefined"
        return f"clipped, raw {raw:.2f}" if clipped else f"{v:.2f} [{lo:.2f}, {hi:.2f}]"

    shown = table.assign(shown=[cell(*r) for r in zip(table["value"], table["low"], table["high"], table["raw"],
                                                       table["clipped"], strict=True)])
    wide = shown.pivot(index="model", columns="estimate", values="shown")
    first = shown.drop_duplicates("model").set_index("model")
    wide.insert(0, "n", first["labels"])
    wide.insert(1, "test", first["people_share"].map(lambda v: f"{v:.2f}"))
    order = [m for m in ragtruth.MODELS if m in wide.index]
    return (wide.loc[order, ["n", "test", *[e for e in ESTIMATES if e in wide.columns]]]
            .rename(columns=SHORT).reset_index())


def pass_rate_reading(table: Any) -> str:
    """What :func:`pass_rate_by_model`'s table shows, in sentences built from its numbers."""
    _check(table)
    by = {name: part.set_index("model") for name, part in table.groupby("estimate")}
    models = len(by["labels"])

    def covered(name: str) -> int:
        return int(by[name]["covers"].sum())

    labels, ppi, own, pooled = by["labels"], by["ppi"], by["rogan_gladen"], by["rogan_gladen_pooled"]
    steadier = int((ppi["se"] <= labels["se"] + 1e-12).sum())
    fall = 1 - ppi["se"] / labels["se"]
    most = fall.idxmax()
    wilson = [m for m in ppi.index if ppi.loc[m, "wilson_instead"]]
    defined = own[own["value"].notna()]
    undefined = [m for m in own.index if m not in defined.index]
    clipped = [f"{m}'s {SHORT[name]} ({table_raw:.2f})" for name, part in by.items()
               for m, table_raw in part.loc[part["clipped"], "raw"].items()]
    return (f"People's share of each model's {labels['labels'].min()} to {labels['labels'].max()} labelled dev "
            f"answers, alone, gives intervals {labels['width'].min():.2f} to {labels['width'].max():.2f} wide that "
            f"cover the share people found on that model's test answers for {covered('labels')} of {models} models. "
            f"That is a consistency check, not a coverage test: the test share is itself an estimate from "
            f"{labels['judged'].min()} to {labels['judged'].max()} answers (standard error up to "
            f"{check_share_se(table).max():.2f}). "
            f"PPI, which adds the judge's verdicts on the {ppi['judged'].min()} to {ppi['judged'].max()} test "
            f"answers, covers it for {covered('ppi')} of {models}. Its tuned weight on the judge, λ, is "
            f"{ppi['lam'].min():.2f} to {ppi['lam'].max():.2f} (λ = 0 is labels alone). Compare standard errors, "
            f"not a normal interval with a Wilson one. That PPI++'s standard error is at most labels alone's (here "
            f"for {steadier} of {models} models) is close to guaranteed by construction, since λ is tuned to make "
            f"the estimated variance smallest; the informative figure is the size of the drop: at most "
            f"{fall.max():.1%} ({most}). PPI's interval is the normal one, which fails near 0 or 1: "
            + (f"for {', '.join(wilson)} (λ = 0, or under {NORMAL_MIN} labelled answers on the rarer side) read "
               f"labels alone's Wilson interval instead. " if wilson else "no model here is that close. ")
            + f"Rogan–Gladen "
            f"from the same labels (each model's own error rates) gives intervals "
            f"{defined['width'].min():.2f} to {defined['width'].max():.2f} wide where it is defined, and is "
            f"undefined for {', '.join(undefined) or 'no model'} (TPR + TNR not above 1); with every model's "
            f"error rates instead it misses people's test share for {models - covered('rogan_gladen_pooled')} of "
            f"{models} models (largest gap {(pooled['value'] - pooled['people_share']).abs().max():.2f}). "
            + (f"Clipped to [0, 1], so shown with the raw estimate: {', '.join(clipped)}; an interval ending at 0 or "
               "1 was clipped there too." if clipped else "An interval ending at 0 or 1 was clipped there."))


def check_share_se(table: Any) -> Any:
    """For each model of :func:`pass_rate_by_model`'s table, the standard error sqrt(p(1 - p)/n) of people's share
    p on its n test answers: that share, the check the intervals are held against, is itself an estimate."""
    _check(table)
    rows = table.drop_duplicates("model").set_index("model")
    return (rows["people_share"] * (1 - rows["people_share"]) / rows["judged"]) ** 0.5


def _check(table: Any) -> None:
    import pandas as pd  # lazy

    expected = "the table pass_rate_by_model() returns (a DataFrame, one row per model and estimate)"
    if not isinstance(table, pd.DataFrame) or table.empty:
        raise InputError("table", expected, table)
    for column in ("model", "estimate", "labels", "judged", "people_share", "value", "low", "high", "width", "se",
                   "lam", "covers", "raw", "clipped", "rarer", "wilson_instead"):
        if column not in table.columns:
            raise InputError("table", f"{expected} with the column {column!r}", table)
    missing = set(ESTIMATES) - set(table["estimate"])
    if missing:
        raise InputError("table", f"{expected} holding every estimate ({', '.join(sorted(missing))} missing)", table)


#: each estimate's name in words, for the figure's legend
WORDS = {"labels": "labels alone (Wilson)", "ppi": "PPI++ (tuned λ)", "rogan_gladen": "Rogan–Gladen, own rates",
         "rogan_gladen_pooled": "Rogan–Gladen, every model's rates"}

#: how each estimate is drawn in :func:`plot_pass_rates` (colour, vertical offset within a model's row)
_STYLE = {"labels": ("#2b6f9e", -0.27), "ppi": ("#2e8b57", -0.09), "rogan_gladen": ("#c2a67a", 0.09),
          "rogan_gladen_pooled": ("#c0392b", 0.27)}


def plot_pass_rates(table: Any, ax: Any = None):
    """Each model's estimates as dots with their intervals as whiskers, one colour per estimate, beside a black
    tick at the share people found on the model's test answers (the check); an estimate clipped to [0, 1] is an
    open dot."""
    _check(table)
    models = [m for m in ragtruth.MODELS if m in set(table["model"])]
    fig, ax = figure_and_axes(ax, figsize=(7.0, 0.55 * len(models) + 1.8))
    named: set[str] = set()   # each estimate labelled once, at its first defined dot
    for row_number, model in enumerate(models):
        rows = table[table["model"] == model].set_index("estimate")
        truth = float(rows["people_share"].iloc[0])
        ax.plot([truth, truth], [row_number - 0.4, row_number + 0.4], color="black", linewidth=2,
                label="people's share on test" if row_number == 0 else None)
        for name, (colour, offset) in _STYLE.items():
            row = rows.loc[name]
            y = row_number + offset
            if not math.isnan(row["low"]):
                ax.plot([row["low"], row["high"]], [y, y], color=colour, linewidth=1.5)
            if not math.isnan(row["value"]):   # an estimate clipped to [0, 1] is drawn open: not a certain 0 or 1
                ax.plot([row["value"]], [y], "o", color=colour, markersize=4,
                        markerfacecolor="white" if row["clipped"] else colour,
                        label=None if name in named else WORDS[name])
                named.add(name)
    ax.set_yticks(range(len(models)), models, fontsize=9)
    ax.tick_params(axis="x", labelsize=9)
    ax.invert_yaxis()
    ax.set_xlim(-0.02, 1.02)   # dots on 0 or 1 stay whole
    ax.set_xlabel("share of the model's answers that pass (open dot: clipped to [0, 1])", fontsize=9)
    ax.legend(fontsize=9, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, frameon=False)
    fig.tight_layout()
    return fig
