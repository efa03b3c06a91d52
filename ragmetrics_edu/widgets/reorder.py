"""Reorder explorer: rank the retrieved nodes by hand and watch a ranking metric respond.

Nodes are reordered by dragging chips in a ``TagsInput`` or with the ↑/↓ buttons of each
row; a toggle per row flips the node's verdict. The per-k table, the score, the formula
with its numbers and the per-rank chart follow every change.
"""

from __future__ import annotations

import html
from functools import partial
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from ..metrics.specs import SPECS
from ..metrics.views import Chart
from ..results import MetricResult, steps_html
from ._common import (
    Explorer,
    Reorderable,
    classed,
    formula_html,
    hint,
    model_of,
    notes_html,
    reset_button,
    score_html,
    side_by_side,
)
from .offered import ranking_choices, ranking_view, title_of
from .plots import ACCENT, IRRELEVANT, IRRELEVANT_OUTSIDE, MARKER, RELEVANT, RELEVANT_OUTSIDE, BarChart, shared_chart
from .reorder_model import ReorderModel


class NodeList(widgets.VBox):
    """The ranked nodes: a drag-and-drop chip list and one row per rank (↑, ↓, verdict toggle, text).

    Rows stay at their rank; when the order changes their contents are updated, so the
    buttons of row ``i`` always act on rank ``i``. Reordering the chips into anything but a
    permutation (a deleted or duplicated chip) is reverted.
    """

    def __init__(self, model: ReorderModel, guard: Callable[..., None]) -> None:
        self.model = model
        self._guard = guard
        self._syncing = False
        chips = [model.chip(i) for i in range(model.n)]
        self._node_of_chip = {chip: i for i, chip in enumerate(chips)}
        self.tags = classed(widgets.TagsInput(value=model.labels, allowed_tags=chips, allow_duplicates=False,
                                              layout=widgets.Layout(width="auto")), "rme-tags")
        self.tags.observe(self._on_tags, names="value")
        self.up_buttons: list[widgets.Button] = []
        self.down_buttons: list[widgets.Button] = []
        self.toggles: list[widgets.ToggleButton] = []
        self.texts: list[widgets.HTML] = []
        self.rows: list[widgets.HBox] = []
        small = widgets.Layout(width="2.4em", padding="0", flex="0 0 auto")
        for pos in range(model.n):
            up = classed(widgets.Button(description="↑", tooltip="Move this node up one rank", layout=small,
                                        disabled=pos == 0), "rme-up", f"rme-up-{pos}")
            down = classed(widgets.Button(description="↓", tooltip="Move this node down one rank", layout=small,
                                          disabled=pos == model.n - 1), "rme-down", f"rme-down-{pos}")
            toggle = classed(widgets.ToggleButton(tooltip="Flip this node's verdict",
                                                  layout=widgets.Layout(width="9em", flex="0 0 auto")), "rme-toggle", f"rme-toggle-{pos}")
            text = classed(widgets.HTML(layout=widgets.Layout(flex="1 1 0", min_width="0")), "rme-node-text", "rme-oneline")
            up.on_click(partial(self._on_up, pos))
            down.on_click(partial(self._on_down, pos))
            toggle.observe(partial(self._on_toggle, pos), names="value")
            rank = widgets.HTML(f"<b>{pos + 1}</b>", layout=widgets.Layout(width="1.8em", flex="0 0 auto"))
            self.up_buttons.append(up)
            self.down_buttons.append(down)
            self.toggles.append(toggle)
            self.texts.append(text)
            self.rows.append(classed(widgets.HBox([rank, up, down, toggle, text]), "rme-row", f"rme-row-{pos}"))
        self._shown: list[tuple[int, int] | None] = [None] * model.n
        self.tags.layout = widgets.Layout(width="auto", flex="0 1 auto")
        chips_row = widgets.HBox([self.tags, hint("drag a chip, or use ↑/↓; the toggle flips a verdict")],
                                 layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        super().__init__([chips_row, *self.rows])
        classed(self, "rme-nodes")
        self.sync()

    def sync(self) -> None:
        """Show the model's current order and verdicts (only rows that changed are touched)."""
        self._syncing = True
        try:
            labels = self.model.labels
            if list(self.tags.value) != labels:
                self.tags.value = labels
            for pos, (node, flag) in enumerate(zip(self.model.order, self.model.verdicts, strict=True)):
                if self._shown[pos] == (node, flag):
                    continue
                toggle = self.toggles[pos]
                with toggle.hold_sync():
                    toggle.value = bool(flag)
                    toggle.description = "relevant" if flag else "not relevant"
                    toggle.icon = "check" if flag else "times"
                    toggle.button_style = "success" if flag else ""
                shown = self._shown[pos]
                if shown is None or shown[0] != node:  # one line; the whole text in the tooltip and the list below
                    text = html.escape(self.model.text(node))
                    self.texts[pos].value = (f"<span class='rme-node-text' title='{text}'><b>N{node + 1}</b> "
                                             f"{text}</span>")
                self._shown[pos] = (node, flag)
        finally:
            self._syncing = False

    def _on_up(self, pos: int, _button: Any = None) -> None:
        self._guard(self.model.move_up, pos)

    def _on_down(self, pos: int, _button: Any = None) -> None:
        self._guard(self.model.move_down, pos)

    def _on_toggle(self, pos: int, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._guard(self.model.set_verdict, pos, bool(change["new"]))

    def _on_tags(self, change: dict[str, Any]) -> None:
        if self._syncing:
            return
        value = list(change["new"])
        if len(value) == self.model.n and sorted(value) == sorted(self._node_of_chip):
            self._guard(self.model.set_order, [self._node_of_chip[chip] for chip in value])
        else:  # a chip was deleted, typed or duplicated: put the permutation back
            self._syncing = True
            try:
                self.tags.value = self.model.labels
            finally:
                self._syncing = False


class RankingControls(widgets.HBox):
    """Metric/variant selector, the cut-off k (precision@k, nDCG) and R_total (average precision)."""

    def __init__(self, model: ReorderModel, guard: Callable[..., None]) -> None:
        self.model = model
        self._guard = guard
        self._syncing = False
        self.metric = classed(widgets.Dropdown(options=[label for label, _ in ranking_choices()],
                                               value=model.choice_label, description="Metric",
                                               style={"description_width": "3.6em"},
                                               layout=widgets.Layout(width="25em")), "rme-metric")
        # A track of about 35 px per position (24 px at least, the browser test checks): dragged to each k with ease.
        self.k = classed(widgets.IntSlider(value=model.k, min=1, max=model.n, description="k",
                                           continuous_update=False, style={"description_width": "1.2em"},
                                           layout=widgets.Layout(width=f"{6 + 3.2 * model.n:g}em")), "rme-k")
        self.total = classed(widgets.BoundedIntText(value=model.total_relevant or sum(model.verdicts),
                                                    min=0, max=10**6, description="R_total",
                                                    style={"description_width": "4em"},
                                                    layout=widgets.Layout(width="10em")), "rme-total")
        self.metric.observe(self._on_metric, names="value")
        self.k.observe(self._on_k, names="value")
        self.total.observe(self._on_total, names="value")
        super().__init__([self.metric, self.k, self.total], layout=widgets.Layout(flex_flow="row wrap"))
        classed(self, "rme-controls")
        self.sync()

    def sync(self) -> None:
        """Show the model's metric, k and R_total; show (and update) k and R_total only where they matter."""
        self._syncing = True
        try:
            model = self.model
            if self.metric.value != model.choice_label:
                self.metric.value = model.choice_label
            if self.k.value != model.k:
                self.k.value = model.k
            self.k.layout.display = "" if ranking_view(SPECS[model.metric]).cutoff else "none"
            shown = model.variant == "average_precision"
            if shown:  # hidden, R_total waits until it is shown: no message on every click of another metric
                relevant = sum(model.verdicts)
                total = model.total_relevant if model.total_relevant is not None else relevant
                with self.total.hold_sync():
                    self.total.min = min(self.total.value, relevant)
                    self.total.value = total
                    self.total.min = relevant
            self.total.layout.display = "" if shown else "none"
        finally:
            self._syncing = False

    def _on_metric(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._guard(self.model.set_metric, *dict(ranking_choices())[change["new"]])

    def _on_k(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._guard(self.model.set_k, None if change["new"] == self.model.n else change["new"])

    def _on_total(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self._guard(self.model.set_total_relevant, change["new"])


def ranking_series(model: ReorderModel, result: MetricResult) -> dict[str, Any]:
    """What the per-rank chart shows for the current metric: bar heights, colours, lines."""
    flags = model.verdicts
    spec = SPECS[model.metric]
    n = model.n
    k = model.k if ranking_view(spec).cutoff else n  # only a metric with a cut-off fades the ranks past it
    inside = [rank <= k for rank in range(1, n + 1)]
    colours = [(RELEVANT if f else IRRELEVANT) if ok else (RELEVANT_OUTSIDE if f else IRRELEVANT_OUTSIDE)
               for f, ok in zip(flags, inside, strict=True)]
    cutoff = k + 0.5 if k < n else None
    title = title_of(model.metric, model.variant)
    if ranking_view(spec).chart is Chart.DISCOUNT:
        return {"heights": [row["discount"] for row in result.rows[:n]], "colours": colours, "score": None,
                "cutoff": cutoff, "ylabel": "discount 1/log2(k+1)", "title": title}
    if ranking_view(spec).chart is Chart.RECIPROCAL:
        first = result.values["first_relevant_rank"]
        colours = [ACCENT if rank == first else c for rank, c in zip(range(1, n + 1), colours, strict=True)]
        return {"heights": [1 / rank for rank in range(1, n + 1)], "colours": colours, "score": result.score,
                "cutoff": None, "ylabel": "1/k (dark: first relevant)", "title": title}
    return {"heights": [row["precision_at_k"] for row in result.rows], "colours": colours, "score": result.score,
            "cutoff": cutoff, "ylabel": "precision@k", "title": title}


def node_texts_html(model: ReorderModel) -> Any:
    """The nodes' whole texts, folded away below the explorer (each row shows one line of its node)."""
    if not model.has_texts:
        return widgets.HTML("")
    items = "".join(f"<li><b>N{i + 1}</b> {html.escape(model.text(i))}</li>" for i in range(model.n))
    return classed(widgets.HTML(f"<details><summary>The nodes' whole texts</summary><ul>{items}</ul></details>"),
                   "rme-node-texts")


class NodeListAccess:
    """The node rows' widgets of an explorer built on a :class:`NodeList` (for tests and browsers)."""

    node_list: NodeList

    @property
    def up_buttons(self) -> list[widgets.Button]:
        return self.node_list.up_buttons

    @property
    def down_buttons(self) -> list[widgets.Button]:
        return self.node_list.down_buttons

    @property
    def toggles(self) -> list[widgets.ToggleButton]:
        return self.node_list.toggles

    @property
    def tags(self) -> widgets.TagsInput:
        return self.node_list.tags


class ReorderExplorer(NodeListAccess, Reorderable, Explorer):
    """Reorder the retrieved nodes and flip their verdicts; the ranking metric follows.

    ``ReorderExplorer(nodes=[...], verdicts=[0, 1, 1, 0, 0], metric="context_precision",
    variant="deepeval")``, or ``ReorderExplorer.from_example("A-cp-what-is-ai")``.
    The state lives in ``explorer.model`` (a :class:`ReorderModel`); ``move``, ``toggle``,
    ``order``, ``verdicts`` and ``result`` are forwarded to it.
    """

    def __init__(
        self,
        nodes: Sequence[str] | None = None,
        verdicts: Sequence[Any] | None = None,
        metric: str = "context_precision",
        variant: str | None = None,
        *,
        model: ReorderModel | None = None,
        **options: Any,
    ) -> None:
        if model is None:
            model = ReorderModel(nodes, verdicts, metric, variant, **options)
        model = model_of(model, ReorderModel)
        self.controls = RankingControls(model, self._guard)
        self.node_list = NodeList(model, self._guard)
        self.score = classed(widgets.HTML(), "rme-score")
        self.formula = classed(widgets.HTMLMath(), "rme-formula")
        self.table = classed(widgets.HTML(), "rme-table")
        self.notes = classed(widgets.HTML(), "rme-notes")
        self.image = classed(widgets.Image(format="png"), "rme-plot")
        self.reset_button = reset_button("Back to the starting order, verdicts and metric")
        self.reset_button.on_click(lambda _b: self._guard(model.reset))
        self.controls.children = (*self.controls.children, self.reset_button)
        self._chart: BarChart | None = None
        self.node_texts = node_texts_html(model)
        # Controls, rows and score beside the chart (or above it, on a narrow notebook): all on one screen.
        top = side_by_side([self.controls, self.node_list, self.score], self.image)
        super().__init__(model, [top, self.formula, self.table, self.notes, self.node_texts], "rme-reorder")
        self.refresh()

    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "ReorderExplorer":
        """The explorer of a worked example of the catalogue (a context-precision case)."""
        return cls(model=ReorderModel.from_example(example_id, case, **overrides))

    # -- view ----------------------------------------------------------------------
    def refresh(self, what: str = "all") -> None:
        """Redraw from the model: the rows and controls (what the score is of), the score, then the
        formula, table and chart. Each widget change is one message, shown in the order sent, so a
        browser that shows the new score already shows the order it belongs to (sent the other way
        round, the new score once stood beside rows half moved: one node in two rows)."""
        result = self.model.result
        self.node_list.sync()
        self.controls.sync()
        self.score.value = score_html(result)
        self.formula.value = formula_html(result)
        self.table.value = steps_html(result, hit=lambda row: bool(row.get("relevant") or row.get("gain")), width=32)
        self.notes.value = notes_html(result)
        self.image.value = self._draw(result)

    def _draw(self, result: MetricResult) -> bytes:
        series = ranking_series(self.model, result)
        if self._chart is None:
            ranks = list(range(1, self.model.n + 1))
            self._chart = shared_chart(
                ranks, xticks=ranks, xlabel="rank k", ylim=(0.0, 1.05),  # title and y label: set_axes, below
                xlim=(0.4, self.model.n + 0.6),
                legend=[("relevant", RELEVANT), ("not relevant", IRRELEVANT)],
                lines={"score": ("h", MARKER, "--", "score"), "cutoff": ("v", ACCENT, ":", "cut-off k")})
        chart = self._chart
        chart.set_axes(title=series["title"], ylabel=series["ylabel"])
        chart.set_bars(series["heights"], series["colours"])
        chart.set_line("score", series["score"])
        chart.set_line("cutoff", series["cutoff"])
        return chart.png()

