"""Faithfulness by re-answering: a judge answers the question from the context; the words are compared.

    agreement = |A ∩ J| / |J|   (recall)   or   |A ∩ J| / |A|   (precision)   or their F1
    grounding = |A ∩ C| / |A|                       (word overlap)
    score     = w · grounding + (1 − w) · agreement      w: grounding_weight, 0.9 by default

    A: the answer's content words, J: the judge's answer's, C: the context's
    no content word in the answer: 0
    the judge found no answer in the context: agreement left out, score = grounding (NaN when w = 0)
"""

import math

#: the step table's columns this core fills
COLUMNS = ("word", "in_answer", "in_judge_answer", "in_context")


def agreement(A, J, compare, f1):
    if not A or not J:
        return 0.0
    both = len(A & J)
    recall, precision = both / len(J), both / len(A)
    if compare == "recall":
        return recall
    if compare == "precision":
        return precision
    return f1(precision, recall)  # metrics.f1_from, the one F1 of the library


def faithfulness_overlap_reanswer(A, J, C, grounded, answered, w=0.9, compare="recall", f1=None):
    """``grounded``: the answer's content words (as word overlap reads them) and those found in the context."""
    agree = agreement(A, J, compare, f1) if answered else math.nan
    words, found = grounded
    grounding = len(found) / len(words) if words else 0.0
    if not A:
        score = 0.0
    elif answered:
        score = w * grounding + (1 - w) * agree
    elif w > 0:
        score = grounding
    else:
        score = math.nan
    rows = [{"word": word, "in_answer": word in A, "in_judge_answer": word in J, "in_context": word in C}
            for word in sorted(A | J)]
    return score, rows, {"agreement": agree, "grounding": grounding, "answered": answered, "grounding_weight": w}
