"""Entity explorer: edit the reference and context entity lists and see what they share.

Two Textareas (one entity per line), the normalisation switch, the intersection, and the
score of context entity recall with its formula and table.
"""

from __future__ import annotations

import html
from typing import Any, Sequence

import ipywidgets as widgets

from ..results import MetricResult, steps_html
from ._common import Explorer, classed, formula_html, model_of, notes_html, reset_button, score_html
from .entities_model import EntityModel


def _chips(items: list[str], colour: str) -> str:
    if not items:
        return "<i>none</i>"
    return " ".join(f"<span style='background:{colour};border-radius:3px;padding:0 4px'>{html.escape(e)}</span>"
                    for e in items)


class EntityExplorer(Explorer):
    """Type reference and context entities; the intersection and context entity recall follow.

    ``EntityExplorer(["Brazil", "Brasília"], ["Brasilia", "Brazil"], normalize=False)`` or
    ``EntityExplorer.from_example("B-cer-brazil")``. State: ``explorer.model`` (an
    :class:`EntityModel`).
    """

    def __init__(
        self,
        reference_entities: Sequence[str] | str = (),
        context_entities: Sequence[str] | str = (),
        *,
        normalize: bool = False,
        threshold: float | None = None,
        model: EntityModel | None = None,
    ) -> None:
        if model is None:
            model = EntityModel(reference_entities, context_entities, normalize=normalize, threshold=threshold)
        model = model_of(model, EntityModel)
        self._syncing = False
        box = widgets.Layout(width="22em", height="9em")
        self.reference = classed(widgets.Textarea(value="\n".join(model.reference), description="Reference",
                                                  placeholder="one entity per line", layout=box), "rme-reference")
        self.context = classed(widgets.Textarea(value="\n".join(model.context), description="Context",
                                                placeholder="one entity per line", layout=box), "rme-context")
        self.normalize = classed(widgets.Checkbox(value=model.normalize, indent=False,
                                                  description="normalize (fold case, accents, spaces)"),
                                 "rme-normalize")
        self.reference.observe(lambda c: self._user(model.set_reference, c["new"]), names="value")
        self.context.observe(lambda c: self._user(model.set_context, c["new"]), names="value")
        self.normalize.observe(lambda c: self._user(model.set_normalize, c["new"]), names="value")
        self.intersection = classed(widgets.HTML(), "rme-intersection")
        self.score = classed(widgets.HTML(), "rme-score")
        self.formula = classed(widgets.HTMLMath(), "rme-formula")
        self.table = classed(widgets.HTML(), "rme-table")
        self.notes = classed(widgets.HTML(), "rme-notes")
        self.reset_button = reset_button("Back to the starting entity lists and normalisation")
        self.reset_button.on_click(lambda _b: self._guard(model.reset))
        controls = classed(widgets.HBox([self.normalize, self.reset_button], layout=widgets.Layout(align_items="center")),
                           "rme-controls")
        super().__init__(model, [widgets.HBox([self.reference, self.context]), controls, self.intersection,
                                 self.score, self.formula, self.table, self.notes], "rme-entities")
        self.refresh()

    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "EntityExplorer":
        """The explorer of a context-entity-recall worked example."""
        return cls(model=EntityModel.from_example(example_id, case, **overrides))

    @property
    def result(self) -> MetricResult:
        return self.model.result

    def _user(self, action: Any, value: Any) -> None:
        if not self._syncing:
            self._guard(action, value)

    def refresh(self, what: str = "all") -> None:
        """Redraw the lists (unless the user is typing in them), the intersection, score and table."""
        model = self.model
        result = model.result
        self.score.value = score_html(result)  # first: each change is one message, shown in the order sent
        self._syncing = True
        try:
            # Rewrite a Textarea only when its entities differ, so typing (blank lines, spaces) is not undone.
            for area, items in ((self.reference, model.reference), (self.context, model.context)):
                if [line.strip() for line in area.value.splitlines() if line.strip()] != items:
                    area.value = "\n".join(items)
            self.normalize.value = model.normalize
        finally:
            self._syncing = False
        self.intersection.value = (
            f"<div>shared (CE ∩ RE): {_chips(model.intersection, '#cfe8e4')}</div>"
            f"<div>only in the reference: {_chips(model.only_reference, '#f6d5cc')}</div>"
            f"<div>only in the context: {_chips(model.only_context, '#e6e6e6')}</div>")
        self.formula.value = formula_html(result)
        self.table.value = steps_html(result, hit=lambda row: bool(row["in_reference"] and row["in_context"]))
        self.notes.value = notes_html(result)
