"""Classic ranking measures, to set beside context precision.

Each returns a :class:`MetricResult` whose step table has one row per rank k, so a
notebook can print them side by side with context precision's per-k terms.
Relevance is 0/1 (yes/no, bools) except for nDCG, which also takes graded gains.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from .errors import InputError
from .results import MetricResult, fmt
from .validate import YES, one_verdict, positive_int, verdict_list


def _flags(relevance: Sequence[Any]) -> list[int]:
    return [1 if v == YES else 0 for v in verdict_list("relevance", relevance)]


def _cutoff(k: Any, n: int) -> int:
    if k is None:
        return n
    return positive_int("k", k, allow_none=False)


def _cumulative(flags: list[int]) -> list[dict[str, Any]]:
    rows, seen = [], 0
    for k, r in enumerate(flags, 1):
        seen += r
        rows.append({"k": k, "relevant": r, "relevant_so_far": seen})
    return rows


def precision_at_k(relevance: Sequence[Any], k: int | None = None) -> MetricResult:
    """Relevant items among the first k, divided by k (k defaults to the list length).

    A cut-off beyond the list counts the missing positions as not relevant."""
    flags = _flags(relevance)
    k = _cutoff(k, len(flags))
    rows = _cumulative(flags)
    for row in rows:
        row["precision_at_k"] = row["relevant_so_far"] / row["k"]
    hits = sum(flags[:k])
    score = hits / k if k else 0.0
    notes = ["Empty list: precision@k is 0."] if not flags else []
    return MetricResult(
        metric="precision_at_k", variant=f"k={k}", score=score,
        columns=("k", "relevant", "relevant_so_far", "precision_at_k"), rows=rows,
        values={"k": k, "relevant_in_top_k": hits},
        formula=rf"P@{k} = \frac{{{hits}}}{{{k}}} = {fmt(score)}", formula_general=r"P@k = \frac{\mathrm{rel}(1..k)}{k}",
        narrative=[f"Count relevant items in the top {k}: {hits}.", f"Divide by k = {k}: {fmt(score)}."],
        notes=notes, inputs={"relevance": flags},
    )


def recall_at_k(relevance: Sequence[Any], k: int | None = None, total_relevant: int | None = None) -> MetricResult:
    """Relevant items among the first k, divided by all relevant items.

    ``total_relevant`` is the number in the whole corpus; it defaults to those in the list.
    No relevant item at all gives 0."""
    flags = _flags(relevance)
    k = _cutoff(k, len(flags))
    notes = []
    if total_relevant is None:
        total_relevant = sum(flags)
        notes.append(f"total_relevant not given: taken as the {total_relevant} relevant items in the list.")
    total_relevant = positive_int("total_relevant", total_relevant, allow_none=False, minimum=0)
    if total_relevant < sum(flags):
        raise InputError("total_relevant", f"at least the {sum(flags)} relevant items in the list", total_relevant)
    rows = _cumulative(flags)
    for row in rows:
        row["recall_at_k"] = row["relevant_so_far"] / total_relevant if total_relevant else 0.0
    hits = sum(flags[:k])
    score = hits / total_relevant if total_relevant else 0.0
    if not total_relevant:
        notes.append("There is no relevant item: recall@k is defined as 0.")
    return MetricResult(
        metric="recall_at_k", variant=f"k={k}", score=score,
        columns=("k", "relevant", "relevant_so_far", "recall_at_k"), rows=rows,
        values={"k": k, "relevant_in_top_k": hits, "total_relevant": total_relevant},
        formula=rf"R@{k} = \frac{{{hits}}}{{{total_relevant}}} = {fmt(score)}",
        formula_general=r"R@k = \frac{\mathrm{rel}(1..k)}{R_{\mathrm{total}}}",
        narrative=[f"Count relevant items in the top {k}: {hits}.", f"Divide by all relevant items, {total_relevant}."],
        notes=notes, inputs={"relevance": flags},
    )


def average_precision(relevance: Sequence[Any], total_relevant: int | None = None) -> MetricResult:
    """Classic average precision: the per-k terms of context precision over ``total_relevant``."""
    from .metrics.context_precision import context_precision

    result = context_precision(relevance, "average_precision", total_relevant=total_relevant)
    result.metric, result.variant = "average_precision", None
    return result


def reciprocal_rank(relevance: Sequence[Any]) -> MetricResult:
    """1 / rank of the first relevant item; 0 when none is relevant."""
    flags = _flags(relevance)
    rows = _cumulative(flags)
    first = next((r["k"] for r in rows if r["relevant"]), None)
    for row in rows:
        row["first_relevant"] = int(row["k"] == first)
    score = 1 / first if first else 0.0
    notes = [] if first else ["No relevant item: the reciprocal rank is 0."]
    return MetricResult(
        metric="reciprocal_rank", score=score, columns=("k", "relevant", "relevant_so_far", "first_relevant"), rows=rows,
        values={"first_relevant_rank": first},
        formula=rf"RR = \frac{{1}}{{{first}}} = {fmt(score)}" if first else r"RR = 0",
        formula_general=r"RR = \frac{1}{\mathrm{rank\ of\ first\ relevant}}",
        narrative=["Find the first relevant item" + (f": rank {first}." if first else ": there is none."),
                   f"Reciprocal rank = {fmt(score)}."],
        notes=notes, inputs={"relevance": flags},
    )


def mean_reciprocal_rank(queries: Sequence[Sequence[Any]]) -> MetricResult:
    """Mean of the reciprocal ranks over several queries (one row per query)."""
    if isinstance(queries, (str, bytes)) or not isinstance(queries, Sequence):
        raise InputError("queries", "a list of relevance lists, one per query", queries)
    rows = []
    for q, rel in enumerate(queries, 1):
        rr = reciprocal_rank(rel)
        rows.append({"query": q, "first_relevant_rank": rr.values["first_relevant_rank"], "reciprocal_rank": rr.score})
    score = math.fsum(r["reciprocal_rank"] for r in rows) / len(rows) if rows else 0.0
    terms = " + ".join(fmt(r["reciprocal_rank"]) for r in rows) or "0"
    return MetricResult(
        metric="mean_reciprocal_rank", score=score, columns=("query", "first_relevant_rank", "reciprocal_rank"),
        rows=rows, values={"queries": len(rows)},
        formula=rf"MRR = \frac{{1}}{{{len(rows)}}}\left({terms}\right) = {fmt(score)}" if rows else "MRR = 0",
        formula_general=r"MRR = \frac{1}{|Q|}\sum_q \frac{1}{\mathrm{rank}_q}",
        narrative=["Reciprocal rank per query, then their mean."],
        notes=[] if rows else ["No queries: MRR is 0."], inputs={},
    )


def _gains(relevance: Sequence[Any], field: str = "relevance") -> list[float]:
    if isinstance(relevance, (str, bytes)) or not isinstance(relevance, Sequence):
        raise InputError("relevance", "a list of gains (0/1, yes/no, or non-negative numbers)", relevance)
    gains = []
    for i, v in enumerate(relevance):
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0:
            gains.append(float(v))
        else:
            gains.append(1.0 if one_verdict(f"relevance[{i}]", v) == YES else 0.0)
    return gains


def ndcg_at_k(relevance: Sequence[Any], k: int | None = None, ideal: Sequence[Any] | None = None) -> MetricResult:
    """Normalised discounted cumulative gain with gain / log2(k + 1).

    The ideal ranking sorts the list's own gains (or ``ideal``, the gains of every
    relevant document in the corpus). No gain at all gives 0."""
    gains = _gains(relevance)
    k = _cutoff(k, len(gains))
    ideal_gains = sorted(_gains(ideal) if ideal is not None else gains, reverse=True)
    rows, dcg, idcg = [], 0.0, 0.0
    for pos in range(1, max(len(gains), min(k, len(ideal_gains))) + 1):
        g = gains[pos - 1] if pos <= len(gains) else 0.0
        ig = ideal_gains[pos - 1] if pos <= len(ideal_gains) else 0.0
        discount = 1 / math.log2(pos + 1)
        if pos <= k:
            dcg += g * discount
            idcg += ig * discount
        rows.append({"k": pos, "gain": g, "discount": discount, "dcg": dcg, "ideal_gain": ig, "idcg": idcg,
                     "ndcg_at_k": dcg / idcg if idcg else 0.0})
    score = dcg / idcg if idcg else 0.0
    notes = [] if idcg else ["No relevant item: nDCG is defined as 0."]
    return MetricResult(
        metric="ndcg_at_k", variant=f"k={k}", score=score,
        columns=("k", "gain", "discount", "dcg", "ideal_gain", "idcg", "ndcg_at_k"), rows=rows,
        values={"k": k, "dcg": dcg, "idcg": idcg},
        formula=rf"nDCG@{k} = \frac{{{fmt(dcg)}}}{{{fmt(idcg)}}} = {fmt(score)}",
        formula_general=r"nDCG@k = \frac{\sum_{i\le k} g_i/\log_2(i+1)}{\sum_{i\le k} g^*_i/\log_2(i+1)}",
        narrative=["Discount each gain by log2(rank + 1) and add them up (DCG).",
                   "Do the same for the ideal order (IDCG) and divide."],
        notes=notes, inputs={"relevance": gains},
    )
