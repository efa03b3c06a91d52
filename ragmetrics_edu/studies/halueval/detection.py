"""Detecting hallucinated answers on HaluEval: a design's F1 against the baseline's, paired, and what the
precision would be were hallucinations rarer; the score distributions behind both.

Each function takes scored pairs (:mod:`ragmetrics_edu.studies.halueval.choosing`); the thresholds are the ones
chosen on dev (:func:`~ragmetrics_edu.studies.halueval.choosing.best_threshold`, written into the choice log).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ...errors import InputError
from ...metrics.correctness import f1_counts
from ...plots import new_figure
from ...stats import resample
from ...stats.bootstrap import percentile_interval
from ...validate import as_list, mapping, number, text
from .choosing import checked_threshold, scored

__all__ = ["precision_at", "detection_difference", "plot_distributions"]


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


def detection_difference(rows: Sequence[dict[str, Any]], baseline_rows: Sequence[dict[str, Any]],
                         thresholds: tuple[float, float], *, design: str = "design", baseline: str = "word_overlap",
                         split: str = "", base_rate: float = 0.1, n_resamples: int = 10_000,
                         seed: int = 0) -> dict[str, Any]:
    """F1 of flagging hallucinated answers, the design's rows minus the baseline's, each at its own dev threshold
    (``thresholds``: design's, baseline's), on the same pairs (those both scored), with a 95% interval that
    resamples **pairs** and a paired permutation test (within each pair the two detectors' flags are
    swapped at random). Also each detector's precision at ``base_rate`` with the same recall and false-alarm
    rate (:func:`precision_at`), with its interval from the same resampled pairs."""
    import numpy as np  # lazy: numpy loads only when resampling

    design, baseline, split = text("design", design), text("baseline", baseline), text("split", split)
    given = as_list("thresholds", thresholds, "two thresholds: the design's and the baseline's")
    if len(given) != 2:
        raise InputError("thresholds", "two thresholds: the design's and the baseline's (from the log)", thresholds)
    cut = [checked_threshold(t) for t in given]
    b = number("base_rate", base_rate, "a share of hallucinated answers, above 0 and below 1", low=0.0, high=1.0)
    if b in (0.0, 1.0):
        raise InputError("base_rate", "a share of hallucinated answers, above 0 and below 1", base_rate)
    n_resamples = int(number("n_resamples", n_resamples, "a number of resamples, at least 100", low=100))
    base = {r["pair"]: r for r in scored(baseline_rows)}
    rows = [r for r in scored(rows) if r["pair"] in base]
    if len(rows) < 10:
        raise InputError("rows", f"at least 10 pairs scored by both the design and {baseline}", len(rows))
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


def plot_distributions(rows: Mapping[str, Sequence[dict[str, Any]]], split: str,
                       thresholds: Mapping[str, float] | None = None) -> Any:
    """Score distributions of right vs hallucinated answers, one panel per design (``rows``: design -> its scored
    pairs on ``split``), with the dev threshold of each design in ``thresholds``."""
    rows, split = mapping("rows", rows, "design -> its scored pairs"), text("split", split)
    if not rows:
        raise InputError("rows", "at least one design's scored pairs", rows)
    thresholds = {} if thresholds is None else mapping("thresholds", thresholds, "design -> its dev threshold")
    fig = new_figure((4.6 * len(rows), 3.2))  # no pyplot: an inline backend would also show it raw
    axes = fig.subplots(1, len(rows), squeeze=False)
    bins = [i / 20 for i in range(21)]
    for ax, (name, found) in zip(axes[0], rows.items(), strict=True):
        for key, label, colour in (("right", "right answer", "#2a7ab0"), ("hallucinated", "hallucinated answer", "#d9742b")):
            ax.hist([r[key] for r in found if not math.isnan(r[key])], bins=bins, alpha=0.65, label=label, color=colour)
        if name in thresholds:
            ax.axvline(thresholds[name], color="black", linestyle="--", linewidth=1.2,
                       label=f"threshold (dev) {thresholds[name]:.2f}")
        ax.set_title(f"{name} ({split}, {len(found)} pairs)", fontsize=10)
        ax.set_xlabel("score")
        ax.set_xlim(0, 1)
    axes[0][0].set_ylabel("answers")
    axes[0][-1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig
