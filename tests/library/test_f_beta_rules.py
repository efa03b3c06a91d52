"""Issue 49: one F-beta that reproduces both peers' rules, each named, rounding and the empty case included.

The reference below is Ragas' own rule, written from its source (explodinggradients/ragas at 3e28e9d):
``ragas/metrics/utils.py``, ``fbeta_score`` (precision and recall first, 0 when both are 0), and
``FactualCorrectness`` returning ``np.round(score, 2)`` (``ragas/metrics/_factual_correctness.py``;
the collections API's ``metric.py`` does the same).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ragmetrics_edu import metrics


def ragas_fbeta_score(tp: int, fp: int, fn: int, beta: float = 1.0) -> float:
    precision = 0 if tp + fp == 0 else tp / (tp + fp)
    recall = 0 if tp + fn == 0 else tp / (tp + fn)
    if precision == 0 and recall == 0:
        return 0.0
    b2 = beta**2
    return (1 + b2) * (precision * recall) / ((b2 * precision) + recall)


@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0])
def test_each_rule_matches_its_peer_on_every_small_count(beta):
    differ = 0
    for tp, fp, fn in itertools.product(range(14), repeat=3):
        ragas = ragas_fbeta_score(tp, fp, fn, beta)
        assert metrics.f_beta(tp, fp, fn, beta, rule="ragas") == ragas
        assert metrics.f_beta(tp, fp, fn, beta, rule="ragas_factual_correctness") == float(np.round(ragas, 2))
        counts = metrics.f_beta(tp, fp, fn, beta)
        if tp + fp + fn:
            assert counts == pytest.approx(ragas, abs=1e-12)  # the same F-beta, computed another way
        differ += round(counts, 2) != float(np.round(ragas, 2))
    assert differ > 0  # rounding the counts' value is not Ragas' rule: hence the named rule


def test_the_two_cases_the_contributor_met():
    assert metrics.f_beta(1, 4, 10, rule="ragas_factual_correctness") == 0.13
    assert round(metrics.f_beta(1, 4, 10), 2) == 0.12  # the exact 0.125, rounded half to even
    assert metrics.f_beta(0, 0, 0) == 1.0  # answer correctness: nothing to get wrong
    assert metrics.f_beta(0, 0, 0, rule="ragas") == 0.0 == metrics.f_beta(0, 0, 0, rule="ragas_factual_correctness")


def test_a_wrong_rule_is_named():
    with pytest.raises(ValueError, match="rule"):
        metrics.f_beta(1, 0, 0, rule="sklearn")
