"""The grouped (cluster) bootstrap: resample the independent units, not the items inside them.

Items that share a case (the verdicts on one answer's claims) or a pair (a right and a wrong
answer to one question) are not independent: resampling items as if they were makes the
interval too narrow. The grouped bootstrap draws whole groups with replacement, keeps every item
of a drawn group, and takes the mean over the items drawn. With one item per group it is the
ordinary bootstrap, draw for draw (same generator, same indices).

Under ``min_groups`` groups (10 by default) no interval is given: the result says the data is
too small to tell, instead of printing an interval that looks precise and is not.
"""

from __future__ import annotations

import math
from typing import Any, Hashable, Sequence

from ..results import fmt
from . import inputs, resample
from .bootstrap import describe, percentile_interval
from .result import StatResult

__all__ = ["grouped_bootstrap_ci", "group_indices"]


def group_indices(groups: Sequence[Hashable]) -> tuple[list[Hashable], list[list[int]]]:
    """The distinct groups in first-seen order, and the item positions of each."""
    order: list[Hashable] = []
    members: dict[Hashable, list[int]] = {}
    for i, g in enumerate(groups):
        if g not in members:
            members[g] = []
            order.append(g)
        members[g].append(i)
    return order, [members[g] for g in order]



def _resampled_group_means(data: Any, members: list[list[int]], n_resamples: int, seed: int | None) -> Any:
    import numpy as np  # lazy: numpy loads only when resampling

    sums = np.array([data[m].sum() for m in members])
    sizes = np.array([len(m) for m in members], dtype=float)
    out = np.empty(n_resamples)
    for start, stop, drawn in resample.draw_batches(len(members), n_resamples, seed):
        out[start:stop] = sums[drawn].sum(axis=1) / sizes[drawn].sum(axis=1)
    return out


def grouped_bootstrap_ci(values: Any, groups: Any, level: float = 0.95, n_resamples: int = 10_000,
                         seed: int | None = 0, min_groups: int = 10) -> StatResult:
    """A percentile interval for the mean of ``values`` that resamples ``groups`` (one label per value).

        estimate = mean of all items
        resample b: G groups drawn from the G groups with replacement;  mean*_b = mean of the items they hold
        interval = quantiles (1 − level)/2, (1 + level)/2 of mean*_1..mean*_B   (no interval under min_groups)

    The estimate is the mean over all items; each resample draws as many groups as there are,
    with replacement, and averages the items they hold. ``interval`` is None under ``min_groups``.
    """
    import numpy as np  # lazy: numpy loads only when resampling

    data = inputs.scores("values", values)
    labels = inputs.group_labels("groups", groups, len(data))
    level, count, rng_seed = inputs.ci_level(level), inputs.resamples(n_resamples), inputs.seed(seed)
    floor = inputs.positive_int_at_most("min_groups", min_groups, 1000)
    order, members = group_indices(labels)
    k, n = len(order), len(data)
    mean = math.fsum(data) / n
    means = _resampled_group_means(np.asarray(data, dtype=float), members, count, rng_seed)
    notes = [f"{n} items in {k} groups: the groups are resampled, so the interval reflects {k} independent units, "
             f"not {n}."]
    interval: tuple[float, float] | None = percentile_interval(means, level)
    if k < floor:
        interval = None
        notes.append(f"Only {k} groups (under {floor}): too few to tell; no interval is given.")
    rows = [{"group": g, "items": len(m), "mean": math.fsum(data[i] for i in m) / len(m)}
            for g, m in zip(order, members, strict=True)]
    low, high = interval if interval is not None else (math.nan, math.nan)
    shown = f"[{fmt(low)}, {fmt(high)}]" if interval is not None else "no interval (too few groups)"
    return StatResult(
        metric="grouped bootstrap CI", score=mean, columns=("group", "items", "mean"), rows=rows,
        values={"n_items": n, "n_groups": k, "mean": mean, "n_resamples": count, "seed": rng_seed,
                "ci_low": low, "ci_high": high},
        formula=rf"\bar x = \frac{{1}}{{{n}}}\sum_i x_i = {fmt(mean)}",
        formula_general=r"\bar x^{*} = \frac{\sum_{g \in G^{*}} \sum_{i \in g} x_i}{\sum_{g \in G^{*}} |g|}",
        narrative=[f"The mean of the {n} items is {fmt(mean)}.",
                   f"Draw {count} resamples of the {k} groups with replacement (numpy default_rng, seed {rng_seed}); "
                   "each keeps every item of the groups it drew, and its mean is over those items.",
                   f"The {fmt(100 * level)}% percentile interval: {shown}."],
        notes=notes, method="percentile bootstrap over groups", level=level, ci=interval,
        interval_of="mean", distribution=means, distribution_of="resampled means (groups drawn)",
        summary_rows=describe(means, level))
