"""estimate_pass_rate: three estimators of a system's pass rate, checked against the authors' PPI package,
statsmodels' Wilson interval, the Rogan–Gladen formula, and simulated labelled sets with a known rate."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.agreement import corrected_pass_rate, estimate_pass_rate, labels_needed, plan_pass_rate


def _system(seed: int, *, theta: float = 0.7, tpr: float = 0.85, tnr: float = 0.7, answers: int = 600,
            labelled: int = 80) -> tuple[list[bool], list[bool], list[bool]]:
    """A system's answers with a true pass rate θ, a judge with these rates, and a random labelled subset."""
    rng = random.Random(seed)
    truth = [rng.random() < theta for _ in range(answers)]
    judge = [rng.random() < tpr if t else rng.random() >= tnr for t in truth]
    chosen = rng.sample(range(answers), labelled)
    return [truth[i] for i in chosen], [judge[i] for i in chosen], judge


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("lam", [None, 1.0, 0.4])
def test_ppi_agrees_with_the_authors_package(seed, lam):
    import ppi_py  # the authors' package, a dev dependency: missing, this test fails rather than skips
    people, judge_lab, judge_all = _system(seed)
    y, f, a = (np.array(v, dtype=float) for v in (people, judge_lab, judge_all))
    found = estimate_pass_rate(people, judge_lab, judge_all, method="ppi", level=0.9, lam=lam)
    point = float(np.squeeze(ppi_py.ppi_mean_pointestimate(y, f, a, lam=lam)))
    low, high = (float(np.squeeze(v)) for v in ppi_py.ppi_mean_ci(y, f, a, alpha=0.1, lam=lam))
    assert found.score == pytest.approx(point, abs=1e-12)
    assert found.ci == pytest.approx((low, high), abs=1e-12)
    assert found.values["lam_tuned"] is (lam is None)


def test_labels_alone_is_wilsons_interval_as_statsmodels_computes_it():
    from statsmodels.stats import proportion  # installed with ppi-python (dev)
    for k, n in [(0, 5), (3, 10), (37, 50), (50, 50), (130, 200)]:
        people = [True] * k + [False] * (n - k)
        found = estimate_pass_rate(people, people, [True], method="labels", level=0.9)
        assert found.score == pytest.approx(k / n)
        assert found.ci == pytest.approx(proportion.proportion_confint(k, n, alpha=0.1, method="wilson"), abs=1e-12)
        assert found.values["se"] == pytest.approx(math.sqrt(k / n * (1 - k / n) / n))


def test_labels_alone_agrees_with_scipy_too():
    from scipy import stats
    people = [True] * 23 + [False] * 9
    interval = stats.binomtest(23, 32).proportion_ci(confidence_level=0.95, method="wilson")
    assert estimate_pass_rate(people, people, people, method="labels").ci == pytest.approx(
        (interval.low, interval.high), abs=1e-12)


def test_rogan_gladen_is_the_formula_with_the_rates_measured_on_the_labels():
    people, judge_lab, judge_all = _system(3)
    found = estimate_pass_rate(people, judge_lab, judge_all, method="rogan_gladen")
    passing = [j for p, j in zip(people, judge_lab, strict=True) if p]
    failing = [j for p, j in zip(people, judge_lab, strict=True) if not p]
    tpr, tnr, p_obs = sum(passing) / len(passing), failing.count(False) / len(failing), sum(judge_all) / len(judge_all)
    assert found.score == pytest.approx((p_obs + tnr - 1) / (tpr + tnr - 1))
    assert found.values["tpr"] == pytest.approx(tpr) and found.values["tnr"] == pytest.approx(tnr)
    old = corrected_pass_rate(judge_all, [not p for p in people], judge_lab, n_resamples=200)
    assert found.score == pytest.approx(old.score)
    var = (p_obs * (1 - p_obs) / len(judge_all) + found.score ** 2 * tpr * (1 - tpr) / len(passing)
           + (1 - found.score) ** 2 * tnr * (1 - tnr) / len(failing)) / (tpr + tnr - 1) ** 2
    assert found.ci == pytest.approx((found.score - 1.959964 * math.sqrt(var), found.score + 1.959964 * math.sqrt(var)),
                                     abs=1e-5)
    assert "transfer" in found.explain()


def test_each_interval_covers_a_known_rate_at_its_level_and_ppi_is_narrower():
    theta, draws = 0.7, 300
    covered = {"labels": 0, "ppi": 0, "rogan_gladen": 0}
    widths: dict[str, list[float]] = {m: [] for m in covered}
    for seed in range(draws):
        people, judge_lab, judge_all = _system(100 + seed, theta=theta, tpr=0.9, tnr=0.8, answers=400,
                                               labelled=60)
        for method in covered:
            found = estimate_pass_rate(people, judge_lab, judge_all, method=method)
            covered[method] += found.ci[0] <= theta <= found.ci[1]
            widths[method].append(found.ci[1] - found.ci[0])
    tolerance = 3 * math.sqrt(0.95 * 0.05 / draws)   # three binomial standard errors of the coverage
    for method, hits in covered.items():
        assert abs(hits / draws - 0.95) <= tolerance, (method, hits / draws)
    ppi, alone = widths["ppi"], widths["labels"]
    assert sum(ppi) < 0.85 * sum(alone)                                   # an informative judge narrows it
    assert sum(p <= a + 1e-9 for p, a in zip(ppi, alone, strict=True)) >= 0.95 * draws


