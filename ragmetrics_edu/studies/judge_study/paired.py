"""A judge against a baseline on the same items: the paired difference over independent units.

Every "judge vs word overlap" claim of the judge study (the course's tables, ``course.judge_study.report``) is made this way:
one value per item for each side, items grouped into their independent unit (a pair of answers
sharing a question and context), each unit's mean compared, with a bootstrap interval of the mean
difference and a sign test over units, and no interval under :data:`MIN_UNITS` units.
:func:`fmt_compare`, :func:`compare_columns` and :func:`fmt_ci` print a comparison and a kappa in the tables.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ... import stats
from ...errors import InputError
from ...stats.inputs import seed as checked_seed
from ...validate import as_list, integer, mapping, number, same_length, text

__all__ = ["MIN_UNITS", "compare", "compare_columns", "fmt_compare", "fmt_ci"]


#: fewer independent units than this: no interval, "too few to tell"
MIN_UNITS = 10


def compare(a: Sequence[float], b: Sequence[float], groups: Sequence[Any] | None = None,
            labels: tuple[str, str] = ("judge", "word overlap"), seed: int = 0) -> dict[str, Any]:
    """The paired difference a − b over independent units, with its interval and a sign test.

    ``a`` and ``b`` hold one value per item on the same items; ``groups`` names each item's unit (its pair),
    and each unit's mean is the value compared (without ``groups`` each item is its own unit). Returns the
    mean difference over units, ``ci`` (None under :data:`MIN_UNITS` units), the sign test's wins, losses,
    ties and p, and ``verdict``: who is better, "cannot tell them apart" when the interval includes 0, or
    "too few to tell".
    """
    a, b = _values("a", a), _values("b", b)
    same_length("a", a, "b", b)
    if not a:
        raise InputError("a", "one value per item, at least one item", a)
    groups = list(range(len(a))) if groups is None else as_list("groups", groups, "one unit name per item")
    same_length("a", a, "groups", groups)
    for i, g in enumerate(groups):
        if not isinstance(g, (str, int)):
            raise InputError(f"groups[{i}]", "a unit's name (a string or a whole number)", g)
    if not (isinstance(labels, tuple) and len(labels) == 2 and all(isinstance(x, str) for x in labels)):
        raise InputError("labels", "two names (a tuple of two strings)", labels)
    checked_seed(seed)
    units: dict[Any, list[tuple[float, float]]] = {}
    for g, x, y in zip(groups, a, b, strict=True):
        units.setdefault(g, []).append((float(x), float(y)))
    ua = [math.fsum(x for x, _ in v) / len(v) for v in units.values()]
    ub = [math.fsum(y for _, y in v) / len(v) for v in units.values()]
    n = len(ua)
    diff = math.fsum(x - y for x, y in zip(ua, ub, strict=True)) / n
    sign = stats.sign_test(ua, ub, labels=labels)
    out = {"difference": diff, "units": n, "ci": None, "wins": sign.values["wins"], "losses": sign.values["losses"],
           "ties": sign.values["ties"], "sign_p": sign.p_value, "labels": labels}
    if n < MIN_UNITS:
        out["verdict"] = "too few to tell"
        return out
    boot = stats.paired_bootstrap(ua, ub, seed=seed, labels=labels)
    assert boot.ci is not None  # paired_bootstrap always gives an interval
    out["ci"] = boot.ci
    low, high = boot.ci
    out["verdict"] = (f"{labels[0]} better" if low > 0 else f"{labels[1]} better" if high < 0
                      else "cannot tell them apart")
    return out


def _values(field: str, value: Any) -> list[float]:
    return [number(f"{field}[{i}]", x, "a number") for i, x in enumerate(as_list(field, value, "one number per item"))]


def _found(found: Any) -> Mapping[str, Any]:
    """A comparison as :func:`compare` returns it."""
    found = mapping("found", found, "a comparison (paired.compare())",
                    keys=("difference", "ci", "wins", "losses", "sign_p", "verdict", "labels"))
    ci = found["ci"]
    if ci is not None and not (isinstance(ci, (list, tuple)) and len(ci) == 2):
        raise InputError("found.ci", "an interval (low, high) or None", ci)
    return found


def fmt_compare(found: Mapping[str, Any]) -> str:
    """``+0.25 [+0.07, +0.45], 8 better / 2 worse, sign p 0.11: ...`` in one line."""
    found = _found(found)
    ci = "" if found["ci"] is None else f" [{found['ci'][0]:+.2f}, {found['ci'][1]:+.2f}]"
    return (f"{found['difference']:+.2f}{ci}, {found['wins']} better / {found['losses']} worse, sign p "
            f"{found['sign_p']:.2f}: {found['verdict']}")


def compare_columns(found: Mapping[str, Any], head: str = "judge - overlap") -> dict[str, str]:
    """A comparison (:func:`compare`) as table columns: difference [interval], units better/worse, sign p,
    reading."""
    found, head = _found(found), text("head", head)
    ci = "" if found["ci"] is None else f" [{found['ci'][0]:.2f}, {found['ci'][1]:.2f}]"
    reading = {"cannot tell them apart": "can't tell", "too few to tell": "too few"}.get(found["verdict"])
    if reading is None:
        reading = "judge ahead" if found["verdict"].startswith(found["labels"][0]) else "overlap ahead"
        if found["sign_p"] >= 0.05:
            reading += "?"
    return {head: f"{found['difference']:+.2f}{ci}", "+/-": f"{found['wins']}/{found['losses']}",
            "sign p": f"{found['sign_p']:.2f}", "reading": reading}


def fmt_ci(result: Any, digits: int = 2) -> str:
    """``0.76 [0.56, 0.92]`` for an AgreementResult (NaN as n/a; no interval, as under ten pairs: the value)."""
    if not (hasattr(result, "score") and hasattr(result, "ci")):
        raise InputError("result", "an AgreementResult (a value with its interval)", result)
    digits = integer("digits", digits, low=0, high=15)
    values = [result.score, *(result.ci or ())]
    shown = ["n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}" for x in values]
    return shown[0] if len(shown) == 1 else f"{shown[0]} [{shown[1]}, {shown[2]}]"
