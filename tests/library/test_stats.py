"""ragmetrics_edu.stats without scipy: inputs, edge cases, hand-checked numbers, displays, properties.

The comparisons with scipy.stats are in tests/library/test_stats_scipy.py.
"""

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics_edu import InputError, stats

A = [0.8, 0.6, 0.9, 0.4, 0.7, 1.0, 0.3, 0.5, 0.0, 0.2]
B = [0.7, 0.6, 0.5, 0.5, 0.4, 0.8, 0.3, 0.1, 0.0, 0.3]
PAIRED = [stats.paired_bootstrap, stats.permutation_test, stats.sign_test]


def test_importing_stats_does_not_import_heavy_libraries():
    code = ("import sys, ragmetrics_edu.stats; "
            "print(','.join(m for m in ('pandas', 'numpy', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


# -- bad input names the field ----------------------------------------------------------
@pytest.mark.parametrize("values, field", [
    ([], "values"), ("0.5", "values"), ({"q1": 0.5}, "values"), (None, "values"), ({0.5, 0.6}, "values"),
    ([0.5, float("nan")], "values[1]"), ([0.5, float("inf")], "values[1]"), ([0.5, "0.7"], "values[1]"),
    ([True, 0.5], "values[0]"), ([0.5, None], "values[1]"),
])
def test_bootstrap_ci_rejects_bad_values(values, field):
    with pytest.raises(InputError) as err:
        stats.bootstrap_ci(values)
    assert err.value.field == field


@pytest.mark.parametrize("option, value", [
    ("level", 0), ("level", 1), ("level", 95), ("level", True), ("level", "0.95"), ("level", -0.5),
    ("n_resamples", 0), ("n_resamples", True), ("n_resamples", 10.0), ("n_resamples", None),
    ("seed", -1), ("seed", True), ("seed", 1.5), ("seed", "0"),
])
def test_options_are_checked(option, value):
    for function in [stats.bootstrap_ci] + PAIRED:
        if option not in function.__code__.co_varnames:
            continue
        args = (A,) if function is stats.bootstrap_ci else (A, B)
        with pytest.raises(InputError) as err:
            function(*args, **{option: value})
        assert err.value.field == option


@pytest.mark.parametrize("function", PAIRED)
def test_paired_functions_reject_mismatched_or_bad_lists(function):
    with pytest.raises(InputError) as err:
        function(A, B[:-1])
    assert err.value.field == "b"
    with pytest.raises(InputError) as err:
        function([], [])
    assert err.value.field == "a"
    with pytest.raises(InputError) as err:
        function(A, B[:-1] + [float("nan")])
    assert err.value.field == f"b[{len(B) - 1}]"
    with pytest.raises(InputError) as err:
        function(A, B, labels=("x", "x"))
    assert err.value.field == "labels"
    with pytest.raises(InputError) as err:
        function(A, B, ids=["q1"])
    assert err.value.field == "ids"


@pytest.mark.parametrize("value", ["yes", 1, 0, "True"])
def test_exact_flag_takes_true_false_or_none_only(value):
    with pytest.raises(InputError) as err:
        stats.permutation_test(A, B, exact=value)
    assert err.value.field == "exact"


def test_exact_enumeration_refuses_too_many_pairs():
    a = [float(i + 1) for i in range(23)]
    with pytest.raises(InputError) as err:
        stats.permutation_test(a, [0.0] * 23, exact=True)
    assert err.value.field == "exact"
    with pytest.raises(InputError) as err:
        stats.permutation_test(A, B, exact_max=23)
    assert err.value.field == "exact_max"


def test_numpy_arrays_and_pandas_series_are_accepted():
    import numpy as np
    import pandas as pd

    expected = stats.paired_bootstrap(A, B, n_resamples=200)
    ids = pd.Index([f"q{i}" for i in range(10)])
    result = stats.paired_bootstrap(np.array(A), pd.Series(B), n_resamples=200, ids=ids)
    assert result.ci == expected.ci and result.rows[0]["question"] == "q0"
    with pytest.raises(InputError):
        stats.bootstrap_ci(np.array([True, False]))


# -- edge cases ------------------------------------------------------------------------
def test_one_value_collapses_the_interval_and_says_so():
    result = stats.bootstrap_ci([0.7])
    assert result.ci == (0.7, 0.7) and result.estimate == 0.7
    assert any("collapses" in note for note in result.notes)


def test_equal_values_give_a_zero_width_interval_at_the_value():
    result = stats.bootstrap_ci([0.1, 0.1, 0.1])
    assert result.ci == (result.estimate, result.estimate)
    assert result.estimate == pytest.approx(0.1)


@pytest.mark.parametrize("function", PAIRED)
def test_all_zero_differences_give_p_one(function):
    result = function([0.0, 0.5, 0.0], [0.0, 0.5, 0.0])
    assert result.p_value == 1.0 and result.estimate == 0.0
    assert result.values["ties"] == 3 and result.values["both_zero"] == 2
    assert any("neither system answers" in note for note in result.notes)


def test_all_ties_leave_the_sign_tests_share_undefined():
    result = stats.sign_test([0.3, 0.3], [0.3, 0.3])
    assert result.effect_size is None and result.ci is None
    assert json.dumps(result.to_dict())


def test_ties_and_both_zero_are_counted_in_the_table():
    result = stats.permutation_test(A, B, labels=("bm25", "dense"))
    outcomes = list(result.steps["outcome"])
    assert outcomes.count("tie: both 0") == 1 == result.values["both_zero"]
    assert outcomes.count("tie") + outcomes.count("tie: both 0") == result.values["ties"] == 3
    assert outcomes.count("bm25 better") == result.values["bm25_better"] == 5
    assert list(result.steps.columns) == ["question", "bm25", "dense", "difference", "outcome"]


def test_sign_test_drops_ties_and_says_so():
    result = stats.sign_test(A, B)
    assert result.values["nonzero_pairs"] == 7
    assert any("drops the 3 tied" in note for note in result.notes)


# -- numbers worked by hand ------------------------------------------------------------
def test_exact_permutation_by_hand():
    # d = (1, 1, 1): of the 8 sign patterns only +++ and --- reach |mean| 1.
    result = stats.permutation_test([2.0, 2.0, 2.0], [1.0, 1.0, 1.0])
    assert result.p_value == 0.25 and result.values["flips"] == 8
    assert sorted(result.distribution.tolist()) == sorted([1, 1 / 3, 1 / 3, 1 / 3, -1 / 3, -1 / 3, -1 / 3, -1])


def test_zero_differences_are_not_flipped_but_count_in_the_mean():
    result = stats.permutation_test([2.0, 2.0, 0.0], [1.0, 1.0, 0.0])
    assert result.values["flips"] == 4 and result.p_value == 0.5
    assert result.estimate == pytest.approx(2 / 3)


def test_sign_test_by_hand():
    result = stats.sign_test([1, 1, 1, 1, 1], [0, 0, 0, 0, 0])
    assert result.p_value == 2 / 32 and result.effect_size == 1.0
    assert result.ci[1] == 1.0 and 0 < result.ci[0] < 1


def test_cohens_dz_by_hand():
    result = stats.paired_bootstrap([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], n_resamples=50)
    assert result.effect_size == pytest.approx(2.0)  # mean 2, sd 1
    constant = stats.paired_bootstrap([1.0, 1.0], [0.0, 0.0], n_resamples=50)
    assert constant.effect_size is None and any("infinite" in note for note in constant.notes)


def test_monte_carlo_above_the_exact_limit_reports_its_error():
    a = [float(i % 7) / 7 for i in range(30)]
    b = [float((i * 3) % 5) / 5 for i in range(30)]
    result = stats.permutation_test(a, b, n_resamples=2000, seed=5)
    assert "Monte Carlo" in result.method and result.values["flips"] == 2000
    assert result.p_value >= 1 / 2001
    low, high = result.values["p_ci_low"], result.values["p_ci_high"]
    share = result.values["extreme_flips"] / 2000
    assert low <= share <= high
    se = result.values["p_standard_error"]
    assert se == pytest.approx(math.sqrt(result.p_value * (1 - result.p_value) / 2000))


def test_same_seed_same_result_and_seed_none_runs():
    assert stats.bootstrap_ci(A, seed=3).ci == stats.bootstrap_ci(A, seed=3).ci
    assert stats.bootstrap_ci(A, seed=None).ci[0] <= stats.bootstrap_ci(A).estimate


# -- displays --------------------------------------------------------------------------
@pytest.mark.parametrize("function", [stats.bootstrap_ci] + PAIRED)
def test_results_display_and_serialise(function):
    result = function(A) if function is stats.bootstrap_ci else function(A, B)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["score"] == pytest.approx(result.estimate) and data["method"] == result.method
    assert list(data)[:8] == ["kind", "metric", "score", "ci", "level", "values", "steps", "notes"]
    text = result.explain()
    assert result.method in text and result.headline() in text
    assert "<table>" in result._repr_html_() and "| question |" in result._repr_markdown_()
    assert len(result.steps) == len(A) and len(result.summary) >= 4
    png = result.plot()._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_bootstrap_explain_names_the_percentile_method():
    result = stats.bootstrap_ci(A, level=0.9)
    assert "percentile" in result.method and "5th and 95th percentiles" in result.explain()
    assert result.summary.iloc[0]["value"] == 10_000


# -- properties ------------------------------------------------------------------------
grid = st.integers(min_value=0, max_value=10).map(lambda i: i / 10)
pairs = st.lists(st.tuples(grid, grid), min_size=1, max_size=14)


@settings(max_examples=40, deadline=None)
@given(pairs)
def test_p_values_lie_in_the_unit_interval_and_swapping_negates(data):
    a, b = [x for x, _ in data], [y for _, y in data]
    for function in PAIRED:
        forward = function(a, b, n_resamples=300) if function is not stats.sign_test else function(a, b)
        backward = function(b, a, n_resamples=300) if function is not stats.sign_test else function(b, a)
        assert 0.0 <= forward.p_value <= 1.0
        assert backward.estimate == pytest.approx(-forward.estimate, abs=1e-12)
        assert backward.p_value == pytest.approx(forward.p_value, abs=1e-12)
        if function is stats.paired_bootstrap:
            assert backward.ci[0] == pytest.approx(-forward.ci[1], abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.lists(grid, min_size=1, max_size=10))
def test_interval_contains_the_mean_for_symmetric_data(half):
    values = half + [1.0 - x for x in half]  # symmetric about 0.5
    result = stats.bootstrap_ci(values, n_resamples=500)
    assert result.ci[0] <= result.estimate + 1e-12 and result.estimate - 1e-12 <= result.ci[1]


def test_a_headline_writes_the_value_and_its_interval_to_one_count_of_decimals():
    from ragmetrics_edu import agreement
    from ragmetrics_edu.results import same_decimals

    assert same_decimals("0.786", "0.7294", "0.838") == ("0.7860", "0.7294", "0.8380")
    assert same_decimals("NaN", "0.5", "1") == ("NaN", "0.5", "1.0")
    failed = [True, False, True, False, False, True, False, False, True, False] * 3
    scores = [0.1, 0.9, 0.4, 0.8, 0.35, 0.3, 0.7, 0.6, 0.2, 0.75] * 3
    text = agreement.validation_report(failed, scores, groups=[i // 3 for i in range(30)], threshold=0.5,
                                       n_resamples=200, seed=1).headline()
    numbers = [t.strip("[],.;") for t in text.split() if t.strip("[],.;").replace(".", "", 1).isdigit()]
    decimals = {len(n.split(".")[1]) for n in numbers if "." in n and n != "95"}
    assert len(decimals) == 1, text
