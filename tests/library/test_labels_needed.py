"""labels_needed: the labels a corrected pass rate needs, checked by simulating the labelled sets it plans for."""

import math
import random

import pytest

from ragmetrics_edu.agreement import labels_needed


def _simulated_half_width(tpr, tnr, theta, n, runs=4000, seed=1):
    rng = random.Random(seed)
    estimates = []
    passing = round(theta * n)
    failing = n - passing
    for _ in range(runs):
        t = sum(rng.random() < tpr for _ in range(passing)) / passing
        r = sum(rng.random() < tnr for _ in range(failing)) / failing
        p_obs = theta * tpr + (1 - theta) * (1 - tnr)  # unlabelled answers: many, their noise left out
        estimates.append((p_obs + r - 1) / (t + r - 1))
    estimates.sort()
    return (estimates[int(0.975 * runs)] - estimates[int(0.025 * runs)]) / 2


def test_the_planned_number_gives_about_the_planned_interval():
    tpr, tnr, theta = 0.85, 0.6, 0.7
    n = int(labels_needed(tpr, tnr, theta, half_width=0.1).score)
    assert 50 < n < 2000
    assert _simulated_half_width(tpr, tnr, theta, n) == pytest.approx(0.1, rel=0.15)
    assert _simulated_half_width(tpr, tnr, theta, n // 4) > 0.15   # a quarter of the labels: twice as wide


def test_a_better_judge_needs_fewer_labels_and_chance_needs_infinitely_many():
    weak = labels_needed(0.7, 0.5, 0.6).score
    strong = labels_needed(0.95, 0.9, 0.6).score
    assert strong < weak
    assert math.isinf(labels_needed(0.6, 0.4, 0.6).score)          # TPR + TNR = 1: no information
    assert math.isinf(labels_needed(0.9, 0.9, 0.6, half_width=0.01, system_answers=10).score)
    with pytest.raises(ValueError, match="pass_rate"):
        labels_needed(0.9, 0.9, 1.0)
    with pytest.raises(ValueError, match="tpr"):
        labels_needed(True, 0.9, 0.5)


def test_wilsons_plan_for_labels_alone_is_the_smallest_n_statsmodels_interval_allows():
    from statsmodels.stats.proportion import proportion_confint

    for theta, half in ((0.959, 0.10), (0.65, 0.05), (0.02, 0.05)):
        n = int(labels_needed(0.8, 0.8, theta, half_width=half, method="labels", interval="wilson").score)

        def width(k):   # statsmodels' Wilson interval at the share the plan expects (k/n = θ)
            low, high = proportion_confint(theta * k, k, alpha=0.05, method="wilson")
            return (high - low) / 2

        assert width(n) <= half + 1e-12 < width(n - 1)
    # near 0 or 1 the normal approximation asks for too few labels; near one half Wilson asks for slightly fewer
    assert labels_needed(0.8, 0.8, 0.959, half_width=0.1, method="labels", interval="wilson").score > \
        labels_needed(0.8, 0.8, 0.959, half_width=0.1, method="labels").score
    assert labels_needed(0.8, 0.8, 0.5, half_width=0.1, method="labels", interval="wilson").score < \
        labels_needed(0.8, 0.8, 0.5, half_width=0.1, method="labels").score
    with pytest.raises(ValueError, match="interval"):
        labels_needed(0.8, 0.8, 0.5, method="ppi", interval="wilson")
    with pytest.raises(ValueError, match="interval"):
        labels_needed(0.8, 0.8, 0.5, method="labels", interval="exact")
