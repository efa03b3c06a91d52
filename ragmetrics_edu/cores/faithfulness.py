"""Faithfulness: the share of the answer's claims that the retrieved context backs.

    faithfulness = faithful claims / all claims

    deepeval: counts_i = 0 only for "no" (the context contradicts the claim); "idk" (the context
              does not say) counts 1, or 0 with penalize_ambiguous.        no claims: 1.0
    ragas:    counts_i = 1 only for "yes" (the context supports it).       no claims: NaN (0 / 0)
"""

import math

from .ratio import count_verdicts

#: the step table's columns this core fills
COLUMNS = ("i", "claim", "verdict", "counts")


def faithfulness(claims, verdicts, variant="deepeval", penalize_ambiguous=False):
    if variant == "deepeval":  # deepeval/metrics/faithfulness/faithfulness.py, _calculate_score
        counts = {"yes": 1, "idk": 0 if penalize_ambiguous else 1, "no": 0}
        empty = 1.0
    else:  # ragas: a claim is supported (1) or not (0)
        counts = {"yes": 1, "idk": 0, "no": 0}
        empty = math.nan
    score, c, counted = count_verdicts(verdicts, counts, empty)
    rows = [{"i": i, "claim": claim, "verdict": verdict, "counts": c_i}
            for i, (claim, verdict, c_i) in enumerate(zip(claims, verdicts, c), start=1)]
    return score, rows, {"faithful": counted["counted"], "total": counted["total"]}
