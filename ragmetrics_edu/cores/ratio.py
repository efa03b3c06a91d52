"""The counting rule of the four "count the verdicts" metrics.

    score = (c_1 + c_2 + ... + c_n) / n        c_i = 1 when item i's verdict counts, else 0

Context recall, contextual relevancy, faithfulness and answer relevancy all score this way. They
differ only in what the items are, which verdicts count (the table ``counts``: verdict -> 1 or 0)
and what a list with no items scores (``empty``).
"""


#: how a judge's verdict word is read: "borderline" (DeepEval's newer word for "the context does not say") is idk
VERDICT_WORDS = {"yes": "yes", "no": "no", "idk": "idk", "borderline": "idk", "y": "yes", "n": "no"}


def count_verdicts(verdicts, counts, empty):
    c = [counts[verdict] for verdict in verdicts]  # c_i, one per item
    n = len(c)
    counted = sum(c)
    score = counted / n if n else empty  # no items: each metric says what that is worth
    return score, c, {"counted": counted, "total": n}
