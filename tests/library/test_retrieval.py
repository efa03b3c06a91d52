"""The retrieval lab: BM25 against hand arithmetic, the embedding retriever, the evaluation, the corpus."""

import math

import pytest

from ragmetrics_edu import InputError, metrics
from ragmetrics_edu.embeddings import HashingEmbedder
from ragmetrics_edu.retrieval import (
    MEASURES,
    BM25Retriever,
    EmbeddingRetriever,
    Passage,
    Question,
    corpus_from_dict,
    evaluate_retriever,
    load_corpus,
    mean_scores,
    tokenize,
)

TOY = [("d1", "cats chase mice"), ("d2", "dogs chase cats and cats run"), ("d3", "birds sing")]


def test_tokenizer_lowercases_drops_stop_words_possessives_and_plurals():
    assert tokenize("The World's largest Deserts, and its cacti") == ["world", "largest", "desert", "cacti"]
    assert tokenize("Bodies") == ["body"]
    assert tokenize("glass bus gas") == ["glass", "bus", "gas"]  # -ss, -us and short words kept
    assert tokenize("Planets", stem=False) == ["planets"]


def test_bm25_matches_a_hand_computation_on_a_toy_corpus():
    bm = BM25Retriever(TOY)
    # Tokens by hand: d1 = cat chase mice (3); d2 = dog chase cat cat run (5); d3 = bird sing (2).
    lengths = {"d1": 3, "d2": 5, "d3": 2}
    assert bm.doc_len == lengths
    avgdl = (3 + 5 + 2) / 3
    n_docs, k1, b = 3, 1.5, 0.75

    def idf(n):  # n = passages holding the term
        return math.log(1 + (n_docs - n + 0.5) / (n + 0.5))

    def part(tf, dl):
        return tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))

    # "cat" is in d1 and d2 (n = 2), "chase" in d1 and d2, "sing" only in d3.
    assert bm.idf("cat") == pytest.approx(math.log(1 + 1.5 / 2.5))
    assert bm.idf("sing") == pytest.approx(math.log(1 + 2.5 / 1.5))
    expected_d1 = idf(2) * part(1, 3) + idf(2) * part(1, 3)
    expected_d2 = idf(2) * part(2, 5) + idf(2) * part(1, 5)
    assert bm.score("cat chases", "d1") == pytest.approx(expected_d1)
    assert bm.score("cat chases", "d2") == pytest.approx(expected_d2)
    assert bm.score("cat chases", "d3") == 0.0
    hits = bm.search("cat chases", k=5)
    assert [h[0] for h in hits] == sorted(["d1", "d2"], key=lambda d: -{"d1": expected_d1, "d2": expected_d2}[d])
    assert len(hits) == 2  # d3 shares no term and is left out

    explained = bm.explain("cats cats chase", "d2")
    assert [r["term"] for r in explained.rows] == ["cat", "chase"]  # a repeated query term counts once
    assert [r["tf"] for r in explained.rows] == [2, 1]
    assert explained.score == pytest.approx(expected_d2)
    assert sum(r["contribution"] for r in explained.rows) == pytest.approx(expected_d2)
    assert explained.values["avgdl"] == pytest.approx(avgdl)


def test_bm25_parameters_change_the_score_and_bad_ones_are_named():
    plain = BM25Retriever(TOY, k1=1.2, b=0.0)
    # b = 0: no length normalisation, so the tf part is tf (k1 + 1) / (tf + k1).
    assert plain.score("sing", "d3") == pytest.approx(math.log(1 + 2.5 / 1.5) * 2.2 / 2.2)
    with pytest.raises(InputError, match="^b:"):
        BM25Retriever(TOY, b=2)
    with pytest.raises(InputError, match="^k:"):
        plain.search("cats", k=0)
    with pytest.raises(InputError, match="^query:"):
        plain.search("", k=3)
    with pytest.raises(InputError, match=r"^passages\[1\]"):
        BM25Retriever([("a", "x"), 42])
    with pytest.raises(InputError, match="^passage_id:"):
        plain.explain("cats", "nope")


def test_embedding_retriever_ranks_an_exact_duplicate_first():
    corpus = load_corpus()
    target = corpus.passage("tea-03")
    for embedder in (None, HashingEmbedder(dim=256)):
        er = EmbeddingRetriever(corpus, embedder)
        hits = er.search(target.text, k=3)
        assert hits[0][0] == "tea-03"
        assert hits[0][1] == pytest.approx(1.0)
        assert hits[0][1] > hits[1][1]


