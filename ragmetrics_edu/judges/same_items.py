"""Judging given items: the reference's own statements or claims, sent to the verdict step only.

To measure how often a judge's *verdicts* agree with reference labels, both must judge the same
items. ``designs.faithfulness(..., claims=[...])``, ``designs.answer_relevancy(..., statements=[...])``
and ``designs.context_recall(..., statements=[...])`` skip the extraction call and put the given
items, each in its own data block, into the verdict prompt; the full pipeline (the judge
extracts, then judges) stays the default and is measured separately.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..results import MetricResult
from ..validate import as_list


def given_items(field: str, value: Any, limit: int) -> list[str]:
    """The given items as a list: a non-empty list of non-blank strings, at most ``limit`` of them."""
    expected = "a non-empty list of non-blank strings (the items to judge)"
    value = as_list(field, value, expected)
    if not value:
        raise InputError(field, expected, value)
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise InputError(f"{field}[{i}]", "a non-blank string", item)
    if len(value) > limit:
        raise InputError(field, f"at most {limit} items per judge request", f"{len(value)} items")
    return list(value)


def mark_given(result: MetricResult, field: str, items: list[str], skipped: str) -> MetricResult:
    """Say in the result's steps and notes that the items were given, not extracted."""
    line = (f"The {len(items)} {field} were given (not extracted by the judge); the extraction call "
            f"'{skipped}' was skipped and the judge gave only the verdicts.")
    result.narrative.insert(0, line)
    result.notes.append(line)
    result.inputs[f"{field}_source"] = "given"
    return result
