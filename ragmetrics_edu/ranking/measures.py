"""Classic ranking measures, to set beside context precision.

Each returns a :class:`MetricResult` whose step table has one row per rank k (one per query
for the means over queries: MRR, MAP, hit rate@k), so a notebook can print them side by side
with context precision's per-k terms.
Relevance is 0/1 (yes/no, bools) except for nDCG, which also takes graded gains.
The cut-off and empty-list conventions follow trec_eval (``trec_eval/m_P.c``, ``m_recall.c``,
``m_map.c``, ``m_recip_rank.c``, ``m_ndcg_cut.c``, ``m_success.c``, ``m_Rprec.c``), except
where a docstring says otherwise.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..errors import InputError
from ..results import MetricResult, fmt
from ..validate import YES, as_list, choice, count, one_verdict, positive_int
from .precision import average_precision, relevance_flags

#: Largest gain accepted, so that sums of discounted gains stay finite floats.
MAX_LINEAR_GAIN = 1e12
MAX_EXPONENTIAL_GAIN = 100.0
GAINS = ("linear", "exponential")


def _cutoff(k: Any, n: int) -> int:
    if k is None:
        return n
    cutoff = positive_int("k", k, allow_none=False)
    assert cutoff is not None  # allow_none=False
    return cutoff


def _cumulative(flags: list[int]) -> list[dict[str, Any]]:
    rows, seen = [], 0
    for k, r in enumerate(flags, 1):
        seen += r
        rows.append({"k": k, "relevant": r, "relevant_so_far": seen})
    return rows


def precision_at_k(relevance: Sequence[Any], k: int | None = None) -> MetricResult:
    """Relevant items among the first k, divided by k (k defaults to the list length).

    A cut-off beyond the list counts the missing positions as not relevant."""
    flags = relevance_flags(relevance)
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
    flags = relevance_flags(relevance)
    k = _cutoff(k, len(flags))
    notes = []
    if total_relevant is None:
        total_relevant = sum(flags)
        notes.append(f"total_relevant not given: taken as the {total_relevant} relevant items in the list.")
    total_relevant = count("total_relevant", total_relevant)
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


def reciprocal_rank(relevance: Sequence[Any]) -> MetricResult:
    """1 / rank of the first relevant item; 0 when none is relevant."""
    return _reciprocal_rank(relevance_flags(relevance))


def _reciprocal_rank(flags: list[int]) -> MetricResult:
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
    rows = []
    for q, rel in enumerate(_query_lists(queries), 1):
        rr = _reciprocal_rank(rel)
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


def _query_lists(queries: Any) -> list[list[int]]:
    """One 0/1 list per query; the field named in an error is ``queries[i]``."""
    queries = as_list("queries", queries, "a list of relevance lists, one per query")
    return [relevance_flags(rel, f"queries[{q}]") for q, rel in enumerate(queries)]


#: What mean_average_precision does with a query known to have no relevant document.
NO_RELEVANT = ("skip", "zero")


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
    flags = _query_lists(queries)
    no_relevant = choice("no_relevant", no_relevant, NO_RELEVANT)
    if total_relevant is None:
        totals: list[Any] = [None] * len(flags)
    else:
        totals = as_list("total_relevant", total_relevant, f"None or one count per query ({len(flags)})")
        if len(totals) != len(flags):
            raise InputError("total_relevant", f"None or one count per query ({len(flags)})", total_relevant)
    rows, notes = [], []
    for q, (rel, given) in enumerate(zip(flags, totals, strict=True)):
        retrieved = sum(rel)
        total = retrieved if given is None else count(f"total_relevant[{q}]", given)
        if total < retrieved:
            raise InputError(f"total_relevant[{q}]", f"at least the {retrieved} relevant documents retrieved", given)
        ap = average_precision(rel, total_relevant=total).score
        counted = not (given is not None and total == 0 and no_relevant == "skip")
        rows.append({"query": q + 1, "retrieved": len(rel), "relevant_retrieved": retrieved,
                     "total_relevant": given if given is not None else retrieved,
                     "average_precision": ap, "counted": int(counted)})
    used = [r for r in rows if r["counted"]]
    score = math.fsum(r["average_precision"] for r in used) / len(used) if used else 0.0
    skipped = [r["query"] for r in rows if not r["counted"]]
    if total_relevant is None or None in totals:
        notes.append("total_relevant not given for every query: there R_total is the relevant documents retrieved, "
                     "so a query whose relevant documents were all missed still counts, with AP = 0.")
    if skipped:
        notes.append(f"Queries {skipped} have no relevant document (total_relevant 0): AP is 0/0, so they are left "
                     "out of the mean, as trec_eval leaves out a query with no qrels entry; "
                     "no_relevant='zero' counts them as AP = 0.")
    if not used:
        notes.append("No query counted: MAP is defined as 0.")
    terms = " + ".join(fmt(r["average_precision"]) for r in used) or "0"
    return MetricResult(
        metric="mean_average_precision", score=score,
        columns=("query", "retrieved", "relevant_retrieved", "total_relevant", "average_precision", "counted"),
        rows=rows, values={"queries": len(rows), "counted": len(used), "skipped": skipped},
        formula=rf"MAP = \frac{{1}}{{{len(used)}}}\left({terms}\right) = {fmt(score)}" if used else "MAP = 0",
        formula_general=r"MAP = \frac{1}{|Q|}\sum_q AP_q",
        narrative=["Average precision per query: the precision at each relevant rank, summed, over R_total.",
                   "MAP is the mean of those per-query APs" + (f" over the {len(used)} counted queries." if used
                                                               else ": no query counts, so it is 0.")],
        notes=notes, inputs={"queries": flags, "no_relevant": no_relevant},
    )


def hit_at_k(relevance: Sequence[Any], k: int | None = None) -> MetricResult:
    """1 if at least one relevant item is in the top k, else 0 (k defaults to the list length).

    trec_eval calls it ``success`` (``m_success.c``); an empty list has no hit."""
    flags = relevance_flags(relevance)
    k = _cutoff(k, len(flags))
    return _hit(flags, k)


def _hit(flags: list[int], k: int) -> MetricResult:
    rows = _cumulative(flags)
    for row in rows:
        row["hit_at_k"] = int(row["relevant_so_far"] > 0)
    first = next((r["k"] for r in rows if r["relevant"]), None)
    hit = int(first is not None and first <= k)
    where = f"the first relevant item is at rank {first}" if first else "no item is relevant"
    return MetricResult(
        metric="hit_at_k", variant=f"k={k}", score=float(hit),
        columns=("k", "relevant", "relevant_so_far", "hit_at_k"), rows=rows,
        values={"k": k, "first_relevant_rank": first},
        formula=rf"hit@{k} = {hit}", formula_general=r"hit@k = [\mathrm{rel}(1..k) \ge 1]",
        narrative=[f"Look for a relevant item in the top {k}: {where}.", f"hit@{k} = {hit}."],
        notes=[] if flags else ["Empty list: no hit."], inputs={"relevance": flags},
    )


def hit_rate_at_k(queries: Sequence[Sequence[Any]], k: int | None = None) -> MetricResult:
    """Share of queries with at least one relevant item in their top k (one row per query).

    ``k=None`` means each query's whole list. Every query counts, also one with nothing
    relevant (hit 0), as trec_eval's ``success`` averaged over queries. No query gives 0."""
    flags = _query_lists(queries)
    cut = None if k is None else _cutoff(k, 0)
    rows = []
    for q, rel in enumerate(flags, 1):
        one = _hit(rel, cut if cut is not None else len(rel))
        rows.append({"query": q, "first_relevant_rank": one.values["first_relevant_rank"], "hit_at_k": int(one.score)})
    hits = sum(r["hit_at_k"] for r in rows)
    score = hits / len(rows) if rows else 0.0
    label = f"k={cut}" if cut is not None else "k=list length"
    kk = cut if cut is not None else "n"
    return MetricResult(
        metric="hit_rate_at_k", variant=label, score=score, columns=("query", "first_relevant_rank", "hit_at_k"),
        rows=rows, values={"k": cut, "queries": len(rows), "hits": hits},
        formula=rf"HR@{kk} = \frac{{{hits}}}{{{len(rows)}}} = {fmt(score)}" if rows else f"HR@{kk} = 0",
        formula_general=r"HR@k = \frac{1}{|Q|}\sum_q [\mathrm{rel}_q(1..k) \ge 1]",
        narrative=[f"Per query: is a relevant item in the top {kk}? (1 or 0)",
                   f"Hit rate = queries with a hit / queries = {hits}/{len(rows)}."],
        notes=[] if rows else ["No queries: the hit rate is 0."], inputs={"queries": flags},
    )


