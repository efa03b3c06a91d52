"""Mean average precision: each query's average precision, averaged over the queries counted.

    MAP  = (1/|Q counted|) Σ_q AP_q
    AP_q = Σ_k precision_at_k · r_k / R_total,q        (context_precision.py, variant average_precision)

    R_total,q not given (totals None, or None for q): the query's relevant documents retrieved
    R_total,q = 0 (no relevant document at all, AP = 0/0):
      skip: the query is left out of the mean (trec_eval leaves out a query with no qrels entry)
      zero: it counts as AP = 0 (trec_eval, for a query judged all non-relevant)
    no query counted: 0
"""

import math

from .context_precision import context_precision

#: the step table's columns this core fills (one row per query)
COLUMNS = ("query", "retrieved", "relevant_retrieved", "total_relevant", "average_precision", "counted")


def mean_average_precision(queries, totals, no_relevant="skip"):
    rows = []
    for q, (r, given) in enumerate(zip(queries, totals or [None] * len(queries)), start=1):
        R_total = sum(r) if given is None else given
        AP_q = context_precision(r, "average_precision", R_total)[0]
        counted = not (given is not None and R_total == 0 and no_relevant == "skip")
        rows.append({"query": q, "retrieved": len(r), "relevant_retrieved": sum(r), "total_relevant": R_total,
                     "average_precision": AP_q, "counted": int(counted)})
    used = [row["average_precision"] for row in rows if row["counted"]]
    score = math.fsum(used) / len(used) if used else 0.0
    skipped = [row["query"] for row in rows if not row["counted"]]
    return score, rows, {"queries": len(rows), "counted": len(used), "skipped": skipped}
