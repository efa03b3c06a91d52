"""Semantic similarity (Ragas): the cosine of the answer's and the ground truth's embeddings (a bi-encoder).

    sim = cos(E_a, E_g) = E_a · E_g / (|E_a| |E_g|)       (cosine.py)

    with a threshold t: score = 1 when sim >= t, else 0 (as Ragas does); without one: score = sim
"""

from .cosine import clamp, cosine

#: the step table's columns this core fills
COLUMNS = ("quantity", "value")


def semantic_similarity(E_a, E_g, threshold=None):
    dot, norm_a, norm_g, cos = cosine(E_a, E_g)
    sim = clamp(cos)
    rows = [{"quantity": "dot product", "value": dot}, {"quantity": "norm of answer", "value": norm_a},
            {"quantity": "norm of ground truth", "value": norm_g}, {"quantity": "cosine", "value": sim}]
    score = sim if threshold is None else (1.0 if sim >= threshold else 0.0)
    return score, rows, {"cosine": sim, "dot": dot, "norm_answer": norm_a, "norm_ground_truth": norm_g}
