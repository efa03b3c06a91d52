"""Recall@k: the share of all relevant documents found in the first k items.

    R@k = relevant_so_far(k) / R_total      (cumulative.py)

    R_total: the relevant documents in the corpus; no relevant document at all (R_total = 0): 0
"""

from .cumulative import cumulative

#: the step table's columns this core fills
COLUMNS = ("k", "relevant", "relevant_so_far", "recall_at_k")


def recall_at_k(r, k, R_total):
    rows = cumulative(r)
    for row in rows:
        row["recall_at_k"] = row["relevant_so_far"] / R_total if R_total else 0.0
    relevant_in_top_k = sum(r[:k])
    score = relevant_in_top_k / R_total if R_total else 0.0
    return score, rows, {"k": k, "relevant_in_top_k": relevant_in_top_k, "total_relevant": R_total}
