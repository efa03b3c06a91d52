"""The larger retrieval lab: pooled judgements, the paired comparison, the sample-size lesson."""

import numpy as np
import pytest

from ragmetrics_edu import InputError, stats
from ragmetrics_edu.embeddings.recorded import RecordedEmbedder
from ragmetrics_edu.retrieval import (
    BM25Retriever,
    EmbeddingRetriever,
    Question,
    corpus_from_dict,
    evaluate_retriever,
    load_corpus,
)
from ragmetrics_edu.retrieval.comparison import compare_retrievers, intervals_by_size, neither_answers
from ragmetrics_edu.retrieval.pooling import pool, pool_only_question, pooling_table, unjudged_in_top

TOY = {"passages": [{"id": "d1", "text": "cats chase mice"}, {"id": "d2", "text": "dogs chase cats"},
                    {"id": "d3", "text": "birds sing songs"}],
       "questions": [{"id": "q", "text": "what do cats chase", "qrels": {"d1": 2, "d3": 1}}]}


@pytest.fixture(scope="module")
def lab():
    corpus = load_corpus()
    retrievers = {"BM25": BM25Retriever(corpus),
                  "MiniLM": EmbeddingRetriever(corpus, RecordedEmbedder(), min_score=None)}
    return corpus, retrievers


def test_recording_covers_every_passage_and_question_of_the_corpus():
    recorded = RecordedEmbedder()
    corpus = load_corpus()
    missing = [t for t in [p.text for p in corpus.passages] + [q.text for q in corpus.questions] if t not in recorded]
    assert not missing, missing[:3]


def test_every_pooled_passage_was_judged(lab):
    corpus, retrievers = lab
    k = corpus.pooling["k"]
    rows = pooling_table(corpus, retrievers, k=k)
    assert len(rows) == len(corpus.questions) >= 50
    for row, q in zip(rows, corpus.questions, strict=True):
        assert row["pool_not_judged"] == [], q.id
        assert row["pooled"] <= row["judged"] <= len(corpus.passages), q.id
        assert row["unjudged"] == len(corpus.unjudged(q)), q.id
        assert row["relevant_in_pool"] + len(row["outside_pool"]) == q.total_relevant, q.id


def test_pool_is_the_union_of_top_k_in_order_of_first_appearance():
    corpus = corpus_from_dict(TOY)
    q = corpus.questions[0]
    bm = BM25Retriever(corpus)
    first = [p for p, _ in bm.search(q.text, 1)]
    assert pool({"a": bm}, q, k=1) == first
    both = pool({"a": bm, "b": EmbeddingRetriever(corpus, min_score=None)}, q, k=3)
    assert both[:1] == first and sorted(both) == ["d1", "d2", "d3"]
    cut = pool_only_question(q, ["d1", "d2"])
    assert cut.qrels == {"d1": 2} and q.qrels == {"d1": 2, "d3": 1}
    with pytest.raises(InputError, match="retrievers"):
        pool({}, q)
    with pytest.raises(InputError, match="question"):
        pool({"a": bm}, "what do cats chase")
    with pytest.raises(InputError, match="search"):
        pool({"a": object()}, q)
    with pytest.raises(InputError, match="corpus"):
        pooling_table([q], {"a": bm})


def test_comparison_is_the_stats_functions_on_the_per_question_scores(lab):
    corpus, retrievers = lab
    answerable = [q for q in corpus.questions if q.total_relevant]
    rows_a = evaluate_retriever(retrievers["BM25"], answerable, k=5)
    rows_b = evaluate_retriever(retrievers["MiniLM"], answerable, k=5)
    out = compare_retrievers(rows_a, rows_b, "average_precision", labels=("BM25", "MiniLM"), n_resamples=2000)
    a = [r["average_precision"] for r in rows_a]
    b = [r["average_precision"] for r in rows_b]
    assert out["BM25"].ci == stats.bootstrap_ci(a, n_resamples=2000).ci
    assert out["paired_bootstrap"].score == pytest.approx(sum(a) / len(a) - sum(b) / len(b))
    assert out["paired_bootstrap"].ci == stats.paired_bootstrap(a, b, n_resamples=2000).ci
    assert out["permutation"].p_value == stats.permutation_test(a, b, n_resamples=2000).p_value
    assert out["sign"].p_value == stats.sign_test(a, b).p_value
    assert out["neither"] == [q for q, x, y in zip([r["question"] for r in rows_a], a, b, strict=True) if x == y == 0]


def test_neither_answers_lists_questions_both_systems_score_zero_on():
    rows_a = [{"question": "q1", "m": 0.0}, {"question": "q2", "m": 0.5}, {"question": "q3", "m": 0.0}]
    rows_b = [{"question": "q1", "m": 0.0}, {"question": "q2", "m": 0.0}, {"question": "q3", "m": 1.0}]
    assert neither_answers(rows_a, rows_b, "m") == ["q1"]
    with pytest.raises(InputError, match="same questions"):
        neither_answers(rows_a, rows_b[::-1], "m")
    with pytest.raises(InputError, match="measure"):
        neither_answers(rows_a, rows_b, "missing")
    with pytest.raises(InputError, match="rows_a"):
        neither_answers([], rows_b, "m")


def test_the_no_answer_questions_score_zero_for_every_retriever(lab):
    corpus, retrievers = lab
    none = [q for q in corpus.questions if q.total_relevant == 0]
    assert none
    for retriever in retrievers.values():
        for row in evaluate_retriever(retriever, none, k=5):
            assert row["average_precision"] == row["ndcg_at_k"] == row["reciprocal_rank"] == 0.0


def test_intervals_by_size_uses_the_first_n_values():
    values = [0.0, 1.0, 0.5, 1.0, 0.0, 1.0, 0.25, 0.75]
    rows = intervals_by_size(values, [2, 8], n_resamples=500)
    assert [r["n"] for r in rows] == [2, 8]
    assert rows[0]["mean"] == 0.5 and rows[1]["mean"] == pytest.approx(sum(values) / 8)
    assert (rows[1]["low"], rows[1]["high"]) == stats.bootstrap_ci(values, n_resamples=500).ci
    assert all(r["width"] == pytest.approx(r["high"] - r["low"]) for r in rows)
    for sizes in ([0], [9], [True], "10", []):
        with pytest.raises(InputError, match="sizes"):
            intervals_by_size(values, sizes)


def test_interval_narrowing_figure_draws_one_series_per_system():
    from ragmetrics_edu.plots import plot_interval_narrowing

    rows = intervals_by_size([0.0, 1.0, 0.5, 1.0, 0.0, 1.0], [3, 6], n_resamples=200)
    fig = plot_interval_narrowing({"A": rows, "B": rows}, title="t")
    assert len(fig.axes[0].get_legend().get_texts()) == 2
    assert fig._repr_png_()[:4] == b"\x89PNG"
    with pytest.raises(InputError, match="rows_by_system"):
        plot_interval_narrowing({})


def test_question_default_judged_is_none():
    assert Question("x", "?", {}).judged is None


def _notebook_stdout():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "notebooks" / "09_evaluate_a_retriever.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(o.get("text", "")) for c in cells if c["cell_type"] == "code"
                     for o in c.get("outputs", []) if o.get("name") == "stdout")


def test_notebook_comparison_numbers_come_from_the_library(lab):
    corpus, retrievers = lab
    answerable = [q for q in corpus.questions if q.total_relevant]
    rows = {name: evaluate_retriever(r, answerable, k=5) for name, r in retrievers.items()}
    c = compare_retrievers(rows["BM25"], rows["MiniLM"], "average_precision", labels=("BM25", "MiniLM"))
    low, high = c["paired_bootstrap"].ci
    significant = c["permutation"].p_value < 0.05 and not low <= 0 <= high
    out = _notebook_stdout()
    assert f"MAP: BM25 {c['BM25'].score:.3f}, MiniLM {c['MiniLM'].score:.3f}" in out
    assert (f"difference {c['paired_bootstrap'].score:+.3f}, 95% interval [{low:+.3f}, {high:+.3f}], "
            f"permutation p = {c['permutation'].p_value:.4f}") in out
    verdict = "differ significantly" if significant else "do not differ significantly"
    assert f"BM25 and MiniLM {verdict} at the 5% level" in out
    order = np.random.default_rng(0).permutation(len(answerable))  # the notebook's one random order, seed 0
    sizes = intervals_by_size([rows["BM25"][i]["average_precision"] for i in order], [10, len(answerable)])
    assert f"BM25: interval width {sizes[0]['width']:.3f} at n = 10, {sizes[1]['width']:.3f} at n = {len(answerable)}" in out


