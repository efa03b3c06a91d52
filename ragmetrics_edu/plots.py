"""Matplotlib figures of the metrics, named after what they draw.

matplotlib is imported inside each function so importing the library stays light.
Figures are returned (not shown) so notebooks control display; use PNG output.
"""

from __future__ import annotations

import io
import warnings
from typing import Any

from .errors import InputError
from .results import MetricResult, fmt
from .validate import as_list, instance, integer, number, text

RELEVANT, IRRELEVANT = "#2a9d8f", "#c8c8c8"
#: The most rows (statements, ranks, entities, bars) a figure draws: past it a figure is unreadable
#: and slow to lay out, so an InputError says so.
MAX_ROWS = 200
#: zlib level 3 instead of Pillow's 6: the same pixels (PNG is lossless), encoded about twice as
#: fast, and the plots' flat colours make the file no larger (measured: savefig 0.17 s instead of
#: 0.23 s for a 1000 x 300 figure, 37.8 kB instead of 40.3 kB).
PNG_OPTIONS = {"compress_level": 3}


#: The widest a notebook shows a figure (px): about JupyterLab's output area on a 1024 px laptop screen
#: (590 px with the file browser open, 840 px with it shut). A wider figure is scaled down to fit.
SHOWN_WIDTH_PX = 700
#: The smallest text a figure shows (px, as rendered at :data:`SHOWN_WIDTH_PX`).
MIN_TEXT_PX = 10.0


def min_font_pt(fig: Any) -> float:
    """The smallest font size (points) that still renders at :data:`MIN_TEXT_PX` in a notebook:
    a figure wider than :data:`SHOWN_WIDTH_PX` is scaled down, so its text must be set larger."""
    from matplotlib.figure import Figure  # lazy: matplotlib loads only when drawing

    fig = instance("fig", fig, Figure, "a matplotlib figure")
    width_px = fig.get_figwidth() * fig.dpi
    scale = min(1.0, SHOWN_WIDTH_PX / width_px)
    return MIN_TEXT_PX * 72 / fig.dpi / scale


def make_readable(fig: Any) -> int:
    """Raise every text of ``fig`` set smaller than :func:`min_font_pt` to it, and lay the figure out
    again if any was raised (``tight_layout``), so no label runs into another. Returns how many texts
    were raised. A multi-panel figure shrunk to fit a laptop's notebook stays readable this way."""
    from matplotlib.text import Text  # lazy: matplotlib loads only when drawing

    floor = min_font_pt(fig)
    raised = 0
    for ax in fig.axes:  # tick labels are made at each draw, from the axis' tick parameters
        for axis in (ax.xaxis, ax.yaxis):
            labels = axis.get_ticklabels()
            if labels and labels[0].get_fontsize() < floor - 1e-9:
                axis.set_tick_params(labelsize=floor)
                raised += 1
    for item in fig.findobj(Text):
        if item.get_text() and item.get_visible() and item.get_fontsize() < floor - 1e-9:
            item.set_fontsize(floor)
            raised += 1
    if raised and fig.get_layout_engine() is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "not compatible with tight_layout": the layout is kept as it is
            fig.tight_layout()
    return raised


def new_figure(figsize: tuple[float, float] = (6, 3), dpi: int = 100):
    """A matplotlib Figure that shows itself as PNG in any notebook, without pyplot.

    Keeping clear of pyplot means no global figure list to leak and no backend to pick;
    ``_repr_png_`` is what Jupyter, VS Code and Colab call to display it. Shown, it is made readable
    on a laptop (:func:`make_readable`: no text under about 10 px) and cropped to what it draws
    (``bbox_inches="tight"``), so a label reaching past the edge is never cut.
    """
    from matplotlib.figure import Figure  # lazy: matplotlib loads only when drawing

    size = as_list("figsize", figsize, "(width, height) in inches")
    if len(size) != 2:
        raise InputError("figsize", "(width, height) in inches", figsize)
    figsize = (size[0], size[1])
    figsize = (number("figsize", figsize[0], "a width from 0.5 to 100 inches", low=0.5, high=100),
               number("figsize", figsize[1], "a height from 0.5 to 100 inches", low=0.5, high=100))
    dpi = integer("dpi", dpi, low=10, high=1000)

    class NotebookFigure(Figure):
        def _repr_png_(self) -> bytes:
            make_readable(self)
            buffer = io.BytesIO()
            self.savefig(buffer, format="png", bbox_inches="tight", pad_inches=0.05, pil_kwargs=PNG_OPTIONS)
            return buffer.getvalue()

    return NotebookFigure(figsize=figsize, dpi=dpi)


