"""Decomposition explorer: cut a text into statements (or merge them) and watch the score move.

The text of a deck's case is shown piece by piece, each piece with the judge's verdict; between
two pieces a ✂ button cuts them into separate statements or joins them into one. Below: the
statements as the metric counts them, the score with its formula and table, and the range of
scores over every way to cut the same text. A menu switches between the decks' cases
(:data:`~ragmetrics_edu.widgets.decompose_model.CASES`).
"""

from __future__ import annotations

import html
from functools import partial
from typing import Any, Sequence

import ipywidgets as widgets

from ..errors import InputError
from ..results import fmt, steps_html
from ..validate import IDK, NO, YES, as_list
from ._common import Explorer, classed, formula_html, model_of, notes_html, reset_button, score_html
from .decompose_model import CASES, DecomposeModel
from .offered import statement_view


class DecomposeExplorer(Explorer):
    """Split a statement in two or merge two into one; the counting metric's score follows.

    ``DecomposeExplorer("A-cr-what-is-ai")`` opens one of the decks' cases (the menu offers the
    others); ``DecomposeExplorer(model=DecomposeModel(...))`` any text. State: ``explorer.model``
    (a :class:`DecomposeModel`; choosing another case replaces it).
    """

    def __init__(self, key: str = "A-cr-what-is-ai", *, model: DecomposeModel | None = None,
                 cases: Sequence[str] | None = None) -> None:
        if model is None:
            model = DecomposeModel.from_example(key)
        model = model_of(model, DecomposeModel)
        self._syncing = False
        keys = list(CASES) if cases is None else as_list("cases", cases, "a list of keys of widgets.decompose_model.CASES")
        for i, k in enumerate(keys):
            if not isinstance(k, str) or k not in CASES:
                raise InputError(f"cases[{i}]", "one of " + ", ".join(repr(c) for c in CASES), k)
        current = model.key if model.key in keys else None  # None: a text of one's own, no menu
        options = [(CASES[k].title, k) for k in keys] or [("(own text)", "")]
        self.case = classed(widgets.Dropdown(options=options, value=current or options[0][1], description="Case",
                                             layout=widgets.Layout(width="44em", max_width="100%")),
                            "rme-decompose-case")
        self.case.layout.display = "" if current is not None and len(keys) > 1 else "none"
        self.case.observe(lambda c: self._user(self._switch, c["new"]), names="value")
        self.pieces_box = classed(widgets.VBox(), "rme-pieces")
        self.split_all = classed(widgets.Button(description="Split all", tooltip="Every piece its own statement",
                                                layout=widgets.Layout(width="auto")), "rme-split-all")
        self.merge_all = classed(widgets.Button(description="Merge all", tooltip="The whole text as one statement",
                                                layout=widgets.Layout(width="auto")), "rme-merge-all")
        self.reset_button = reset_button("The starting case, with the deck's cut, verdicts and judge")
        self._start_key = model.key
        self.split_all.on_click(lambda _: self._guard(self.model.split_all))
        self.merge_all.on_click(lambda _: self._guard(self.model.merge_all))
        self.reset_button.on_click(lambda _: self._guard(self.reset))
        self.lenient = classed(widgets.Checkbox(description="lenient judge (a merged statement counts if any piece "
                                                            "is supported)", indent=False,
                                                layout=widgets.Layout(width="auto")), "rme-lenient")
        self.lenient.observe(lambda c: self._user(self.model.set_lenient, c["new"]), names="value")
        self.variant = classed(widgets.Dropdown(options=list(model.variants), value=model.variant,
                                                description="Variant", layout=widgets.Layout(width="16em")),
                               "rme-variant")
        self.variant.observe(lambda c: self._user(self.model.set_variant, c["new"]), names="value")
        self.statements = classed(widgets.HTML(), "rme-decompose-statements")
        self.score = classed(widgets.HTML(), "rme-score")
        self.formula = classed(widgets.HTMLMath(), "rme-formula")
        self.range = classed(widgets.HTML(), "rme-range")
        self.table = classed(widgets.HTML(), "rme-table")
        self.notes = classed(widgets.HTML(), "rme-notes")
        header = widgets.HTML("<b>Cut the text into statements.</b> Each piece carries the judge's verdict; "
                              "the ✂ button between two pieces makes them two statements or one. A statement "
                              "of several pieces is supported only when every piece is (strict judge).")
        controls = classed(widgets.HBox([self.split_all, self.merge_all, self.reset_button, self.variant],
                                        layout=widgets.Layout(flex_flow="row wrap")), "rme-controls")
        self.verdict_toggles: list[widgets.ToggleButtons] = []
        self.cut_buttons: list[widgets.ToggleButton] = []
        super().__init__(model, [header, self.case, self.pieces_box, controls, self.lenient, self.statements,
                                 self.score, self.formula, self.range, self.table, self.notes], "rme-decompose")
        self._build_pieces()
        self.refresh()

    def reset(self) -> None:
        """Back to the starting case (if another was chosen in the menu), with the deck's cut, verdicts and judge."""
        if self._start_key is not None and self.model.key != self._start_key:
            self.case.value = self._start_key  # switches the model back (see _switch)
        self.model.reset()

    @property
    def at_start(self) -> bool:
        """True while the explorer shows its starting case, untouched."""
        return self.model.key == self._start_key and bool(self.model.at_start)

    @classmethod
    def from_example(cls, key: str, **overrides: Any) -> "DecomposeExplorer":
        """The explorer opened on one of the decks' cases (``overrides`` go to the model)."""
        model = DecomposeModel.from_example(key, **overrides)
        return cls(key, model=model)

    # -- building ------------------------------------------------------------------
    def _build_pieces(self) -> None:
        """One row per piece (verdict toggle and text), a ✂ toggle between neighbours."""
        model = self.model
        allowed = [YES, NO, IDK] if statement_view(model.spec).idk else [YES, NO]
        self.verdict_toggles, self.cut_buttons = [], []
        rows: list[Any] = []
        for j, piece in enumerate(model.pieces):
            toggle = classed(widgets.ToggleButtons(options=allowed, style={"button_width": "3.8em"},
                                                   layout=widgets.Layout(width="auto", flex="0 0 auto"),
                                                   tooltips=["the context supports this piece",
                                                             "the context does not support it",
                                                             "the context does not say"][:len(allowed)]),
                             "rme-verdict", "rme-piece-verdict", f"rme-piece-verdict-{j}")
            toggle.observe(partial(self._on_verdict, j), names="value")
            text = classed(widgets.HTML(f"<span class='rme-piece-text'>{html.escape(piece)}</span>",
                                        layout=widgets.Layout(flex="1 1 auto")), "rme-piece", f"rme-piece-{j}")
            label = widgets.HTML(f"<small>piece {j + 1}</small>", layout=widgets.Layout(width="4.2em", flex="0 0 auto"))
            self.verdict_toggles.append(toggle)
            rows.append(classed(widgets.HBox([label, toggle, text]), "rme-row", f"rme-row-{j}"))
            if j < len(model.pieces) - 1:
                cut = classed(widgets.ToggleButton(layout=widgets.Layout(width="14em", margin="0 0 0 4.2em"),
                                                   tooltip="Cut here (two statements) or join (one statement)"),
                              "rme-cut", f"rme-cut-{j}")
                cut.observe(partial(self._on_cut, j), names="value")
                self.cut_buttons.append(cut)
                rows.append(cut)
        self.pieces_box.children = rows

    def _switch(self, key: str) -> None:
        """Replace the model by the case ``key`` and rebuild the piece rows."""
        if not key or key == self.model.key:
            return
        new = DecomposeModel.from_example(key)
        self.model.unobserve(self._on_model_change)
        self.model = new
        new.observe(self._on_model_change)
        self._syncing = True
        try:
            self.variant.options = list(new.variants)
            self.variant.value = new.variant
        finally:
            self._syncing = False
        self._build_pieces()
        self.refresh("case")

    # -- events --------------------------------------------------------------------
    def _user(self, action: Any, *args: Any) -> None:
        if not self._syncing:
            self._guard(action, *args)

    def _on_verdict(self, piece: int, change: dict[str, Any]) -> None:
        self._user(self.model.set_verdict, piece, change["new"])

    def _on_cut(self, boundary: int, change: dict[str, Any]) -> None:
        self._user(self.model.set_cut, boundary, bool(change["new"]))

    # -- view ----------------------------------------------------------------------
    def refresh(self, what: str = "all") -> None:
        """Show the model's cuts, verdicts and statements (what the score counts), then its score, then
        the formula, range and table. Each change is one message, shown in the order sent: a browser
        that shows the new score already shows the statements it counts."""
        model = self.model
        result = model.result
        self._syncing = True
        try:
            for toggle, verdict in zip(self.verdict_toggles, model.piece_verdicts, strict=True):
                toggle.value = verdict
            item = statement_view(model.spec).item  # "statement" or "claim"
            for button, cut in zip(self.cut_buttons, model.cuts, strict=True):
                button.value = cut
                button.description = f"✂ two {item}s" if cut else f"+ one {item}"
            self.lenient.value = model.lenient
            self.variant.value = model.variant
        finally:
            self._syncing = False
        lines = "".join(f"<li><b>{html.escape(v)}</b> {html.escape(s)}</li>"
                        for s, v in zip(model.statements, model.verdicts, strict=True))
        self.statements.value = (f"<div>{model.n} {item}{'s' if model.n != 1 else ''} as the metric counts "
                                 f"them:</div><ol style='margin:0.2em 0'>{lines}</ol>")
        self.score.value = score_html(result)
        self.formula.value = formula_html(result)
        low, high = model.score_range
        self.range.value = (f"<div>Same verdicts, every way to cut this text: from <b>{fmt(low)}</b> "
                            f"to <b>{fmt(high)}</b>.</div>")
        self.table.value = steps_html(result)
        self.notes.value = notes_html(result)
