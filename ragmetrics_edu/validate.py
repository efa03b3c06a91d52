"""The checks every public entry point shares: lists, verdicts, texts, numbers, flags, paths.

One rule for the whole library: an argument is accepted as its docstring says, converted
where that is meaningful, and otherwise refused with an :class:`~ragmetrics_edu.InputError`
naming the parameter, what was expected and what was given. In detail:

- **Lists** (verdicts, statements, nodes, scores) are lists, tuples or ranges, and also a
  numpy array or a pandas Series/Index, read with ``.tolist()`` (a column of relevance flags
  is a reasonable thing to pass). Strings, bytes, mappings, sets, generators and other
  one-shot iterators are refused, and so is an object whose ``len()`` or iteration fails;
  a parameter documented as any iterable reads iterators (and sets, dict views) once
  (:func:`as_list`'s ``iterators`` and ``iterables``).
- **Numpy scalars** count as the Python value they hold: ``numpy.int64(3)`` as 3,
  ``numpy.float64(0.5)`` as 0.5 and ``numpy.bool_(True)`` as True.
- **Flags** (switches) take True or False only, ``numpy.bool_`` included; 0/1, "yes"/"no",
  None and pandas' missing value ``pd.NA`` are refused, so a truthy string never switches
  anything on.
- **Numbers** are finite ints or floats (bools, NaN, infinities, ints too large for a float
  refused); counts are whole numbers.
- **Rows** (a table's records) are a list of dicts, each holding the keys it needs
  (:func:`records`, :func:`mapping`); a library object (an example, a result, a judge) is
  checked by its type (:func:`instance`).
- **Paths** are a ``str`` or ``os.PathLike`` naming a file or folder: checked before use for
  length (at most 4096 characters, no part longer than 255), existence where the file is
  read, and kind (a file where a file is meant, a folder where a folder is).

Verdicts may be written as 0/1, booleans, or the strings ``yes``/``no`` (any case, spaces
ignored); ``idk`` is accepted only where the metric's variant defines it, and ``borderline``
is read as ``idk`` (an alias for judges that use that word for "the context does not say").
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

from .cores.ratio import VERDICT_WORDS
from .errors import InputError

YES, NO, IDK = "yes", "no", "idk"
#: the verdict words (borderline read as idk) live in the counting rule's core, which show_code shows
_WORDS = VERDICT_WORDS


#: The longest path accepted, and the longest part of one (Linux's PATH_MAX and NAME_MAX).
PATH_MAX, NAME_MAX = 4096, 255


def is_array_like(value: Any) -> bool:
    """A numpy array or a pandas Series/Index (never imports numpy or pandas to find out)."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        return True
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(value, (pd.Series, pd.Index))


def plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (``numpy.int64(3)`` -> 3); anything else unchanged."""
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.generic):
        try:
            return value.item()
        except (ValueError, TypeError):  # a numpy value with no Python counterpart
            return value
    return value


def is_list(value: Any) -> bool:
    """A sequence of items (list, tuple...) or an array-like, not a string, bytes or mapping."""
    return is_array_like(value) or (isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray, Mapping)))


def as_list(field: str, value: Any, expected: str = "a list", *, iterators: bool = False,
            iterables: bool = False) -> list[Any]:
    """``value`` read into a new plain list, or an InputError naming ``field``.

    Lists, tuples and ranges are copied; a numpy array or pandas Series/Index is read with
    ``.tolist()`` (numpy scalars become Python values). Strings, bytes, mappings, sets,
    generators, a 0-d array and an object whose ``len()`` or iteration fails are refused;
    with ``iterators`` (a parameter that takes a generator) a generator or other iterator is
    read once into the list; with ``iterables`` (a parameter documented as any iterable) so is
    every iterable but a string, bytes or mapping, a set or dict view too (in its iteration order)."""
    if type(value) is list or type(value) is tuple:  # the common case first: an exact list or tuple cannot fail
        return list(value)
    if not (is_array_like(value) or isinstance(value, (Sequence, str, bytes, bytearray, Mapping))) and (
            (iterators and isinstance(value, Iterator)) or (iterables and isinstance(value, Iterable))):
        return _read(field, value, expected)
    if is_array_like(value):
        try:
            items = value.tolist()
        except Exception as exc:  # noqa: BLE001 - an array that cannot be read is bad input
            raise InputError(field, expected, value, hint=f"it could not be read ({type(exc).__name__})") from None
        if not isinstance(items, list):
            raise InputError(field, expected, value, hint="a single value, not a list")
        return items
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes, bytearray, Mapping)):
        raise InputError(field, expected, value)
    return _read(field, value, expected, sized=True)


def _read(field: str, value: Any, expected: str, *, sized: bool = False) -> list[Any]:
    """``list(value)`` (and, ``sized``, a working ``len(value)``), or an InputError naming ``field``."""
    try:
        items = list(value)
        if sized:
            len(value)
    except Exception as exc:  # noqa: BLE001 - a broken __iter__ or __len__ is bad input, not a crash
        raise InputError(field, expected, value, hint=f"reading it failed ({type(exc).__name__}: {exc})") from None
    return items


def verdict_list(field: str, value: Any, *, allow_idk: bool = False) -> list[str]:
    """Return the verdicts as a list of ``"yes"``/``"no"``/``"idk"`` strings."""
    items = as_list(field, value, "a list of verdicts (yes/no, 0/1 or True/False)")
    return [one_verdict(f"{field}[{i}]", v, allow_idk=allow_idk) for i, v in enumerate(items)]


def one_verdict(field: str, value: Any, *, allow_idk: bool = False) -> str:
    """Normalise one verdict; reject anything that is not a clear yes/no (or idk)."""
    allowed = "yes, no, idk (or borderline)" if allow_idk else "yes or no"
    value = plain(value)
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


def text_list(field: str, value: Any, *, allow_none_items: bool = False, iterators: bool = False) -> list[str]:
    """A list of strings (statements, claims, nodes, entities); ``iterators`` as for :func:`as_list`."""
    items = as_list(field, value, "a list of strings", iterators=iterators)
    out: list[Any] = []  # None items only with allow_none_items
    for i, item in enumerate(items):
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
    """``b`` must have one entry per entry of ``a`` (both lists already read, e.g. by :func:`as_list`)."""
    a, b = as_list(field_a, a), as_list(field_b, b)
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
    """A switch: True or False only, ``numpy.bool_`` included (a truthy string like "no", 0/1
    and ``pd.NA`` must not switch it on or off)."""
    value = plain(value)
    if not isinstance(value, bool):
        raise InputError(field, "True or False", value)
    return value


def optional_flag(field: str, value: Any) -> bool | None:
    """A switch that may be left to the library: True, False or None."""
    if value is None:
        return None
    value = plain(value)
    if not isinstance(value, bool):
        raise InputError(field, "True, False or None", value)
    return value


def identifier(field: str, value: Any, expected: str) -> str:
    """A name or id looked up in a table (an example id, a metric, a step): a string, else an
    InputError before any comparison (an array compared with ``==`` has no truth value)."""
    if not isinstance(value, str):
        raise InputError(field, expected, value)
    return value


def path(field: str, value: Any, *, kind: str = "file", exists: bool = True, expected: str = "") -> Path:
    """A path checked before use: a str or os.PathLike, not empty, at most :data:`PATH_MAX`
    characters with no part over :data:`NAME_MAX`; with ``exists`` it must be there, and be a
    file (``kind="file"``) or a folder (``kind="dir"``); without, it must not be the other kind."""
    what = expected or ("a file path (str or pathlib.Path)" if kind == "file" else "a folder path (str or pathlib.Path)")
    if isinstance(value, bool) or not isinstance(value, (str, os.PathLike)):
        raise InputError(field, what, value)
    try:
        text = os.fspath(value)
    except Exception:  # noqa: BLE001 - a broken __fspath__
        raise InputError(field, what, value) from None
    if not isinstance(text, str) or not text.strip() or "\0" in text:
        raise InputError(field, what, value)
    if len(text) > PATH_MAX or any(len(part) > NAME_MAX for part in text.split(os.sep)):
        raise InputError(field, what, f"a {len(text)}-character string",
                         hint=f"a path has at most {PATH_MAX} characters and no part longer than {NAME_MAX}")
    found = Path(text)
    try:
        is_dir, present = found.is_dir(), found.exists()
    except OSError as exc:
        raise InputError(field, what, text, hint=f"it cannot be looked at ({exc.strerror or exc})") from None
    if exists and not present:
        raise InputError(field, what, text, hint="nothing is there")
    if present and kind == "file" and is_dir:
        raise InputError(field, what, text, hint="it is a folder, not a file")
    if present and kind == "dir" and not is_dir:
        raise InputError(field, what, text, hint="it is a file, not a folder")
    return found


def number(field: str, value: Any, expected: str, *, low: float = -math.inf, high: float = math.inf,
           low_open: bool = False, high_open: bool = False) -> float:
    """A finite real number in [low, high] (an open end with ``low_open``/``high_open``), as a float.

    Booleans, NaN, infinities and integers too large for a float are rejected; numpy numbers
    count as the value they hold."""
    value = plain(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(field, expected, value)
    try:
        x = float(value)
    except OverflowError:
        raise InputError(field, expected, value) from None
    if not math.isfinite(x) or x < low or x > high or (low_open and x == low) or (high_open and x == high):
        raise InputError(field, expected, value)
    return x


def optional_number(field: str, value: Any, expected: str, *, low: float = -math.inf, high: float = math.inf,
                    low_open: bool = False, high_open: bool = False) -> float | None:
    """None, or a :func:`number`."""
    if value is None:
        return None
    return number(field, value, expected, low=low, high=high, low_open=low_open, high_open=high_open)


def probability(field: str, value: Any, *, allow_none: bool = True) -> float | None:
    """A number in [0, 1] (thresholds)."""
    if value is None and allow_none:
        return None
    return number(field, value, "a number between 0 and 1", low=0.0, high=1.0)


def count(field: str, value: Any, *, maximum: int = 10**15) -> int:
    """A non-negative whole count (statements, documents), small enough for float arithmetic."""
    value = plain(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise InputError(field, f"a whole number from 0 to {maximum:.0e}", value)
    return value


def integer(field: str, value: Any, *, low: int, high: int | None = None, expected: str = "") -> int:
    """A whole number from ``low`` to ``high`` (no upper bound when None; numpy integers too; bools refused)."""
    value = plain(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        raise InputError(field, expected or (f"a whole number from {low} to {high}" if high is not None
                                             else f"a whole number >= {low}"), value)
    return value


def optional_integer(field: str, value: Any, *, low: int, high: int | None = None, expected: str = "") -> int | None:
    """None, or an :func:`integer`."""
    if value is None:
        return None
    return integer(field, value, low=low, high=high, expected=expected)


def member(field: str, value: Any, options: Sequence[str], expected: str = "") -> str:
    """One of ``options`` exactly (a split, a model's name): a string first, so an array or ``pd.NA``
    is refused before any comparison."""
    if not isinstance(value, str) or value not in options:
        raise InputError(field, expected or "one of " + ", ".join(repr(o) for o in options), value)
    return value


def positive_int(field: str, value: Any, *, allow_none: bool = True, minimum: int = 1) -> int | None:
    if value is None and allow_none:
        return None
    value = plain(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(field, f"an integer >= {minimum}", value)
    return value


def choice(field: str, value: Any, options: Sequence[str]) -> str:
    if not isinstance(value, str) or value.strip().lower() not in options:
        raise InputError(field, "one of " + ", ".join(repr(o) for o in options), value)
    return value.strip().lower()


def records(field: str, value: Any, expected: str = "a list of dicts", keys: Sequence[str] = ()) -> list[Any]:
    """A list of dicts (a table's rows), each holding ``keys``: read with :func:`as_list`, and every
    item checked by :func:`mapping` (an error names the item, ``rows[2]``)."""
    items = as_list(field, value, expected)
    for i, item in enumerate(items):
        mapping(f"{field}[{i}]", item, keys=keys)
    return items


def mapping(field: str, value: Any, expected: str = "a dict", keys: Sequence[str] = ()) -> Mapping[Any, Any]:
    """A dict (or any mapping) holding ``keys``, else an InputError naming the first key missing."""
    if not isinstance(value, Mapping):
        raise InputError(field, expected, value)
    missing = [key for key in keys if key not in value]
    if missing:
        raise InputError(field, f"{expected} with the key {missing[0]!r}", value)
    return value


def instance(field: str, value: Any, kind: type | tuple[type, ...], expected: str) -> Any:
    """``value`` when it is a ``kind`` (a library object: an Example, a MetricResult, a judge), else an InputError."""
    if not isinstance(value, kind):
        raise InputError(field, expected, value)
    return value
