"""The per-k loop behind context precision and average precision.

    precision_at_k = relevant_so_far / k          r_k = 1 when the item at rank k is relevant, else 0
    term_k         = precision_at_k · r_k         (only relevant ranks add)
    sum_of_terms   = term_1 + term_2 + ... + term_n
"""

#: the step table's columns this loop fills
COLUMNS = ("k", "relevant", "relevant_so_far", "precision_at_k", "term")


def per_k_terms(r):
    rows = []
    relevant_so_far = 0
    sum_of_terms = 0.0
    for k, r_k in enumerate(r, start=1):
        relevant_so_far += r_k
        precision_at_k = relevant_so_far / k
        term = precision_at_k * r_k
        sum_of_terms += term
        rows.append({"k": k, "relevant": r_k, "relevant_so_far": relevant_so_far,
                     "precision_at_k": precision_at_k, "term": term})
    return rows, relevant_so_far, sum_of_terms
