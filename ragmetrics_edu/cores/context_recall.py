"""Context recall: the share of the expected output's statements the retrieved context supports.

    context recall = attributable statements / all statements

    attributable_i = 1 when statement i's verdict is "yes", 0 when it is "no"
    no statements: DeepEval scores 0, Ragas NaN (0 / 0)
"""

import math

from .ratio import count_verdicts

#: the step table's columns this core fills
COLUMNS = ("i", "statement", "verdict", "attributable")

ATTRIBUTABLE = {"yes": 1, "no": 0}


def context_recall(statements, verdicts, variant="deepeval"):
    empty = 0.0 if variant == "deepeval" else math.nan  # ragas: 0 / 0
    score, attributable, counted = count_verdicts(verdicts, ATTRIBUTABLE, empty)
    rows = [{"i": i, "statement": statement, "verdict": verdict, "attributable": a}
            for i, (statement, verdict, a) in enumerate(zip(statements, verdicts, attributable), start=1)]
    return score, rows, {"attributable": counted["counted"], "total": counted["total"]}
