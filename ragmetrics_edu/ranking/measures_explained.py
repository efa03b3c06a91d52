"""The explanation of each classic ranking measure: its formula with the numbers, its narrative, its notes.

Each function wraps what a core of :mod:`ragmetrics_edu.cores` returned (``score, rows, values``) in a
:class:`~ragmetrics_edu.results.MetricResult` and explains it; nothing here computes a score (the trec_eval
note of nDCG asks the nDCG core for the uncut ideal's DCG).
"""

from __future__ import annotations

from typing import Any

from ..cores import ndcg_at_k as ndcg_core
from ..results import MetricResult, fmt

Rows = list[dict[str, Any]]


def precision_at_k_result(score: float, rows: Rows, values: dict[str, Any], flags: list[int]) -> MetricResult:
    k, hits = values["k"], values["relevant_in_top_k"]
    return MetricResult(
        metric="precision_at_k", variant=f"k={k}", score=score,
        columns=("k", "relevant", "relevant_so_far", "precision_at_k"), rows=rows, values=values,
        formula=rf"P@{k} = \frac{{{hits}}}{{{k}}} = {fmt(score)}", formula_general=r"P@k = \frac{\mathrm{rel}(1..k)}{k}",
        narrative=[f"Count relevant items in the top {k}: {hits}.", f"Divide by k = {k}: {fmt(score)}."],
        notes=["Empty list: precision@k is 0."] if not flags else [], inputs={"relevance": flags},
    )


def recall_at_k_result(score: float, rows: Rows, values: dict[str, Any], flags: list[int],
                       assumed: bool) -> MetricResult:
    k, hits, total = values["k"], values["relevant_in_top_k"], values["total_relevant"]
    notes = [f"total_relevant not given: taken as the {total} relevant items in the list."] if assumed else []
    if not total:
        notes.append("There is no relevant item: recall@k is defined as 0.")
    return MetricResult(
        metric="recall_at_k", variant=f"k={k}", score=score,
        columns=("k", "relevant", "relevant_so_far", "recall_at_k"), rows=rows, values=values,
        formula=rf"R@{k} = \frac{{{hits}}}{{{total}}} = {fmt(score)}",
        formula_general=r"R@k = \frac{\mathrm{rel}(1..k)}{R_{\mathrm{total}}}",
        narrative=[f"Count relevant items in the top {k}: {hits}.", f"Divide by all relevant items, {total}."],
        notes=notes, inputs={"relevance": flags},
    )


def reciprocal_rank_result(score: float, rows: Rows, values: dict[str, Any], flags: list[int]) -> MetricResult:
    first = values["first_relevant_rank"]
    return MetricResult(
        metric="reciprocal_rank", score=score, columns=("k", "relevant", "relevant_so_far", "first_relevant"),
        rows=rows, values=values,
        formula=rf"RR = \frac{{1}}{{{first}}} = {fmt(score)}" if first else r"RR = 0",
        formula_general=r"RR = \frac{1}{\mathrm{rank\ of\ first\ relevant}}",
        narrative=["Find the first relevant item" + (f": rank {first}." if first else ": there is none."),
                   f"Reciprocal rank = {fmt(score)}."],
        notes=[] if first else ["No relevant item: the reciprocal rank is 0."], inputs={"relevance": flags},
    )


def mean_reciprocal_rank_result(score: float, rows: Rows, values: dict[str, Any]) -> MetricResult:
    terms = " + ".join(fmt(r["reciprocal_rank"]) for r in rows) or "0"
    return MetricResult(
        metric="mean_reciprocal_rank", score=score, columns=("query", "first_relevant_rank", "reciprocal_rank"),
        rows=rows, values=values,
        formula=rf"MRR = \frac{{1}}{{{len(rows)}}}\left({terms}\right) = {fmt(score)}" if rows else "MRR = 0",
        formula_general=r"MRR = \frac{1}{|Q|}\sum_q \frac{1}{\mathrm{rank}_q}",
        narrative=["Reciprocal rank per query, then their mean."],
        notes=[] if rows else ["No queries: MRR is 0."], inputs={},
    )


def mean_average_precision_result(score: float, rows: Rows, values: dict[str, Any], flags: list[list[int]],
                                  totals: list[int | None] | None, no_relevant: str) -> MetricResult:
    used = [r for r in rows if r["counted"]]
    skipped = values["skipped"]
    notes = []
    if totals is None or None in totals:
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
        rows=rows, values=values,
        formula=rf"MAP = \frac{{1}}{{{len(used)}}}\left({terms}\right) = {fmt(score)}" if used else "MAP = 0",
        formula_general=r"MAP = \frac{1}{|Q|}\sum_q AP_q",
        narrative=["Average precision per query: the precision at each relevant rank, summed, over R_total.",
                   "MAP is the mean of those per-query APs" + (f" over the {len(used)} counted queries." if used
                                                               else ": no query counts, so it is 0.")],
        notes=notes, inputs={"queries": flags, "no_relevant": no_relevant},
    )


