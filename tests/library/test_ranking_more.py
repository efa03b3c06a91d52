"""MAP, hit rate@k and R-precision (issue 12): hand arithmetic, relations, and trec_eval.

The hand-worked values are written from the definitions; the reference test compares with
trec_eval's own code through ``pytrec_eval`` (``pip install pytrec-eval-terrier``) and is
skipped where that is not installed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics_edu import InputError, metrics, ranking
from ragmetrics_edu.cli import main

NEW = ("mean_average_precision", "hit_at_k", "hit_rate_at_k", "r_precision")


def test_the_new_measures_are_public_in_ranking_and_metrics():
    for name in NEW:
        assert name in ranking.__all__ and name in metrics.__all__
        assert getattr(metrics, name) is getattr(ranking, name)


# --- hand-worked values -------------------------------------------------------------

def test_map_by_hand():
    # query 1: relevant at ranks 1 and 3 of 3 relevant: (1/1 + 2/3) / 3 = 5/9
    # query 2: relevant at rank 2 only, 1 relevant:      (1/2) / 1     = 1/2
    # query 3: 2 relevant in the corpus, none retrieved:  0
    r = metrics.mean_average_precision([[1, 0, 1], [0, 1], [0, 0]], total_relevant=[3, 1, 2])
    assert [row["average_precision"] for row in r.rows] == pytest.approx([5 / 9, 1 / 2, 0.0])
    assert r.score == pytest.approx((5 / 9 + 1 / 2 + 0) / 3)
    assert [row["counted"] for row in r.rows] == [1, 1, 1]
    assert "MAP" in r.formula and r.columns[0] == "query"


def test_map_skips_a_query_with_no_relevant_document_by_default():
    queries, totals = [[1, 0], [0, 0]], [1, 0]
    skipped = metrics.mean_average_precision(queries, total_relevant=totals)
    assert skipped.score == pytest.approx(1.0)  # only query 1 counts: AP 1/1
    assert skipped.values["skipped"] == [2] and any("left out" in n for n in skipped.notes)
    zero = metrics.mean_average_precision(queries, total_relevant=totals, no_relevant="zero")
    assert zero.score == pytest.approx(0.5)  # (1 + 0) / 2
    # A query whose count is not given is not known to have no relevant document: it counts.
    unknown = metrics.mean_average_precision(queries)
    assert unknown.score == pytest.approx(0.5)
    assert metrics.mean_average_precision([[0]], total_relevant=[0]).score == 0.0
    assert metrics.mean_average_precision([]).score == 0.0


def test_hit_rate_by_hand():
    queries = [[0, 1, 0], [0, 0, 1], [0, 0], [1]]
    # first relevant at ranks 2, 3, none, 1
    assert metrics.hit_rate_at_k(queries, k=1).score == pytest.approx(1 / 4)
    assert metrics.hit_rate_at_k(queries, k=2).score == pytest.approx(2 / 4)
    assert metrics.hit_rate_at_k(queries, k=3).score == pytest.approx(3 / 4)
    assert metrics.hit_rate_at_k(queries).score == pytest.approx(3 / 4)
    assert [row["hit_at_k"] for row in metrics.hit_rate_at_k(queries, k=2).rows] == [1, 0, 0, 1]
    assert metrics.hit_at_k([0, 0, 1], k=2).score == 0.0
    assert metrics.hit_at_k([0, 0, 1], k=3).score == 1.0
    assert metrics.hit_at_k([]).score == 0.0
    assert metrics.hit_rate_at_k([]).score == 0.0


def test_r_precision_by_hand():
    # R = 4: the top 4 of [1, 0, 1, 1, 1] hold 3 relevant -> 3/4
    assert metrics.r_precision([1, 0, 1, 1, 1], total_relevant=4).score == pytest.approx(3 / 4)
    # only 3 retrieved but R = 4: rank 4 is missing and counts as not relevant -> 2/4
    short = metrics.r_precision([1, 0, 1], total_relevant=4)
    assert short.score == pytest.approx(2 / 4)
    assert [row["retrieved"] for row in short.rows] == [1, 1, 1, 0]
    assert any("not relevant" in n for n in short.notes)
    # R defaults to the relevant items in the list: R = 2, top 2 of [0, 1, 1] -> 1/2
    assert metrics.r_precision([0, 1, 1]).score == pytest.approx(1 / 2)
    assert metrics.r_precision([0, 0], total_relevant=0).score == 0.0


@pytest.mark.parametrize("call, field", [
    (lambda: metrics.mean_average_precision("abc"), "queries"),
    (lambda: metrics.mean_average_precision([[1], [2]]), "queries[1][0]"),
    (lambda: metrics.mean_average_precision([[1]], total_relevant=[1, 2]), "total_relevant"),
    (lambda: metrics.mean_average_precision([[1, 1]], total_relevant=[1]), "total_relevant[0]"),
    (lambda: metrics.mean_average_precision([[1]], no_relevant="drop"), "no_relevant"),
    (lambda: metrics.hit_rate_at_k([[1]], k=0), "k"),
    (lambda: metrics.hit_rate_at_k([[1], "x"], k=1), "queries[1]"),
    (lambda: metrics.hit_at_k([1], k=1.5), "k"),
    (lambda: metrics.r_precision([1, 1], total_relevant=1), "total_relevant"),
    (lambda: metrics.r_precision([1], total_relevant=-1), "total_relevant"),
])
def test_bad_input_names_the_field(call, field):
    with pytest.raises(InputError) as err:
        call()
    assert err.value.field == field


def test_cli_scores_hit_at_k_and_r_precision(capsys):
    assert main(["score", "r_precision", "1", "0", "1", "--total-relevant", "4"]) == 0
    assert "score: 0.5" in capsys.readouterr().out  # 2 relevant in the top R = 4
    assert main(["score", "hit_at_k", "0", "0", "1", "--k", "2"]) == 0
    assert "score: 0" in capsys.readouterr().out


# --- relations that must hold ----------------------------------------------------------

rankings = st.lists(st.integers(0, 1), max_size=12)


@settings(max_examples=200, deadline=None)
@given(rel=rankings, extra=st.integers(0, 5))
def test_map_of_one_query_is_its_average_precision(rel, extra):
    total = sum(rel) + extra
    one = metrics.mean_average_precision([rel], total_relevant=[total], no_relevant="zero")
    assert one.score == pytest.approx(metrics.average_precision(rel, total_relevant=total).score)


@settings(max_examples=200, deadline=None)
@given(rel=rankings, extra=st.integers(0, 5))
def test_r_precision_is_precision_and_recall_at_r(rel, extra):
    r = sum(rel) + extra
    got = metrics.r_precision(rel, total_relevant=r).score
    if r == 0:
        assert got == 0.0
        return
    assert got == pytest.approx(metrics.precision_at_k(rel, k=r).score)
    assert got == pytest.approx(metrics.recall_at_k(rel, k=r, total_relevant=r).score)


@settings(max_examples=200, deadline=None)
@given(queries=st.lists(rankings, max_size=6), k=st.integers(1, 12))
def test_hit_rate_never_falls_as_k_grows(queries, k):
    assert metrics.hit_rate_at_k(queries, k=k).score <= metrics.hit_rate_at_k(queries, k=k + 1).score
    assert metrics.hit_rate_at_k(queries, k=k).score == pytest.approx(
        sum(metrics.hit_at_k(q, k=k).score for q in queries) / len(queries) if queries else 0.0)


# --- trec_eval, through pytrec_eval ----------------------------------------------------

def _trec(queries, totals, k):
    """Per-query map, Rprec and success@k from trec_eval for lists of 0/1 flags."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = {}, {}
    for q, (rel, total) in enumerate(zip(queries, totals, strict=True)):
        qid = f"q{q}"
        qrels[qid] = {f"d{i}": r for i, r in enumerate(rel)}
        for extra in range(total - sum(rel)):  # relevant documents that were not retrieved
            qrels[qid][f"missed{extra}"] = 1
        # pytrec_eval ranks by score (ties broken by document id): give strictly falling scores
        run[qid] = {f"d{i}": float(len(rel) - i) for i in range(len(rel))} or {"nothing": 0.0}
        if not rel:
            qrels[qid]["nothing"] = 0
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"map", "Rprec", f"success.{k}"})
    return [evaluator.evaluate(run)[f"q{q}"] for q in range(len(queries))]