def figure_and_axes(ax: Any = None, **figure: Any) -> tuple[Any, Any]:
    """The axes to draw on: the caller's ``ax`` (with its figure), else one on a new :func:`new_figure`."""
    if ax is not None:
        return ax.figure, ax
    fig = new_figure(**figure)
    return fig, fig.subplots()


def _result(result: Any, what: str, columns: tuple[str, ...] = (), values: tuple[str, ...] = ()) -> MetricResult:
    """The ``result`` a figure draws: a MetricResult with the step columns and values it reads."""
    if (not isinstance(result, MetricResult) or any(c not in result.columns for c in columns)
            or any(v not in result.values for v in values)):
        raise InputError("result", f"the MetricResult of {what}", result if not isinstance(result, MetricResult)
                         else f"a {result.metric} result")
    if len(result.rows) > MAX_ROWS:
        raise InputError("result", f"a result with at most {MAX_ROWS} step rows to draw",
                         f"{len(result.rows)} rows", hint="read result.steps instead")
    return result


def plot_per_k_terms(result: MetricResult, ax: Any = None):
    """Bars of precision@k at every rank, filled where the node is relevant (the term)."""
    result = _result(result, "a context precision (or average precision)", ("k", "precision_at_k", "relevant", "term"))
    fig, ax = figure_and_axes(ax)
    ks = [row["k"] for row in result.rows]
    precision = [row["precision_at_k"] for row in result.rows]
    colours = [RELEVANT if row["relevant"] else IRRELEVANT for row in result.rows]
    ax.bar(ks, precision, color=colours, edgecolor="#555555")
    for k, p, row in zip(ks, precision, result.rows, strict=True):
        ax.text(k, p + 0.02, f"term {fmt(row['term'], 3)}", ha="center", fontsize=8)
    ax.set_xticks(ks)
    ax.set_ylim(0, 1.15)
    ax.set_xlabel("rank k (grey: r_k = 0, term is 0)")
    ax.set_ylabel("precision@k")
    ax.set_title(f"{result.name}: score {fmt(result.score)}")
    fig.tight_layout()
    return fig


VERDICT_COLOURS = {"yes": "#2a9d8f", "no": "#e76f51", "idk": "#e9c46a"}


def _text_column(result: MetricResult) -> str:
    for name in ("statement", "claim", "generated_question", "entity"):
        if name in result.columns:
            return name
    return result.columns[1]


def plot_statements(result: MetricResult, ax: Any = None, width: int = 60):
    """One row per statement (or claim), coloured by its verdict; counted rows in bold.

    Works for context recall, contextual relevancy, faithfulness and answer relevancy.
    """
    result = _result(result, "context recall, contextual relevancy, faithfulness or answer relevancy")
    if not any(name in result.columns for name in ("statement", "claim", "generated_question", "entity")):
        raise InputError("result", "a result with one row per statement or claim", f"a {result.metric} result")
    width = integer("width", width, low=2, high=10_000)
    rows = result.rows
    fig, ax = figure_and_axes(ax, figsize=(7, 0.45 * max(len(rows), 1) + 1.1))
    column = _text_column(result)
    count_col = next((c for c in ("attributable", "relevant", "counts") if c in result.columns), None)
    for y, row in enumerate(rows):
        verdict = row.get("verdict", "yes" if count_col and row.get(count_col) else "no")
        ax.barh(y, 1, color=VERDICT_COLOURS.get(verdict, "#cccccc"), edgecolor="white")
        label = str(row[column])
        label = label if len(label) <= width else label[: width - 1] + "…"
        prefix = f"node {row['node']} · " if "node" in row and row["node"] is not None else ""
        counted = bool(row.get(count_col)) if count_col else verdict == "yes"
        ax.text(0.02, y, f"{prefix}{label}", va="center", fontsize=8, fontweight="bold" if counted else "normal")
        ax.text(0.98, y, verdict, va="center", ha="right", fontsize=8)
    ax.set_yticks([])
    ax.set_xticks([])
    ax.set_xlim(0, 1)
    ax.set_ylim(max(len(rows), 1) - 0.5, -0.5)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    counted = next((result.values[k] for k in ("attributable", "relevant", "faithful") if k in result.values), 0)
    ax.set_title(f"{result.name}: {counted}/{result.values.get('total', len(rows))} counted → score {fmt(result.score)}",
                 fontsize=10)
    fig.tight_layout()
    return fig


