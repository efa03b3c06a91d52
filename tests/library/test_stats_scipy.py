"""ragmetrics_edu.stats against scipy.stats (scipy is used only here, in the tests).

Bootstrap intervals use the same generator and draw order as scipy.stats.bootstrap, so the
percentile intervals must agree to rounding; the exact permutation test must give scipy's
exact p-value (permutation_type='samples', all 2^n sign flips); the sign test scipy's
binomtest p-value and Clopper-Pearson ("exact") interval.
"""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics_edu import stats
from ragmetrics_edu.stats.binomial import clopper_pearson, two_sided_p


@functools.cache
def scipy_stats():
    """scipy.stats, imported by the first test that needs it: it costs about a second of CPU, which every
    pytest-xdist worker would otherwise pay while collecting, whether or not it runs these tests."""
    from scipy import stats

    return stats


A = [0.8, 0.6, 0.9, 0.4, 0.7, 1.0, 0.3, 0.5, 0.6, 0.9, 0.0, 0.2, 0.75, 0.1]
B = [0.7, 0.6, 0.5, 0.5, 0.4, 0.8, 0.3, 0.1, 0.6, 0.7, 0.0, 0.3, 0.5, 0.35]


def mean_difference(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


@pytest.mark.parametrize("seed, ci, n_resamples", [(0, 0.95, 2000), (7, 0.9, 999), (123, 0.99, 5000)])
def test_bootstrap_ci_matches_scipy_percentile(seed, ci, n_resamples):
    ours = stats.bootstrap_ci(A, level=ci, n_resamples=n_resamples, seed=seed)
    theirs = scipy_stats().bootstrap((np.array(A),), np.mean, confidence_level=ci, n_resamples=n_resamples,
                                   method="percentile", rng=np.random.default_rng(seed), vectorized=True)
    assert ours.ci == pytest.approx(tuple(theirs.confidence_interval), abs=1e-12)
    assert ours.values["resampled_sd"] == pytest.approx(theirs.standard_error, rel=1e-9)


@pytest.mark.parametrize("seed, ci", [(0, 0.95), (42, 0.8)])
def test_paired_bootstrap_matches_scipy_paired_percentile(seed, ci):
    ours = stats.paired_bootstrap(A, B, level=ci, n_resamples=3000, seed=seed)
    theirs = scipy_stats().bootstrap((np.array(A), np.array(B)), mean_difference, paired=True, confidence_level=ci,
                                   n_resamples=3000, method="percentile", rng=np.random.default_rng(seed),
                                   vectorized=True)
    assert ours.ci == pytest.approx(tuple(theirs.confidence_interval), abs=1e-12)


def test_bootstrap_ci_close_to_scipy_with_other_draws():
    """Statistically close even when the draws differ (different seeds, many resamples)."""
    values = [((i * 37) % 11) / 10 for i in range(40)]
    ours = stats.bootstrap_ci(values, n_resamples=20_000, seed=1)
    theirs = scipy_stats().bootstrap((np.array(values),), np.mean, n_resamples=20_000, method="percentile",
                                   rng=np.random.default_rng(99), vectorized=True).confidence_interval
    assert ours.ci == pytest.approx(tuple(theirs), abs=0.01)


def scipy_exact_p(a, b):
    return scipy_stats().permutation_test((np.array(a), np.array(b)), mean_difference, permutation_type="samples",
                                        n_resamples=np.inf, vectorized=True, alternative="two-sided").pvalue


def test_exact_permutation_matches_scipy():
    assert stats.permutation_test(A, B).p_value == pytest.approx(scipy_exact_p(A, B), abs=1e-12)


grid = st.integers(min_value=0, max_value=8).map(lambda i: i / 8)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(grid, grid), min_size=2, max_size=10))  # scipy needs two or more
def test_exact_permutation_matches_scipy_with_ties(data):
    a, b = [x for x, _ in data], [y for _, y in data]
    ours = stats.permutation_test(a, b, n_resamples=10)
    assert "exact" in ours.method
    assert ours.p_value == pytest.approx(scipy_exact_p(a, b), abs=1e-12)


def test_monte_carlo_p_is_within_its_error_of_the_exact_p():
    a = [((i * 37) % 11) / 10 for i in range(22)]
    b = [((i * 53) % 13) / 12 for i in range(22)]
    exact = stats.permutation_test(a, b, exact=True)
    monte_carlo = stats.permutation_test(a, b, exact=False, n_resamples=20_000, seed=3, level=0.999)
    assert exact.values["flips"] == 2 ** exact.values["nonzero_pairs"]
    assert "Monte Carlo" in monte_carlo.method
    assert abs(monte_carlo.p_value - exact.p_value) <= 4 * monte_carlo.values["p_standard_error"] + 1e-4
    assert monte_carlo.values["p_ci_low"] <= exact.p_value <= monte_carlo.values["p_ci_high"]


def test_sign_test_matches_binomtest():
    ours = stats.sign_test(A, B, level=0.9)
    wins = sum(x > y for x, y in zip(A, B, strict=True))
    m = sum(x != y for x, y in zip(A, B, strict=True))
    theirs = scipy_stats().binomtest(wins, m)
    assert ours.p_value == pytest.approx(theirs.pvalue, abs=1e-12)
    assert ours.ci == pytest.approx(tuple(theirs.proportion_ci(confidence_level=0.9, method="exact")),
                                          abs=1e-9)


@pytest.mark.parametrize("n", [1, 2, 5, 12, 31, 60])
def test_two_sided_binomial_p_matches_binomtest_for_every_k(n):
    for k in range(n + 1):
        assert two_sided_p(k, n) == pytest.approx(scipy_stats().binomtest(k, n).pvalue, abs=1e-12)


@pytest.mark.parametrize("k, n, level", [(0, 10, 0.95), (10, 10, 0.95), (3, 10, 0.9), (1, 2000, 0.95),
                                         (513, 10_000, 0.999), (9990, 10_000, 0.95)])
def test_clopper_pearson_matches_scipy(k, n, level):
    theirs = scipy_stats().binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    assert clopper_pearson(k, n, level) == pytest.approx((theirs.low, theirs.high), abs=1e-9)