def test_against_trec_eval_on_random_rankings():
    pytest.importorskip("pytrec_eval")
    rng = random.Random(12)
    for _ in range(300):
        n_q = rng.randint(1, 5)
        queries = [[int(rng.random() < 0.3) for _ in range(rng.randint(0, 8))] for _ in range(n_q)]
        totals = [sum(rel) + rng.choice([0, 0, 1, 3]) for rel in queries]
        k = rng.randint(1, 6)
        ref = _trec(queries, totals, k)
        for rel, total, want in zip(queries, totals, ref, strict=True):
            assert metrics.r_precision(rel, total_relevant=total).score == pytest.approx(want["Rprec"], abs=1e-12)
            assert metrics.hit_at_k(rel, k=k).score == want[f"success_{k}"]
        # trec_eval averages AP over the queries it evaluates; a query with judgements but
        # none relevant counts 0 there ("zero"); leaving it out of the qrels skips it ("skip").
        zero = metrics.mean_average_precision(queries, total_relevant=totals, no_relevant="zero")
        assert zero.score == pytest.approx(sum(w["map"] for w in ref) / n_q, abs=1e-12)
        kept = [w["map"] for w, t in zip(ref, totals, strict=True) if t]
        skip = metrics.mean_average_precision(queries, total_relevant=totals)
        assert skip.score == pytest.approx(sum(kept) / len(kept) if kept else 0.0, abs=1e-12)
        hr = metrics.hit_rate_at_k(queries, k=k)
        assert hr.score == pytest.approx(sum(w[f"success_{k}"] for w in ref) / n_q, abs=1e-12)


# --- exercise rank-5 (notebook 08) --------------------------------------------------------

def test_map_exercise_accepts_the_hand_value_and_names_each_slip():
    from ragmetrics_edu.course import exercises

    # AP = (1/3)/1, (1/1 + 2/4)/3 and 0 (relevant documents missed): MAP = (1/3 + 1/2 + 0)/3 = 5/18
    assert exercises.check("rank-5", 5 / 18).correct
    assert exercises.check("rank-5", "5/18").correct
    slips = {(1 / 3 + 1 / 2) / 2: "left out the third query",          # the missed query skipped
             (1 / 3 + 3 / 4 + 0) / 3: "relevant documents retrieved",   # AP over R retrieved
             (1 / 3 + 1 + 0) / 3: "MRR"}                                 # reciprocal ranks
    for value, words in slips.items():
        feedback = exercises.check("rank-5", round(value, 4))
        assert not feedback.correct and words in str(feedback), (value, str(feedback))
