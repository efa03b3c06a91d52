"""Classic ranking measures against hand arithmetic."""

import math

import pytest

from ragmetrics_edu import metrics


def test_precision_and_recall_at_k():
    rel = [0, 1, 1, 0, 1]
    assert metrics.precision_at_k(rel, k=3).score == pytest.approx(2 / 3)
    assert metrics.precision_at_k(rel).score == pytest.approx(3 / 5)
    assert metrics.precision_at_k(rel, k=10).score == pytest.approx(3 / 10)
    assert metrics.recall_at_k(rel, k=2, total_relevant=6).score == pytest.approx(1 / 6)
    assert metrics.recall_at_k(rel, k=5).score == 1.0
    assert metrics.recall_at_k([0, 0]).score == 0.0


def test_average_precision_and_reciprocal_rank():
    assert metrics.average_precision([1, 0, 1], total_relevant=3).score == pytest.approx((1 + 2 / 3) / 3)
    assert metrics.reciprocal_rank([0, 0, 1]).score == pytest.approx(1 / 3)
    assert metrics.reciprocal_rank([0, 0]).score == 0.0
    mrr = metrics.mean_reciprocal_rank([[1, 0], [0, 1], [0, 0]])
    assert mrr.score == pytest.approx((1 + 0.5 + 0) / 3)


def test_ndcg_binary_and_graded():
    r = metrics.ndcg_at_k([0, 1, 1])
    dcg = 1 / math.log2(3) + 1 / math.log2(4)
    idcg = 1 + 1 / math.log2(3)
    assert r.score == pytest.approx(dcg / idcg)
    graded = metrics.ndcg_at_k([1, 3, 0], k=2)
    assert graded.score == pytest.approx((1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3)))
    assert metrics.ndcg_at_k([0, 0]).score == 0.0
    with_ideal = metrics.ndcg_at_k([1, 0], ideal=[1, 1])
    assert with_ideal.score == pytest.approx(1 / (1 + 1 / math.log2(3)))
