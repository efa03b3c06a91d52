"""Answer relevancy (DeepEval's statement form): the share of the answer's statements that address the question.

    answer relevancy = relevant statements / all statements

    relevant_i = 0 only for "no"; "idk" (ambiguous) counts 1, as in DeepEval
    no statements: 1.0
"""

from .ratio import count_verdicts

#: the step table's columns this core fills
COLUMNS = ("i", "statement", "verdict", "relevant")

RELEVANT = {"yes": 1, "idk": 1, "no": 0}


def answer_relevancy(statements, verdicts):
    score, relevant, counted = count_verdicts(verdicts, RELEVANT, 1.0)
    rows = [{"i": i, "statement": statement, "verdict": verdict, "relevant": r}
            for i, (statement, verdict, r) in enumerate(zip(statements, verdicts, relevant), start=1)]
    return score, rows, {"relevant": counted["counted"], "total": counted["total"]}
