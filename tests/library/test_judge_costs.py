"""What a judge's calls cost (judges.costs): call records added up by step, per 1,000 cases, combined."""

import math

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.judges.costs import StepCost, combine, cost_per_1000, measure
from ragmetrics_edu.judges.records import CallRecord
from ragmetrics_edu.results import MetricResult


def _call(step, prompt, completion, seconds, attempt=0):
    return CallRecord(step=step, messages=[], raw="", parsed={}, model="m", prompt_tokens=prompt,
                      completion_tokens=completion, latency_s=seconds, attempt=attempt)


def test_measure_adds_up_the_call_records_repairs_included():
    one = MetricResult(metric="x", score=1.0, calls=[_call("s", 100, 10, 2.0), _call("s", 150, 5, 1.0, attempt=1)])
    two = MetricResult(metric="x", score=0.5, calls=[_call("s", 50, None, 0.5)])
    cost = measure([("s", one), ("s", two), ("s", None)])["s"]
    assert (cost.cases, cost.calls, cost.prompt_tokens, cost.completion_tokens) == (2, 3, 300, 15)
    assert cost.seconds == pytest.approx(3.5) and cost.per_case("calls") == 1.5
    with pytest.raises(InputError, match="results"):
        measure([("s", object())])
    with pytest.raises(InputError, match="field"):
        cost.per_case("dollars")


def test_cost_per_1000_is_tokens_times_price():
    cost = StepCost("s", cases=4, calls=8, prompt_tokens=4000, completion_tokens=400, seconds=40.0)
    c = cost_per_1000(cost, price_in=2.0, price_out=10.0)
    assert c["calls"] == 2000 and c["prompt_tokens"] == 1_000_000 and c["completion_tokens"] == 100_000
    assert c["dollars"] == pytest.approx(2.0 + 1.0) and c["hours"] == pytest.approx(10_000 / 3600)
    for bad in (-1, "1", True, math.inf, math.nan):
        with pytest.raises(InputError, match="price_in"):
            cost_per_1000(cost, bad, 1.0)


def test_combine_adds_the_per_case_means_of_the_steps_named():
    costs = {"a": StepCost("a", 2, 4, 100, 10, 2.0), "b": StepCost("b", 4, 4, 400, 40, 4.0)}
    both = combine(costs, ["a", "b"], "both")
    assert (both.cases, both.calls, both.prompt_tokens, both.completion_tokens) == (1, 3, 150, 15)
    assert both.seconds == pytest.approx(2.0)
    with pytest.raises(InputError, match="steps"):
        combine(costs, [], "none")
