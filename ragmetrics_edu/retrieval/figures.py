"""The retrieval lab's figure: each retriever's mean per measure, side by side (PNG in notebooks)."""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..plots import figure_and_axes
from ..results import fmt
from ..validate import number, text
from .retrievers import LABELS, MEASURES

__all__ = ["plot_retriever_comparison"]


def plot_retriever_comparison(means: dict[str, dict[str, float]], ax: Any = None, title: str = ""):
    """Grouped bars: one group per measure, one bar per retriever (PNG in notebooks)."""
    if not isinstance(means, dict) or not 1 <= len(means) <= 20 or not all(
            isinstance(k, str) and isinstance(v, dict) for k, v in means.items()):
        raise InputError("means", "a dict retriever name -> {measure: mean score} (1 to 20 retrievers)", means)
    for name, scores in means.items():
        for measure, value in scores.items():
            number(f"means[{name!r}][{measure!r}]", value, "a finite mean score")
    title = text("title", title)
    names = list(means)
    measures = [m for m in MEASURES if all(m in means[n] for n in names)]
    fig, ax = figure_and_axes(ax, figsize=(7.5, 3.4))
    colours = ["#264653", "#2a9d8f", "#e9c46a", "#e76f51"]
    width = 0.8 / len(names)
    for j, name in enumerate(names):
        xs = [i + (j - (len(names) - 1) / 2) * width for i in range(len(measures))]
        ys = [means[name][m] for m in measures]
        ax.bar(xs, ys, width=width, label=name, color=colours[j % len(colours)])
        for x, y in zip(xs, ys, strict=True):
            ax.text(x, y + 0.015, fmt(y, 3), ha="center", fontsize=7)
    ax.set_xticks(range(len(measures)))
    ax.set_xticklabels([LABELS[m] for m in measures], fontsize=8)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("mean over the questions")
    ax.legend(fontsize=8, loc="upper left", ncol=len(names), frameon=False)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
