"""The walk down a ranking behind the classic ranking measures: the relevant items seen so far.

    relevant_so_far(k) = r_1 + r_2 + ... + r_k        r_k = 1 when the item at rank k is relevant, else 0

precision@k = relevant_so_far(k) / k, recall@k = relevant_so_far(k) / R_total,
hit@k = [relevant_so_far(k) >= 1], and the reciprocal rank is 1 / the first k where r_k = 1.
"""

#: the step table's columns this loop fills
COLUMNS = ("k", "relevant", "relevant_so_far")


def cumulative(r):
    rows = []
    relevant_so_far = 0
    for k, r_k in enumerate(r, start=1):
        relevant_so_far += r_k
        rows.append({"k": k, "relevant": r_k, "relevant_so_far": relevant_so_far})
    return rows


def first_relevant(r):
    """The rank of the first relevant item, or None when none is."""
    return next((k for k, r_k in enumerate(r, start=1) if r_k), None)
