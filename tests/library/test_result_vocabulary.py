"""One result vocabulary: the four result kinds share one base, and every old name still works and warns."""

from __future__ import annotations

import importlib
import json
import math

import pytest

from ragmetrics_edu import InputError, agreement, metrics, regression_gate, stats
from ragmetrics_edu.results import RESULT_KEYS, Result

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


@pytest.mark.parametrize("old", ["value", "measure"])
def test_the_unreleased_old_names_are_gone(old):
    """The package was never published: names renamed before a release were removed, not kept with a warning."""
    found = _one_of_each()
    assert not hasattr(found["agreement"], old)
    assert not hasattr(found["metric"], "value")
    with pytest.raises(TypeError):
        stats.bootstrap_ci(A, ci=0.9)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("ragmetrics_edu.ci_gate")


def test_a_lower_is_better_metric_passes_at_or_below_its_threshold():
    from ragmetrics_edu.results import MetricResult

    def result(score):
        return MetricResult(metric="hallucination", score=score, threshold=0.3, higher_is_better=False)

    assert result(0.2).success is True and result(0.3).success is True and result(0.4).success is False
    assert result(math.nan).success is False
    assert MetricResult(metric="faithfulness", score=0.4, threshold=0.3).success is True   # higher is better
    assert "lower is better" in result(0.4).explain() and result(0.4).to_dict()["higher_is_better"] is False


def test_a_spec_says_its_direction_and_evaluate_honours_it():
    from ragmetrics_edu import evaluate
    from ragmetrics_edu.metrics import Ask, MetricSpec, register, unregister
    from ragmetrics_edu.results import MetricResult

    with pytest.raises(InputError, match="higher_is_better"):
        MetricSpec("toy_direction", "Toy", higher_is_better="no")

    def share_of_a(answer: str, threshold: float | None = 0.5) -> MetricResult:
        words = answer.split()
        return MetricResult(metric="toy_direction", score=words.count("a") / len(words), threshold=threshold)

    register(MetricSpec("toy_direction", "Toy direction", share_of_a, ask=Ask(share_of_a, ("answer",)),
                        higher_is_better=False))
    try:
        table = evaluate([{"answer": "a b b b"}, {"answer": "a a a b"}], metrics=["toy_direction"], progress=False)
        passed = [r["toy_direction"].success for r in table.attrs["results"]]
        assert passed == [True, False]            # 0.25 passes below 0.5, 0.75 fails
    finally:
        unregister("toy_direction")
