"""The grouped bootstrap resamples groups: checked on cases small enough to work out by hand."""

import math

import numpy as np
import pytest

from ragmetrics_edu import stats
from ragmetrics_edu.errors import InputError


def test_one_item_per_group_is_the_plain_bootstrap_draw_for_draw():
    values = [0.1, 0.9, 0.4, 0.4, 1.0, 0.0, 0.3, 0.7, 0.2, 0.6, 0.5]
    plain = stats.bootstrap_ci(values, n_resamples=2000, seed=3)
    grouped = stats.grouped_bootstrap_ci(values, list(range(len(values))), n_resamples=2000, seed=3)
    assert np.allclose(plain.distribution, grouped.distribution)
    assert grouped.ci == pytest.approx(plain.ci)


def test_two_groups_take_only_the_values_worked_out_by_hand():
    # group a holds two 0s, group b one 1. Drawing two groups: (a, a) -> 0, (b, b) -> 1,
    # (a, b) or (b, a) -> (0 + 0 + 1) / 3. Each ordered draw has probability 1/4.
    result = stats.grouped_bootstrap_ci([0, 0, 1], ["a", "a", "b"], n_resamples=4000, seed=0, min_groups=2)
    draws = np.round(result.distribution, 9)
    assert set(draws.tolist()) <= {0.0, round(1 / 3, 9), 1.0}
    share = {v: float(np.mean(draws == round(v, 9))) for v in (0.0, 1 / 3, 1.0)}
    assert share[1 / 3] == pytest.approx(0.5, abs=0.03)
    assert share[0.0] == pytest.approx(0.25, abs=0.03)
    assert result.score == pytest.approx(1 / 3)


def test_clustered_items_give_a_wider_interval_than_items_resampled_alone():
    # 12 groups of 5 identical items: 60 items but only 12 independent values.
    group_values = [0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1]
    values = [v for v in group_values for _ in range(5)]
    groups = [g for g in range(12) for _ in range(5)]
    naive = stats.bootstrap_ci(values, seed=1)
    grouped = stats.grouped_bootstrap_ci(values, groups, seed=1)
    naive_width = naive.ci[1] - naive.ci[0]
    grouped_width = grouped.ci[1] - grouped.ci[0]
    assert grouped_width > 1.8 * naive_width
    assert grouped.values["n_groups"] == 12


def test_too_few_groups_give_no_interval():
    result = stats.grouped_bootstrap_ci([1, 0, 1, 1], ["x", "x", "y", "z"])
    assert result.ci is None
    assert math.isnan(result.values["ci_low"])
    assert any("too few to tell" in n for n in result.notes)


@pytest.mark.parametrize("groups", [["a"], "ab", None, [["a"], ["b"]], ["a", None]])
def test_bad_groups_name_the_field(groups):
    with pytest.raises(InputError, match="groups"):
        stats.grouped_bootstrap_ci([1, 0], groups)
