"""Context precision: are the relevant nodes ranked above the irrelevant ones?

    context precision = sum_of_terms / D        sum_of_terms = Σ_k precision_at_k · r_k   (per_k.py)

    D, the denominator, is where the variants part:
      deepeval:          R, the relevant nodes retrieved
      ragas:             R + 1e-10 (a perfect ranking scores R / (R + 1e-10), not 1: 0.9999999999 for one
                         relevant node, 0.99999999995 for two)
      average_precision: R_total, every relevant document in the corpus (classic IR average precision)
    no relevant node retrieved (or no node at all): 0
"""

from .per_k import COLUMNS, per_k_terms  # noqa: F401 (COLUMNS: the step table's columns, the per-k walk's)

RAGAS_EPSILON = 1e-10


def context_precision(r, variant="deepeval", total_relevant=None):
    rows, R, sum_of_terms = per_k_terms(r)
    if variant == "average_precision":
        D = float(R if total_relevant is None else total_relevant)
    elif variant == "ragas":  # ragas/metrics/_context_precision.py, _calculate_average_precision
        D = R + RAGAS_EPSILON
    else:  # deepeval/metrics/contextual_precision/contextual_precision.py, _calculate_score
        D = float(R)
    score = sum_of_terms / D if R else 0.0
    return score, rows, {"relevant_count": R, "sum_of_terms": sum_of_terms, "denominator": D, "n": len(r)}
