"""Every kind of bad input raises InputError (a ValueError) naming the argument."""

import pytest

from ragmetrics_edu import InputError, examples, metrics


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: metrics.context_precision("yes no"), "verdicts"),                       # wrong type
        (lambda: metrics.context_precision(["yes", "maybe"]), "verdicts[1]"),            # unknown verdict
        (lambda: metrics.context_precision([2]), "verdicts[0]"),
        (lambda: metrics.context_precision(["idk"]), "verdicts[0]"),                     # idk not allowed here
        (lambda: metrics.context_precision([1], variant="trec"), "variant"),
        (lambda: metrics.context_precision([1, 0], nodes=["only one"]), "nodes"),
        (lambda: metrics.context_precision([1], threshold=1.5), "threshold"),
        (lambda: metrics.context_precision([1, 1], "average_precision", total_relevant=1), "total_relevant"),
        (lambda: metrics.context_precision([1], total_relevant=3), "total_relevant"),
        (lambda: metrics.context_recall(["a", "b"], ["yes"]), "verdicts"),               # unequal length
        (lambda: metrics.context_recall(["a"], ["no"], nodes=[1]), "nodes[0]"),
        (lambda: metrics.context_recall(["a"], ["yes"], nodes=[0]), "nodes[0]"),
        (lambda: metrics.context_recall("a statement", ["yes"]), "statements"),          # non-list
        (lambda: metrics.contextual_relevancy("node text", [[1]]), "node_statements"),  # non-list context
        (lambda: metrics.contextual_relevancy([["a"]], [[1, 0]]), "node_verdicts[0]"),
        (lambda: metrics.contextual_relevancy([["a"], ["b"]], [[1]]), "node_verdicts"),
        (lambda: metrics.faithfulness(["a"], ["perhaps"]), "verdicts[0]"),
        (lambda: metrics.faithfulness([1], ["yes"]), "claims[0]"),
        (lambda: metrics.answer_relevancy(["a"], []), "verdicts"),
        (lambda: metrics.context_entity_recall("Paris", ["Paris"]), "reference_entities"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity=0.5, weights=(1, -1)), "weights"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity=0.5, weights=(0, 0)), "weights"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity=0.5, weights=(1,)), "weights"),
        (lambda: metrics.answer_correctness(["a"], [], [], similarity=3.0), "similarity"),
        (lambda: metrics.answer_correctness("a", [], [], similarity=0.5), "tp"),
        (lambda: metrics.answer_relevancy_embedding("q", ["g"], noncommittal=[True, False]), "noncommittal"),
        (lambda: metrics.answer_relevancy_embedding("q", ["g"], embedder="minilm"), "embedder"),
        (lambda: metrics.semantic_similarity(None, "b"), "answer"),
        (lambda: metrics.precision_at_k([1, 0], k=0), "k"),
        (lambda: metrics.ndcg_at_k([1, "sure"]), "relevance[1]"),
        (lambda: examples.load("no-such-example"), "example_id"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(InputError) as info:
        call()
    err = info.value
    assert isinstance(err, ValueError)
    assert err.field == field
    assert str(err).startswith(f"{field}: expected ")
    assert "got" in str(err)


def test_unequal_length_message_gives_both_counts():
    with pytest.raises(InputError, match=r"one entry per item of statements \(2\).*has 1 entries"):
        metrics.context_recall(["a", "b"], ["yes"])