def hit_at_k_result(score: float, rows: Rows, values: dict[str, Any], flags: list[int]) -> MetricResult:
    k, first, hit = values["k"], values["first_relevant_rank"], int(score)
    where = f"the first relevant item is at rank {first}" if first else "no item is relevant"
    return MetricResult(
        metric="hit_at_k", variant=f"k={k}", score=score,
        columns=("k", "relevant", "relevant_so_far", "hit_at_k"), rows=rows, values=values,
        formula=rf"hit@{k} = {hit}", formula_general=r"hit@k = [\mathrm{rel}(1..k) \ge 1]",
        narrative=[f"Look for a relevant item in the top {k}: {where}.", f"hit@{k} = {hit}."],
        notes=[] if flags else ["Empty list: no hit."], inputs={"relevance": flags},
    )


def hit_rate_at_k_result(score: float, rows: Rows, values: dict[str, Any], flags: list[list[int]]) -> MetricResult:
    cut, hits = values["k"], values["hits"]
    label = f"k={cut}" if cut is not None else "k=list length"
    kk = cut if cut is not None else "n"
    return MetricResult(
        metric="hit_rate_at_k", variant=label, score=score, columns=("query", "first_relevant_rank", "hit_at_k"),
        rows=rows, values=values,
        formula=rf"HR@{kk} = \frac{{{hits}}}{{{len(rows)}}} = {fmt(score)}" if rows else f"HR@{kk} = 0",
        formula_general=r"HR@k = \frac{1}{|Q|}\sum_q [\mathrm{rel}_q(1..k) \ge 1]",
        narrative=[f"Per query: is a relevant item in the top {kk}? (1 or 0)",
                   f"Hit rate = queries with a hit / queries = {hits}/{len(rows)}."],
        notes=[] if rows else ["No queries: the hit rate is 0."], inputs={"queries": flags},
    )


def r_precision_result(score: float, rows: Rows, values: dict[str, Any], flags: list[int],
                       assumed: bool) -> MetricResult:
    r, hits = values["R"], values["relevant_in_top_R"]
    notes = [f"total_relevant not given: R taken as the {r} relevant items in the list."] if assumed else []
    if r > len(flags):
        missing = f"rank {r} counts" if r == len(flags) + 1 else f"ranks {len(flags) + 1} to {r} count"
        notes.append(f"Only {len(flags)} items were retrieved but R = {r}: {missing} as not relevant, "
                     "as in trec_eval.")
    if not r:
        notes.append("No relevant item (R = 0): R-precision is defined as 0, as in trec_eval.")
    return MetricResult(
        metric="r_precision", variant=f"R={r}", score=score,
        columns=("k", "retrieved", "relevant", "relevant_so_far", "precision_at_k", "at_R"), rows=rows,
        values=values,
        formula=rf"R\text{{-}}prec = \frac{{{hits}}}{{{r}}} = {fmt(score)}" if r else r"R\text{-}prec = 0",
        formula_general=r"R\text{-}prec = \frac{\mathrm{rel}(1..R)}{R}",
        narrative=[f"R = {r} relevant documents in all.", f"Count relevant items in the top R: {hits}.",
                   f"Divide by R: {fmt(score)} (at rank R, precision and recall are equal)."],
        notes=notes, inputs={"relevance": flags},
    )


def ndcg_at_k_result(score: float, rows: Rows, values: dict[str, Any], grades: list[float],
                     ideal_grades: list[float], gain: str, uncut_k: bool) -> MetricResult:
    k, dcg, idcg = values["k"], values["dcg"], values["idcg"]
    notes = [] if idcg else ["No relevant item: nDCG is defined as 0."]
    if any(g not in (0.0, 1.0) for g in grades + ideal_grades):  # for 0/1 grades both gains agree
        notes.append("Linear gain: each grade is its own gain, as trec_eval; gain='exponential' gives 2^rel - 1."
                     if gain == "linear" else
                     "Exponential gain: 2^rel - 1 per grade, as ranx's ndcg_burges; trec_eval uses the grade itself.")
    if uncut_k and len(ideal_grades) > k:
        full_idcg = ndcg_core.ndcg_at_k(grades, ideal_grades, len(ideal_grades), gain)[2]["idcg"]
        trec = dcg / full_idcg if full_idcg else 0.0
        notes.append(f"The ideal has {len(ideal_grades)} entries but is cut at k = {k}"
                     + " (the list's length, as k is not given)"
                     + f"; trec_eval's uncut ndcg sums the whole ideal and gives {fmt(trec, 3)}.")
    g_tex = "g_i" if gain == "linear" else "(2^{r_i} - 1)"
    return MetricResult(
        metric="ndcg_at_k", variant=f"k={k}" + ("" if gain == "linear" else ", exponential gain"), score=score,
        columns=("k", "gain", "discount", "dcg", "ideal_gain", "idcg", "ndcg_at_k"), rows=rows, values=values,
        formula=rf"nDCG@{k} = \frac{{{fmt(dcg)}}}{{{fmt(idcg)}}} = {fmt(score)}",
        formula_general=(r"nDCG@k = \frac{\sum_{i\le k} " + g_tex + r"/\log_2(i+1)}{\sum_{i\le k} "
                         + g_tex.replace("i", "i^*") + r"/\log_2(i+1)}"),
        narrative=["Discount each gain by log2(rank + 1) and add them up (DCG).",
                   "Do the same for the ideal order (IDCG) and divide."],
        notes=notes, inputs={"relevance": grades, "gain": gain},
    )
