"""Answer correctness (Ragas): factual overlap with the ground truth, blended with semantic similarity.

    F_beta = (1 + beta²) · TP / ((1 + beta²) · TP + beta² · FN + FP)      (beta = 1: F1)
    score  = (w_f · F_beta + w_s · similarity) / (w_f + w_s)             weights (0.75, 0.25) by default

    TP: answer statements the ground truth supports, FP: answer statements it does not support,
    FN: ground-truth statements the answer misses. No statements at all: F_beta = 1.
    When TP is empty and only FP or only FN exist, Ragas' two APIs part:
      ragas (legacy ragas.metrics):  classifies anyway, F_beta = 0
      ragas_collections:             classifies only when both sides gave statements, else F_beta = 1

    F-beta's rules (f_beta's ``rule``), each a peer's:
      counts:                    the formula above on the counts; no statements: 1            (answer correctness)
      ragas:                     Ragas' fbeta_score, from P = TP/(TP + FP) and R = TP/(TP + FN) (0 when empty):
                                 (1 + beta²)·P·R / (beta²·P + R); P = R = 0 (no claims too): 0
      ragas_factual_correctness: ragas, then rounded to 2 decimals as numpy does (FactualCorrectness):
                                 TP 1, FP 4, FN 10 gives 0.12500000000000003 there, so 0.13 (counts: 0.125 -> 0.12)
"""

#: the step table's columns this core fills
COLUMNS = ("kind", "statement")


RULES = ("counts", "ragas", "ragas_factual_correctness")


def f_beta(TP, FP, FN, beta=1.0, rule="counts"):
    b2 = beta * beta
    if rule == "counts":
        denominator = (1 + b2) * TP + b2 * FN + FP
        return 1.0 if denominator == 0 else (1 + b2) * TP / denominator
    P = TP / (TP + FP) if TP + FP else 0.0  # ragas/metrics/utils.py, fbeta_score
    R = TP / (TP + FN) if TP + FN else 0.0
    F = 0.0 if P == 0 and R == 0 else (1 + b2) * (P * R) / (b2 * P + R)  # in its order, so its rounding
    return F if rule == "ragas" else round(F * 100) / 100  # np.round(F, 2): ragas/metrics/_factual_correctness.py


def blend(F_beta, similarity, w_f, w_s):
    return (w_f * F_beta + w_s * similarity) / (w_f + w_s)


def apis_part(TP, FP, FN):
    """Whether Ragas' two APIs part here: TP empty, and only FP or only FN."""
    return TP == 0 and FP + FN > 0 and (FP == 0 or FN == 0)


def answer_correctness(tp, fp, fn, similarity, w_f=0.75, w_s=0.25, beta=1.0, variant="ragas"):
    TP, FP, FN = len(tp), len(fp), len(fn)
    F_beta = f_beta(TP, FP, FN, beta)
    if apis_part(TP, FP, FN) and variant == "ragas_collections":  # ragas/metrics/collections/answer_correctness/metric.py
        F_beta = 1.0
    score = blend(F_beta, similarity, w_f, w_s)
    rows = [{"kind": kind, "statement": s} for kind, statements in (("TP", tp), ("FP", fp), ("FN", fn))
            for s in statements]
    return score, rows, {"tp_count": TP, "fp_count": FP, "fn_count": FN, "f_beta": F_beta, "similarity": similarity,
                         "weight_factual": w_f, "weight_semantic": w_s, "beta": float(beta)}
