"""Figures of the statistics results: the distribution each number was read from.

matplotlib is imported only here, through :func:`ragmetrics_edu.plots.new_figure` (PNG in notebooks).
"""

from __future__ import annotations

from typing import Any

from ..plots import RELEVANT, VERDICT_COLOURS, figure_and_axes
from ..results import fmt

SHADE = VERDICT_COLOURS["no"]


def plot_stat_result(result: Any, ax: Any = None):
    """Histogram of resampled means / null distribution, or the sign test's binomial bars."""
    fig, ax = figure_and_axes(ax, figsize=(6.5, 3.2))
    if result.metric == "sign test":
        _binomial_bars(result, ax)
    else:
        _histogram(result, ax)
    fig.tight_layout()
    return fig


def _histogram(result: Any, ax: Any) -> None:
    import numpy as np  # lazy: numpy loads only when resampling

    data = np.asarray(result.distribution, dtype=float)
    bins = 60 if len(data) > 5000 else min(60, max(5, len(np.unique(data))))
    ax.hist(data, bins=bins, color="#c8c8c8", edgecolor="#888888")
    estimate = result.score
    if result.p_value is not None and result.metric == "permutation test":
        for x in (-abs(estimate), abs(estimate)):
            ax.axvline(x, color=SHADE, linewidth=1.5)
        ax.set_title(f"null distribution ({len(data)} flips); |observed| = {fmt(abs(estimate))}, "
                     f"p = {fmt(result.p_value)}", fontsize=9)
    else:
        ax.axvline(estimate, color="#264653", linewidth=1.5, label=f"observed {fmt(estimate)}")
        if result.ci is not None:
            low, high = result.ci
            ax.axvspan(low, high, color=RELEVANT, alpha=0.2,
                       label=f"{fmt(100 * result.level)}% interval [{fmt(low)}, {fmt(high)}]")
        if result.metric == "paired bootstrap":
            ax.axvline(0, color=SHADE, linestyle="--", linewidth=1, label="no difference")
        ax.legend(fontsize=8)
        ax.set_title(f"{result.metric}: {len(data)} {result.distribution_of}", fontsize=9)
    ax.set_xlabel(result.distribution_of)
    ax.set_ylabel("count")


def _binomial_bars(result: Any, ax: Any) -> None:
    pmf = list(result.distribution)
    wins = result.values["wins"]
    limit = pmf[wins] * (1 + 1e-7) if pmf else 0
    colours = [SHADE if q <= limit else "#c8c8c8" for q in pmf]
    ax.bar(range(len(pmf)), pmf, color=colours, edgecolor="#888888")
    ax.axvline(wins, color="#264653", linewidth=1.5)
    ax.set_xlabel(f"{result.effect_name.replace('share of ', '')} among {len(pmf) - 1} non-tied questions")
    ax.set_ylabel("probability under the null")
    ax.set_title(f"sign test: observed {wins}; red bars are at most as likely, they sum to p = "
                 f"{fmt(result.p_value)}", fontsize=9)