def test_embedding_retriever_accepts_any_embedder_and_explains_shared_features():
    class Letters:
        name = "letters"

        def embed(self, texts):
            return [[float(t.lower().count(ch)) for ch in "abcdefghijklmnopqrstuvwxyz"] for t in texts]

    er = EmbeddingRetriever(TOY, Letters())
    assert er.name == "embedding (letters)"
    assert er.search("birds sing", k=1)[0][0] == "d3"
    assert er.explain("birds sing", "d3").rows == []  # no tokens(): only the cosine and its parts

    hashing = EmbeddingRetriever(TOY, HashingEmbedder(dim=4096))
    e = hashing.explain("cats chase", "d1")
    assert {r["feature"] for r in e.rows} == {"cats", "chase", "cats chase"}
    assert e.score == pytest.approx(hashing.similarity("cats chase", "d1"))
    with pytest.raises(InputError, match="^embedder:"):
        EmbeddingRetriever(TOY, object())


def test_collisions_are_the_pairs_explain_flags():
    # a small table (64 slots) makes collisions common; explain() flags them one pair at a time
    corpus = load_corpus()
    small = EmbeddingRetriever(corpus, HashingEmbedder(dim=64))
    queries = [q.text for q in corpus.questions[:6]]
    flagged = [(q, p.id) for q in queries for p in corpus.passages
               if any("collision" in note for note in small.explain(q, p.id).notes)]
    assert flagged and len(flagged) < len(queries) * len(corpus.passages)
    assert small.collisions(queries) == flagged
    assert small.collisions(iter(queries[:2])) == [f for f in flagged if f[0] in queries[:2]]
    assert EmbeddingRetriever(TOY, HashingEmbedder(dim=4096)).collisions(["cats chase"]) == []
    with pytest.raises(InputError, match="^queries:"):
        small.collisions("cats chase")
    with pytest.raises(InputError, match="^embedder:"):
        class Letters:
            def embed(self, texts):
                return [[float(len(t)), 1.0] for t in texts]
        EmbeddingRetriever(TOY, Letters()).collisions(["cats"])


def test_evaluate_retriever_equals_the_metrics_on_the_verdict_list():
    corpus = load_corpus()
    for retriever in (BM25Retriever(corpus), EmbeddingRetriever(corpus)):
        rows = evaluate_retriever(retriever, corpus.questions, k=5)
        assert [r["question"] for r in rows] == [q.id for q in corpus.questions]
        for row, q in zip(rows, corpus.questions, strict=True):
            assert row["retrieved"] == [h[0] for h in retriever.search(q.text, 5)]
            grades = [q.qrels.get(pid, 0) for pid in row["retrieved"]]
            verdicts = [1 if g >= 1 else 0 for g in grades]
            assert row["grades"] == grades and row["verdicts"] == verdicts
            total = sum(1 for g in q.qrels.values() if g >= 1)
            assert row["total_relevant"] == total
            assert row["context_precision"] == metrics.context_precision(verdicts).score
            assert row["average_precision"] == metrics.average_precision(verdicts, total_relevant=total).score
            assert row["recall_at_k"] == metrics.recall_at_k(verdicts, k=5, total_relevant=total).score
            assert row["reciprocal_rank"] == metrics.reciprocal_rank(verdicts).score
            ideal = sorted(q.qrels.values(), reverse=True)
            assert row["ndcg_at_k"] == metrics.ndcg_at_k(grades, k=5, ideal=ideal).score
        means = mean_scores(rows)
        assert set(means) == set(MEASURES)
        assert means["recall_at_k"] == pytest.approx(sum(r["recall_at_k"] for r in rows) / len(rows))


def test_evaluate_retriever_rejects_bad_input_by_name():
    corpus = load_corpus()
    bm = BM25Retriever(corpus)
    with pytest.raises(InputError, match="^retriever:"):
        evaluate_retriever(object(), corpus.questions)
    with pytest.raises(InputError, match=r"^questions\[0\]"):
        evaluate_retriever(bm, ["What is a desert?"])
    with pytest.raises(InputError, match="^k:"):
        evaluate_retriever(bm, corpus.questions, k=0)
    q = Question("x", "mice", {"d1": 2})
    assert evaluate_retriever(BM25Retriever(TOY), [q], k=2)[0]["reciprocal_rank"] == 1.0


def test_corpus_integrity():
    corpus = load_corpus()
    ids = [p.id for p in corpus.passages]
    assert len(ids) == len(set(ids)) and len(ids) >= 60
    assert all(isinstance(p, Passage) and p.text.strip() for p in corpus.passages)
    assert len(corpus.questions) >= 50
    assert len({q.id for q in corpus.questions}) == len(corpus.questions)
    for q in corpus.questions:
        assert set(q.qrels) <= set(ids), q.id
        assert set(q.qrels.values()) <= {1, 2}, q.id
        assert q.judged is not None and set(q.judged) <= set(ids) and set(q.qrels) <= set(q.judged), q.id
        assert q.kind in {"lexical", "synonym", "paraphrase", "none"}, q.id
        assert (q.kind == "none") == (q.total_relevant == 0), q.id
        if q.total_relevant:
            assert 2 in q.qrels.values(), q.id
    assert sum(q.kind == "none" for q in corpus.questions) >= 3
    assert sum(q.total_relevant >= 3 for q in corpus.questions) >= 5  # several relevant passages
    assert "language model" in corpus.about and "written for" in corpus.about.lower()  # who graded, named honestly
    assert any("health benefits of exercise" in q.text for q in corpus.questions)
    assert corpus.pooling["k"] == 10 and len(corpus.pooling["systems"]) == 2
    assert "grade 0" in corpus.pooling["unjudged"]


#: The first twelve questions' judgements as notebook 09 shipped them before the lab grew (40 passages).
ORIGINAL_QRELS = {
    "q01": {"exe-01": 2, "exe-02": 2, "exe-04": 2, "exe-07": 2, "exe-03": 1, "exe-06": 1},
    "q02": {"exe-02": 2, "exe-03": 1}, "q03": {"sun-02": 2}, "q04": {"sun-04": 2, "sun-06": 1},
    "q05": {"des-02": 2, "des-03": 1}, "q06": {"des-04": 2, "des-05": 2}, "q07": {"tea-02": 2, "tea-07": 1},
    "q08": {"tea-03": 2, "tea-06": 1}, "q09": {"bld-06": 2}, "q10": {"bld-04": 2, "bld-01": 1},
    "q11": {"cmp-02": 2, "cmp-01": 1}, "q12": {"cmp-03": 2, "cmp-04": 1},
}


#: How many passages each topic had then (exe-01 .. exe-08 and so on).
ORIGINAL_PASSAGES = {"exe": 8, "sun": 7, "des": 6, "tea": 7, "bld": 6, "cmp": 6}


def _original(passage_id):
    topic, number = passage_id.split("-")
    return int(number) <= ORIGINAL_PASSAGES.get(topic, 0)


def test_the_first_twelve_questions_keep_their_judgements():
    corpus = load_corpus()
    assert sum(_original(p.id) for p in corpus.passages) == 40
    for qid, qrels in ORIGINAL_QRELS.items():
        q = corpus.question(qid)
        assert {p: g for p, g in q.qrels.items() if _original(p)} == qrels, qid  # new grades only for new passages


def test_judged_lists_are_checked_and_unjudged_passages_are_listed():
    base = {"passages": [{"id": "p1", "text": "A text."}, {"id": "p2", "text": "Another."}],
            "questions": [{"id": "q", "text": "?", "qrels": {"p1": 2}, "judged": ["p1"]}]}
    corpus = corpus_from_dict(base)
    assert corpus.question("q").judged == ("p1",) and corpus.unjudged(corpus.question("q")) == ["p2"]
    no_list = corpus_from_dict({**base, "questions": [{"id": "q", "text": "?", "qrels": {"p1": 2}}]})
    assert no_list.question("q").judged is None and no_list.unjudged(no_list.question("q")) == []
    for judged, message in ((["p2"], "every passage graded"), (["p9", "p1"], "ids of passages"),
                            (["p1", "p1"], "distinct"), ("p1", "distinct")):
        bad = {**base, "questions": [{"id": "q", "text": "?", "qrels": {"p1": 2}, "judged": judged}]}
        with pytest.raises(InputError, match=message):
            corpus_from_dict(bad)
    with pytest.raises(InputError, match="pooling"):
        corpus_from_dict({**base, "pooling": "top 10"})


def test_corpus_checks_name_the_bad_field():
    good = {"passages": [{"id": "p1", "text": "A text."}], "questions": [{"id": "q", "text": "?", "qrels": {"p1": 2}}]}
    assert corpus_from_dict(good).question("q").relevant_ids == ["p1"]
    bad_id = {**good, "questions": [{"id": "q", "text": "?", "qrels": {"p9": 2}}]}
    with pytest.raises(InputError, match=r"questions\[0\]\.qrels\['p9'\]"):
        corpus_from_dict(bad_id)
    bad_grade = {**good, "questions": [{"id": "q", "text": "?", "qrels": {"p1": 3}}]}
    with pytest.raises(InputError, match="grade 1"):
        corpus_from_dict(bad_grade)
    duplicate = {**good, "passages": good["passages"] * 2}
    with pytest.raises(InputError, match=r"passages\[1\]\.id"):
        corpus_from_dict(duplicate)


def test_embedding_search_scores_equal_cosine_parts():
    from ragmetrics_edu.embeddings import cosine_parts

    corpus = load_corpus()
    er = EmbeddingRetriever(corpus, min_score=None)
    question = corpus.questions[0].text
    q = er.embedder.embed([question])[0]
    hits = dict(er.search(question, k=len(corpus.passages)))
    assert len(hits) == len(corpus.passages)
    for p in corpus.passages:
        assert hits[p.id] == cosine_parts(q, er.vectors[p.id])[3]
