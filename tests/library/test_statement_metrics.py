"""Recall, contextual relevancy, faithfulness and answer relevancy: counts, variants, edge cases."""

import math

import pytest

from ragmetrics_edu import metrics


def test_context_recall_counts_attributable_statements_with_nodes():
    r = metrics.context_recall(["s1", "s2", "s3", "s4"], ["yes", "yes", "yes", "no"], nodes=[1, 2, 2, None])
    assert r.score == 0.75
    assert [row["node"] for row in r.rows] == [1, 2, 2, None]
    assert str(r.steps["node"].dtype) == "Int64" and r.steps["node"].isna().tolist() == [False, False, False, True]
    assert r.values == {"attributable": 3, "total": 4}


def test_context_recall_empty_differs_between_variants():
    assert metrics.context_recall([], []).score == 0.0
    ragas = metrics.context_recall([], [], variant="ragas")
    assert math.isnan(ragas.score) and "NaN" in ragas.notes[0]


def test_contextual_relevancy_pools_statements_of_all_nodes():
    r = metrics.contextual_relevancy([["a"], ["b"], ["c", "d", "e"]], [[0], [0], [1, 1, 1]])
    assert r.score == pytest.approx(3 / 5)
    assert list(r.steps["node"]) == [1, 2, 3, 3, 3]
    assert metrics.contextual_relevancy([], []).score == 0.0
    assert metrics.contextual_relevancy([[]], [[]]).score == 0.0


def test_faithfulness_idk_counts_for_deepeval_not_for_ragas():
    claims = ["supported", "not mentioned"]
    assert metrics.faithfulness(claims, ["yes", "idk"], "deepeval").score == 1.0
    assert metrics.faithfulness(claims, ["yes", "idk"], "ragas").score == 0.5
    assert metrics.faithfulness(claims, ["yes", "idk"], "deepeval", penalize_ambiguous=True).score == 0.5
    assert metrics.faithfulness(claims, ["yes", "no"], "deepeval").score == 0.5


def test_faithfulness_no_claims():
    assert metrics.faithfulness([], [], "deepeval").score == 1.0
    assert math.isnan(metrics.faithfulness([], [], "ragas").score)


def test_answer_relevancy_statement_form():
    assert metrics.answer_relevancy(["a", "b", "c"], ["yes", "idk", "no"]).score == pytest.approx(2 / 3)
    empty = metrics.answer_relevancy([], [])
    assert empty.score == 1.0 and empty.notes


def test_verdict_spellings_are_accepted():
    r = metrics.context_recall(["a", "b", "c", "d"], [" YES", "No", True, 0])
    assert r.score == 0.5
