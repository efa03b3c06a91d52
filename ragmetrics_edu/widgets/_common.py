"""What every explorer view shares: the CSS, the HTML of score, formula, table and notes,
and a base class that observes a model and shows input errors instead of losing them.

Every widget a browser test looks for carries an ``rme-...`` CSS class.
"""

from __future__ import annotations

import html
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from ..errors import InputError, RagMetricsError
from ..results import MetricResult, bullets_html, display_math, exact, fmt
from .model_base import Change
from .plots import PLOT_WIDTH_PX

#: Hides the TagsInput's delete crosses and text field (the chips are only reordered),
#: and styles the tables. Shipped in an HTML widget inside each explorer. ``contain: content``:
#: what changes inside an explorer on a click is laid out and painted without the rest of the
#: notebook (in a real JupyterLab, about a fifth less of the browser's work per click, measured).
CSS = """<style>
.rme-explorer { contain: content; }
.rme-tags .jupyter-widget-tag-close, .rme-tags .widget-text { display: none !important; }
.rme-tags .jupyter-widget-tag { cursor: grab; }
.rme-table table { border-collapse: collapse; font-size: 12px; }
.rme-table th, .rme-table td { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
.rme-table td.rme-text, .rme-table th.rme-text { text-align: left; white-space: normal; }
.rme-table tr.rme-hit td { background: #e3f2ef; }
.rme-node-text, .rme-piece-text { line-height: 1.3; white-space: normal; }
.rme-message { color: #b00020; }
.rme-verdict .jupyter-button.mod-active { background: #1d6b62; color: #fff; font-weight: bold; }
.rme-notes ul { margin: 0.2em 0; }
.rme-tags .jupyter-widget-tag { max-width: 6em; padding-left: 4px; padding-right: 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.rme-oneline, .rme-oneline .widget-html-content { min-width: 0; overflow: hidden; }
.rme-oneline .widget-html-content { white-space: nowrap; text-overflow: ellipsis; }
.rme-oneline .rme-node-text { white-space: nowrap; }
.rme-table { overflow-x: auto; max-width: 100%; }
.rme-table td.rme-text { white-space: nowrap; }
.rme-row { margin: 0; }
.rme-explorer .widget-inline-hbox.rme-row > * { margin-top: 1px; margin-bottom: 1px; }
.rme-hint { color: #555; font-size: 12px; }
</style>"""

def score_html(result: MetricResult) -> str:
    """The score in large type, with the exact value where the shown one is rounded."""
    shown = fmt(result.score)
    extra = f" <small>(exact {exact(result.score)})</small>" if exact(result.score) else ""
    verdict = ""
    if result.threshold is not None:
        verdict = f" <small>threshold {fmt(result.threshold)}: {'pass' if result.success else 'fail'}</small>"
    return (f"<span style='font-size:1.3em'>{html.escape(result.name)}: "
            f"<b class='rme-score-value'>{html.escape(shown)}</b></span>{extra}{verdict}")


def formula_html(result: MetricResult) -> str:
    """The formula with this case's numbers, for an HTMLMath widget."""
    return display_math(result.formula) if result.formula else ""


def notes_html(result: MetricResult) -> str:
    """The result's notes as a bullet list (empty when there are none)."""
    return bullets_html(result.notes)


#: Width of the explorers' charts: the size they are drawn at (``plots.PLOT_WIDTH_PX``), so their text is
#: not scaled down; beside the controls where the notebook is wide enough (1024 px, sidebar shut).
PLOT_WIDTH = f"{PLOT_WIDTH_PX}px"


def side_by_side(left: Sequence[Any], plot: Any) -> Any:
    """The controls and score (``left``) with the chart on their right; the chart wraps below
    them when the notebook is too narrow for both (1024 px with JupyterLab's file browser open),
    where it still shows with the controls on a 700 px tall screen."""
    plot.layout = widgets.Layout(width=PLOT_WIDTH, max_width="100%", flex="0 1 auto")
    column = widgets.VBox(list(left), layout=widgets.Layout(flex="1 1 340px", min_width="0", overflow="visible"))
    return classed(widgets.HBox([column, plot], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start",
                                                                     overflow="visible")), "rme-result")


