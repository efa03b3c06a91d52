"""Lesson 08's view of one ranked list: every ranking measure of it, each measure at every rank, and the figure.

:func:`ranking_scores` gives context precision, AP, P@k, R@k, RR and nDCG@k of one list;
:func:`per_k_rows` reads each measure's value at every cut-off k from the library's step tables;
:func:`plot_per_k_measures` draws precision@k, recall@k and nDCG@k over the ranks, with context
precision and average precision as horizontal lines (matplotlib is imported only when it is called).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from .. import metrics
from ..plots import RELEVANT, new_figure
from ..validate import YES, as_list, count, number, text, verdict_list

__all__ = ["RANKING_NAMES", "per_k_rows", "plot_per_k_measures", "ranking_scores"]

RANKING_NAMES = ("CP", "AP", "P@k", "R@k", "RR", "nDCG@k")


def ranking_scores(flags: Sequence[int], total_relevant: int | None = None, k: int | None = None) -> dict[str, float]:
    """Context precision, AP, P@k, R@k, RR and nDCG@k of one list (short names as keys)."""
    if total_relevant is not None:
        total_relevant = count("total_relevant", total_relevant, maximum=100_000)
    ideal = None if total_relevant is None else [1] * total_relevant
    return {
        "CP": metrics.context_precision(flags).score,
        "AP": metrics.average_precision(flags, total_relevant).score,
        "P@k": metrics.precision_at_k(flags, k=k).score,
        "R@k": metrics.recall_at_k(flags, k=k, total_relevant=total_relevant).score,
        "RR": metrics.reciprocal_rank(flags).score,
        "nDCG@k": metrics.ndcg_at_k(flags, k=k, ideal=ideal).score,
    }


def per_k_rows(flags: Sequence[int], total_relevant: int | None = None) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Each measure's value at every rank k (read from the library's step tables), and the list's scores.

    A row: ``k``, ``r_k``, ``precision_at_k``, ``recall_at_k``, ``cp_term`` (context precision's term),
    ``dcg``, ``ndcg_at_k`` and ``rr`` (1/k at the first relevant rank, else None)."""
    p = metrics.precision_at_k(flags)
    r = metrics.recall_at_k(flags, total_relevant=total_relevant)
    cp = metrics.context_precision(flags)
    nd = metrics.ndcg_at_k(flags, ideal=None if total_relevant is None else [1] * total_relevant)
    rr = metrics.reciprocal_rank(flags)
    rows = [{"k": k, "r_k": flags[k - 1], "precision_at_k": p.rows[k - 1]["precision_at_k"],
             "recall_at_k": r.rows[k - 1]["recall_at_k"], "cp_term": cp.rows[k - 1]["term"], "dcg": nd.rows[k - 1]["dcg"],
             "ndcg_at_k": nd.rows[k - 1]["ndcg_at_k"], "rr": 1 / k if rr.rows[k - 1]["first_relevant"] else None}
            for k in range(1, len(flags) + 1)]
    return rows, {"context precision": cp.score,
                  "average precision": metrics.average_precision(flags, total_relevant).score,
                  f"precision@{len(flags)}": p.score, f"recall@{len(flags)}": r.score,
                  "reciprocal rank": rr.score, f"nDCG@{len(flags)}": nd.score}


def plot_per_k_measures(
    relevance: Sequence[Any],
    total_relevant: int | None = None,
    *,
    gains: Sequence[float] | None = None,
    ax: Any = None,
    title: str = "",
):
    """Precision@k, recall@k and nDCG@k at every cut-off k of one list, as lines.

    Relevant ranks are shaded; context precision (DeepEval) and average precision (over
    ``total_relevant``) are drawn as horizontal lines, as they are one number for the
    whole list. ``gains`` (graded relevance) are used for nDCG only.
    """
    flags = [1 if v == YES else 0 for v in verdict_list("relevance", relevance)]
    n = len(flags)
    if total_relevant is not None:
        total_relevant = count("total_relevant", total_relevant, maximum=100_000)
    if gains is not None:
        gains = [number(f"gains[{i}]", g, "a graded gain (a finite number >= 0)", low=0.0)
                 for i, g in enumerate(as_list("gains", gains, "graded gains, one per rank"))]
    title = text("title", title)
    total = sum(flags) if total_relevant is None else total_relevant
    ideal = None if total_relevant is None else [1] * total_relevant
    if gains is not None:
        ideal = None
    ks = list(range(1, n + 1))
    precision = [metrics.precision_at_k(flags, k=k).score for k in ks]
    recall = [metrics.recall_at_k(flags, k=k, total_relevant=total).score for k in ks]
    ndcg = [metrics.ndcg_at_k(list(gains) if gains is not None else flags, k=k, ideal=ideal).score for k in ks]
    cp = metrics.context_precision(flags).score
    ap = metrics.average_precision(flags, total_relevant=total).score

    if ax is None:
        fig = new_figure(figsize=(6.4, 3.4))
        ax = fig.subplots()
    else:
        fig = ax.figure
    for k, f in zip(ks, flags, strict=True):
        if f:
            ax.axvspan(k - 0.4, k + 0.4, color=RELEVANT, alpha=0.15, linewidth=0)
    ax.plot(ks, precision, marker="o", color="#264653", label="precision@k")
    ax.plot(ks, recall, marker="s", color="#e76f51", label="recall@k")
    ax.plot(ks, ndcg, marker="^", color="#8ab17d", label="nDCG@k")
    same = math.isclose(ap, cp)
    cp_label = f"context precision {cp:.3f}" + (" (= average precision)" if same else "")
    ax.axhline(cp, color="#2a9d8f", linestyle="--", linewidth=1.2, label=cp_label)
    if not same:
        ax.axhline(ap, color="#e9c46a", linestyle=":", linewidth=1.6, label=f"average precision {ap:.3f}")
    ax.set_xticks(ks)
    ax.set_xlim(0.5, n + 0.5)
    ax.set_ylim(0, 1.08)
    ax.set_xlabel("cut-off k (shaded: relevant rank)")
    ax.set_ylabel("score")
    ax.set_title(title or f"relevance {flags}, {total} relevant in the corpus", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig
