"""``validate.as_list(..., iterables=True)``: a parameter documented as any iterable reads sets and dict
views too (in iteration order), while ``as_list``'s other modes refuse them as before; CallList,
``score_cases`` and ``run_tasks`` read their iterables with it."""

from __future__ import annotations

import pytest

from ragmetrics_edu import judges, validate
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.judges.batch import run_tasks
from ragmetrics_edu.judges.records import CallList, CallRecord


class BrokenIterable:
    """Iterable, not a sequence, and reading it fails."""

    def __iter__(self):
        raise RuntimeError("broken __iter__")


def test_iterables_reads_sets_views_and_iterators_in_their_order():
    data = {"b": 2, "a": 1}
    assert validate.as_list("x", {3}, iterables=True) == [3]
    assert validate.as_list("x", frozenset({4}), iterables=True) == [4]
    assert validate.as_list("x", data.keys(), iterables=True) == ["b", "a"]
    assert validate.as_list("x", data.values(), iterables=True) == [2, 1]
    assert validate.as_list("x", data.items(), iterables=True) == [("b", 2), ("a", 1)]
    assert validate.as_list("x", (i for i in range(3)), iterables=True) == [0, 1, 2]
    assert validate.as_list("x", (1, 2), iterables=True) == [1, 2]


@pytest.mark.parametrize("bad", ["ab", b"ab", {"a": 1}, None, 3, BrokenIterable()])
def test_iterables_still_refuses_strings_mappings_non_iterables_and_broken_ones(bad):
    with pytest.raises(InputError) as info:
        validate.as_list("rows", bad, "some rows", iterables=True)
    assert info.value.field == "rows" and "some rows" in str(info.value)


@pytest.mark.parametrize("value", [{1, 2}, {"a": 1}.keys(), {"a": 1}.values(), BrokenIterable()])
def test_without_iterables_sets_and_views_are_refused_as_before(value):
    for options in ({}, {"iterators": True}):
        with pytest.raises(InputError):
            validate.as_list("rows", value, **options)


def _record(step: str) -> CallRecord:
    return CallRecord(step=step, messages=[], raw="{}", parsed={}, model="m")


def test_call_list_score_cases_and_run_tasks_take_any_iterable_and_name_a_bad_item():
    records = {"one": _record("a"), "two": _record("b")}
    assert [r.step for r in CallList(records.values())] == ["a", "b"]
    with pytest.raises(InputError, match="iterable"):
        CallList("ab")
    with pytest.raises(InputError) as info:
        CallList({"x": 1}.values())
    assert info.value.field == "iterable[0]"

    cases = {"first": {"n": 1}, "second": {"n": 2}}
    doubled = judges.score_cases(lambda judge, n: 2 * n, cases.values(), judges.GivenJudge({}))
    assert doubled == [2, 4]

    run = run_tasks(task for task in (lambda: 1, lambda: 2))
    assert [o.result for o in run] == [1, 2]
    assert [o.result for o in run_tasks({lambda: 5})] == [5]
    for bad, field in ((None, "tasks"), ([lambda: 1, 3], "tasks[1]")):
        with pytest.raises(InputError) as info:
            run_tasks(bad)
        assert info.value.field == field
