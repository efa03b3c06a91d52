"""Entity recall, the embedding metrics (with a hand-made embedder) and answer correctness."""

import math

import pytest

from ragmetrics_edu import InputError, metrics
from ragmetrics_edu.embeddings import HashingEmbedder, cosine_parts


class TableEmbedder:
    """Vectors chosen by hand so every cosine is known exactly."""

    name = "table"

    def __init__(self, table):
        self.table = table

    def embed(self, texts):
        return [self.table[t] for t in texts]


def test_entity_recall_exact_match_as_ragas():
    r = metrics.context_entity_recall(["Brazil", "Brasília", "April 21, 1960"], ["Brasília", "Brazil"])
    assert r.score == pytest.approx(2 / 3, abs=1e-7)
    assert r.score == 2 / (3 + 1e-8)
    assert r.values["overlap"] == 2 and r.values["reference_count"] == 3


def test_entity_recall_normalisation_is_opt_in_and_visible():
    ref, ctx = ["Brasília", "New  York"], ["brasilia", "new york"]
    exact = metrics.context_entity_recall(ref, ctx)
    assert exact.score == 0.0
    assert any("normalize=True" in n for n in exact.notes)
    loose = metrics.context_entity_recall(ref, ctx, normalize=True)
    assert loose.score == pytest.approx(1.0, abs=1e-7)
    assert list(loose.steps["key"][:2]) == ["brasilia", "new york"]


def test_entity_recall_duplicates_and_empty_reference():
    assert metrics.context_entity_recall(["A", "A", "B"], ["A"]).values["reference_count"] == 2
    empty = metrics.context_entity_recall([], ["A"])
    assert empty.score == 0.0 and empty.notes


def test_cosine_parts_by_hand():
    dot, nu, nv, cos = cosine_parts([3.0, 4.0], [4.0, 3.0])
    assert (dot, nu, nv) == (24.0, 5.0, 5.0) and cos == pytest.approx(24 / 25)
    assert cosine_parts([0.0, 0.0], [1.0, 0.0])[3] == 0.0


def test_answer_relevancy_embedding_mean_and_noncommittal_rule():
    emb = TableEmbedder({"q": [1.0, 0.0], "g1": [1.0, 0.0], "g2": [0.0, 1.0], "g3": [-1.0, 0.0]})
    r = metrics.answer_relevancy_embedding("q", ["g1", "g2", "g3"], embedder=emb)
    assert r.score == pytest.approx((1 + 0 - 1) / 3)  # not clipped: a negative cosine counts
    assert list(r.steps["cosine"]) == pytest.approx([1.0, 0.0, -1.0])
    some = metrics.answer_relevancy_embedding("q", ["g1", "g2"], embedder=emb, noncommittal=[True, False])
    assert some.score == pytest.approx(0.5)
    every = metrics.answer_relevancy_embedding("q", ["g1", "g2"], embedder=emb, noncommittal=True)
    assert every.score == 0.0 and every.values["mean_cosine"] == pytest.approx(0.5)
    assert math.isnan(metrics.answer_relevancy_embedding("q", [], embedder=emb).score)


def test_semantic_similarity_and_threshold():
    emb = TableEmbedder({"a": [1.0, 1.0], "b": [1.0, 0.0]})
    r = metrics.semantic_similarity("a", "b", embedder=emb)
    assert r.score == pytest.approx(1 / math.sqrt(2))
    assert r.values["dot"] == 1.0 and r.values["norm_answer"] == pytest.approx(math.sqrt(2))
    assert metrics.semantic_similarity("a", "b", embedder=emb, threshold=0.7).score == 1.0
    assert metrics.semantic_similarity("a", "b", embedder=emb, threshold=0.8).score == 0.0


def test_offline_embedder_is_deterministic_and_identical_texts_score_one():
    emb = HashingEmbedder()
    assert emb.embed(["Paris is in France"]) == HashingEmbedder().embed(["Paris is in France"])
    assert metrics.semantic_similarity("Paris is in France", "Paris is in France").score == pytest.approx(1.0)
    unrelated = metrics.semantic_similarity("Paris is in France", "Newton studied gravity")
    assert unrelated.score < 0.5
    assert "stand-in" in unrelated.notes[0]


def test_answer_correctness_f1_and_weights():
    r = metrics.answer_correctness(["born in 1879"], ["born in Spain"], ["born in Germany"], similarity=0.8)
    assert r.values["f_beta"] == 0.5  # 1 / (1 + (1 + 1) / 2)
    assert r.score == pytest.approx(0.75 * 0.5 + 0.25 * 0.8)
    assert metrics.answer_correctness([], [], [], similarity=1.0).values["f_beta"] == 1.0
    only_facts = metrics.answer_correctness(["x"], [], ["y"], weights=(1, 0))
    assert only_facts.score == pytest.approx(2 / 3)
    uneven = metrics.answer_correctness(["x"], ["y"], [], similarity=0.0, weights=(3, 1))
    assert uneven.score == pytest.approx(3 * (2 / 3) / 4)
    f2 = metrics.answer_correctness(["x"], ["y"], [], similarity=0.0, weights=(1, 0), beta=2.0)
    assert f2.values["f_beta"] == pytest.approx(5 * 1 / (5 * 1 + 4 * 0 + 1))


def test_answer_correctness_computes_similarity_from_texts():
    emb = TableEmbedder({"ans": [1.0, 0.0], "gt": [1.0, 1.0]})
    r = metrics.answer_correctness(["a"], [], [], answer="ans", ground_truth="gt", embedder=emb)
    assert r.values["similarity"] == pytest.approx(1 / math.sqrt(2))
    with pytest.raises(InputError, match="similarity"):
        metrics.answer_correctness(["a"], [], [])
