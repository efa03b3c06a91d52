"""Reciprocal rank: one over the rank of the first relevant item.

    RR = 1 / first relevant rank          no relevant item: 0
"""

from .cumulative import cumulative, first_relevant

#: the step table's columns this core fills
COLUMNS = ("k", "relevant", "relevant_so_far", "first_relevant")


def reciprocal_rank(r):
    first = first_relevant(r)
    rows = cumulative(r)
    for row in rows:
        row["first_relevant"] = int(row["k"] == first)
    score = 1 / first if first else 0.0
    return score, rows, {"first_relevant_rank": first}
