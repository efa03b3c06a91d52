"""ROC AUC and its inputs: the arithmetic the validation report and the ROC figure share.

``failed`` is True for an answer people labelled as failing; ``scores`` are the judge's, higher meaning
"passes". AUC is the probability that a passing answer scores above a failing one (ties count half).
"""

from __future__ import annotations

import bisect
import math
from typing import Any, Sequence

from ..errors import InputError
from ..validate import as_list

__all__ = ["labels_of", "scores_of", "checked_curve", "roc_auc", "roc_points"]


def labels_of(value: Any) -> list[bool]:
    out = as_list("failed", value, "a list of True/False (True: people labelled the answer as failing)")
    for i, v in enumerate(out):
        if not isinstance(v, bool) and not (isinstance(v, int) and v in (0, 1)):
            raise InputError(f"failed[{i}]", "True or False (or 1/0)", v)
    return [bool(v) for v in out]


def scores_of(field: str, value: Any, n: int) -> list[float]:
    out = as_list(field, value, "a list of numbers (higher: passes)")
    if len(out) != n:
        raise InputError(field, f"one score per label ({n})", f"{len(out)} scores")
    for i, v in enumerate(out):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(float(v)):
            raise InputError(f"{field}[{i}]", "a number (drop or impute the unscored answers first)", v)
    return [float(v) for v in out]


def checked_curve(index: int, curve: Any) -> tuple[str, list[bool], list[float], Any]:
    """One ROC curve's (label, failed, scores, interval or None), checked (for :func:`.figures.plot_roc`)."""
    expected = "a (label, failed, scores, interval or None) tuple"
    if not isinstance(curve, (tuple, list)):
        raise InputError(f"curves[{index}]", expected, curve)
    items = as_list(f"curves[{index}]", curve, expected)
    if len(items) != 4:
        raise InputError(f"curves[{index}]", expected, curve)
    label, failed, scores, ci = items
    labels = labels_of(failed)
    if ci is not None and not (isinstance(ci, (tuple, list)) and len(ci) == 2):
        raise InputError(f"curves[{index}]", "an interval (low, high) or None as its fourth item", ci)
    return str(label), labels, scores_of("scores", scores, len(labels)), ci


def roc_auc(failed: Sequence[bool], scores: Sequence[float]) -> float:
    """P(a passing answer scores above a failing one), ties counting half; NaN when a class is empty.

        AUC = (1 / (P · F)) Σ_{p passing} Σ_{f failing} ([s_p > s_f] + ½ [s_p = s_f])
    """
    failed = labels_of(failed)
    values = scores_of("scores", scores, len(failed))
    passing = [s for s, f in zip(values, failed, strict=True) if not f]
    failing = [s for s, f in zip(values, failed, strict=True) if f]
    if not passing or not failing:
        return math.nan
    ordered = sorted(failing)
    total = 0.0
    for s in passing:
        below = bisect.bisect_left(ordered, s)
        ties = bisect.bisect_right(ordered, s) - below
        total += below + 0.5 * ties
    return total / (len(passing) * len(failing))


def roc_points(failed: list[bool], scores: list[float]) -> tuple[list[float], list[float]]:
    """The ROC curve of flagging an answer when its score is at or below a cut: (false, true) flag rates."""
    n_fail = sum(failed)
    n_pass = len(failed) - n_fail
    xs, ys = [0.0], [0.0]
    for cut in sorted(set(scores)):
        flagged = [s <= cut for s in scores]
        ys.append(sum(f and g for f, g in zip(failed, flagged, strict=True)) / max(n_fail, 1))
        xs.append(sum(g and not f for f, g in zip(failed, flagged, strict=True)) / max(n_pass, 1))
    return xs, ys
