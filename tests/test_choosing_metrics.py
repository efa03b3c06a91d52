"""Notebook 12's library: the metric map and its measured costs, reference-free context precision, the CI gate."""

import math
import os
import subprocess
import sys

import pytest

from conftest import REPO
from ragmetrics_edu import InputError, ci_gate, data, judges
from ragmetrics_edu.course import deck_cases, exercises
from ragmetrics_edu.course import metric_map as mm
from ragmetrics_edu.course.deck_cases import DECK_CASES, run_deck_cases
from ragmetrics_edu.judges.records import CallRecord
from ragmetrics_edu.metrics import context_precision
from ragmetrics_edu.metrics.reference_free import context_precision_without_reference, context_utilization
from ragmetrics_edu.results import MetricResult


@pytest.fixture(scope="module")
def runs():
    return run_deck_cases(judges.ReplayJudge(data.recording("qwen2.5-coder-1.5b_deck-examples")))


def _call(step, prompt, completion, seconds, attempt=0):
    return CallRecord(step=step, messages=[], raw="", parsed={}, model="m", prompt_tokens=prompt,
                      completion_tokens=completion, latency_s=seconds, attempt=attempt)


# --- the map ---------------------------------------------------------------------------------

def test_reference_free_means_no_reference_and_no_labels():
    for info in mm.METRICS:
        assert info.reference_free == (not {"reference", "labels"} & set(info.needs)), info.name
        assert set(info.needs) <= {*mm.FIELDS, "labels"}
    assert mm.get("faithfulness").reference_free and not mm.get("context recall").reference_free
    assert mm.get("context precision without reference").reference_free
    assert mm.reference_free() == [m.name for m in mm.METRICS if m.reference_free]
    with pytest.raises(InputError, match="name"):
        mm.get("bleu")


def test_every_judge_step_of_the_map_is_a_judge_step_of_the_library(runs):
    steps = {c.step for c in DECK_CASES}
    for info in mm.METRICS:
        if info.step is not None and info.step != "context_precision_without_reference":
            assert info.step in steps and hasattr(judges, info.step), info.name


def test_measure_adds_up_the_call_records_repairs_included():
    one = MetricResult(metric="x", score=1.0, calls=[_call("s", 100, 10, 2.0), _call("s", 150, 5, 1.0, attempt=1)])
    two = MetricResult(metric="x", score=0.5, calls=[_call("s", 50, None, 0.5)])
    cost = mm.measure([("s", one), ("s", two), ("s", None)])["s"]
    assert (cost.cases, cost.calls, cost.prompt_tokens, cost.completion_tokens) == (2, 3, 300, 15)
    assert cost.seconds == pytest.approx(3.5) and cost.per_case("calls") == 1.5
    with pytest.raises(InputError, match="results"):
        mm.measure([("s", object())])
    with pytest.raises(InputError, match="field"):
        cost.per_case("dollars")


def test_measured_costs_of_the_recording_match_its_call_records(runs):
    costs = mm.measure_deck_runs(runs)
    for step, cost in costs.items():
        calls = [c for r in runs if r.case.step == step and r.result for c in r.result.calls]
        assert cost.calls == len(calls) and cost.prompt_tokens == sum(c.prompt_tokens for c in calls)
        assert cost.cases == sum(r.case.step == step and r.result is not None for r in runs)
        assert cost.prompt_tokens > 0 and cost.seconds > 0
    assert costs["faithfulness"].per_case("calls") == 2       # claims, then verdicts
    assert costs["context_recall"].per_case("calls") > 1       # the recording holds a repair


def test_cost_per_1000_is_tokens_times_price():
    cost = mm.StepCost("s", cases=4, calls=8, prompt_tokens=4000, completion_tokens=400, seconds=40.0)
    c = mm.cost_per_1000(cost, price_in=2.0, price_out=10.0)
    assert c["calls"] == 2000 and c["prompt_tokens"] == 1_000_000 and c["completion_tokens"] == 100_000
    assert c["dollars"] == pytest.approx(2.0 + 1.0) and c["hours"] == pytest.approx(10_000 / 3600)
    for bad in (-1, "1", True, math.inf, math.nan):
        with pytest.raises(InputError, match="price_in"):
            mm.cost_per_1000(cost, bad, 1.0)


def test_combine_sums_per_case_rates(runs):
    costs = mm.measure_deck_runs(runs)
    both = mm.combine(costs, ["faithfulness", "context_recall"], "both")
    assert both.calls == pytest.approx(costs["faithfulness"].per_case("calls") + costs["context_recall"].per_case("calls"))
    with pytest.raises(InputError, match="steps"):
        mm.combine(costs, ["nope"], "x")