def hint(text: str) -> Any:
    """A one-line hint in small grey type (what the controls do)."""
    return classed(widgets.HTML(f"<span class='rme-hint'>{html.escape(text)}</span>"), "rme-hint")


def reset_button(tooltip: str = "Back to the starting example") -> Any:
    """The Reset button every explorer has (class ``rme-reset``)."""
    return classed(widgets.Button(description="Reset", icon="undo", tooltip=tooltip,
                                  layout=widgets.Layout(width="auto", flex="0 0 auto")), "rme-reset")


def classed(widget: Any, *names: str) -> Any:
    """Add CSS classes to a widget and return it."""
    for name in names:
        widget.add_class(name)
    return widget


class Explorer(widgets.VBox):
    """Base of the explorer views: observes ``model`` and calls :meth:`refresh` on each change.

    User actions go through :meth:`_guard`, so a bad value shows as a message in the view
    (class ``rme-message``) rather than disappearing into the kernel log.
    """

    def __init__(self, model: Any, children: Sequence[Any], css_class: str) -> None:
        self.model = model
        self.message = classed(widgets.HTML(), "rme-message")
        super().__init__([widgets.HTML(CSS), *children, self.message])
        classed(self, "rme-explorer", css_class)
        model.observe(self._on_model_change)

    def __repr__(self) -> str:
        """The text/plain fallback (what a notebook shows before its cell runs): a hint, not the widget tree."""
        return f"{type(self).__name__}: run this cell in Jupyter to get the interactive explorer"

    def _on_model_change(self, change: Change) -> None:
        self.message.value = ""
        self.refresh(change.name)

    def refresh(self, what: str = "all") -> None:
        """Bring every widget up to date with the model (``what`` names the change)."""
        raise TypeError(f"{type(self).__name__} must define refresh()")

    # -- forwarded to the model, so code and tests can drive any explorer ----------------
    def reset(self) -> None:
        """Back to the starting example (what the Reset button does)."""
        self.model.reset()

    @property
    def at_start(self) -> bool:
        """True while the explorer shows its starting example, untouched."""
        return bool(self.model.at_start)

    def toggle(self, i: int) -> None:
        """Flip (or cycle, where idk is allowed) the verdict of the item at position ``i``."""
        self.model.toggle(i)

    @property
    def verdicts(self) -> list[Any]:
        """The verdicts in the current order."""
        return self.model.verdicts

    @property
    def result(self) -> Any:
        """The MetricResult of the current state."""
        return self.model.result

    def _guard(self, action: Callable[..., Any], *args: Any) -> None:
        """Run a user action; show an InputError in the view instead of raising it."""
        try:
            action(*args)
        except RagMetricsError as error:
            self.message.value = html.escape(str(error))

    def close(self) -> None:
        """Stop observing the model and close the widgets."""
        model = getattr(self, "model", None)
        if model is not None:  # a constructor that refused its arguments leaves no model
            model.unobserve(self._on_model_change)
        super().close()


class Reorderable:
    """What an explorer of items in an order adds (reorder, permutations, statements)."""

    model: Any

    def move(self, i: int, j: int) -> None:
        """Move the item at position ``i`` to position ``j`` (0-based)."""
        self.model.move(i, j)

    @property
    def order(self) -> list[int]:
        """The original indices of the items, in their current order."""
        return self.model.order


def model_of(model: Any, kind: type) -> Any:
    """An explorer's ``model=`` argument: an instance of ``kind``, else an InputError."""
    if not isinstance(model, kind):
        raise InputError("model", f"a {kind.__name__} (or None: one is built from the other arguments)", model)
    return model