def test_only_the_unpooled_retriever_has_unjudged_passages_and_the_notebook_prints_its_count(lab):
    corpus, retrievers = lab
    answerable = [q for q in corpus.questions if q.total_relevant]
    systems = {**retrievers, "hashing": EmbeddingRetriever(corpus)}
    counts = {}
    for name, retriever in systems.items():
        tops = [[pid for pid, _ in retriever.search(q.text, 5)] for q in answerable]
        counts[name] = (sum(map(len, tops)), sum(pid not in q.judged for q, top in zip(answerable, tops, strict=True)
                                               for pid in top))
    assert counts["BM25"][1] == 0 and counts["MiniLM"][1] == 0, "the pooled systems' top 5 is all judged"
    assert counts["hashing"][1] > 0
    listed, unjudged = counts["hashing"]
    out = _notebook_stdout()
    assert f"{listed:>16}{f'{unjudged} ({unjudged / listed:.0%})':>16}" in out
    assert f"{unjudged} of {listed}" in out


def test_notebook_pooling_counts_come_from_the_library(lab):
    corpus, retrievers = lab
    rows = pooling_table(corpus, retrievers, k=corpus.pooling["k"])
    total = len(corpus.questions) * len(corpus.passages)
    pooled, judged = sum(r["pooled"] for r in rows), sum(r["judged"] for r in rows)
    out = _notebook_stdout()
    assert (f"(question, passage) pairs: {total}; pooled {pooled}; judged {judged}; "
            f"unjudged {sum(r['unjudged'] for r in rows)}") in out
    for r in rows:
        if r["outside_pool"]:
            assert f"relevant but outside the pool: {r['question']} {r['outside_pool']}" in out


def test_exercise_ret3_explanation_matches_bm25s_ranking_on_q11():
    from ragmetrics_edu.course import exercises

    corpus = load_corpus()
    q11 = corpus.question("q11")
    row = evaluate_retriever(BM25Retriever(corpus), [q11], k=5)[0]
    assert row["grades"][0] == 0 and corpus.text(row["retrieved"][0]).startswith("Grace Hopper")
    assert row["grades"].index(2) == 1 and row["grades"].index(1) == 4  # second and fifth
    assert "comes second" in exercises.get("ret-3").explanation and "fifth" in exercises.get("ret-3").explanation


def test_unjudged_in_top_counts_the_passages_never_read_for_their_question():
    corpus = corpus_from_dict({
        "passages": [{"id": "a1", "text": "cats chase mice", "topic": "cats"},
                     {"id": "a2", "text": "cats sleep a lot", "topic": "cats"},
                     {"id": "b1", "text": "birds sing songs", "topic": "birds"}],
        "questions": [{"id": "q", "text": "what do cats chase", "qrels": {"a1": 2}, "judged": ["a1"]}]})
    rows = [{"question": "q", "retrieved": ["a2", "a1", "b1"]}]
    assert unjudged_in_top(corpus, rows) == {"listed": 3, "unjudged": 2, "on_answer_topic": 1}
    assert unjudged_in_top(corpus, [{"question": "q", "retrieved": ["a1"]}])["unjudged"] == 0


@pytest.mark.parametrize("corpus, rows, field", [
    (None, [], "corpus"),
    ("corpus", "not rows", "rows"),
    ("corpus", [{"retrieved": []}], "rows[0]"),
    ("corpus", [{"question": "q01", "retrieved": [3]}], "rows[0]['retrieved'][0]"),
])
def test_unjudged_in_top_names_a_bad_input(corpus, rows, field):
    real = load_corpus()
    with pytest.raises(InputError) as raised:
        unjudged_in_top(real if corpus == "corpus" else corpus, rows)
    assert raised.value.field == field
