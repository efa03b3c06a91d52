"""Classic ranking measures, to set beside context precision.

Each returns a :class:`MetricResult` whose step table has one row per rank k (one per query
for the means over queries: MRR, MAP, hit rate@k), so a notebook can print them side by side
with context precision's per-k terms.
Relevance is 0/1 (yes/no, bools) except for nDCG, which also takes graded gains.
The cut-off and empty-list conventions follow trec_eval (``trec_eval/m_P.c``, ``m_recall.c``,
``m_map.c``, ``m_recip_rank.c``, ``m_ndcg_cut.c``, ``m_success.c``, ``m_Rprec.c``), except
where a docstring says otherwise.

Each function checks its input (:mod:`.checks`), calls its core (:mod:`ragmetrics_edu.cores`, the arithmetic:
``metrics.show_code(name)`` shows it) and builds the result (:mod:`.measures_explained`).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import computed_by
from ..cores import hit_at_k as hit_core
from ..cores import hit_rate_at_k as hit_rate_core
from ..cores import mean_average_precision as map_core
from ..cores import mean_reciprocal_rank as mrr_core
from ..cores import ndcg_at_k as ndcg_core
from ..cores import precision_at_k as precision_core
from ..cores import r_precision as r_precision_core
from ..cores import recall_at_k as recall_core
from ..cores import reciprocal_rank as rr_core
from ..results import MetricResult
from . import checks
from . import measures_explained as explained

__all__ = ["hit_at_k", "hit_rate_at_k", "mean_average_precision", "mean_reciprocal_rank",
           "ndcg_at_k", "precision_at_k", "r_precision", "recall_at_k", "reciprocal_rank"]


@computed_by("precision_at_k")
def precision_at_k(relevance: Sequence[Any], k: int | None = None) -> MetricResult:
    """Relevant items among the first k, divided by k (k defaults to the list length).

    A cut-off beyond the list counts the missing positions as not relevant."""
    r, k = checks.ranked(relevance, k)
    score, rows, values = precision_core.precision_at_k(r, k)
    return explained.precision_at_k_result(score, rows, values, r)


@computed_by("recall_at_k")
def recall_at_k(relevance: Sequence[Any], k: int | None = None, total_relevant: int | None = None) -> MetricResult:
    """Relevant items among the first k, divided by all relevant items.

    ``total_relevant`` is the number in the whole corpus; it defaults to those in the list.
    No relevant item at all gives 0."""
    r, k = checks.ranked(relevance, k)
    R_total = checks.total_relevant_of(total_relevant, r)
    score, rows, values = recall_core.recall_at_k(r, k, R_total)
    return explained.recall_at_k_result(score, rows, values, r, assumed=total_relevant is None)


@computed_by("reciprocal_rank")
def reciprocal_rank(relevance: Sequence[Any]) -> MetricResult:
    """1 / rank of the first relevant item; 0 when none is relevant."""
    r = checks.relevance_flags(relevance)
    score, rows, values = rr_core.reciprocal_rank(r)
    return explained.reciprocal_rank_result(score, rows, values, r)


@computed_by("mean_reciprocal_rank")
def mean_reciprocal_rank(queries: Sequence[Sequence[Any]]) -> MetricResult:
    """Mean of the reciprocal ranks over several queries (one row per query)."""
    score, rows, values = mrr_core.mean_reciprocal_rank(checks.query_lists(queries))
    return explained.mean_reciprocal_rank_result(score, rows, values)


@computed_by("mean_average_precision")
def mean_average_precision(queries: Sequence[Sequence[Any]], total_relevant: Sequence[Any] | None = None,
                           *, no_relevant: str = "skip") -> MetricResult:
    """MAP: the mean over queries of each query's average precision (one row per query).

    ``total_relevant``: one count per query, the relevant documents in the corpus (an item
    ``None`` takes that query's relevant documents retrieved, as :func:`average_precision`).
    A query whose relevant documents were all missed has AP = 0 and counts in the mean
    (trec_eval ``m_map.c`` does the same). A query with ``total_relevant`` 0 has no relevant
    document at all, so its AP is 0/0: with ``no_relevant="skip"`` (the default) it is left out
    of the mean, as trec_eval leaves out a query that has no entry in its qrels (TREC drops
    topics without relevant documents); with ``no_relevant="zero"`` it counts as AP = 0, as
    trec_eval does for a query whose judgements are all non-relevant. A query whose count is
    not given is never skipped: nothing says it has no relevant document. No query counted
    gives MAP = 0."""
    queries, totals, no_relevant = checks.map_totals(queries, total_relevant, no_relevant)
    score, rows, values = map_core.mean_average_precision(queries, totals, no_relevant)
    return explained.mean_average_precision_result(score, rows, values, queries, totals, no_relevant)


@computed_by("hit_at_k")
def hit_at_k(relevance: Sequence[Any], k: int | None = None) -> MetricResult:
    """1 if at least one relevant item is in the top k, else 0 (k defaults to the list length).

    trec_eval calls it ``success`` (``m_success.c``); an empty list has no hit."""
    r, k = checks.ranked(relevance, k)
    score, rows, values = hit_core.hit_at_k(r, k)
    return explained.hit_at_k_result(score, rows, values, r)


@computed_by("hit_rate_at_k")
def hit_rate_at_k(queries: Sequence[Sequence[Any]], k: int | None = None) -> MetricResult:
    """Share of queries with at least one relevant item in their top k (one row per query).

    ``k=None`` means each query's whole list. Every query counts, also one with nothing
    relevant (hit 0), as trec_eval's ``success`` averaged over queries. No query gives 0."""
    flags = checks.query_lists(queries)
    score, rows, values = hit_rate_core.hit_rate_at_k(flags, None if k is None else checks.cutoff(k, 0))
    return explained.hit_rate_at_k_result(score, rows, values, flags)


@computed_by("r_precision")
def r_precision(relevance: Sequence[Any], total_relevant: int | None = None) -> MetricResult:
    """Precision at rank R, where R = ``total_relevant``, the relevant documents in the corpus.

    ``total_relevant`` defaults to the relevant items in the list. When fewer than R items were
    retrieved, the missing ranks count as not relevant (trec_eval ``m_Rprec.c`` divides by R
    too). At rank R precision equals recall, so R-precision = precision@R = recall@R.
    R = 0 (nothing relevant) gives 0, as trec_eval."""
    r = checks.relevance_flags(relevance)
    R = checks.total_relevant_of(total_relevant, r)
    score, rows, values = r_precision_core.r_precision(r, R)
    return explained.r_precision_result(score, rows, values, r, assumed=total_relevant is None)


@computed_by("ndcg_at_k")
def ndcg_at_k(relevance: Sequence[Any], k: int | None = None, ideal: Sequence[Any] | None = None,
              *, gain: str = "linear") -> MetricResult:
    """Normalised discounted cumulative gain: sum of gain_i / log2(i + 1), over the ideal's.

    ``gain="linear"`` uses the relevance grade itself, as trec_eval does (``m_ndcg_cut.c``);
    ``gain="exponential"`` uses 2^rel - 1, as ranx's ``ndcg_burges`` (``ranx/metrics/ndcg.py``).
    ``k=None`` means k = the list's length, and the ideal is cut there too: trec_eval's uncut
    ``ndcg`` (``m_ndcg.c``) sums the whole ideal instead, so ``ndcg_at_k([1], ideal=[1, 1])`` is
    1.0 here and 0.613 there. The ideal ranking sorts the list's own gains, or ``ideal`` (the
    grades of every relevant document in the corpus), which must cover the list's gains.
    No gain at all gives 0. Grades are at most 1e12 (linear) or 100 (exponential) so that the
    sums stay finite."""
    grades, ideal_grades, cut, gain = checks.ndcg_inputs(relevance, k, ideal, gain)
    score, rows, values = ndcg_core.ndcg_at_k(grades, ideal_grades, cut, gain)
    ideal_shown = grades if ideal_grades is None else ideal_grades  # for the step table's notes
    return explained.ndcg_at_k_result(score, rows, values, grades, ideal_shown, gain, uncut_k=k is None)
