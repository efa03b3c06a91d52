"""Checks of the scores and options the statistics functions take.

Scores are real numbers (ints or floats, numpy numbers too) in a list, tuple, numpy array or
pandas Series; booleans, NaN, infinities, strings and empty inputs are refused with an
:class:`~ragmetrics_edu.InputError` naming the argument, so a learner sees at once what to fix.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from ..errors import InputError
from ..validate import as_list, integer, number, optional_flag, same_length


def scores(field: str, value: Any) -> list[float]:
    """A non-empty list of finite numbers, one score per question."""
    items = as_list(field, value, "a list of numbers (one score per question)")
    if not items:
        raise InputError(field, "at least one score", value)
    out = []
    for i, item in enumerate(items):
        if isinstance(item, bool) or type(item).__name__ == "bool_" or not isinstance(item, numbers.Real):
            raise InputError(f"{field}[{i}]", "a number (int or float; not a bool)", item)
        number = float(item)
        if not math.isfinite(number):
            raise InputError(f"{field}[{i}]", "a finite number (drop or fill NaN first)", item)
        out.append(number)
    return out


def paired(a: Any, b: Any) -> tuple[list[float], list[float]]:
    """Two score lists of the same length: system a's and system b's score on each question."""
    left, right = scores("a", a), scores("b", b)
    same_length("a", left, "b", right)
    return left, right


def ci_level(value: Any) -> float:
    """The confidence level (``level=``): a number strictly between 0 and 1 (0.95, not 95)."""
    return number("level", value, "a number strictly between 0 and 1 (e.g. 0.95)", low=0.0, high=1.0 - 1e-12,
                  low_open=True)


#: The most random draws (resamples x items) one call makes: a second or two of numpy. Past it an
#: InputError says how many resamples the data allow.
MAX_DRAWS = 20_000_000
#: The most resamples (or random sign flips) one call draws.
MAX_RESAMPLES = 10_000_000
#: Resamples always allowed, whatever the size: a large file may take ``n`` x 1,000 draws (about 1.7 s per
#: 100,000 items here; drawn in batches, so memory stays bounded). See :func:`adapted_resamples`.
FLOOR_RESAMPLES = 1_000


def resamples(value: Any) -> int:
    """How many resamples (bootstrap) or random sign flips (Monte Carlo): an integer from 1 to MAX_RESAMPLES."""
    return integer("n_resamples", value, low=1, high=MAX_RESAMPLES)


def allowed_resamples(n: int) -> int:
    """The most resamples of ``n`` items one call draws: :data:`MAX_DRAWS` / n, and never fewer than
    :data:`FLOOR_RESAMPLES` (so any number of items can be resampled)."""
    return max(FLOOR_RESAMPLES, MAX_DRAWS // max(n, 1))


def draws(count: int, n: int) -> None:
    """Refuse ``count`` resamples of ``n`` items when that is more than :func:`allowed_resamples` allows."""
    if count > allowed_resamples(n):
        raise InputError("n_resamples", f"at most {allowed_resamples(n):,} resamples for {n:,} items "
                         f"(at most {MAX_DRAWS:,} draws, or {FLOOR_RESAMPLES:,} resamples, per call)", count,
                         hint="stats.adapted_resamples(n, wanted) gives the count a size allows")


def adapted_resamples(n: Any, wanted: Any) -> tuple[int, str]:
    """The resamples to draw for ``n`` items when ``wanted`` were asked for, and a sentence saying how it was chosen.

        B = min(wanted, allowed_resamples(n))

    ``wanted`` while ``n`` x ``wanted`` stays within :data:`MAX_DRAWS`; past it, as many as fit, but never fewer
    than :data:`FLOOR_RESAMPLES` (1,000 resamples put a 95% percentile interval's ends within about a tenth of a
    standard error of where unlimited resampling would put them). A file of any size gets an interval."""
    n = integer("n", n, low=1, high=10**12)
    wanted = resamples(wanted)
    count = min(wanted, allowed_resamples(n))
    if count == wanted:
        return count, f"{count:,} resamples"
    return count, (f"{count:,} resamples ({wanted:,} asked for; with {n:,} items the count is cut to keep the draws "
                   f"near {MAX_DRAWS:,}, never below {FLOOR_RESAMPLES:,})")


def seed(value: Any) -> int | None:
    """A seed for numpy's random generator: a non-negative integer, or None for fresh randomness."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 0:
        raise InputError("seed", "a non-negative integer or None", value)
    return int(value)


def flag(field: str, value: Any) -> bool | None:
    """A three-way switch: True, False or None (let the function decide); nothing truthy."""
    return optional_flag(field, value)


def labels(value: Any) -> tuple[str, str]:
    """The two systems' names, used in the step table and the narrative."""
    if isinstance(value, (tuple, list)):
        value = as_list("labels", value, "two different non-empty names, e.g. ('bm25', 'dense')")
    if (isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, str) and v for v in value)
            and value[0] != value[1]):
        return value[0], value[1]
    raise InputError("labels", "two different non-empty names, e.g. ('bm25', 'dense')", value)


def ids(value: Any, n: int) -> list[Any]:
    """Question ids for the step table (1, 2, ... when not given)."""
    if value is None:
        return list(range(1, n + 1))
    items = as_list("ids", value, f"one id per question ({n})")
    if len(items) != n:
        raise InputError("ids", f"one id per question ({n})", value)
    return items


def group_labels(field: str, value: Any, n: int) -> list[Any]:
    """One hashable group label per item (the independent unit a resample draws), or InputError naming ``field``."""
    found = as_list(field, value, "a list with one group label per item")
    if len(found) != n:
        raise InputError(field, f"one group label per item ({n})", f"{len(found)} labels")
    for i, g in enumerate(found):
        if g is None or isinstance(g, float) and math.isnan(g):
            raise InputError(f"{field}[{i}]", "a group label (a string or an integer)", g)
        try:
            hash(g)
        except TypeError:
            raise InputError(f"{field}[{i}]", "a hashable group label (a string or an integer)", g) from None
    return list(found)


def positive_int_at_most(field: str, value: Any, limit: int) -> int:
    """An integer between 0 and ``limit`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) <= limit:
        raise InputError(field, f"an integer between 0 and {limit}", value)
    return int(value)
