"""agreement.calibration (reliability table, ECE, Brier, base rate, Brier skill) and stats.sample_size, by hand."""

import math
from statistics import NormalDist

import pytest

from ragmetrics_edu.agreement.calibration import base_rate, brier_skill, reliability
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.stats.sample_size import units_needed


def test_ece_weights_each_bins_gap_by_its_items():
    p = [0.15] * 40 + [0.45] * 50 + [0.85] * 10
    y = [k < 12 for k in range(40)] + [k < 25 for k in range(50)] + [k < 6 for k in range(10)]
    table = reliability(p, y)
    assert [r["items"] for r in table["rows"]] == [40, 50, 10]
    assert table["ece"] == pytest.approx((40 * 0.15 + 50 * 0.05 + 10 * 0.25) / 100)
    assert table["brier"] == pytest.approx(sum((v - t) ** 2 for v, t in zip(p, y, strict=True)) / 100)


def test_a_probability_of_one_goes_in_the_last_bin_and_bad_input_is_named():
    assert reliability([1.0, 0.0], [True, False])["rows"][-1]["high"] == 1.0
    assert reliability([1.0, 0.0], [True, False])["ece"] == 0
    with pytest.raises(InputError, match="outcome"):
        reliability([0.5], [True, False])
    with pytest.raises(InputError, match="p"):
        reliability([1.5], [True])


def test_the_base_rate_leaves_each_group_out():
    assert base_rate([True, False, True, True], ["a", "a", "b", "b"]) == [1.0, 1.0, 0.5, 0.5]
    with pytest.raises(InputError, match="groups"):
        base_rate([True, False], ["a", "a"])


def test_brier_skill_is_one_minus_the_ratio_and_its_interval_resamples_groups():
    p, ref = [0.1, 0.8, 0.3, 0.9, 0.2, 0.7], [0.5] * 6
    y, g = [False, True, False, True, True, False], ["a", "a", "b", "b", "c", "c"]
    found = brier_skill(p, ref, y, g, n_resamples=500)
    mine = sum((a - b) ** 2 for a, b in zip(p, y, strict=True))
    assert found["skill"] == pytest.approx(1 - mine / (6 * 0.25))
    assert found["ci"][0] <= found["skill"] <= found["ci"][1] and found["groups"] == 3
    assert brier_skill(ref, ref, y, g, n_resamples=50)["skill"] == 0


def test_units_needed_scales_with_the_square_and_with_power():
    assert units_needed(0.1, 50, 0.05) == 200
    assert units_needed(0.1, 50, 0.1) == 50
    z, zp = NormalDist().inv_cdf(0.975), NormalDist().inv_cdf(0.8)
    assert units_needed(0.1, 50, 0.05, power=0.8) == math.ceil(200 * ((z + zp) / z) ** 2)
    with pytest.raises(InputError, match="power"):
        units_needed(0.1, 50, 0.05, power=0.3)
