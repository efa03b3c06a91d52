"""Matplotlib figures of the metrics, named after what they draw.

matplotlib is imported inside each function so importing the library stays light.
Figures are returned (not shown) so notebooks control display; use PNG output.
"""

from __future__ import annotations

from typing import Any

from .results import MetricResult, fmt

RELEVANT, IRRELEVANT = "#2a9d8f", "#c8c8c8"


def new_figure(figsize: tuple[float, float] = (6, 3), dpi: int = 100):
    """A matplotlib Figure that shows itself as PNG in any notebook, without pyplot.

    Keeping clear of pyplot means no global figure list to leak and no backend to pick;
    ``_repr_png_`` is what Jupyter, VS Code and Colab call to display it.
    """
    from matplotlib.figure import Figure

    class NotebookFigure(Figure):
        def _repr_png_(self) -> bytes:
            import io

            buffer = io.BytesIO()
            self.savefig(buffer, format="png")
            return buffer.getvalue()

    return NotebookFigure(figsize=figsize, dpi=dpi)


def plot_per_k_terms(result: MetricResult, ax: Any = None):
    """Bars of precision@k at every rank, filled where the node is relevant (the term)."""
    if ax is None:
        fig = new_figure()
        ax = fig.subplots()
    else:
        fig = ax.figure
    ks = [row["k"] for row in result.rows]
    precision = [row["precision_at_k"] for row in result.rows]
    colours = [RELEVANT if row["relevant"] else IRRELEVANT for row in result.rows]
    ax.bar(ks, precision, color=colours, edgecolor="#555555")
    for k, p, row in zip(ks, precision, result.rows):
        ax.text(k, p + 0.02, f"term {fmt(row['term'], 3)}", ha="center", fontsize=8)
    ax.set_xticks(ks)
    ax.set_ylim(0, 1.15)
    ax.set_xlabel("rank k (grey: r_k = 0, term is 0)")
    ax.set_ylabel("precision@k")
    ax.set_title(f"{result.name}: score {fmt(result.score)}")
    fig.tight_layout()
    return fig
