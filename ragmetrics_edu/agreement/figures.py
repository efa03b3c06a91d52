"""Figures of the agreement results: a heatmap of the confusion or similarity matrix, or the bootstrap histogram.

matplotlib is imported only here, through :func:`ragmetrics_edu.plots.new_figure` (PNG in notebooks).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..plots import figure_and_axes
from ..results import fmt
from ..stats.figures import plot_stat_result
from ..validate import as_list
from .roc import checked_curve, roc_auc, roc_points


def plot_agreement(result: Any, ax: Any = None):
    """The figure that fits ``result.figure_kind``: confusion heatmap, similarity heatmap or histogram."""
    if result.figure_kind == "confusion":
        columns, rows = result.tables["confusion matrix"]
        rater_a, rater_b = result.values["raters"]
        return _heatmap(result, [[r[c] for c in columns[1:-1]] for r in rows[:-1]],
                        [r[""] for r in rows[:-1]], list(columns[1:-1]), rater_a, rater_b, ax, integers=True)
    if result.figure_kind == "similarity":
        columns, rows = result.tables["similarity matrix"]
        return _heatmap(result, [[r[c] for c in columns[1:]] for r in rows], [r[""] for r in rows],
                        list(columns[1:]), "reference items", "judged items", ax, integers=False,
                        marked={(i, j) for i, j, _ in result.values["pairs"]})
    if result.figure_kind == "roc":
        return plot_roc([(result.metric, result.values["failed"], result.values["scores"], result.ci)], ax)
    return _histogram(result, ax)


def plot_roc(curves: list[tuple[str, list[bool], list[float], Any]], ax: Any = None, *, title: str = ""):
    """ROC curves, one per (label, failed, scores, interval-or-None): the failing class is the one flagged."""
    curves = [checked_curve(i, c) for i, c in enumerate(as_list("curves", curves, "a list of (label, failed, "
                                                                 "scores, interval or None)"))]

    fig, ax = figure_and_axes(ax, figsize=(5.2, 4.2))
    ax.plot([0, 1], [0, 1], color="0.7", linestyle="--", linewidth=1, label="chance (AUC 0.5)")
    for label, failed, scores, ci in curves:
        xs, ys = roc_points(failed, scores)
        auc = roc_auc(failed, scores)
        where = f" [{fmt(ci[0], 2)}, {fmt(ci[1], 2)}]" if ci else ""
        ax.plot(xs, ys, linewidth=1.8, label=f"{label}: AUC {fmt(auc, 3)}{where}")
    ax.set_xlabel("passing answers flagged (false positive rate)")
    ax.set_ylabel("failing answers flagged (recall)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=7, loc="lower right")
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


def _heatmap(result: Any, cells: list[list[float]], row_names: list[str], col_names: list[str], ylabel: str,
             xlabel: str, ax: Any, *, integers: bool, marked: set[tuple[int, int]] | None = None):
    n_rows, n_cols = max(len(row_names), 1), max(len(col_names), 1)
    # a column as wide as its longest tick label at 8 pt (about 0.065 in a character), so labels never overlap
    column = max(0.9, 0.065 * max((len(str(n)) for n in col_names), default=0) + 0.3)
    fig, ax = figure_and_axes(ax, figsize=(1.6 + column * n_cols, 1.2 + 0.7 * n_rows))
    if cells and cells[0]:
        top = max(max(row) for row in cells) or 1
        ax.imshow(cells, cmap="Greens", vmin=0, vmax=top if integers else 1, aspect="auto")
        for i, row in enumerate(cells):
            for j, value in enumerate(row):
                bold = "bold" if (marked and (i, j) in marked) or (integers and i == j) else "normal"
                colour = "white" if value > 0.6 * (top if integers else 1) else "black"
                ax.text(j, i, fmt(value, 2), ha="center", va="center", fontsize=9, color=colour, fontweight=bold)
    ax.set_xticks(range(len(col_names)), col_names, fontsize=8)
    ax.set_yticks(range(len(row_names)), row_names, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(result.headline() if len(result.headline()) < 70 else f"{result.metric}: {fmt(result.score)}",
                 fontsize=9)
    fig.tight_layout()
    return fig


def _histogram(result: Any, ax: Any):
    """The bootstrap distribution, drawn the way :mod:`ragmetrics_edu.stats` draws its intervals."""
    if result.distribution is None:
        return _heatmap(result, [], [], [], "", "", ax, integers=False)
    view = SimpleNamespace(metric=result.metric, score=result.score, p_value=None, ci=result.ci,
                           level=result.level, distribution=result.distribution,
                           distribution_of="resampled values", values={}, effect_name="")
    return plot_stat_result(view, ax)