def plot_entity_sets(result: MetricResult, ax: Any = None):
    """A two-set diagram: reference entities, context entities, and their overlap."""
    from matplotlib.patches import Circle  # lazy: matplotlib loads only when drawing

    result = _result(result, "context entity recall", ("entity", "in_reference", "in_context"),
                     ("reference_count", "context_count", "overlap"))
    fig, ax = figure_and_axes(ax, figsize=(7, 3.6))
    only_ref = [r["entity"] for r in result.rows if r["in_reference"] and not r["in_context"]]
    both = [r["entity"] for r in result.rows if r["in_reference"] and r["in_context"]]
    only_ctx = [r["entity"] for r in result.rows if not r["in_reference"] and r["in_context"]]
    ax.add_patch(Circle((-0.55, 0), 1.0, color="#264653", alpha=0.25))
    ax.add_patch(Circle((0.55, 0), 1.0, color="#e9c46a", alpha=0.35))
    for x, names in ((-1.0, only_ref), (0.0, both), (1.0, only_ctx)):
        ax.text(x, 0, "\n".join(names) or "–", ha="center", va="center", fontsize=8)
    ax.text(-0.55, 1.08, f"reference ({result.values['reference_count']})", ha="center", fontsize=9)
    ax.text(0.55, 1.08, f"context ({result.values['context_count']})", ha="center", fontsize=9)
    ax.set_xlim(-1.8, 1.8)
    ax.set_ylim(-1.15, 1.3)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"entity recall = {result.values['overlap']}/{result.values['reference_count']} "
                 f"= {fmt(result.score)}", fontsize=10)
    fig.tight_layout()
    return fig


def plot_cosines(result: MetricResult, ax: Any = None):
    """Cosine of each generated question to the real question, with their mean."""
    result = _result(result, "answer relevancy (embedding)", ("i", "cosine", "noncommittal"))
    if result.rows and "mean_cosine" not in result.values:
        raise InputError("result", "the MetricResult of answer relevancy (embedding)", f"a {result.metric} result")
    fig, ax = figure_and_axes(ax, figsize=(6, 3))
    rows = result.rows
    labels = [f"g{r['i']}" for r in rows]
    values = [r["cosine"] for r in rows]
    colours = [VERDICT_COLOURS["idk"] if r["noncommittal"] else VERDICT_COLOURS["yes"] for r in rows]
    ax.bar(labels, values, color=colours)
    if rows:
        mean = result.values["mean_cosine"]
        ax.axhline(mean, color="#333333", linestyle="--", linewidth=1)
        ax.text(len(rows) - 0.5, mean, f" mean {fmt(mean, 3)}", va="bottom", ha="right", fontsize=8)
    ax.set_ylim(min(0.0, *values) if values else 0.0, 1.05)
    ax.set_ylabel("cosine to the question")
    ax.set_title(f"{result.name}: score {fmt(result.score)}", fontsize=10)
    fig.tight_layout()
    return fig


