"""The course helpers check their inputs at entry (validate.records, mapping, instance; as_list's iterators).

A bad value is an InputError naming the field before any lookup or iteration; what the notebooks and
decks pass (maps, generators, a dict of steps) keeps working.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ragmetrics_edu import validate
from ragmetrics_edu.course import deck_table, display, metric_map, slides
from ragmetrics_edu.course.judge_study import passes as judge_study
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.judges import costs
from ragmetrics_edu.studies.capstone import diagnosis
from ragmetrics_edu.studies.judge_study import failures as judge_failures


class BrokenIter(list):
    def __iter__(self):
        raise RuntimeError("broken __iter__")


def test_records_checks_the_list_each_dict_and_its_keys():
    assert validate.records("rows", ({"a": 1},), keys=("a",)) == [{"a": 1}]
    for bad, field in ((None, "rows"), (BrokenIter([{}]), "rows"), ([{"a": 1}, 3], "rows[1]"), ([{"b": 1}], "rows[0]")):
        with pytest.raises(InputError) as info:
            validate.records("rows", bad, keys=("a",))
        assert info.value.field == field
    with pytest.raises(InputError, match="'a'"):
        validate.mapping("row", {"b": 1}, keys=("a",))


def test_instance_and_iterators():
    assert validate.instance("x", 3, int, "a whole number") == 3
    with pytest.raises(InputError, match="x: expected a whole number"):
        validate.instance("x", "3", int, "a whole number")
    assert validate.as_list("rows", map(str, [1, 2]), iterators=True) == ["1", "2"]
    with pytest.raises(InputError):
        validate.as_list("rows", map(str, [1, 2]))  # a one-shot iterator only where the parameter says so
    assert validate.text_list("steps", (s for s in ["a", "b"]), iterators=True) == ["a", "b"]


@pytest.mark.parametrize("call, field", [
    (lambda: diagnosis.check_rows(BrokenIter([])), "rows"),
    (lambda: diagnosis.sort_rows([], by=pd.NA), "by"),
    (lambda: diagnosis.paired_scores([], np.array(["faithfulness"])), "metric"),
    (lambda: display.wrap("text", width=float("nan")), "width"),
    (lambda: display.show_checks(None), "example"),
    (lambda: judge_study.rows([]), "name"),
    (lambda: judge_failures.count([1]), "failures[0]"),
    (lambda: metric_map.get(pd.NA), "name"),
    (lambda: deck_table.exact_text(float("inf")), "value"),
    (lambda: slides.table(["a"], None), "rows"),
    (lambda: slides.score(None), "result"),
])
def test_a_bad_value_names_its_field(call, field):
    with pytest.raises(InputError) as info:
        call()
    assert info.value.field == field


def test_what_the_notebooks_pass_still_works():
    assert "rme-plain" in slides.table(["a", "b"], map(list, [("x", 1.0)])).html  # deck 00 passes a map
    failures = judge_failures.classify(["Paris is the capital."], ["NVIDIA makes chips."],
                                       context=(c for c in ["NVIDIA makes chips."]), source="Paris is the capital.")
    assert [f.category for f in failures][:1] == ["wrong text"]
    cost = costs.StepCost("s", 2, 4.0, 100.0, 10.0, 2.0)
    assert costs.combine({"s": cost}, {"s": cost}, "all").calls == cost.per_case("calls")  # a dict's keys
    assert deck_table.exact_text(0.5) == "1/2 = 0.5" and deck_table.exact_text(None) == "-"
