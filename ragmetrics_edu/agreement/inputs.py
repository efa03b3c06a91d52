"""Checks of the labels, scores and texts the agreement functions take.

Every refusal is an :class:`~ragmetrics_edu.InputError` naming the argument (and the item's
index), so a learner sees at once what to fix.
"""

from __future__ import annotations

import math
from typing import Any, Hashable

from ..errors import InputError
from ..stats.inputs import scores as checked_scores
from ..validate import as_list, number


def sequence(field: str, value: Any) -> list[Any]:
    """A list, tuple, numpy array or pandas Series as a plain list (not a string or mapping)."""
    return as_list(field, value, "a list (one entry per item)")


def labels(field: str, value: Any) -> list[Hashable]:
    """A non-empty list of labels: any hashable value except None and NaN."""
    items = sequence(field, value)
    if not items:
        raise InputError(field, "at least one label", value)
    for i, item in enumerate(items):
        if item is None or (isinstance(item, float) and math.isnan(item)):
            raise InputError(f"{field}[{i}]", "a label (not None or NaN: drop unjudged items first)", item)
        try:
            hash(item)
        except TypeError:
            raise InputError(f"{field}[{i}]", "a hashable label such as 'yes', 'no', 'idk' or a grade",
                             item) from None
    return items


def same_length(field_a: str, a: list[Any], field_b: str, b: list[Any]) -> None:
    """``b`` must have one entry per entry of ``a`` (the same items, judged twice)."""
    if len(a) != len(b):
        raise InputError(field_b, f"one entry per item of {field_a} ({len(a)})", b,
                         hint=f"{field_b} has {len(b)} entries")


def scores(field: str, value: Any) -> list[float]:
    """A non-empty list of finite numbers (bools refused): the same check as the statistics functions."""
    return checked_scores(field, value)


def texts(field: str, value: Any) -> list[str]:
    """A list of strings (it may be empty: a judge can extract nothing)."""
    items = sequence(field, value)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise InputError(f"{field}[{i}]", "a string", item)
    return items


def choice(field: str, value: Any, options: tuple[Any, ...]) -> Any:
    """One of ``options`` (compared by identity for None, by equality for strings)."""
    if value is None and None in options:
        return None
    if isinstance(value, str) and value in options:
        return value
    raise InputError(field, " or ".join(repr(o) for o in options), value)


def fraction(field: str, value: Any, *, low_open: bool = False) -> float:
    """A number in [0, 1] (or (0, 1] with ``low_open``), not a bool."""
    return number(field, value, "a number in (0, 1]" if low_open else "a number between 0 and 1", low=0.0, high=1.0,
                  low_open=low_open)


def rater_names(value: Any) -> tuple[str, str]:
    """Two different, non-empty names for the raters (not a name the item table already uses)."""
    reserved = {"item", "agree", "cost"}
    if isinstance(value, (tuple, list)):
        value = as_list("raters", value, "two different non-empty names, e.g. ('human', 'judge')")
    if (isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, str) and v.strip() for v in value)
            and value[0] != value[1] and not reserved & set(value)):
        return value[0], value[1]
    raise InputError("raters", "two different non-empty names, e.g. ('human', 'judge')", value)