def r_precision(relevance: Sequence[Any], total_relevant: int | None = None) -> MetricResult:
    """Precision at rank R, where R = ``total_relevant``, the relevant documents in the corpus.

    ``total_relevant`` defaults to the relevant items in the list. When fewer than R items were
    retrieved, the missing ranks count as not relevant (trec_eval ``m_Rprec.c`` divides by R
    too). At rank R precision equals recall, so R-precision = precision@R = recall@R.
    R = 0 (nothing relevant) gives 0, as trec_eval."""
    flags = relevance_flags(relevance)
    notes = []
    if total_relevant is None:
        total_relevant = sum(flags)
        notes.append(f"total_relevant not given: R taken as the {total_relevant} relevant items in the list.")
    r = count("total_relevant", total_relevant)
    if r < sum(flags):
        raise InputError("total_relevant", f"at least the {sum(flags)} relevant items in the list", total_relevant)
    padded = flags + [0] * max(0, r - len(flags))
    rows = _cumulative(padded)
    for row in rows:
        row["retrieved"] = int(row["k"] <= len(flags))
        row["precision_at_k"] = row["relevant_so_far"] / row["k"]
        row["at_R"] = int(row["k"] == r)
    hits = sum(flags[:r])
    score = hits / r if r else 0.0
    if r > len(flags):
        missing = f"rank {r} counts" if r == len(flags) + 1 else f"ranks {len(flags) + 1} to {r} count"
        notes.append(f"Only {len(flags)} items were retrieved but R = {r}: {missing} as not relevant, "
                     "as in trec_eval.")
    if not r:
        notes.append("No relevant item (R = 0): R-precision is defined as 0, as in trec_eval.")
    return MetricResult(
        metric="r_precision", variant=f"R={r}", score=score,
        columns=("k", "retrieved", "relevant", "relevant_so_far", "precision_at_k", "at_R"), rows=rows,
        values={"R": r, "relevant_in_top_R": hits},
        formula=rf"R\text{{-}}prec = \frac{{{hits}}}{{{r}}} = {fmt(score)}" if r else r"R\text{-}prec = 0",
        formula_general=r"R\text{-}prec = \frac{\mathrm{rel}(1..R)}{R}",
        narrative=[f"R = {r} relevant documents in all.", f"Count relevant items in the top R: {hits}.",
                   f"Divide by R: {fmt(score)} (at rank R, precision and recall are equal)."],
        notes=notes, inputs={"relevance": flags},
    )


