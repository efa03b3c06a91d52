"""Hit@k (trec_eval's success, m_success.c): 1 when a relevant item is among the first k, else 0.

    hit@k = [relevant_so_far(k) >= 1]       (cumulative.py)       an empty list: no hit
"""

from .cumulative import cumulative, first_relevant

#: the step table's columns this core fills
COLUMNS = ("k", "relevant", "relevant_so_far", "hit_at_k")


def hit_at_k(r, k):
    rows = cumulative(r)
    for row in rows:
        row["hit_at_k"] = int(row["relevant_so_far"] > 0)
    first = first_relevant(r)
    hit = int(first is not None and first <= k)
    return float(hit), rows, {"k": k, "first_relevant_rank": first}
