"""Statement explorer: judge each statement (or claim) and watch a counting metric respond.

For context recall, contextual relevancy, faithfulness and answer relevancy: one row per
statement with a verdict toggle (yes/no, and idk where the metric has it), the node a
context-recall statement is attributed to, the node a contextual-relevancy statement
comes from, and below them the counts, the score, the formula and the step table.
"""

from __future__ import annotations

import html
from collections import Counter
from functools import partial
from typing import Any

import ipywidgets as widgets

from ..results import MetricResult, steps_html
from ..validate import IDK, NO, YES
from ._common import Explorer, Reorderable, classed, formula_html, model_of, notes_html, reset_button, score_html
from .model_base import chip_label
from .offered import statement_view
from .statements_model import StatementModel

_TOOLTIPS = {YES: "supported / relevant", NO: "not supported / not relevant", IDK: "the context does not say"}
#: The attribution dropdown's value for "not attributed" (a Dropdown shows nothing for None).
_UNATTRIBUTED = 0

class StatementExplorer(Reorderable, Explorer):
    """Flip the verdicts of statements (claims) and see the counting metric's score follow.

    Takes the metric's own keyword arguments, as the catalogue stores them:
    ``StatementExplorer("context_recall", statements=[...], verdicts=["yes", "no"], nodes=[2, None])``,
    ``StatementExplorer("faithfulness", claims=[...], verdicts=["yes", "idk"])``, or
    ``StatementExplorer.from_example("A-cr-what-is-ai")``. State: ``explorer.model``
    (a :class:`StatementModel`).
    """

    def __init__(self, metric: str = "context_recall", *, model: StatementModel | None = None, **kwargs: Any) -> None:
        if model is None:
            model = StatementModel(metric, **kwargs)
        model = model_of(model, StatementModel)
        self._syncing = False
        self.variant = classed(widgets.Dropdown(options=list(model.variants), value=model.variant,
                                                description="Variant", style={"description_width": "4em"},
                                                layout=widgets.Layout(width="14em")), "rme-variant")
        self.variant.layout.display = "" if len(model.variants) > 1 else "none"
        self.variant.observe(lambda c: self._user(model.set_variant, c["new"]), names="value")
        self.penalize = classed(widgets.Checkbox(
            value=model.penalize_ambiguous, description="penalize_ambiguous (DeepEval: penalize_ambiguous_claims)",
            indent=False, layout=widgets.Layout(width="auto", flex="0 1 auto")), "rme-penalize")
        self.penalize.layout.display = "" if "penalize_ambiguous" in model.spec.parameters() else "none"
        self.penalize.observe(lambda c: self._user(model.set_penalize_ambiguous, c["new"]), names="value")
        self.toggles: list[widgets.ToggleButtons] = []
        self.texts: list[widgets.HTML] = []
        self.attributions: list[widgets.Dropdown] = []
        self.sources: list[widgets.HTML] = []
        rows = [self._row(model, pos) for pos in range(model.n)]
        self.counts = classed(widgets.HTML(), "rme-counts")
        self.score = classed(widgets.HTML(), "rme-score")
        self.formula = classed(widgets.HTMLMath(), "rme-formula")
        self.table = classed(widgets.HTML(), "rme-table")
        self.notes = classed(widgets.HTML(), "rme-notes")
        self.reset_button = reset_button("Back to the starting verdicts, variant and settings")
        self.reset_button.on_click(lambda _b: self._guard(model.reset))
        header = widgets.HTML(f"<b>{html.escape(model.metric.replace('_', ' '))}</b>: "
                              f"{html.escape(statement_view(model.spec).hint)}")
        controls = classed(widgets.HBox([self.variant, self.penalize, self.reset_button],
                                        layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                           "rme-controls")
        # One line per statement (its whole text in the tooltip and the table below): the rows, the
        # counts and the score stay on one screen while the verdicts are clicked.
        super().__init__(model, [header, controls, *rows, self.counts, self.score, self.formula, self.table,
                                 self.notes], "rme-statements")
        self.refresh()

    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "StatementExplorer":
        """The explorer of a worked example (context recall, contextual relevancy, faithfulness, answer relevancy)."""
        return cls(model=StatementModel.from_example(example_id, case, **overrides))

    def _row(self, model: StatementModel, pos: int) -> widgets.HBox:
        toggle = classed(widgets.ToggleButtons(options=list(model.allowed), tooltips=[_TOOLTIPS[v] for v in model.allowed],
                                               style={"button_width": "3.8em"},
                                               layout=widgets.Layout(width="auto", flex="0 0 auto")),
                         "rme-toggle", "rme-verdict", f"rme-toggle-{pos}")
        toggle.observe(partial(self._on_verdict, pos), names="value")
        text = classed(widgets.HTML(layout=widgets.Layout(flex="1 1 0", min_width="0")), "rme-statement-text",
                       "rme-oneline")
        self.toggles.append(toggle)
        self.texts.append(text)
        children: list[Any] = [widgets.HTML(f"<b>{pos + 1}</b>", layout=widgets.Layout(width="1.8em", flex="0 0 auto")), toggle, text]
        if model.has_attribution:
            texts = model.node_texts
            options = [("not attributed", _UNATTRIBUTED)] + [
                (chip_label(j, texts[j] if texts else None), j + 1) for j in range(model.node_count)]
            attribution = classed(widgets.Dropdown(options=options, description="node",
                                                   style={"description_width": "initial"},
                                                   layout=widgets.Layout(width="14.5em", flex="0 0 auto")), "rme-attribution")
            attribution.observe(partial(self._on_attribution, pos), names="value")
            self.attributions.append(attribution)
            children.append(attribution)
        if model.groups is not None:
            source = classed(widgets.HTML(layout=widgets.Layout(width="10em", flex="0 0 auto")), "rme-source", "rme-oneline")
            self.sources.append(source)
            children.append(source)
        return classed(widgets.HBox(children), "rme-row", f"rme-row-{pos}")

    def _user(self, action: Any, *args: Any) -> None:
        if not self._syncing:
            self._guard(action, *args)

    def _on_verdict(self, pos: int, change: dict[str, Any]) -> None:
        self._user(self.model.set_verdict, pos, change["new"])

    def _on_attribution(self, pos: int, change: dict[str, Any]) -> None:
        node = change["new"]
        self._user(self.model.attribute, pos, None if node == _UNATTRIBUTED else node)

    # -- view ----------------------------------------------------------------------
    def refresh(self, what: str = "all") -> None:
        """Redraw from the model: the rows (what the score is of), the score, then the counts, the
        formula and the table. Each change is one message, shown in the order sent: a browser that
        shows the new score already shows the verdicts it counts."""
        model = self.model
        result = model.result
        self._syncing = True
        try:
            self.variant.value = model.variant
            self.penalize.value = model.penalize_ambiguous
            attribution = model.attribution
            groups = model.groups
            node_texts = model.node_texts
            for pos, (text, verdict) in enumerate(zip(model.statements, model.verdicts, strict=True)):
                self.toggles[pos].value = verdict
                self.texts[pos].value = f"<span title='{html.escape(text)}'>{html.escape(text)}</span>"
                if attribution is not None:
                    node = attribution[pos]
                    self.attributions[pos].value = _UNATTRIBUTED if node is None else node
                    self.attributions[pos].disabled = verdict != YES
                if groups is not None:
                    label = chip_label(groups[pos] - 1, node_texts[groups[pos] - 1] if node_texts else None)
                    self.sources[pos].value = f"<small>from {html.escape(label)}</small>"
        finally:
            self._syncing = False
        self.score.value = score_html(result)
        self.counts.value = counts_html(model, result)
        self.formula.value = formula_html(result)
        column = statement_view(model.spec).counted[0]
        self.table.value = steps_html(result, hit=lambda row: bool(row.get(column)))
        self.notes.value = notes_html(result)


def counts_html(model: StatementModel, result: MetricResult) -> str:
    """How many statements got each verdict, and how many of them count."""
    tally = Counter(model.verdicts)
    parts = " · ".join(f"{v}: <b>{tally.get(v, 0)}</b>" for v in model.allowed)
    counted = result.values[statement_view(model.spec).counted[1]]
    return f"<div class='rme-counts'>{parts} → counted <b>{counted}</b> of <b>{result.values['total']}</b></div>"
