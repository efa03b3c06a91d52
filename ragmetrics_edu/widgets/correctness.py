"""Notebook 07's answer-correctness panel: sliders for TP, FP, FN, similarity, beta and the two weights.

Every change rescores with :func:`ragmetrics_edu.metrics.answer_correctness` (the panel computes
nothing itself) and shows the formula with one line of its arithmetic.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

from .. import metrics
from ..errors import InputError
from ..validate import integer, mapping, number

__all__ = ["CorrectnessPanel", "SLIDERS"]

WIDTH = 100  #: the widest line :meth:`CorrectnessPanel.report` prints

#: The answer-correctness panel's sliders, the one place their ranges are written: name -> (low, high,
#: step, label). An int range (tp, fp, fn) is a whole-number slider; a float one has no step (the exact
#: value, no snapping) or the step its two-decimal readout shows. The panel builds its sliders and checks its start
#: values from this table.
SLIDERS: dict[str, tuple[float, float, float | None, str]] = {
    "tp": (0, 6, 1, "TP"), "fp": (0, 6, 1, "FP"), "fn": (0, 6, 1, "FN"), "similarity": (-1.0, 1.0, None, "similarity"),
    "beta": (0.25, 4.0, 0.25, "beta"), "w_factual": (0.0, 1.0, 0.05, "w factual"),
    "w_semantic": (0.0, 1.0, 0.05, "w semantic")}


def _start(start: Any) -> dict[str, float]:
    """The panel's start values, each a slider's name with a value in its range."""
    expected = "start values by slider name (" + ", ".join(SLIDERS) + ")"
    out: dict[str, float] = {}
    for name, value in mapping("start", start, expected).items():
        if name not in SLIDERS:
            raise InputError("start", expected, name)
        low, high = SLIDERS[name][:2]
        out[name] = integer(f"start[{name!r}]", value, low=int(low), high=int(high)) if isinstance(low, int) \
            else number(f"start[{name!r}]", value, f"a number from {low} to {high}", low=low, high=high)
    return out


class CorrectnessPanel:
    """Sliders for answer correctness (TP, FP, FN, similarity, beta, the two weights).

    Every change rescores with :func:`ragmetrics_edu.metrics.answer_correctness` and shows
    the formula and one line of arithmetic; inputs the metric rejects show its
    :class:`~ragmetrics_edu.InputError` instead of a score. ``widget`` is what a notebook
    displays; :meth:`report` prints the panel's line beside a direct call of the metric.
    """

    def __init__(self, start: Mapping[str, float]) -> None:
        import ipywidgets as widgets  # heavy: only when a panel is built

        from .sliders import ExactFloatSlider  # keeps the exact value it was given (no snapping)

        self.start = _start(start)
        self.sliders: dict[str, Any] = {}
        for name, (low, high, step, label) in SLIDERS.items():
            if isinstance(low, int):
                self.sliders[name] = widgets.IntSlider(min=low, max=high, step=step, description=label)
            elif step is None:
                self.sliders[name] = ExactFloatSlider(min=low, max=high, description=label)
            else:
                self.sliders[name] = ExactFloatSlider(min=low, max=high, step=step, readout_format=".2f",
                                                      description=label)
        self.formula_view = widgets.HTMLMath()
        self.printout = widgets.Output()
        self.result: Any = None
        self.text = ""
        self._resetting = False  # reset() moves every slider, then scores once
        for slider in self.sliders.values():
            slider.observe(self.recompute, names="value")
        self.widget = widgets.VBox([
            widgets.HBox([self.sliders["tp"], self.sliders["fp"], self.sliders["fn"]]),
            widgets.HBox([self.sliders["similarity"], self.sliders["beta"]]),
            widgets.HBox([self.sliders["w_factual"], self.sliders["w_semantic"]]),
            self.formula_view, self.printout])
        self.reset()

    @property
    def values(self) -> dict[str, float]:
        """The sliders' current values by name."""
        return {name: s.value for name, s in self.sliders.items()}

    def score_directly(self) -> Any:
        """The metric called on the sliders' values, without the panel (placeholder statements)."""
        p = self.values
        tp, fp, fn = (int(p[kind]) for kind in ("tp", "fp", "fn"))
        return metrics.answer_correctness(["t"] * tp, ["f"] * fp, ["n"] * fn, similarity=p["similarity"],
                                          weights=(p["w_factual"], p["w_semantic"]), beta=p["beta"])

    def recompute(self, change: Any = None) -> None:
        """Score the current values and show the formula; keep the result and the line of text."""
        if self._resetting:
            return

        p = self.values
        try:
            r = self.score_directly()
        except InputError as error:
            self.result, self.text = None, f"Cannot score: {error}"
            self.formula_view.value = ""
        else:
            v = r.values
            self.result = r
            self.text = (f"F(beta={p['beta']:g}) = {v['f_beta']:.4f};  score = ({v['weight_factual']:g} x "
                         f"{v['f_beta']:.4f} + {v['weight_semantic']:g} x {v['similarity']:.4f}) / "
                         f"({v['weight_factual']:g} + {v['weight_semantic']:g}) = {r.score:.4f}")
            self.formula_view.value = f"$${r.formula}$$"
        # Replace the panel's text in one assignment (no clear/append round trip with the browser).
        self.printout.outputs = ({"output_type": "stream", "name": "stdout", "text": self.text + "\n"},)

    def reset(self) -> None:
        """Back to the start values, scored once (not once per slider moved)."""
        self._resetting = True
        try:
            for name, value in self.start.items():
                self.sliders[name].value = value
        finally:
            self._resetting = False
        self.recompute()

    def report(self, step: str) -> None:
        """The panel's line, then the metric's own score for the same values (when it can score)."""
        print(f"{step}:")
        print(textwrap.fill(f"  panel:   {self.text}", WIDTH, subsequent_indent=" " * 11))
        if self.result is not None:
            direct = self.score_directly()
            print(f"  metrics: {direct.score:.4f}   same: {direct.score == self.result.score}")

    def __repr__(self) -> str:
        """The text/plain fallback a notebook shows before its cell runs: a hint, not the widget tree."""
        return "CorrectnessPanel: run this cell in Jupyter to get the answer-correctness sliders"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = repr(self)
        return bundle
