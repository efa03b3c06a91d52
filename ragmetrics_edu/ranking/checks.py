"""The ranking measures' input checks, kept out of the public functions' way.

Each function here only checks and converts what a caller passed (raising ``InputError`` naming the field);
none computes a measure. The checks every public function shares are :mod:`ragmetrics_edu.validate`'s.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..errors import InputError
from ..results import fmt
from ..validate import YES, as_list, choice, count, one_verdict, positive_int, verdict_list

#: Largest gain accepted, so that sums of discounted gains stay finite floats.
MAX_LINEAR_GAIN = 1e12
MAX_EXPONENTIAL_GAIN = 100.0
GAINS = ("linear", "exponential")
#: What mean_average_precision does with a query known to have no relevant document.
NO_RELEVANT = ("skip", "zero")


def relevance_flags(relevance: Sequence[Any], field: str = "relevance") -> list[int]:
    """Relevance verdicts (yes/no, 0/1, bools) as 1/0 flags, checked."""
    return [1 if v == YES else 0 for v in verdict_list(field, relevance)]


def cutoff(k: Any, n: int) -> int:
    """The cut-off ``k`` checked (a positive whole number); None means ``n``, the list's length."""
    if k is None:
        return n
    checked = positive_int("k", k, allow_none=False)
    assert checked is not None  # allow_none=False
    return checked


def ranked(relevance: Any, k: Any) -> tuple[list[int], int]:
    """One ranking's flags and its cut-off."""
    flags = relevance_flags(relevance)
    return flags, cutoff(k, len(flags))


def query_lists(queries: Any) -> list[list[int]]:
    """One 0/1 list per query; the field named in an error is ``queries[i]``."""
    queries = as_list("queries", queries, "a list of relevance lists, one per query")
    return [relevance_flags(rel, f"queries[{q}]") for q, rel in enumerate(queries)]


def total_relevant_of(total_relevant: Any, flags: list[int], what: str = "relevant items in the list") -> int:
    """``total_relevant`` checked: a count at least the relevant items retrieved (None: those)."""
    if total_relevant is None:
        return sum(flags)
    total = count("total_relevant", total_relevant)
    if total < sum(flags):
        raise InputError("total_relevant", f"at least the {sum(flags)} {what}", total_relevant)
    return total


def map_totals(queries: Any, total_relevant: Any, no_relevant: Any
               ) -> tuple[list[list[int]], list[int | None] | None, str]:
    """Mean average precision's queries, one checked count (or None) per query (None: none given), and
    ``no_relevant``."""
    flags = query_lists(queries)
    no_relevant = choice("no_relevant", no_relevant, NO_RELEVANT)
    if total_relevant is None:
        return flags, None, no_relevant
    given = as_list("total_relevant", total_relevant, f"None or one count per query ({len(flags)})")
    if len(given) != len(flags):
        raise InputError("total_relevant", f"None or one count per query ({len(flags)})", total_relevant)
    totals: list[int | None] = []
    for q, (rel, value) in enumerate(zip(flags, given, strict=True)):
        total = None if value is None else count(f"total_relevant[{q}]", value)
        if total is not None and total < sum(rel):
            raise InputError(f"total_relevant[{q}]", f"at least the {sum(rel)} relevant documents retrieved", value)
        totals.append(total)
    return flags, totals, no_relevant


def gains_of(relevance: Any, field: str, gain: str) -> list[float]:
    """Graded gains as floats: non-negative numbers, or yes/no verdicts read as 1/0."""
    relevance = as_list(field, relevance, "a list of gains (0/1, yes/no, or non-negative numbers)")
    top = MAX_LINEAR_GAIN if gain == "linear" else MAX_EXPONENTIAL_GAIN
    gains = []
    for i, v in enumerate(relevance):
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v not in (0, 1):
            try:
                ok = math.isfinite(v) and 0 <= v <= top
            except OverflowError:
                ok = False
            if not ok:
                raise InputError(f"{field}[{i}]", f"a gain from 0 to {top:g} ({gain} gain), or yes/no", v)
            gains.append(float(v))
        else:
            gains.append(1.0 if one_verdict(f"{field}[{i}]", v) == YES else 0.0)
    return gains


def ndcg_inputs(relevance: Any, k: Any, ideal: Any, gain: Any) -> tuple[list[float], list[float] | None, int, str]:
    """nDCG's grades, the ideal's grades (None when ``ideal`` is None: the core then sorts the list's own), the
    cut-off and the gain.

    The ideal must hold, rank by rank, at least the list's own grades (else nDCG exceeds 1)."""
    gain = choice("gain", gain, GAINS)
    grades = gains_of(relevance, "relevance", gain)
    k = cutoff(k, len(grades))
    if ideal is None:
        return grades, None, k, gain
    ideal_grades = gains_of(ideal, "ideal", gain)
    best, own = sorted(ideal_grades, reverse=True), sorted((g for g in grades if g > 0), reverse=True)
    if len(best) < len(own) or any(i < g for i, g in zip(best, own, strict=False)):
        raise InputError("ideal", "the grades of every relevant document, covering the list's own grades "
                         f"{[fmt(g) for g in own]}", ideal)
    return grades, ideal_grades, k, gain


def precision_total(variant: str, total_relevant: Any, flags: list[int]) -> int | None:
    """Average precision's ``total_relevant`` checked (at least the relevant nodes retrieved); None stays None
    (the core then takes the relevant nodes retrieved). Other variants take it as it is."""
    if variant != "average_precision" or total_relevant is None:
        return total_relevant
    total = count("total_relevant", total_relevant)
    if total < sum(flags):
        raise InputError("total_relevant", f"at least the {sum(flags)} relevant nodes retrieved", total_relevant)
    return total
