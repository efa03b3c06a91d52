"""A float slider that never changes the value it was given.

ipywidgets' ``FloatSlider`` lets the browser snap its value to ``step`` (0.5714… becomes
0.57 with ``step=0.01``) and write the snapped value back to the kernel, so a panel fed by
the slider computes with a number nobody chose. :class:`ExactFloatSlider` has no step by
default (the handle sits at the exact value) and, whatever its step, ignores a value from
the browser that is only the current value as the browser can show it (snapped to the
step, or off by float rounding). A move by the learner, or a value set from code, goes
through unchanged. With a step, the handle and readout show the snapped value while the kernel
keeps the exact one, so leave ``step`` at None where the readout must show the exact value.
"""

from __future__ import annotations

import math
import re
from typing import Any, Mapping

import ipywidgets as widgets
from traitlets import TraitError

from ..errors import InputError
from ..validate import number

__all__ = ["ExactFloatSlider"]


class ExactFloatSlider(widgets.FloatSlider):
    """``FloatSlider`` whose value stays exactly what code set until the learner moves it.

    ``ExactFloatSlider(value=0.5714285714, min=-1, max=1, description="similarity")``;
    ``step`` defaults to None (no snapping) and ``readout_format`` to ``".4f"``.
    """

    def __init__(self, value: float = 0.0, *, step: float | None = None, readout_format: str = ".4f",
                 **options: Any) -> None:
        value = number("value", value, "a finite number")
        if step is not None:
            step = number("step", step, "a finite number > 0, or None (no snapping)", low=0.0, low_open=True)
        try:
            super().__init__(value=value, step=step, readout_format=readout_format, **options)
        except TraitError as exc:  # a wrong min, max or format: the widget's own message, as an InputError
            named = re.search(r"The '(\w+)' trait", str(exc))
            field = named.group(1) if named else "options"
            given = {"readout_format": readout_format, **options}
            raise InputError(field, "a value FloatSlider accepts", given.get(field, given),
                             hint=str(exc).split(",")[0]) from None

    def shown(self, value: float) -> float:
        """Where the browser puts ``value``: snapped to ``step`` from ``min`` (unchanged without a step)."""
        if not self.step:
            return value
        return self.min + round((value - self.min) / self.step) * self.step

    def is_echo(self, incoming: Any) -> bool:
        """Whether a value from the browser is only the current value as the browser shows it."""
        if isinstance(incoming, bool) or not isinstance(incoming, (int, float)) or incoming == self.value:
            return False
        try:
            if not math.isfinite(float(incoming)):
                return False
        except OverflowError:
            return False
        return math.isclose(incoming, self.shown(self.value), rel_tol=1e-9, abs_tol=1e-12)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Apply an update from the browser, dropping a snapped echo of the current value."""
        if not isinstance(sync_data, Mapping) or not all(isinstance(k, str) for k in sync_data):
            raise InputError("sync_data", "a dict of trait names to values (what the browser sends)", sync_data)
        if "value" in sync_data and self.is_echo(sync_data["value"]):
            sync_data = {name: value for name, value in sync_data.items() if name != "value"}
        super().set_state(sync_data)
