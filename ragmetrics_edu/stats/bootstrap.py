"""Percentile bootstrap intervals: for one system's mean score and for a paired mean difference.

The bootstrap asks "how much would the mean move if we had drawn another set of questions
like these?". It draws ``n_resamples`` new sets of n questions *with replacement* from the n
we have, takes the mean of each, and reads the interval off the percentiles of those
resampled means (the *percentile method*: the 2.5th and 97.5th percentiles for 95%).
Resampling uses numpy's ``default_rng(seed)`` drawing all indices at once, the same draws
``scipy.stats.bootstrap`` makes with the same generator, so the two agree exactly.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..results import fmt
from . import inputs, resample
from .pairs import cohens_dz, pair_table
from .result import StatResult


def resampled_means(values: Sequence[float], n_resamples: int, seed: int | None):
    """The means of ``n_resamples`` bootstrap resamples of ``values`` (a numpy array)."""
    import numpy as np  # lazy: numpy loads only when resampling

    data = np.asarray(values, dtype=float)
    n = len(data)
    inputs.draws(n_resamples, n)
    out = np.empty(n_resamples)
    for start, stop, drawn in resample.draw_batches(n, n_resamples, seed):
        out[start:stop] = data[drawn].mean(axis=1)
    return out


def percentile_interval(distribution: Any, level: float) -> tuple[float, float]:
    """The (1 − level)/2 and (1 + level)/2 percentiles (numpy's linear interpolation)."""
    import numpy as np  # lazy: numpy loads only when resampling

    tail = 100 * (1 - level) / 2
    low, high = np.percentile(distribution, [tail, 100 - tail])
    return float(low), float(high)


def describe(distribution: Any, level: float, first: int = 5) -> list[dict[str, Any]]:
    """Summary rows of a distribution: count, mean, sd, min, the interval's percentiles, max, first draws."""
    import numpy as np  # lazy: numpy loads only when resampling

    tail = 100 * (1 - level) / 2
    low, median, high = np.percentile(distribution, [tail, 50, 100 - tail])
    rows = [("count", int(len(distribution))), ("mean", float(np.mean(distribution))),
            ("standard deviation", float(np.std(distribution, ddof=1)) if len(distribution) > 1 else 0.0),
            ("min", float(np.min(distribution))), (f"{fmt(tail)}th percentile", float(low)),
            ("median", float(median)), (f"{fmt(100 - tail)}th percentile", float(high)),
            ("max", float(np.max(distribution)))]
    rows += [(f"draw {i + 1}", float(x)) for i, x in enumerate(distribution[:first])]
    return [{"quantity": q, "value": v} for q, v in rows]


def bootstrap_ci(values: Any, level: float = 0.95, n_resamples: int = 10_000, seed: int | None = 0,
                 ids: Sequence[Any] | None = None) -> StatResult:
    """A percentile bootstrap confidence interval for the mean of ``values`` (one score per question).

        mean = (1/n) Σ_i x_i
        x*_b = n values drawn from x with replacement, b = 1..B;  mean*_b = their mean
        interval = the (1 − level)/2 and (1 + level)/2 quantiles of mean*_1..mean*_B

    With one value every resample is that value, so the interval collapses to it (a single
    question says nothing about spread; a note says so). ``seed=None`` draws fresh randomness.
    """
    data = inputs.scores("values", values)
    level, count, rng_seed = inputs.ci_level(level), inputs.resamples(n_resamples), inputs.seed(seed)
    question = inputs.ids(ids, len(data))
    n = len(data)
    mean = math.fsum(data) / n
    means = resampled_means(data, count, rng_seed)
    low, high = percentile_interval(means, level)
    notes = []
    if n == 1:
        low = high = mean
        notes.append("Only one value: every resample is that value, so the interval collapses to it. "
                     "One question tells nothing about how the mean would vary.")
    elif len(set(data)) == 1:
        low = high = mean
        notes.append("Every value is the same, so every resample has the same mean and the interval has width 0.")
    if n < 10:
        notes.append(f"With n = {n} the percentile bootstrap is known to give too narrow an interval; "
                     "treat it as a rough guide.")
    tail = 100 * (1 - level) / 2
    rows = [{"question": q, "value": v, "deviation": v - mean} for q, v in zip(question, data, strict=True)]
    return StatResult(
        metric="bootstrap CI", score=mean, columns=("question", "value", "deviation"), rows=rows,
        values={"n": n, "mean": mean, "n_resamples": count, "seed": rng_seed, "ci_low": low, "ci_high": high,
                "resampled_sd": float(means.std(ddof=1)) if count > 1 else 0.0},
        formula=rf"\bar x = \frac{{1}}{{{n}}}\sum_i x_i = {fmt(mean)},\quad "
                rf"[{fmt(low)},\ {fmt(high)}]",
        formula_general=r"[\,q_{\alpha/2}(\bar x^{*}),\ q_{1-\alpha/2}(\bar x^{*})\,]",
        narrative=[f"The mean of the {n} scores is {fmt(mean)}.",
                   f"Draw {count} resamples of {n} questions with replacement (numpy default_rng, seed {rng_seed}) "
                   "and take the mean of each.",
                   f"The {fmt(tail)}th and {fmt(100 - tail)}th percentiles of the resampled means are "
                   f"{fmt(low)} and {fmt(high)}: the {fmt(100 * level)}% interval."],
        notes=notes, method="percentile bootstrap", level=level, ci=(low, high), interval_of="mean",
        distribution=means, distribution_of="resampled means", summary_rows=describe(means, level))


def paired_bootstrap(a: Any, b: Any, level: float = 0.95, n_resamples: int = 10_000, seed: int | None = 0,
                     labels: tuple[str, str] = ("a", "b"), ids: Sequence[Any] | None = None) -> StatResult:
    """A percentile bootstrap interval for the mean difference a − b over the same questions.

        d_i = a_i − b_i;  estimate = mean(d)
        d*_b = n differences drawn with replacement (a question's two scores travel together)
        interval = quantiles (1 − level)/2, (1 + level)/2 of mean(d*_b);  p = min(1, 2 · min(share ≤ 0, share ≥ 0))

    Questions are resampled as pairs (both systems' scores travel together), which keeps the
    pairing that makes the comparison fair. The two-sided p-value is read off the same
    resampled means: ``2 · min(share ≤ 0, share ≥ 0)``, each share counted as
    (count + 1)/(n_resamples + 1) so it is never exactly 0, capped at 1. It is the smallest
    α at which the (1 − α) percentile interval leaves out 0.
    """
    left, right = inputs.paired(a, b)
    level, count, rng_seed = inputs.ci_level(level), inputs.resamples(n_resamples), inputs.seed(seed)
    pairs = pair_table(left, right, inputs.labels(labels), inputs.ids(ids, len(left)))
    n, mean = len(left), pairs.mean
    means = resampled_means(pairs.differences, count, rng_seed)
    low, high = (mean, mean) if n == 1 else percentile_interval(means, level)
    below, above = int((means <= 0).sum()), int((means >= 0).sum())
    p = min(1.0, 2 * min((below + 1) / (count + 1), (above + 1) / (count + 1)))
    if not any(pairs.differences):
        p = 1.0
    dz, dz_note = cohens_dz(pairs.differences)
    notes = list(pairs.notes) + ([dz_note] if dz_note else [])
    if n == 1:
        notes.append("Only one question: the interval collapses to its difference.")
    if not any(pairs.differences):
        notes.append("Every difference is 0: the interval is [0, 0] and p = 1 (no evidence of any difference).")
    la, lb = pairs.labels
    return StatResult(
        metric="paired bootstrap", score=mean, columns=pairs.columns, rows=pairs.rows,
        values={"n": n, "mean_difference": mean, **pairs.counts, "n_resamples": count, "seed": rng_seed,
                "ci_low": low, "ci_high": high, "resamples_at_most_0": below, "resamples_at_least_0": above},
        formula=rf"\bar d = \frac{{1}}{{{n}}}\sum_i (a_i - b_i) = {fmt(mean)},\quad [{fmt(low)},\ {fmt(high)}]",
        formula_general=(r"p = 2\min\left(\frac{\#\{\bar d^{*} \le 0\}+1}{R+1},\ "
                         r"\frac{\#\{\bar d^{*} \ge 0\}+1}{R+1}\right)"),
        narrative=[f"Subtract per question: d = {la} − {lb}; the mean difference is {fmt(mean)}.",
                   f"Draw {count} resamples of the {n} questions with replacement (pairs kept together; seed "
                   f"{rng_seed}) and take the mean difference of each.",
                   f"Percentile interval ({fmt(100 * level)}%): [{fmt(low)}, {fmt(high)}].",
                   f"{below} resampled means are ≤ 0 and {above} are ≥ 0, so p = {fmt(p)}."],
        notes=notes, method="percentile bootstrap over paired questions", level=level, ci=(low, high),
        interval_of="mean difference", p_value=p, effect_size=dz, effect_name="Cohen's d_z",
        distribution=means, distribution_of="resampled mean differences", summary_rows=describe(means, level))
