"""Issue 9 §3: every public function rejects bad input with an InputError naming the field."""

import math

import pytest

from ragmetrics_edu import InputError, examples, metrics


class BadRepr:
    def __repr__(self):
        raise RuntimeError("repr exploded")


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: metrics.ndcg_at_k([3, 0, 1], k=2, ideal=[1, 1]), "ideal"),        # ideal below the gains
        (lambda: metrics.ndcg_at_k([1], ideal="x"), "ideal"),
        (lambda: metrics.ndcg_at_k([1], ideal=[1, "sure"]), "ideal[1]"),
        (lambda: metrics.faithfulness(["a"], ["idk"], penalize_ambiguous="no"), "penalize_ambiguous"),
        (lambda: metrics.faithfulness(["a"], ["idk"], penalize_ambiguous=1), "penalize_ambiguous"),
        (lambda: metrics.context_entity_recall(["A"], ["a"], normalize="no"), "normalize"),
        (lambda: metrics.context_precision_batch([[1]], results="yes"), "results"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity=math.nan, weights=(1, 0)), "similarity"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity="high", weights=(1, 0)), "similarity"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity=0.5, beta=math.inf), "beta"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity=0.5, beta=10**400), "beta"),
        (lambda: metrics.f_beta(1, -1, 0), "fp"),
        (lambda: metrics.f_beta(1.5, 0, 0), "tp"),
        (lambda: metrics.f_beta(1, 0, True), "fn"),
        (lambda: metrics.f_beta(1, 0, 0, beta=-1), "beta"),
        (lambda: metrics.f_beta(1, 0, 0, beta=math.inf), "beta"),
        (lambda: metrics.normalize_entity(None), "entity"),
        (lambda: metrics.context_precision_batch(None), "cases"),
        (lambda: metrics.context_precision_batch({"yes": 1}), "cases"),
        (lambda: metrics.context_precision_batch([{1: "x", 0: "y"}]), "cases[0]"),
        (lambda: metrics.average_precision(["yes", "maybe"]), "relevance[1]"),
        (lambda: metrics.average_precision("yes"), "relevance"),
        (lambda: metrics.mean_reciprocal_rank([[1], [0, "maybe"]]), "queries[1][1]"),
        (lambda: metrics.mean_reciprocal_rank([[1], "x"]), "queries[1]"),
        (lambda: metrics.context_precision([1], threshold=10**400), "threshold"),
        (lambda: metrics.semantic_similarity("a", "b", threshold=10**400), "threshold"),
        (lambda: metrics.precision_at_k([1], k="2"), "k"),
        (lambda: metrics.ndcg_at_k([1e308, 1e308, 1e308]), "relevance[0]"),
        (lambda: metrics.ndcg_at_k([1, 2000], gain="exponential"), "relevance[1]"),
        (lambda: metrics.ndcg_at_k([1], gain="log"), "gain"),
        (lambda: metrics.context_precision(BadRepr()), "verdicts"),
        (lambda: examples.load(None), "example_id"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(InputError) as info:
        call()
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: expected ")


def test_unprintable_value_keeps_the_input_error():
    with pytest.raises(InputError, match="unprintable BadRepr"):
        metrics.faithfulness(["a"], [BadRepr()])


def test_ideal_that_covers_the_gains_is_accepted():
    # ideal [3, 1, 1]: DCG@2 = 3 ; IDCG@2 = 3 + 1/log2(3)
    result = metrics.ndcg_at_k([3, 0, 1], k=2, ideal=[3, 1, 1])
    assert result.score == pytest.approx(3 / (3 + 1 / math.log2(3)))


def test_batch_reads_values_not_dict_keys():
    # a tuple of verdicts is still fine
    assert metrics.context_precision_batch([(1, 0)]) == [1.0]


def test_similarity_checked_even_with_zero_weight_but_none_is_fine():
    assert metrics.answer_correctness(["a"], [], [], weights=(1, 0)).score == 1.0


def test_semantic_similarity_is_clamped_and_says_so():
    u = [0.9014274576114836, 0.030589983033553536, 0.0254458609934608]

    class Parallel:
        """Two parallel vectors whose float cosine rounds to 1.0000000000000002."""

        name = "parallel"

        def embed(self, texts):
            return [u, [3 * x for x in u]][: len(texts)]

    from ragmetrics_edu.embeddings import cosine_parts

    assert cosine_parts(u, [3 * x for x in u])[3] > 1.0  # the overshoot is real
    result = metrics.semantic_similarity("a", "b", Parallel())
    assert result.score == 1.0 and result.values["cosine"] == 1.0
    assert any("clamped" in n for n in result.notes)
    correctness = metrics.answer_correctness(["a"], [], [], answer="a", ground_truth="b", embedder=Parallel())
    assert correctness.score <= 1.0


def test_clamp_note_for_a_known_overshoot():
    from ragmetrics_edu.metrics.embedding import clamp_cosine

    value, note = clamp_cosine(1.0000000000000002)
    assert value == 1.0 and "1.0000000000000002" in note
    value, note = clamp_cosine(-1.0000000000000002)
    assert value == -1.0 and note
    assert clamp_cosine(0.5) == (0.5, "")