def plot_answer_correctness(result: MetricResult, ax: Any = None):
    """TP/FP/FN counts beside the factual score, the similarity and the blended score."""
    result = _result(result, "answer correctness", values=("tp_count", "fp_count", "fn_count", "f_beta", "similarity",
                                                          "weight_factual", "weight_semantic"))
    if ax is None:
        fig = new_figure(figsize=(7, 3))
        left, right = fig.subplots(1, 2)
    else:
        fig, left, right = ax.figure, ax, None
    v = result.values
    left.bar(["TP", "FP", "FN"], [v["tp_count"], v["fp_count"], v["fn_count"]],
             color=[VERDICT_COLOURS["yes"], VERDICT_COLOURS["no"], VERDICT_COLOURS["idk"]])
    left.set_title("statement counts", fontsize=10)
    if right is not None:
        names = ["F-beta", "similarity", "score"]
        values = [v["f_beta"], v["similarity"], result.score]
        right.bar(names, values, color=["#264653", "#8ab17d", "#2a9d8f"])
        for x, y in enumerate(values):
            right.text(x, y + 0.02, fmt(y, 3), ha="center", fontsize=8)
        right.set_ylim(0, 1.15)
        right.set_title(f"weights {fmt(v['weight_factual'])} / {fmt(v['weight_semantic'])}", fontsize=10)
    fig.tight_layout()
    return fig


def plot_scores(scores: dict[str, float], ax: Any = None, title: str = ""):
    """Horizontal bars of named scores (e.g. several ranking measures on one list)."""
    if not isinstance(scores, dict) or not 1 <= len(scores) <= MAX_ROWS:
        raise InputError("scores", f"a dict name -> score (a number), 1 to {MAX_ROWS} of them", scores)
    scores = {text(f"scores key {i}", name): number(f"scores[{name!r}]", value, "a finite number")
              for i, (name, value) in enumerate(scores.items())}
    title = text("title", title)
    fig, ax = figure_and_axes(ax, figsize=(6, 0.4 * max(len(scores), 1) + 1))
    names = list(scores)
    values = [scores[n] for n in names]
    ax.barh(names, values, color="#2a9d8f")
    for y, x in enumerate(values):
        ax.text(x + 0.01, y, fmt(x, 4), va="center", fontsize=8)
    ax.set_xlim(0, 1.15)
    ax.invert_yaxis()
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_interval_narrowing(rows_by_system: dict[str, list[dict[str, Any]]], ax: Any = None, title: str = ""):
    """Each system's mean and bootstrap interval against the number of questions (from ``intervals_by_size``)."""
    if not isinstance(rows_by_system, dict) or not rows_by_system or not all(rows_by_system.values()):
        raise InputError("rows_by_system", "a dict system name -> intervals_by_size rows", rows_by_system)
    for name, rows in rows_by_system.items():
        if not isinstance(name, str) or not isinstance(rows, list):
            raise InputError("rows_by_system", "a dict system name -> intervals_by_size rows (a list)", rows)
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise InputError(f"rows_by_system[{name!r}][{i}]", "an intervals_by_size row (a dict)", row)
            for key in ("n", "mean", "low", "high"):
                number(f"rows_by_system[{name!r}][{i}][{key!r}]", row.get(key), "a finite number")
    title = text("title", title)
    fig, ax = figure_and_axes(ax, figsize=(7, 3.2))
    colours = ["#264653", "#e76f51", "#2a9d8f", "#e9c46a"]
    names = list(rows_by_system)
    for j, name in enumerate(names):
        rows = rows_by_system[name]
        shift = (j - (len(names) - 1) / 2) * 0.8
        xs = [r["n"] + shift for r in rows]
        means = [r["mean"] for r in rows]
        errors = [[r["mean"] - r["low"] for r in rows], [r["high"] - r["mean"] for r in rows]]
        ax.errorbar(xs, means, yerr=errors, fmt="o-", capsize=4, label=name, color=colours[j % len(colours)])
    ax.set_xticks([r["n"] for r in rows_by_system[names[0]]])
    ax.set_xlabel("number of questions (the first n)")
    ax.set_ylabel("mean with its interval")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8, frameon=False)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
