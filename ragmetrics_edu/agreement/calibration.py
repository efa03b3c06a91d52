"""Does a probability mean what it says? A reliability table, the expected calibration error and the Brier score.

A judge that says p = 0.3 for a set of items is **calibrated** when about 30 % of them turn out true.
:func:`reliability` bins the probabilities (equal-width bins from 0 to 1) and, per bin, compares the mean p with
the share of items that were true:

* **ECE**, the expected calibration error: the bins' gaps |mean p − share true|, weighted by their items;
* **Brier score**: the mean squared gap (p − y)² between each probability and its 0/1 outcome. It rewards
  calibration *and* telling items apart (resolution), so a constant can be perfectly calibrated and still
  have a poor Brier score.

:func:`brier_skill` sets a Brier score against a reference forecast (usually the base rate, the constant share
true): skill = 1 − Brier / Brier(reference), 0 no better than the constant, below 0 worse. Its interval
resamples groups (sources), because items of one source are not independent: a percentile cluster bootstrap,
which tends to be too narrow with 10 to 30 groups, so prefer 30 or more for a decision.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import InputError
from ..stats import inputs, resample
from ..stats.bootstrap import percentile_interval
from ..stats.grouped import group_indices
from ..validate import as_list, flag, integer, number

__all__ = ["BINS", "reliability", "base_rate", "brier_skill"]

#: equal-width bins of p from 0 to 1
BINS = 10


def _probabilities(name: str, values: Any) -> list[float]:
    return [number(f"{name}[{i}]", v, "a probability from 0 to 1", low=0.0, high=1.0)
            for i, v in enumerate(as_list(name, values, "a list of probabilities"))]


def _outcomes(values: Any, n: int) -> list[bool]:
    found = [flag(f"outcome[{i}]", v) for i, v in enumerate(as_list("outcome", values, "a list of True/False"))]
    if len(found) != n or not found:
        raise InputError("outcome", f"one True/False per probability ({n})", len(found))
    return found


def reliability(p: Sequence[float], outcome: Sequence[bool], bins: int = BINS) -> dict[str, Any]:
    """Per equal-width bin of ``p`` (a value of exactly 1 goes in the last bin): its items, mean p and share true;
    with the expected calibration error (``ece``), the Brier score (``brier``) and the share true overall."""
    bins = integer("bins", bins, low=2, high=100, expected="from 2 to 100 bins")
    p = _probabilities("p", p)
    y = _outcomes(outcome, len(p))
    rows = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        ks = [k for k, v in enumerate(p) if low <= v < high or (b == bins - 1 and v == 1.0)]
        if ks:
            rows.append({"low": low, "high": high, "items": len(ks), "mean_p": sum(p[k] for k in ks) / len(ks),
                         "share_true": sum(y[k] for k in ks) / len(ks)})
    ece = sum(r["items"] * abs(r["mean_p"] - r["share_true"]) for r in rows) / len(p)
    brier = sum((v - t) ** 2 for v, t in zip(p, y, strict=True)) / len(p)
    return {"rows": rows, "ece": ece, "brier": brier, "items": len(p), "share_true": sum(y) / len(p)}


def base_rate(outcome: Sequence[bool], groups: Sequence[Any]) -> list[float]:
    """The constant forecast, left one group out: each item gets the share true over the items of every other
    group (so it is evaluated as a cross-fitted calibration is)."""
    y = _outcomes(outcome, len(as_list("outcome", outcome, "a list of True/False")))
    labels = inputs.group_labels("groups", groups, len(y))
    total: dict[Any, int] = {}
    kept: dict[Any, int] = {}
    for t, g in zip(y, labels, strict=True):
        total[g] = total.get(g, 0) + 1
        kept[g] = kept.get(g, 0) + t
    if len(total) < 2:
        raise InputError("groups", "items from at least 2 groups", len(total))
    n, k = len(y), sum(y)
    return [(k - kept[g]) / (n - total[g]) for g in labels]


def brier_skill(p: Sequence[float], reference: Sequence[float], outcome: Sequence[bool], groups: Sequence[Any], *,
                level: float = 0.95, n_resamples: int = 2000, seed: int | None = 0) -> dict[str, Any]:
    """1 − Brier(p) / Brier(reference) on these items, with a percentile interval that resamples ``groups``
    (each resample draws as many groups as there are, with replacement, and sums their squared errors)."""
    import numpy as np  # lazy: numpy loads only when resampling

    p = _probabilities("p", p)
    ref = _probabilities("reference", reference)
    if len(ref) != len(p):
        raise InputError("reference", f"one probability per item ({len(p)})", len(ref))
    y = np.array(_outcomes(outcome, len(p)), dtype=float)
    labels = inputs.group_labels("groups", groups, len(p))
    n_resamples, seed = inputs.resamples(n_resamples), inputs.seed(seed)
    level = number("level", level, "a level strictly between 0 and 1", low=0.0, high=1.0, low_open=True,
                   high_open=True)
    order, members = group_indices(labels)
    if len(order) < 2:
        raise InputError("groups", "items from at least 2 groups", len(order))
    mine = np.array([((np.array(p)[m] - y[m]) ** 2).sum() for m in members])
    base = np.array([((np.array(ref)[m] - y[m]) ** 2).sum() for m in members])
    if base.sum() == 0:
        raise InputError("reference", "a reference with some error (its Brier score is 0)", reference)
    skills = np.empty(n_resamples)
    for start, stop, drawn in resample.draw_batches(len(order), n_resamples, seed):
        skills[start:stop] = 1 - mine[drawn].sum(axis=1) / base[drawn].sum(axis=1)
    return {"skill": float(1 - mine.sum() / base.sum()), "ci": percentile_interval(skills, level),
            "groups": len(order), "items": len(p), "level": level}
