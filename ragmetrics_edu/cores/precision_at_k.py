"""Precision@k: the share of the first k items that are relevant.

    P@k = relevant_so_far(k) / k            (cumulative.py)

    a cut-off beyond the list counts the missing ranks as not relevant (trec_eval m_P.c); k = 0: 0
"""

from .cumulative import cumulative

#: the step table's columns this core fills
COLUMNS = ("k", "relevant", "relevant_so_far", "precision_at_k")


def precision_at_k(r, k):
    rows = cumulative(r)
    for row in rows:
        row["precision_at_k"] = row["relevant_so_far"] / row["k"]
    relevant_in_top_k = sum(r[:k])
    score = relevant_in_top_k / k if k else 0.0
    return score, rows, {"k": k, "relevant_in_top_k": relevant_in_top_k}
