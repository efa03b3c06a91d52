"""Score-level agreement: does the judge rank answers the way the reference does, and how far off are its scores?

The reference scores are the arguments named ``labels``: people's, or whatever stands in for them (a
benchmark's construction, an annotator model); say which.

* :func:`pairwise_accuracy` – for pairs of answers to the same question, the share the judge
  orders the way the labels do. This is the measure Es et al. (2023), "RAGAS: Automated
  Evaluation of Retrieval Augmented Generation", report on their WikiEval set: with gpt-3.5 as
  the judge, faithfulness 0.95, answer relevance 0.78 and context relevance 0.70.
* :func:`mean_absolute_error` – the mean |labels − judge| over items.

Both intervals are percentile bootstraps over cases from :mod:`ragmetrics_edu.stats`.
"""

from __future__ import annotations

import math
from typing import Any

from ..results import fmt
from ..stats import inputs as stat_inputs
from ..stats.bootstrap import describe, percentile_interval, resampled_means
from . import inputs
from .result import AgreementResult

NAN = float("nan")


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _interval(values: list[float], level: float, count: int, seed: int | None) -> tuple[tuple[float, float], Any]:
    if not values:
        return (NAN, NAN), None
    draws = resampled_means(values, count, seed)
    if len(set(values)) == 1:  # one value, or all equal: every resample has the same mean
        return (values[0], values[0]), draws
    return percentile_interval(draws, level), draws


def pairwise_accuracy(labels_a: Any, labels_b: Any, judge_a: Any, judge_b: Any, level: float = 0.95,
                      seed: int | None = 0, n_resamples: int = 2000, judge_ties: str = "half") -> AgreementResult:
    """The share of answer pairs the judge orders the same way as the labels, with a bootstrap interval.

        accuracy = (pairs ordered as the labels order them + ½ · judge ties) / pairs the labels do not tie

    Entry i of the four lists is one pair: two answers (a and b) to the same question, with the
    labels' score (people's, a benchmark's or your annotators') and the judge's score for each. When
    the labels always prefer a (a correct and a hallucinated answer, say), pass
    ``labels_a=[1]*n, labels_b=[0]*n``.

    Ties: a pair the labels score equal has no right order and is left out (counted, with a
    note). A pair the judge scores equal while the labels do not earns half a point with
    ``judge_ties="half"`` (a tie orders the pair as a coin would on average: half a point) and
    nothing with ``"wrong"`` (strict). With no pair left, the value is NaN with a note.
    This follows Es et al. (2023), "RAGAS: Automated Evaluation of Retrieval Augmented
    Generation", whose WikiEval pairwise accuracies with gpt-3.5 were faithfulness 0.95,
    answer relevance 0.78 and context relevance 0.70.
    """
    ha, hb = inputs.scores("labels_a", labels_a), inputs.scores("labels_b", labels_b)
    ja, jb = inputs.scores("judge_a", judge_a), inputs.scores("judge_b", judge_b)
    inputs.same_length("labels_a", ha, "labels_b", hb)
    inputs.same_length("labels_a", ha, "judge_a", ja)
    inputs.same_length("labels_a", ha, "judge_b", jb)
    level, count, rng_seed = stat_inputs.ci_level(level), stat_inputs.resamples(n_resamples), stat_inputs.seed(seed)
    tie_rule = inputs.choice("judge_ties", judge_ties, ("half", "wrong"))
    rows, credits = [], []
    same = opposite = judge_tie = labels_tie = 0
    for m, (x, y, u, v) in enumerate(zip(ha, hb, ja, jb, strict=True), 1):
        labelled, judge = _sign(x - y), _sign(u - v)
        if labelled == 0:
            labels_tie += 1
            credit: float | None = None
            outcome = "labels tie: left out"
        elif judge == labelled:
            same += 1
            credit, outcome = 1.0, "same order"
        elif judge == 0:
            judge_tie += 1
            credit, outcome = (0.5 if tie_rule == "half" else 0.0), "judge tie"
        else:
            opposite += 1
            credit, outcome = 0.0, "opposite order"
        if credit is not None:
            credits.append(credit)
        rows.append({"pair": m, "labels_a": x, "labels_b": y, "judge_a": u, "judge_b": v,
                     "labels_prefer": "ab"[labelled < 0] if labelled else "tie",
                     "judge_prefers": "ab"[judge < 0] if judge else "tie", "outcome": outcome, "credit": credit})
    counted = len(credits)
    value = math.fsum(credits) / counted if counted else NAN
    interval, draws = _interval(credits, level, count, rng_seed)
    notes = []
    if labels_tie:
        notes.append(f"{labels_tie} pair(s) the labels score equal have no right order and are left out.")
    if judge_tie:
        notes.append(f"{judge_tie} pair(s) the judge scored equal (the labels do not) earn " +
                     ("0.5 each (chance)." if tie_rule == "half" else "0 each (judge_ties='wrong')."))
    if not counted:
        notes.append("No pair has a preference in the labels: pairwise accuracy is undefined (NaN).")
    notes.append("0.5 is what a coin would score. Es et al. (2023, RAGAS) report 0.95 (faithfulness), 0.78 (answer "
                 "relevance) and 0.70 (context relevance) on WikiEval with gpt-3.5; other data, model and size.")
    tail = 100 * (1 - level) / 2
    half = rf" + \tfrac{{1}}{{2}}\cdot {judge_tie}" if tie_rule == "half" and judge_tie else ""
    return AgreementResult(
        metric="pairwise accuracy", score=value,
        tables={"pairs": (("pair", "labels_a", "labels_b", "judge_a", "judge_b", "labels_prefer", "judge_prefers",
                           "outcome", "credit"), rows),
                **({"bootstrap": (("quantity", "value"), describe(draws, level))} if draws is not None else {})},
        values={"pairs": len(ha), "counted": counted, "same_order": same, "opposite_order": opposite,
                "judge_ties": judge_tie, "labels_ties": labels_tie, "judge_tie_rule": tie_rule,
                "pairwise_accuracy": value, "n_resamples": count, "seed": rng_seed,
                "ci_low": interval[0], "ci_high": interval[1]},
        formula=rf"\text{{accuracy}} = \frac{{{same}{half}}}{{{counted}}} = {fmt(value)}",
        narrative=[f"For each of the {len(ha)} pairs, note which answer the labels score higher and which the judge did.",
                   f"{same} pair(s) in the same order, {opposite} in the opposite order, {judge_tie} judge tie(s), "
                   f"{labels_tie} labels tie(s) left out.",
                   f"Pairwise accuracy = {fmt(value)} over {counted} counted pair(s).",
                   f"Bootstrap: {count} resamples of the counted pairs (seed {rng_seed}); {fmt(tail)}th and "
                   f"{fmt(100 - tail)}th percentiles {fmt(interval[0])} and {fmt(interval[1])}."],
        notes=notes, ci=interval, level=level, method="percentile bootstrap over pairs", distribution=draws,
        figure_kind="histogram")


def mean_absolute_error(labels: Any, judge: Any, level: float = 0.95, seed: int | None = 0,
                        n_resamples: int = 2000) -> AgreementResult:
    """The mean |labels − judge| score difference over items, with a percentile bootstrap interval.

        MAE = (1/n) Σ_i |labels_i − judge_i|,  with a percentile bootstrap interval over the items

    The table also shows the signed difference judge − labels, and ``values["mean_difference"]``
    its mean: a judge can have a small error yet lean one way (score too high, say).
    """
    h, j = inputs.scores("labels", labels), inputs.scores("judge", judge)
    inputs.same_length("labels", h, "judge", j)
    level, count, rng_seed = stat_inputs.ci_level(level), stat_inputs.resamples(n_resamples), stat_inputs.seed(seed)
    errors = [abs(y - x) for x, y in zip(h, j, strict=True)]
    n = len(h)
    mae = math.fsum(errors) / n
    bias = math.fsum(y - x for x, y in zip(h, j, strict=True)) / n
    interval, draws = _interval(errors, level, count, rng_seed)
    rows = [{"item": m, "labels": x, "judge": y, "difference": y - x, "abs_error": abs(y - x)}
            for m, (x, y) in enumerate(zip(h, j, strict=True), 1)]
    notes = []
    if n == 1:
        notes.append("Only one item: the interval collapses to its error.")
    elif len(set(errors)) == 1:
        notes.append("Every error is the same, so every resample has the same mean: the interval has width 0.")
    tail = 100 * (1 - level) / 2
    return AgreementResult(
        metric="mean absolute error", score=mae,
        tables={"items": (("item", "labels", "judge", "difference", "abs_error"), rows),
                "bootstrap": (("quantity", "value"), describe(draws, level))},
        values={"n": n, "mae": mae, "mean_difference": bias, "max_error": max(errors), "n_resamples": count,
                "seed": rng_seed, "ci_low": interval[0], "ci_high": interval[1]},
        formula=(rf"\text{{MAE}} = \frac{{1}}{{{n}}}\sum_i |\text{{judge}}_i - \text{{labels}}_i| = "
                 rf"\frac{{{fmt(math.fsum(errors))}}}{{{n}}} = {fmt(mae)}"),
        narrative=[f"Subtract per item: judge − labels (mean {fmt(bias)}: "
                   f"{'the judge scores higher on average' if bias > 0 else 'the judge scores lower on average' if bias < 0 else 'no lean'}).",
                   f"Take absolute values and average over the {n} items: MAE = {fmt(mae)}.",
                   f"Bootstrap: {count} resamples of the items (seed {rng_seed}); {fmt(tail)}th and "
                   f"{fmt(100 - tail)}th percentiles {fmt(interval[0])} and {fmt(interval[1])}."],
        notes=notes, ci=interval, level=level, method="percentile bootstrap over items", distribution=draws,
        figure_kind="histogram")
