"""Checks shared by every metric: verdict lists, statement lists, numbers.

Verdicts may be written as 0/1, booleans, or the strings ``yes``/``no`` (any case, spaces
ignored); ``idk`` is accepted only where the metric's variant defines it, and ``borderline``
is read as ``idk`` (an alias for judges that use that word for "the context does not say").
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from .errors import InputError

YES, NO, IDK = "yes", "no", "idk"
_WORDS = {"yes": YES, "no": NO, "idk": IDK, "borderline": IDK, "y": YES, "n": NO}


def is_list(value: Any) -> bool:
    """A sequence of items (list, tuple...), not a string, bytes or mapping."""
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray, Mapping))


def verdict_list(field: str, value: Any, *, allow_idk: bool = False) -> list[str]:
    """Return the verdicts as a list of ``"yes"``/``"no"``/``"idk"`` strings."""
    if not is_list(value):
        raise InputError(field, "a list of verdicts (yes/no, 0/1 or True/False)", value)
    return [one_verdict(f"{field}[{i}]", v, allow_idk=allow_idk) for i, v in enumerate(value)]


def one_verdict(field: str, value: Any, *, allow_idk: bool = False) -> str:
    """Normalise one verdict; reject anything that is not a clear yes/no (or idk)."""
    allowed = "yes, no, idk (or borderline)" if allow_idk else "yes or no"
    if isinstance(value, bool):
        return YES if value else NO
    if isinstance(value, int) and value in (0, 1):
        return YES if value == 1 else NO
    if isinstance(value, float) and value in (0.0, 1.0):
        return YES if value == 1.0 else NO
    if isinstance(value, str):
        word = _WORDS.get(value.strip().lower())
        if word == IDK and not allow_idk:
            raise InputError(field, f"{allowed} (this variant has no 'idk')", value)
        if word is not None:
            return word
    raise InputError(field, f"{allowed}, 0/1 or True/False", value)


def text_list(field: str, value: Any, *, allow_none_items: bool = False) -> list[str]:
    """A list of strings (statements, claims, nodes, entities)."""
    if not is_list(value):
        raise InputError(field, "a list of strings", value)
    out: list[Any] = []  # None items only with allow_none_items
    for i, item in enumerate(value):
        if item is None and allow_none_items:
            out.append(None)
        elif not isinstance(item, str):
            raise InputError(f"{field}[{i}]", "a string", item)
        else:
            out.append(item)
    return out


def text(field: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InputError(field, "a string", value)
    return value


def same_length(field_a: str, a: Sequence, field_b: str, b: Sequence) -> None:
    if len(a) != len(b):
        raise InputError(
            field_b,
            f"one entry per item of {field_a} ({len(a)})",
            list(b),
            hint=f"{field_b} has {len(b)} entries",
        )


def optional_texts(field: str, value: Any, n: int, what: str) -> list[str] | None:
    """Optional labels (node texts) that must match the number of verdicts."""
    if value is None:
        return None
    items = text_list(field, value)
    if len(items) != n:
        raise InputError(field, f"one {what} per verdict ({n})", items, hint=f"{field} has {len(items)} entries")
    return items


def flag(field: str, value: Any) -> bool:
    """A switch: True or False only (a truthy string like "no" must not switch it on)."""
    if not isinstance(value, bool):
        raise InputError(field, "True or False", value)
    return value


def number(field: str, value: Any, expected: str, *, low: float = -math.inf, high: float = math.inf,
           low_open: bool = False) -> float:
    """A finite real number in [low, high] (or (low, high] with ``low_open``), as a float.

    Booleans, NaN, infinities and integers too large for a float are rejected."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(field, expected, value)
    try:
        x = float(value)
    except OverflowError:
        raise InputError(field, expected, value) from None
    if not math.isfinite(x) or x < low or x > high or (low_open and x == low):
        raise InputError(field, expected, value)
    return x


def probability(field: str, value: Any, *, allow_none: bool = True) -> float | None:
    """A number in [0, 1] (thresholds)."""
    if value is None and allow_none:
        return None
    return number(field, value, "a number between 0 and 1", low=0.0, high=1.0)


def count(field: str, value: Any, *, maximum: int = 10**15) -> int:
    """A non-negative whole count (statements, documents), small enough for float arithmetic."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise InputError(field, f"a whole number from 0 to {maximum:.0e}", value)
    return value


def positive_int(field: str, value: Any, *, allow_none: bool = True, minimum: int = 1) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(field, f"an integer >= {minimum}", value)
    return value


def choice(field: str, value: Any, options: Sequence[str]) -> str:
    if not isinstance(value, str) or value.strip().lower() not in options:
        raise InputError(field, "one of " + ", ".join(repr(o) for o in options), value)
    return value.strip().lower()
