"""Answer relevancy (Ragas' embedding form): do questions written from the answer match the real one?

    score = (1/N) Σ_i cos(E_q, E_g_i)        (cosine.py)      N questions a judge generated from the answer
    score = 0 when every generation flagged the answer noncommittal

    no generated questions: ragas (legacy ragas.metrics) NaN, ragas_collections 0.0
"""

import math

from .cosine import clamp, cosine

#: the step table's columns this core fills
COLUMNS = ("i", "generated_question", "dot", "norm_question", "norm_generated", "cosine", "noncommittal")


def answer_relevancy_embedding(E_q, E_g, generated, noncommittal, variant="ragas"):
    rows = []
    for i, (g, E_g_i, flag) in enumerate(zip(generated, E_g, noncommittal), start=1):
        dot, norm_q, norm_g, cos = cosine(E_q, E_g_i)
        rows.append({"i": i, "generated_question": g, "dot": dot, "norm_question": norm_q,
                     "norm_generated": norm_g, "cosine": clamp(cos), "noncommittal": flag})
    N = len(rows)
    mean = math.fsum(row["cosine"] for row in rows) / N if N else math.nan
    all_noncommittal = N > 0 and all(noncommittal)
    if not N:
        score = 0.0 if variant == "ragas_collections" else math.nan
    elif all_noncommittal:
        score = 0.0
    else:
        score = mean
    return score, rows, {"mean_cosine": mean, "n": N, "all_noncommittal": all_noncommittal}