def test_a_judge_no_better_than_chance_adds_nothing():
    rng = random.Random(5)
    people = [rng.random() < 0.6 for _ in range(80)]
    judge_lab = [rng.random() < 0.5 for _ in people]
    judge_all = [rng.random() < 0.5 for _ in range(800)]
    ppi = estimate_pass_rate(people, judge_lab, judge_all)
    alone = estimate_pass_rate(people, judge_lab, judge_all, method="labels")
    assert ppi.values["lam"] < 0.3 and ppi.ci[1] - ppi.ci[0] < 1.1 * (alone.ci[1] - alone.ci[0])
    chance = estimate_pass_rate([True, False, True, False], [False, True, True, False], [True] * 10,
                                method="rogan_gladen")
    assert math.isnan(chance.score) and chance.ci is None and "no better than chance" in chance.explain()


def test_edge_cases_have_defined_results():
    one = {m: estimate_pass_rate([True], [True], [True, False], method=m) for m in ("labels", "ppi", "rogan_gladen")}
    assert one["labels"].score == 1.0 and one["labels"].ci[0] < 1.0           # Wilson, not a point
    assert one["ppi"].ci is None and "no interval" in one["ppi"].explain()
    assert math.isnan(one["rogan_gladen"].score)                               # no failing label: no TNR
    same = estimate_pass_rate([True, False, True], [True, True, True], [True] * 20)
    assert same.values["lam"] == 0.0 and same.score == pytest.approx(2 / 3)
    extreme = estimate_pass_rate([True, True, False, False], [True, True, False, False], [False] * 50,
                                 method="rogan_gladen")
    assert extreme.score == 0.0 and 0.0 <= extreme.ci[0] <= extreme.ci[1] <= 1.0


@pytest.mark.parametrize("kwargs, field", [
    (dict(people=[1, 0]), "people[0]"),
    (dict(people=[]), "people"),
    (dict(people="yes"), "people"),
    (dict(judge_on_labelled=[True]), "judge_on_labelled"),
    (dict(judge_on_all=[]), "judge_on_all"),
    (dict(judge_on_all=[True, None]), "judge_on_all[1]"),
    (dict(method="bayes"), "method"),
    (dict(level=95), "level"),
    (dict(lam=2.0), "lam"),
    (dict(method="labels", lam=0.5), "lam"),
])
def test_bad_inputs_name_the_argument(kwargs, field):
    args = dict(people=[True, False], judge_on_labelled=[True, True], judge_on_all=[True, False, True])
    with pytest.raises(InputError) as caught:
        estimate_pass_rate(**(args | kwargs))
    assert caught.value.field == field


def test_the_result_speaks_the_library_vocabulary():
    people, judge_lab, judge_all = _system(7)
    found = estimate_pass_rate(np.array(people), judge_lab, judge_all)
    data = json.loads(json.dumps(found.to_dict()))
    assert data["score"] == pytest.approx(found.score) and data["ci"] == pytest.approx(list(found.ci))
    assert found.lookup("value:lam") == found.values["lam"]
    assert found.lookup("step:value:4") == pytest.approx(found.values["estimate_unclipped"])
    assert list(found.steps.columns) == ["step", "quantity", "value"]
    assert "prediction-powered" in found.explain()


def test_labels_needed_plans_each_method_and_ppi_never_needs_more():
    plan = plan_pass_rate(0.65, 0.85, 0.7, half_width=0.05, system_answers=2000)
    z = 1.959963984540054
    assert plan.values["labels"] == math.ceil(z * z * 0.65 * 0.35 / 0.05 ** 2)
    assert plan.values["ppi"] <= plan.values["labels"] and plan.score == plan.values["ppi"]
    assert list(plan.steps["method"]) == ["labels", "ppi", "rogan_gladen"]
    assert labels_needed(0.85, 0.7, 0.65, method="ppi", system_answers=2000).score == plan.values["ppi"]
    assert labels_needed(0.5, 0.5, 0.65, method="ppi").score == plan.values["labels"]   # an uninformative judge
    assert math.isinf(labels_needed(0.6, 0.4, 0.6, method="rogan_gladen").score)
    with pytest.raises(InputError, match="method"):
        labels_needed(0.8, 0.8, 0.5, method="wald")


def test_the_planned_ppi_labels_give_about_the_planned_width():
    theta, tpr, tnr, answers = 0.7, 0.9, 0.8, 1000
    n = int(labels_needed(tpr, tnr, theta, half_width=0.08, system_answers=answers, method="ppi").score)
    halves = [estimate_pass_rate(*_system(500 + s, theta=theta, tpr=tpr, tnr=tnr, answers=answers, labelled=n))
              .values["se"] * 1.96 for s in range(40)]
    assert sum(halves) / len(halves) == pytest.approx(0.08, rel=0.1)


def test_the_result_plans_its_own_labels():
    people, judge_lab, judge_all = _system(11)
    alone = estimate_pass_rate(people, judge_lab, judge_all, method="labels")
    ppi = estimate_pass_rate(people, judge_lab, judge_all, method="ppi")
    assert alone.labels_needed(0.05) == math.ceil(1.959963984540054 ** 2 * alone.score * (1 - alone.score) / 0.0025)
    assert ppi.labels_needed(0.05) <= alone.labels_needed(0.05, pass_rate=ppi.score)
    assert math.isnan(estimate_pass_rate([True], [True], [True], method="labels").labels_needed(0.05))
    with pytest.raises(InputError, match="half_width"):
        ppi.labels_needed(0)