def test_tables_fit_under_100_characters_and_mark_unmeasured_rows(runs):
    costs = mm.measure_deck_runs(runs)
    text = mm.table(costs)
    for block in (text, mm.cost_table(costs, *mm.EXAMPLE_PRICE), mm.triad_table(), mm.peer_table()):
        assert max(len(line) for line in block.splitlines()) < 100
    row = next(line for line in text.splitlines() if line.startswith("context precision without"))
    assert row.split()[-4:] == ["-"] * 4                  # judged, but the recording holds no case
    row = next(line for line in text.splitlines() if line.startswith("semantic similarity"))
    assert row.split()[-4:] == ["0.00", "0", "0", "0.0"]  # no judge at all


def test_triad_names_a_metric_of_the_map_for_every_leg():
    names = {m.name for m in mm.METRICS}
    legs = mm.triad()
    assert [leg["leg"] for leg in legs] == ["context relevance", "groundedness", "answer relevance"]
    assert legs[1]["ours"] == "faithfulness" and "contextual relevancy" in names
    assert all(mm.get(name).reference_free for name in ("contextual relevancy", "faithfulness"))


# --- reference-free context precision --------------------------------------------------------

def test_without_reference_is_ragas_average_precision_on_answer_verdicts():
    for verdicts in ([1, 0, 1], [0, 1, 0], [0, 0], [1]):
        assert context_precision_without_reference(verdicts).score == context_precision(verdicts, "ragas").score
    result = context_utilization(["no", "yes", "no"], answer="Marlowe")
    assert result.metric == "context_precision_without_reference" and result.score == pytest.approx(0.5)
    assert "ContextUtilization" in result.notes[0] and result.inputs["answer"] == "Marlowe"
    assert context_utilization is context_precision_without_reference
    with pytest.raises(InputError, match="answer"):
        context_precision_without_reference([1], answer=3)


# --- the CI gate -----------------------------------------------------------------------------

def test_the_shipped_example_gate_runs_and_passes():
    from ragmetrics_edu.course.ci_gate_example import THRESHOLD, test_context_precision_stays_above_the_bar

    test_context_precision_stays_above_the_bar()
    assert "def test_" in deck_cases.example_source() and 0 < THRESHOLD < 1


def test_the_shipped_example_is_a_pytest_file_that_pytest_runs(tmp_path):
    (tmp_path / "test_gate_copy.py").write_text(deck_cases.example_source(), encoding="utf-8")
    raised = deck_cases.example_source().replace("THRESHOLD = 0.70", "THRESHOLD = 0.99")
    (tmp_path / "test_gate_raised_bar.py").write_text(raised, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert "1 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    assert "test_gate_raised_bar.py" in done.stdout and "FAIL" in done.stdout   # the explanation is the message


def test_the_gate_fails_when_the_scores_drop_beyond_the_noise():
    scores = deck_cases.deck_scores("context_precision")
    assert len(scores) == sum(c.step == "context_precision" for c in DECK_CASES)
    assert ci_gate.gate(scores, 0.70).passed
    dropped = [s * 0.5 for s in scores]
    result = ci_gate.gate(dropped, 0.70)
    assert not result.passed and "FAIL" in result.explain()


def test_tolerance_is_the_distance_to_the_top_of_the_bootstrap_interval():
    from ragmetrics_edu.stats import bootstrap_ci

    scores = [0.9, 0.4, 0.8, 0.5, 0.6, 0.7, 0.3, 0.9]
    result = ci_gate.gate(scores, 0.70, n_resamples=2000, seed=0)
    low, high = bootstrap_ci(scores, n_resamples=2000, seed=0).ci
    assert (result.low, result.high) == (low, high) and result.tolerance == pytest.approx(high - result.mean)
    assert result.mean < 0.70 and result.passed == (high >= 0.70)      # below the bar, within the noise
    wider = ci_gate.gate(scores, 0.70, judge_sd=0.1)
    assert wider.tolerance == pytest.approx(math.hypot(high - result.mean, 0.1))
    assert wider.tolerance > result.tolerance


def test_gate_inputs_are_checked():
    for bad in (-0.1, True, "0.5", math.nan):
        with pytest.raises(InputError, match="judge_sd"):
            ci_gate.gate([0.5, 0.6], 0.5, judge_sd=bad)
    with pytest.raises(InputError, match="threshold"):
        ci_gate.gate([0.5, 0.6], 1.5)
    with pytest.raises(InputError, match="step"):
        deck_cases.deck_scores("bleu")


# --- the exercises ---------------------------------------------------------------------------

def test_choice_exercises_explain_the_likely_mistake():
    assert exercises.check("choose-1", "faithfulness").correct
    assert "reference" in exercises.check("choose-1", "context recall").message
    assert exercises.check("choose-2", "Groundedness").correct
    assert "relevance leg" in exercises.check("choose-2", "answer relevancy").message
    feedback = exercises.check("choose-3", False)
    assert not feedback.correct and "tolerance" in feedback.message
    assert "solution" in feedback.message
