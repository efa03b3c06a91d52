"""Hit rate@k: the share of queries with a relevant item among their first k.

    HR@k = (1/|Q|) Σ_q hit_q@k        (hit_at_k.py)   k = None: each query's whole list

    every query counts, also one with nothing relevant (hit 0); no queries: 0
"""

from .hit_at_k import hit_at_k

#: the step table's columns this core fills (one row per query)
COLUMNS = ("query", "first_relevant_rank", "hit_at_k")


def hit_rate_at_k(queries, k):
    rows = []
    for q, r in enumerate(queries, start=1):
        hit, _, values = hit_at_k(r, len(r) if k is None else k)
        rows.append({"query": q, "first_relevant_rank": values["first_relevant_rank"], "hit_at_k": int(hit)})
    Q = len(rows)
    hits = sum(row["hit_at_k"] for row in rows)
    score = hits / Q if Q else 0.0
    return score, rows, {"k": k, "queries": Q, "hits": hits}
