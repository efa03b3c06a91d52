"""Issue 9 §4: where DeepEval, Ragas' legacy ``ragas.metrics`` and ``ragas.metrics.collections``
disagree, each rule is offered or stated. Expected values are worked by hand from each peer's rule."""

import math

import pytest

from ragmetrics_edu import metrics

EPS8 = 1e-8


def test_entity_recall_legacy_divides_by_the_list_length_with_repeats():
    # ragas/metrics/_context_entities_recall.py, ContextEntityRecall._compute_score:
    # |set(ctx) & set(ref)| / (len(ref) + 1e-8) -> 1 / (3 + 1e-8)
    legacy = metrics.context_entity_recall(["A", "A", "B"], ["A"], variant="ragas_legacy")
    assert legacy.score == 1 / (3 + EPS8)
    # collections/context_entity_recall/metric.py, _compute_recall_score: set sizes -> 1 / (2 + 1e-8)
    default = metrics.context_entity_recall(["A", "A", "B"], ["A"])
    assert default.score == 1 / (2 + EPS8)
    assert any("repeat" in n for n in default.notes) and any("repeat" in n for n in legacy.notes)
    # without repeats the two rules agree and no repeat note is given
    plain = metrics.context_entity_recall(["A", "B"], ["A"], variant="ragas_legacy")
    assert plain.score == 1 / (2 + EPS8)
    assert not any("repeat" in n for n in plain.notes)


def test_semantic_similarity_threshold_zero_note_says_what_ragas_returns():
    result = metrics.semantic_similarity("the cat sat", "a dog ran", threshold=0.0)
    assert result.score in (0.0, 1.0)
    assert any("if self.threshold" in n for n in result.notes)


def test_answer_correctness_variants():
    legacy = metrics.answer_correctness([], ["x"], [], similarity=0.9)
    # legacy ragas.metrics.utils.fbeta_score(0, 1, 0) = 0 -> 0.75*0 + 0.25*0.9
    assert legacy.score == pytest.approx(0.225)
    assert any("0.975" in n for n in legacy.notes)
    coll = metrics.answer_correctness([], ["x"], [], similarity=0.9, variant="ragas_collections")
    # collections AnswerCorrectness.ascore skips classification, factuality 1.0 -> 0.75 + 0.225
    assert coll.score == pytest.approx(0.975)
    assert metrics.answer_correctness([], [], ["y"], similarity=0.9, variant="ragas_collections").score == pytest.approx(0.975)
    assert metrics.answer_correctness([], [], ["y"], similarity=0.9).score == pytest.approx(0.225)
    # with a TP both agree and no note on the disagreement
    both = metrics.answer_correctness(["t"], ["x"], [], similarity=0.9, variant="ragas_collections")
    assert both.score == pytest.approx(0.75 * (2 / 3) + 0.25 * 0.9)
    assert not any("0.975" in n for n in both.notes)


def test_answer_relevancy_embedding_without_questions():
    legacy = metrics.answer_relevancy_embedding("q", [])
    assert math.isnan(legacy.score)
    assert any("0.0" in n and "collections" in n for n in legacy.notes)
    assert metrics.answer_relevancy_embedding("q", [], variant="ragas_collections").score == 0.0


def test_context_precision_empty_note_is_true_per_api():
    result = metrics.context_precision([], "ragas")
    assert result.score == 0.0
    note = " ".join(result.notes)
    assert "raises" in note and "collections" in note


@pytest.mark.parametrize("word", ["borderline", "Borderline "])
def test_borderline_is_idk(word):
    assert metrics.faithfulness(["a", "b"], ["yes", word]).score == 1.0
    assert metrics.faithfulness(["a", "b"], ["yes", word], penalize_ambiguous=True).score == 0.5
    assert metrics.answer_relevancy(["a", "b"], ["no", word]).score == 0.5


def test_ndcg_linear_and_exponential_gain():
    # linear (trec_eval): DCG = 3 + 0 + 1/log2(4) ; ideal [3,1,0]: 3 + 1/log2(3)
    lin = metrics.ndcg_at_k([3, 0, 1])
    assert lin.score == pytest.approx((3 + 1 / 2) / (3 + 1 / math.log2(3)))
    # exponential (ranx ndcg_burges): gains 2^3-1 = 7, 0, 1
    exp = metrics.ndcg_at_k([3, 0, 1], gain="exponential")
    assert exp.score == pytest.approx((7 + 1 / 2) / (7 + 1 / math.log2(3)))
    assert any("linear" in n.lower() for n in lin.notes) and any("2^rel" in n for n in exp.notes)


def test_ndcg_uncut_ideal_is_cut_at_the_list_length():
    result = metrics.ndcg_at_k([1], ideal=[1, 1])
    assert result.score == 1.0
    # trec_eval's uncut ndcg: 1 / (1 + 1/log2(3)) = 0.613
    assert any("0.613" in n for n in result.notes)


def test_readme_edge_case_table_states_the_library_values():
    from pathlib import Path

    readme = Path(__file__).resolve().parents[2] / "README.md"
    section = readme.read_text(encoding="utf-8").split("### Edge cases", 1)[1].split("\n### ", 1)[0]
    legacy = metrics.context_entity_recall(["A", "A", "B"], ["A"], variant="ragas_legacy").score
    collections = metrics.context_entity_recall(["A", "A", "B"], ["A"]).score
    assert f"`ragas_legacy` {legacy:.3f}" in section and f"`ragas` {collections:.1f}" in section
    ac = metrics.answer_correctness([], ["x"], [], similarity=0.9)
    ac_coll = metrics.answer_correctness([], ["x"], [], similarity=0.9, variant="ragas_collections")
    assert f"`ragas` {ac.score:.3f}" in section and f"`ragas_collections` {ac_coll.score:.3f}" in section
    assert f"= {metrics.ndcg_at_k([1], ideal=[1, 1]).score:.1f}" in section
    trec_uncut = 1 / (1 + 1 / math.log2(3))
    assert f"{trec_uncut:.3f}" in section
    for api in ("DeepEval", "Ragas legacy", "Ragas collections", "trec_eval", "ranx"):
        assert api in section
