"""The HaluEval study's winner's curse, shown paired, and its detectors compared paired.

Read from the choice log and the recordings of :mod:`ragmetrics_edu.course.halueval.study` (notebook 11, deck 11).
"""

from __future__ import annotations

import math
from typing import Any

from ...errors import InputError
from ...metrics.correctness import f1_counts
from ...stats import resample
from ...stats.bootstrap import percentile_interval
from ...validate import number
from .study import checked_split, checked_threshold, design_of, scored_pairs

__all__ = ["curse_rows", "precision_at", "detection_difference"]


def curse_rows(found: dict[str, Any]) -> list[dict[str, Any]]:
    """The chosen design's dev and test rows of the choice log (``{"design", "dev", "test"}``, notebook 11 builds
    it in view) for a 100-column printout: one per part."""
    if not isinstance(found, dict) or not {"design", "dev", "test"} <= set(found):
        raise InputError("found", "a dict with design, dev and test (the chosen design's rows)", found)
    return [{"part": part, "pairs": r["pairs"], found["design"]: f"{r['pairwise']:.3f}",
             "word_overlap": f"{r['baseline_pairwise']:.3f}",
             "chosen − overlap [95% CI]": f"{r['difference']:+.3f} [{r['difference_ci'][0]:+.3f}, "
                                          f"{r['difference_ci'][1]:+.3f}]",
             "+/-": f"+{r['better']}/-{r['worse']}"}
            for part, r in (("dev", found["dev"]), ("test", found["test"]))]


def precision_at(base_rate: float, recall: float, false_alarm_rate: float) -> float:
    """Precision of a detector with this recall (true positive rate) and false-alarm rate (false positive
    rate) where a share ``base_rate`` of the answers are hallucinated: b·recall / (b·recall + (1 − b)·fa).
    HaluEval's pairs have b = 0.5; precision falls as hallucinations get rarer. NaN when nothing is flagged."""
    b = number("base_rate", base_rate, "a share of hallucinated answers, above 0 and below 1", low=0.0, high=1.0)
    if b in (0.0, 1.0):
        raise InputError("base_rate", "a share of hallucinated answers, above 0 and below 1", base_rate)
    r = number("recall", recall, "a true positive rate, 0 to 1", low=0.0, high=1.0)
    f = number("false_alarm_rate", false_alarm_rate, "a false positive rate, 0 to 1", low=0.0, high=1.0)
    flagged = b * r + (1 - b) * f
    return b * r / flagged if flagged else math.nan


def detection_difference(design: str, split: str, thresholds: tuple[float, float], *,
                         baseline: str = "word_overlap", base_rate: float = 0.1, n_resamples: int = 10_000,
                         seed: int = 0) -> dict[str, Any]:
    """F1 of flagging hallucinated answers, ``design`` minus ``baseline``, each at its own dev threshold
    (``thresholds``: design's, baseline's), on the same pairs (those both scored), with a 95% interval that
    resamples **pairs** and a paired permutation test (within each pair the two detectors' flags are
    swapped at random). Also each detector's precision at ``base_rate`` with the same recall and false-alarm
    rate (:func:`precision_at`), with its interval from the same resampled pairs."""
    import numpy as np  # lazy: numpy loads only when resampling

    design, baseline, split = design_of(design).name, design_of(baseline).name, checked_split(split)
    if not isinstance(thresholds, (tuple, list)) or len(thresholds) != 2:
        raise InputError("thresholds", "two thresholds: the design's and the baseline's (from the log)", thresholds)
    cut = [checked_threshold(t) for t in thresholds]
    b = number("base_rate", base_rate, "a share of hallucinated answers, above 0 and below 1", low=0.0, high=1.0)
    if b in (0.0, 1.0):
        raise InputError("base_rate", "a share of hallucinated answers, above 0 and below 1", base_rate)
    n_resamples = int(number("n_resamples", n_resamples, "a number of resamples, at least 100", low=100))
    both = {r["pair"] for r in scored_pairs(baseline, split)}
    rows = [r for r in scored_pairs(design, split) if r["pair"] in both]
    base = {r["pair"]: r for r in scored_pairs(baseline, split)}
    if len(rows) < 10:
        raise InputError("design", f"a design scored on at least 10 {split} pairs with {baseline}", design)
    # per pair: the hallucinated answer flagged (a catch), the right answer flagged (a false alarm)
    flags = np.array([[r["hallucinated"] < cut[0], r["right"] < cut[0],
                       base[r["pair"]]["hallucinated"] < cut[1], base[r["pair"]]["right"] < cut[1]]
                      for r in rows], dtype=float)
    n = len(rows)

    def f1(tp: Any, fp: Any) -> Any:
        return f1_counts(tp, fp, n - tp)  # every pair has one hallucinated answer: fn = n - tp

    def at_rate(tp: Any, fp: Any) -> Any:
        flagged = b * tp + (1 - b) * fp
        return np.where(flagged > 0, b * tp / np.where(flagged > 0, flagged, 1.0), np.nan)

    sums = flags.sum(axis=0)
    observed = float(f1(sums[0], sums[1]) - f1(sums[2], sums[3]))
    rng = resample.generator(seed)
    drawn = flags[resample.draw(rng, n, n_resamples)].sum(axis=1)        # resampled pairs: (R, 4) counts
    diffs = f1(drawn[:, 0], drawn[:, 1]) - f1(drawn[:, 2], drawn[:, 3])
    swap = resample.draw(rng, n, n_resamples, high=2).astype(bool)
    mine = np.where(swap[..., None], flags[None, :, 2:], flags[None, :, :2]).sum(axis=1)
    theirs = flags[:, :2].sum(axis=0) + flags[:, 2:].sum(axis=0) - mine
    null = f1(mine[:, 0], mine[:, 1]) - f1(theirs[:, 0], theirs[:, 1])
    p = float((np.sum(np.abs(null) >= abs(observed) - 1e-12) + 1) / (n_resamples + 1))
    low, high = percentile_interval(diffs, 0.95)
    out: dict[str, Any] = {"design": design, "baseline": baseline, "split": split, "pairs": n,
                           "f1": float(f1(sums[0], sums[1])), "baseline_f1": float(f1(sums[2], sums[3])),
                           "difference": observed, "difference_ci": (low, high), "permutation_p": p,
                           "flagged_apart": int(np.sum(flags[:, 0] != flags[:, 2]) + np.sum(flags[:, 1] != flags[:, 3])),
                           "tells_apart": not (low <= 0 <= high), "base_rate": b}
    for key, (tp, fp) in (("precision_at", (0, 1)), ("baseline_precision_at", (2, 3))):
        point = precision_at(b, sums[tp] / n, sums[fp] / n)
        spread = at_rate(drawn[:, tp] / n, drawn[:, fp] / n)
        out[key] = point
        out[key + "_ci"] = percentile_interval(spread[~np.isnan(spread)], 0.95)
    return out
