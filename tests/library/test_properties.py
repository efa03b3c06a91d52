"""Hypothesis properties of the metrics, each against an independent computation."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics_edu import metrics

# These properties check values, not speed: a busy machine (two pytest workers beside Chromium) once took
# 640 ms for a first call that takes 0.1 ms when idle, and hypothesis's default 200 ms deadline failed it.
settings.register_profile("values-not-speed", deadline=None)
settings.load_profile("values-not-speed")

flags = st.lists(st.integers(min_value=0, max_value=1), max_size=12)
nonempty_flags = st.lists(st.integers(min_value=0, max_value=1), min_size=1, max_size=12)
verdicts3 = st.lists(st.sampled_from(["yes", "no", "idk"]), max_size=12)


def independent_average_precision(rel):
    """AP as the mean, over relevant positions, of the precision at that position."""
    hits = [i for i, r in enumerate(rel) if r]
    if not hits:
        return 0.0
    return sum((n + 1) / (i + 1) for n, i in enumerate(hits)) / len(hits)


@given(flags, st.sampled_from(["deepeval", "ragas", "average_precision"]))
def test_context_precision_within_unit_interval(rel, variant):
    assert 0.0 <= metrics.context_precision(rel, variant).score <= 1.0


@given(nonempty_flags, st.data())
def test_swapping_a_relevant_node_ahead_never_lowers_precision(rel, data):
    pairs = [(i, j) for i, j in itertools.combinations(range(len(rel)), 2) if rel[i] == 0 and rel[j] == 1]
    if not pairs:
        return
    i, j = data.draw(st.sampled_from(pairs))
    swapped = list(rel)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    for variant in ("deepeval", "ragas"):
        assert metrics.context_precision(swapped, variant).score >= metrics.context_precision(rel, variant).score


@given(flags)
def test_equals_average_precision_when_all_relevant_are_retrieved(rel):
    expected = independent_average_precision(rel)
    assert abs(metrics.context_precision(rel).score - expected) < 1e-12
    assert abs(metrics.average_precision(rel, total_relevant=sum(rel)).score - expected) < 1e-12


@given(flags)
def test_deepeval_and_ragas_variants_differ_by_less_than_1e_9(rel):
    gap = metrics.context_precision(rel, "deepeval").score - metrics.context_precision(rel, "ragas").score
    assert 0.0 <= gap < 1e-9


@given(flags, st.randoms(use_true_random=False))
def test_recall_and_relevancy_ignore_order(rel, rnd):
    statements = [f"s{i}" for i in range(len(rel))]
    shuffled = list(zip(statements, rel, strict=True))
    rnd.shuffle(shuffled)
    a = metrics.context_recall(statements, rel).score
    b = metrics.context_recall([s for s, _ in shuffled], [r for _, r in shuffled]).score
    assert a == b
    nodes = [statements[: len(rel) // 2], statements[len(rel) // 2:]]
    verdicts = [rel[: len(rel) // 2], rel[len(rel) // 2:]]
    forward = metrics.contextual_relevancy(nodes, verdicts).score
    backward = metrics.contextual_relevancy(nodes[::-1], verdicts[::-1]).score
    assert forward == backward


@given(verdicts3, st.sampled_from(["deepeval", "ragas"]))
def test_faithfulness_and_answer_relevancy_within_unit_interval(v, variant):
    claims = [f"c{i}" for i in range(len(v))]
    f = metrics.faithfulness(claims, v, variant).score
    assert (f != f and variant == "ragas" and not v) or 0.0 <= f <= 1.0
    assert 0.0 <= metrics.answer_relevancy(claims, v).score <= 1.0


@given(st.lists(st.sampled_from("ABCDEFG"), max_size=8), st.lists(st.sampled_from("ABCDEFG"), max_size=8))
def test_entity_recall_within_unit_interval(ref, ctx):
    assert 0.0 <= metrics.context_entity_recall(ref, ctx).score <= 1.0


@settings(max_examples=50)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.floats(0, 1))
def test_answer_correctness_within_unit_interval(tp, fp, fn, sim):
    r = metrics.answer_correctness(["t"] * tp, ["f"] * fp, ["n"] * fn, similarity=sim)
    assert 0.0 <= r.values["f_beta"] <= 1.0 and 0.0 <= r.score <= 1.0


@given(nonempty_flags, st.integers(1, 15))
def test_ranking_measures_within_unit_interval(rel, k):
    for result in (metrics.precision_at_k(rel, k), metrics.recall_at_k(rel, k), metrics.ndcg_at_k(rel, k),
                   metrics.reciprocal_rank(rel)):
        assert 0.0 <= result.score <= 1.0 + 1e-12
