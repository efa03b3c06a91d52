"""Exercises of notebook 13 (rubric judges): a weighted score by hand, the votes of an even strictness, and which
G-Eval reading to trust when the reply and the weights disagree."""

from __future__ import annotations

from typing import Any

from ...metrics.rubric import g_eval_score, votes_for
from . import Exercise, register

#: a score distribution written for the exercise (not a recording)
DISTRIBUTION = {1: 0.05, 2: 0.05, 3: 0.30, 4: 0.40, 5: 0.20}


def _weighted() -> float:
    return g_eval_score(DISTRIBUTION).values["weighted"]


def _diagnose_weighted(given: Any, correct: float) -> str | None:
    if not isinstance(given, (int, float)):
        return None
    if abs(given - g_eval_score(DISTRIBUTION).score) < 1e-3:
        return ("That is the score rescaled to [0, 1]. The question asks for the weighted score on the 1-5 scale: "
                "sum of probability x score.")
    if abs(given - 4) < 1e-9:
        return "4 is the most likely score, not the weighted one: multiply each score by its probability and add."
    return None


def _votes() -> int:
    return votes_for(4)


register(
    Exercise(
        id="rubric-1",
        question=("A judge's score token has these probabilities: 1: 0.05, 2: 0.05, 3: 0.30, 4: 0.40, 5: 0.20 "
                  "(written for the exercise). What is G-Eval's weighted score on the 1-5 scale?"),
        answer=_weighted, hint="Sum over the scores of probability x score (the five probabilities already add to 1).",
        explanation="0.05 x 1 + 0.05 x 2 + 0.30 x 3 + 0.40 x 4 + 0.20 x 5 = 3.65.",
        diagnose=_diagnose_weighted,
    ),
    Exercise(
        id="rubric-2",
        question=("You build Ragas' AspectCritic with strictness=4. How many votes does it ask for, so that a "
                  "majority always exists?"),
        answer=_votes, hint="An even number of votes can tie; Ragas makes strictness odd.",
        explanation="Ragas turns an even strictness into the next odd number: 5 votes.",
    ),
)
