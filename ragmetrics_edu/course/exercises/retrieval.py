"""Exercises of notebook 09 (evaluate a retriever): BM25's idf, recall@k and graded nDCG."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from ... import metrics
from ...embeddings.recorded import RecordedEmbedder
from ...retrieval.comparison import compare_retrievers
from ...retrieval.corpus import load_corpus
from ...retrieval.retrievers import BM25Retriever, EmbeddingRetriever, evaluate_retriever
from . import Exercise, close, register

IDF_TERM = "caffeine"
RECALL_QUESTION = "q01"
NDCG_QUESTION = "q11"


@lru_cache(maxsize=1)
def _bm25():
    return BM25Retriever(load_corpus())


def _row(question_id: str) -> dict[str, Any]:
    bm = _bm25()
    question = next(q for q in _questions() if q.id == question_id)
    return evaluate_retriever(bm, [question], k=5)[0]


@lru_cache(maxsize=1)
def _questions():
    return tuple(load_corpus().questions)



def _diagnose_idf(given: Any, correct: float) -> str | None:
    bm = _bm25()
    n, big_n = bm.df[IDF_TERM], bm.n_docs
    if close(given, math.log((big_n - n + 0.5) / (n + 0.5))):
        return ("That is the classic Robertson–Spärck Jones idf, ln((N − n + 0.5)/(n + 0.5)). The retriever "
                "adds 1 inside the logarithm (Lucene's form), so a term in most passages never gets a negative idf.")
    if close(given, math.log10(1 + (big_n - n + 0.5) / (n + 0.5))):
        return "Right formula, wrong logarithm: BM25 here uses the natural logarithm (math.log), not log10."
    if close(given, math.log(big_n / n)):
        return "ln(N/n) is the plain idf of TF-IDF; BM25's idf adds 0.5 to the counts and 1 inside the logarithm."
    return None


def _diagnose_recall(given: Any, correct: float) -> str | None:
    row = _row(RECALL_QUESTION)
    hits, retrieved = row["relevant_retrieved"], len(row["retrieved"])
    if close(given, hits / 5):
        return f"That is precision@5 ({hits} relevant out of 5 places). Recall divides by the relevant passages in the qrels."
    if retrieved and close(given, hits / retrieved):
        return (f"You divided by the {retrieved} passages BM25 returned. Recall divides by every relevant "
                f"passage in the qrels ({row['total_relevant']}), found or not.")
    if hits and close(given, 1.0):
        return "Recall is not 'share of retrieved relevant passages among themselves': divide by all relevant passages."
    return None


def _diagnose_ndcg(given: Any, correct: float) -> str | None:
    row = _row(NDCG_QUESTION)
    question = next(q for q in _questions() if q.id == NDCG_QUESTION)
    binary = metrics.ndcg_at_k(row["verdicts"], k=5, ideal=[1] * question.total_relevant).score
    if close(given, binary):
        return "You used 0/1 gains. Here the gains are the grades (2 = answers it, 1 = partly relevant)."
    exp_gains = [2 ** g - 1 for g in row["grades"]]
    exp_ideal = [2 ** g - 1 for g in question.ideal_gains]
    if close(given, metrics.ndcg_at_k(exp_gains, k=5, ideal=exp_ideal).score):
        return ("You used the exponential gain 2^grade − 1 (as some toolkits do). This course uses the grade "
                "itself as the gain.")
    own = metrics.ndcg_at_k(row["grades"], k=5).score
    if own != correct and close(given, own):
        return "Your ideal ranking used only the retrieved grades; the ideal comes from every grade in the qrels."
    return None


register(
    Exercise(
        id="ret-1",
        question=(f"In the course corpus, what is BM25's idf of the term '{IDF_TERM}'? "
                  "(A BM25Retriever's df[term] counts the passages holding it; n_docs is N.)"),
        answer=lambda: _bm25().idf(IDF_TERM),
        hint="idf(t) = ln(1 + (N − n + 0.5) / (n + 0.5)), with n the passages containing t and N all passages.",
        explanation="The term is in few of the passages, so its idf is high: a match on it says a lot.",
        diagnose=_diagnose_idf,
    ),
    Exercise(
        id="ret-2",
        question=(f"BM25 on question {RECALL_QUESTION} ('What are the health benefits of exercise?'), k = 5: "
                  "what is recall@5?"),
        answer=lambda: _row(RECALL_QUESTION)["recall_at_k"],
        hint="Relevant passages in the top 5, divided by every passage the qrels mark relevant (grade 1 or 2).",
        explanation=("BM25 finds few of the relevant passages: most of them are worded without "
                     "'exercise', 'health' or 'benefit', so they share no term with the question."),
        diagnose=_diagnose_recall,
    ),
    Exercise(
        id="ret-3",
        question=(f"BM25 on question {NDCG_QUESTION} ('Who wrote the first computer program?'), k = 5: "
                  "what is nDCG@5 with the grades as gains and the ideal ranking taken from all the qrels?"),
        answer=lambda: _row(NDCG_QUESTION)["ndcg_at_k"],
        hint="DCG = sum of grade / log2(rank + 1) over the top 5; IDCG = the same for the qrels' grades sorted high to low.",
        explanation=("BM25 puts Grace Hopper's compiler passage (grade 0: 'wrote', 'first', 'program') first, "
                     "so the passage that answers (grade 2) comes second and the partly relevant one fifth; "
                     "both lose discount against the ideal order 2, 1."),
        diagnose=_diagnose_ndcg,
    ),
)


# --- judgement: predict, then check, whether a difference survives fewer questions --------------

FEW_QUESTIONS = 12
FEW_MEASURE = "reciprocal_rank"
FEW_K = 5


@lru_cache(maxsize=1)
def few_questions_comparison() -> dict[str, Any]:
    """BM25 against the recorded MiniLM retriever on the first FEW_QUESTIONS answerable questions."""
    corpus = load_corpus()
    few = [q for q in corpus.questions if q.total_relevant][:FEW_QUESTIONS]
    dense = EmbeddingRetriever(corpus, RecordedEmbedder(), min_score=None)
    rows_bm25, rows_dense = (evaluate_retriever(r, few, k=FEW_K) for r in (_bm25(), dense))
    return compare_retrievers(rows_bm25, rows_dense, FEW_MEASURE, labels=("BM25", "MiniLM"))


def _few_significant() -> bool:
    return bool(few_questions_comparison()["permutation"].p_value < 0.05)


def permutation_floor(nonzero: int) -> float:
    """The smallest two-sided p an exact sign-flip test can give with ``nonzero`` non-tied questions: 2/2^m.

    The observed signs and their mirror image are always at least as extreme as the observation."""
    return min(1.0, 2 / 2 ** nonzero) if nonzero else 1.0


def _diagnose_few(given: Any, correct: bool) -> str | None:
    if not isinstance(given, bool):
        return None
    c = few_questions_comparison()
    low, high = c["paired_bootstrap"].ci
    p = c["permutation"].p_value
    m = c["permutation"].values["nonzero_pairs"]
    floor = permutation_floor(m)
    facts = (f"On {FEW_QUESTIONS} questions the mean difference in reciprocal rank is {c['paired_bootstrap'].score:+.3f} "
             f"(paired bootstrap interval [{low:+.3f}, {high:+.3f}]) and the permutation test gives p = {p:.4f}. "
             f"The two systems differ on only m = {m} of the {FEW_QUESTIONS} questions; a tie has nothing to flip, "
             f"so the exact test has 2^{m} = {2 ** m} sign patterns and no p below 2/2^{m} = {floor:.4f}.")
    interval_clear = not low <= 0 <= high
    if p >= 0.05:
        if floor >= 0.05:
            why = (" That floor is not below 0.05: with this few differing questions the test cannot reach 5%, "
                   "however large the differences.")
        else:
            why = " p is not below 0.05: the differences are not consistent enough for the test."
        if interval_clear:
            why += (" The bootstrap interval does leave out 0, but a percentile interval on fewer than about 30 "
                    "questions is too narrow (it holds the true difference less often than its level says).")
        return facts + why + " Neither settles it on a dozen questions: score more before you conclude."
    return facts + " p is below 0.05: the difference is consistent enough to show even on this few questions."


register(
    Exercise(
        id="ret-4",
        question=(f"Predict, then check. Take only the first {FEW_QUESTIONS} answerable questions and compare BM25 with "
                  f"MiniLM on reciprocal rank at k = {FEW_K} (retrieval_comparison.compare_retrievers). Is the "
                  "difference significant at the 5% level by the paired permutation test (p < 0.05)? "
                  "(True or False)"),
        answer=_few_significant, kind="bool",
        hint=("Run evaluate_retriever for both retrievers on answerable[:12], then compare_retrievers(..., "
              "'reciprocal_rank'); read the permutation test's p-value and values['nonzero_pairs'] (m, the "
              "questions where the two differ): the exact test can give no p below 2/2^m."),
        explanation=("On a dozen questions the tools disagree: the exact permutation test cannot go below 2/2^m "
                     "(m = the questions where the systems differ), and a percentile bootstrap interval on fewer "
                     "than about 30 questions is too narrow. Report the interval and m, and score a few dozen "
                     "questions before you conclude."),
        diagnose=_diagnose_few,
    ),
)
