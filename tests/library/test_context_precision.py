"""Context precision: the decks' worked examples, hand-computed cases, and the variants."""

import math

import pytest

from ragmetrics_edu import metrics


def test_deck_a_what_is_ai_per_k_terms():
    r = metrics.context_precision(["no", "yes", "yes", "no", "no"])
    # Deck A works the terms by hand: 0, 1/2, 2/3, 0, 0; sum 7/6; divided by 2 relevant nodes.
    assert [row["term"] for row in r.rows] == pytest.approx([0, 1 / 2, 2 / 3, 0, 0])
    # precision@k is computed at every k, even where r_k = 0 (the deck writes 2/4 x 0).
    assert [row["precision_at_k"] for row in r.rows] == pytest.approx([0, 1 / 2, 2 / 3, 2 / 4, 2 / 5])
    assert [row["relevant_so_far"] for row in r.rows] == [0, 1, 2, 2, 2]
    assert r.score == pytest.approx(7 / 12)
    assert r.values["sum_of_terms"] == pytest.approx(7 / 6)
    assert list(r.steps.columns) == ["k", "relevant", "relevant_so_far", "precision_at_k", "term"]
    assert len(r.steps) == 5


@pytest.mark.parametrize(
    "verdicts, expected",
    [
        (["yes", "yes", "no"], 1.0),  # deck D order table
        (["yes", "no", "yes"], (1 + 2 / 3) / 2),
        (["no", "yes", "yes"], (1 / 2 + 2 / 3) / 2),
        (["no", "no", "yes"], 1 / 3),
        ([True, False, False, True], (1 + 2 / 4) / 2),
        ([1], 1.0),
    ],
)
def test_hand_computed_deepeval(verdicts, expected):
    assert metrics.context_precision(verdicts).score == pytest.approx(expected, abs=1e-15)


def test_ragas_epsilon_makes_perfect_ranking_fall_short_of_one():
    r = metrics.context_precision([1, 1], variant="ragas")
    assert r.score == 2 / (2 + 1e-10)
    assert r.score < 1.0
    assert any("1e-10" in n for n in r.notes)


def test_no_relevant_node_and_empty_list_are_zero_in_both_variants():
    for variant in ("deepeval", "ragas"):
        none_relevant = metrics.context_precision(["no", "no"], variant=variant)
        assert none_relevant.score == 0.0 and none_relevant.notes
        empty = metrics.context_precision([], variant=variant)
        assert empty.score == 0.0 and "No nodes" in empty.notes[0]


def test_average_precision_divides_by_all_relevant_in_corpus():
    r = metrics.context_precision([1, 0, 1], variant="average_precision", total_relevant=4)
    assert r.score == pytest.approx((1 + 2 / 3) / 4)
    assert r.values["denominator"] == 4
    same = metrics.context_precision([1, 0, 1], variant="average_precision")
    assert same.score == pytest.approx(metrics.context_precision([1, 0, 1]).score)
    assert "total_relevant not given" in same.notes[0]


def test_nodes_appear_in_steps_and_formula_substitutes_numbers():
    r = metrics.context_precision(["no", "yes"], nodes=["a cat", "the answer"])
    assert list(r.steps["node"]) == ["a cat", "the answer"]
    assert r.formula.startswith(r"\frac{1}{1}") and r.formula.endswith("= 0.5")


def test_threshold_and_success_like_deck_d():
    passed = metrics.context_precision(["yes", "yes", "no"], threshold=0.5)
    assert passed.reason.startswith("context_precision (deepeval) = 1.") and "R = 2" in passed.reason
    failed = metrics.context_precision(["no", "no", "yes"], threshold=0.5)
    assert passed.success is True and failed.success is False
    assert metrics.context_precision(["yes"]).success is None


def test_batch_equals_single_case_for_both_variants():
    cases = [[0, 1, 1, 0, 0], ["yes", "no"], [], [False, True], ["No", "YES", "yes"]]
    for variant in ("deepeval", "ragas"):
        fast = metrics.context_precision_batch(cases, variant)
        slow = [metrics.context_precision(c, variant).score for c in cases]
        assert fast == slow
        full = metrics.context_precision_batch(cases, variant, results=True)
        assert [r.score for r in full] == slow


def test_explain_and_to_dict_carry_the_numbers():
    r = metrics.context_precision([0, 1, 1, 0, 0])
    text = r.explain()
    assert "1.1667" in text and "0.5833" in text
    d = r.to_dict()
    assert d["score"] == pytest.approx(7 / 12) and len(d["steps"]) == 5
    import json

    json.dumps(d)
    html = r._repr_html_()
    assert "<table>" in html and "0.5833" in html
    assert "| k |" in r._repr_markdown_()
    assert not math.isnan(r.score)
