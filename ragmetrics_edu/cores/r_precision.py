"""R-precision: precision at rank R, where R is the number of relevant documents in the corpus.

    R-prec = relevant_so_far(R) / R          (cumulative.py)   at rank R, precision = recall

    fewer than R items retrieved: the missing ranks count as not relevant (trec_eval m_Rprec.c); R = 0: 0
"""

from .cumulative import cumulative

#: the step table's columns this core fills
COLUMNS = ("k", "retrieved", "relevant", "relevant_so_far", "precision_at_k", "at_R")


def r_precision(r, R):
    padded = r + [0] * max(0, R - len(r))  # the ranks not retrieved, as not relevant
    rows = []
    for row in cumulative(padded):
        rows.append({"k": row["k"], "retrieved": int(row["k"] <= len(r)), "relevant": row["relevant"],
                     "relevant_so_far": row["relevant_so_far"], "precision_at_k": row["relevant_so_far"] / row["k"],
                     "at_R": int(row["k"] == R)})
    relevant_in_top_R = sum(r[:R])
    score = relevant_in_top_R / R if R else 0.0
    return score, rows, {"R": R, "relevant_in_top_R": relevant_in_top_R}
