"""One result vocabulary: the four result kinds share one base, and every old name still works and warns."""

from __future__ import annotations

import importlib
import json
import math
import sys

import pytest

from ragmetrics_edu import InputError, agreement, metrics, regression_gate, stats
from ragmetrics_edu.deprecation import RagMetricsDeprecationWarning
from ragmetrics_edu.results import RESULT_KEYS, MetricResult, Result

A = [0.9, 0.4, 0.7, 0.2, 0.8, 0.6, 0.5, 0.3, 0.9, 0.1, 0.6, 0.7]
B = [0.5, 0.4, 0.6, 0.1, 0.8, 0.5, 0.2, 0.3, 0.7, 0.2, 0.4, 0.5]


def _one_of_each() -> dict[str, Result]:
    return {
        "metric": metrics.context_precision([1, 0, 1]),
        "statistic": stats.paired_bootstrap(A, B, n_resamples=500),
        "agreement": agreement.cohen_kappa(["yes", "no", "yes", "yes"], ["yes", "no", "no", "yes"], level=None),
        "regression gate": regression_gate.gate(A, B, noise=0.01, n_resamples=500),
    }


@pytest.mark.parametrize("kind", ["metric", "statistic", "agreement", "regression gate"])
def test_every_result_speaks_the_same_vocabulary(kind):
    result = _one_of_each()[kind]
    assert isinstance(result, Result) and result.kind == kind
    assert isinstance(result.metric, str) and isinstance(result.score, float)
    assert result.ci is None or (len(result.ci) == 2 and result.ci[0] <= result.ci[1])   # always an interval
    assert (result.level is None) == (result.ci is None) or kind in ("agreement",)       # a level goes with an interval
    assert result.lookup("score") == result.score
    data = json.loads(json.dumps(result.to_dict()))
    assert tuple(data)[:len(RESULT_KEYS)] == RESULT_KEYS and data["kind"] == kind
    assert data["score"] == pytest.approx(result.score) and len(data["steps"]) == len(result.steps)
    assert result.name in result.explain() and result.headline()
    with pytest.raises(InputError, match="quantity"):
        result.lookup("value:no such thing")


def test_the_gate_now_has_steps_a_score_and_a_dict():
    found = _one_of_each()["regression gate"]
    assert found.score == pytest.approx(math.fsum(a - b for a, b in zip(A, B, strict=True)) / len(A))
    assert list(found.steps.columns) == ["question", "candidate", "accepted", "difference"]
    assert found.lookup("step:difference:1") == pytest.approx(A[0] - B[0])
    assert found.to_dict()["verdict"] == found.verdict and found.values["better"] == found.better


def test_a_metric_result_without_a_figure_says_so():
    with pytest.raises(InputError, match="has none"):
        metrics.context_precision([1, 0]).plot()


@pytest.mark.parametrize("call", [
    lambda: stats.bootstrap_ci(A, ci=0.9),
    lambda: stats.paired_bootstrap(A, B, ci=0.9, n_resamples=200),
    lambda: stats.grouped_bootstrap_ci(A, list(range(12)), ci=0.9, n_resamples=200),
    lambda: stats.permutation_test(A, B, ci=0.9, n_resamples=200),
    lambda: stats.sign_test(A, B, ci=0.9),
    lambda: agreement.cohen_kappa(["yes", "no"] * 6, ["yes", "yes"] * 6, ci=0.9, n_resamples=200),
    lambda: agreement.mean_absolute_error(A, B, ci=0.9, n_resamples=200),
    lambda: agreement.pairwise_accuracy(A, B, A, B, ci=0.9, n_resamples=200),
    lambda: regression_gate.gate(A, B, noise=0.0, ci=0.9, n_resamples=200),
])
def test_ci_as_the_confidence_level_still_works_and_warns(call):
    with pytest.warns(RagMetricsDeprecationWarning, match="level="):
        result = call()
    assert result.level == 0.9


def test_ci_and_level_together_must_agree():
    with pytest.raises(InputError, match="ci"), pytest.warns(RagMetricsDeprecationWarning):
        stats.bootstrap_ci(A, level=0.8, ci=0.9)


def test_the_old_result_names_still_work_and_warn():
    found = _one_of_each()
    with pytest.warns(RagMetricsDeprecationWarning, match="lookup"):
        assert found["metric"].value("score") == found["metric"].score
    with pytest.warns(RagMetricsDeprecationWarning, match="score"):
        assert found["agreement"].value == found["agreement"].score
    with pytest.warns(RagMetricsDeprecationWarning, match="metric"):
        assert found["agreement"].measure == found["agreement"].metric
    assert isinstance(found["metric"], MetricResult)


def test_the_gates_old_module_name_still_imports_and_warns():
    sys.modules.pop("ragmetrics_edu.ci_gate", None)
    with pytest.warns(RagMetricsDeprecationWarning, match="regression_gate"):
        old = importlib.import_module("ragmetrics_edu.ci_gate")
    assert old.gate is regression_gate.gate and old.GateResult is regression_gate.GateResult
