"""nDCG@k: the discounted gain of the ranking, over that of the ideal ranking.

    discount(i) = 1 / log2(i + 1)
    DCG@k  = Σ_{i<=k} gain(r_i) · discount(i)
    IDCG@k = Σ_{i<=k} gain(r*_i) · discount(i)        r*: the ideal grades, sorted from high to low
                                                      (no ideal given: the list's own grades)
    nDCG@k = DCG@k / IDCG@k                           no gain at all (IDCG = 0): 0

    linear:      gain(r) = r             (trec_eval m_ndcg_cut.c)
    exponential: gain(r) = 2^r - 1       (ranx's ndcg_burges)
"""

import math

#: the step table's columns this core fills
COLUMNS = ("k", "gain", "discount", "dcg", "ideal_gain", "idcg", "ndcg_at_k")


def gain_of(r, gain="linear"):
    return r if gain == "linear" else 2.0 ** r - 1.0


def ndcg_at_k(grades, ideal_grades, k, gain="linear"):
    r_star = sorted(grades if ideal_grades is None else ideal_grades, reverse=True)  # no ideal given: the list's own
    gains = [gain_of(r, gain) for r in grades]
    ideal_gains = [gain_of(r, gain) for r in r_star]
    rows, dcg, idcg = [], 0.0, 0.0
    for i in range(1, max(len(gains), min(k, len(ideal_gains))) + 1):
        g_i = gains[i - 1] if i <= len(gains) else 0.0
        ideal_g_i = ideal_gains[i - 1] if i <= len(ideal_gains) else 0.0
        discount = 1 / math.log2(i + 1)
        if i <= k:
            dcg += g_i * discount
            idcg += ideal_g_i * discount
        rows.append({"k": i, "gain": g_i, "discount": discount, "dcg": dcg, "ideal_gain": ideal_g_i, "idcg": idcg,
                     "ndcg_at_k": dcg / idcg if idcg else 0.0})
    score = dcg / idcg if idcg else 0.0
    return score, rows, {"k": k, "dcg": dcg, "idcg": idcg}
