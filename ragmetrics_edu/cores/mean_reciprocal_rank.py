"""Mean reciprocal rank: the reciprocal rank of each query, averaged over the queries.

    MRR = (1/|Q|) Σ_q RR_q         RR_q = 1 / first relevant rank of query q   (reciprocal_rank.py)

    no queries: 0
"""

import math

from .reciprocal_rank import reciprocal_rank

#: the step table's columns this core fills (one row per query)
COLUMNS = ("query", "first_relevant_rank", "reciprocal_rank")


def mean_reciprocal_rank(queries):
    rows = []
    for q, r in enumerate(queries, start=1):
        RR_q, _, values = reciprocal_rank(r)
        rows.append({"query": q, "first_relevant_rank": values["first_relevant_rank"], "reciprocal_rank": RR_q})
    Q = len(rows)
    score = math.fsum(row["reciprocal_rank"] for row in rows) / Q if Q else 0.0
    return score, rows, {"queries": Q}
