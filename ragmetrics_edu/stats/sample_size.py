"""How many units (sources, questions) a study needs, from the interval a pilot measured on some of them.

A half-width h measured on n units shrinks as one over the square root of the units (a normal approximation),
so an interval of half-width d needs about n · (h / d)² units. That is not enough to *see* a true difference of
d: the estimate falls on either side of d, so its interval clears 0 only about half the time. To see it in a
share ``power`` of studies, the standard error must reach d / (z₁₋α/₂ + z_power), which multiplies the units by
((z₁₋α/₂ + z_power) / z₁₋α/₂)² (about 2 at 80 % power and a 95 % level).

When the units are clusters resampled by a percentile bootstrap, the interval itself is too narrow with few of
them (10 to 30 clusters under-cover): plan for 30 or more before a decision rests on it.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from ..validate import integer, number

__all__ = ["units_needed"]


def units_needed(half_width: float, units: int, target: float, *, level: float = 0.95,
                 power: float | None = None) -> int:
    """The units for a half-width of ``target`` (``power=None``), or to see a true difference of ``target`` in
    ``power`` of studies, from a pilot's ``half_width`` on ``units`` units."""
    h = number("half_width", half_width, "a half-width above 0", low=0.0, low_open=True)
    n = integer("units", units, low=1, high=10**9, expected="a whole number of units from 1")
    d = number("target", target, "a target above 0", low=0.0, low_open=True)
    level = number("level", level, "a level strictly between 0 and 1", low=0.0, high=1.0, low_open=True,
                   high_open=True)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    factor = 1.0
    if power is not None:
        power = number("power", power, "a power from 0.5 to below 1, or None", low=0.5, high=1.0, high_open=True)
        factor = ((z + NormalDist().inv_cdf(power)) / z) ** 2
    return math.ceil(n * factor * (h / d) ** 2)