def _gains(relevance: Any, field: str, gain: str) -> list[float]:
    """Graded gains as floats: non-negative numbers, or yes/no verdicts read as 1/0."""
    relevance = as_list(field, relevance, "a list of gains (0/1, yes/no, or non-negative numbers)")
    top = MAX_LINEAR_GAIN if gain == "linear" else MAX_EXPONENTIAL_GAIN
    gains = []
    for i, v in enumerate(relevance):
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v not in (0, 1):
            try:
                ok = math.isfinite(v) and 0 <= v <= top
            except OverflowError:
                ok = False
            if not ok:
                raise InputError(f"{field}[{i}]", f"a gain from 0 to {top:g} ({gain} gain), or yes/no", v)
            gains.append(float(v))
        else:
            gains.append(1.0 if one_verdict(f"{field}[{i}]", v) == YES else 0.0)
    return gains


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
    gain = choice("gain", gain, GAINS)
    grades = _gains(relevance, "relevance", gain)
    uncut_k = k is None
    k = _cutoff(k, len(grades))
    ideal_grades = sorted(_gains(ideal, "ideal", gain) if ideal is not None else grades, reverse=True)
    if ideal is not None:
        _check_ideal_covers(ideal_grades, sorted((g for g in grades if g > 0), reverse=True), ideal)
    to_gain = (lambda r: r) if gain == "linear" else (lambda r: 2.0 ** r - 1.0)
    gains = [to_gain(g) for g in grades]
    ideal_gains = [to_gain(g) for g in ideal_grades]
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
    if any(g not in (0.0, 1.0) for g in grades + ideal_grades):  # for 0/1 grades both gains agree
        notes.append("Linear gain: each grade is its own gain, as trec_eval; gain='exponential' gives 2^rel - 1."
                     if gain == "linear" else
                     "Exponential gain: 2^rel - 1 per grade, as ranx's ndcg_burges; trec_eval uses the grade itself.")
    uncut = [to_gain(g) for g in ideal_grades]
    if uncut_k and len(uncut) > k:
        full_idcg = math.fsum(g / math.log2(i + 2) for i, g in enumerate(uncut))
        trec = dcg / full_idcg if full_idcg else 0.0
        notes.append(f"The ideal has {len(uncut)} entries but is cut at k = {k}"
                     + " (the list's length, as k is not given)"
                     + f"; trec_eval's uncut ndcg sums the whole ideal and gives {fmt(trec, 3)}.")
    g_tex = "g_i" if gain == "linear" else "(2^{r_i} - 1)"
    return MetricResult(
        metric="ndcg_at_k", variant=f"k={k}" + ("" if gain == "linear" else ", exponential gain"), score=score,
        columns=("k", "gain", "discount", "dcg", "ideal_gain", "idcg", "ndcg_at_k"), rows=rows,
        values={"k": k, "dcg": dcg, "idcg": idcg},
        formula=rf"nDCG@{k} = \frac{{{fmt(dcg)}}}{{{fmt(idcg)}}} = {fmt(score)}",
        formula_general=(r"nDCG@k = \frac{\sum_{i\le k} " + g_tex + r"/\log_2(i+1)}{\sum_{i\le k} "
                         + g_tex.replace("i", "i^*") + r"/\log_2(i+1)}"),
        narrative=["Discount each gain by log2(rank + 1) and add them up (DCG).",
                   "Do the same for the ideal order (IDCG) and divide."],
        notes=notes, inputs={"relevance": grades, "gain": gain},
    )


def _check_ideal_covers(ideal: list[float], grades: list[float], given: Any) -> None:
    """The ideal must hold, rank by rank, at least the list's own grades (else nDCG exceeds 1)."""
    if len(ideal) < len(grades) or any(i < g for i, g in zip(ideal, grades, strict=False)):
        raise InputError("ideal", "the grades of every relevant document, covering the list's own grades "
                         f"{[fmt(g) for g in grades]}", given)


__all__ = ["hit_at_k", "hit_rate_at_k", "mean_average_precision", "mean_reciprocal_rank",
           "ndcg_at_k", "precision_at_k", "r_precision", "recall_at_k", "reciprocal_rank"]
