"""Exercises of notebook 13 (rubric judges): a weighted score by hand, DeepEval's rule read from the library's code,
and how many verdicts Ragas' AspectCritic asks for at an even strictness (its documentation and its 0.4.0 code
disagree: the lesson's bridge cites the code)."""

from __future__ import annotations

from typing import Any

from ...metrics.rubric import DEEPEVAL_MIN_PROBABILITY, g_eval_score, votes_for
from ..bridges import peer_versions
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


#: a distribution with one score under DeepEval's cut-off, written for exercise rubric-3 (read from the code)
TAIL = {1: 0.005, 2: 0.095, 3: 0.30, 4: 0.40, 5: 0.20}


def _deepeval_weighted() -> float:
    return g_eval_score(TAIL, variant="deepeval", scale=(1, 5)).values["weighted"]


def _diagnose_deepeval(given: Any, correct: float) -> str | None:
    if not isinstance(given, (int, float)) or isinstance(given, bool):
        return None
    if abs(given - g_eval_score(TAIL, variant="paper", scale=(1, 5)).values["weighted"]) < 1e-3:
        return ("That is the paper's rule, which keeps every score. Find `kept` in the code: with variant='deepeval' "
                "a score whose probability is under DEEPEVAL_MIN_PROBABILITY is dropped, and `total` renormalises "
                "what is left.")
    if abs(given - sum(p * s for s, p in TAIL.items() if p >= DEEPEVAL_MIN_PROBABILITY)) < 1e-3:
        return "The dropped score is right, but the code also divides by `total`, the probability that is left."
    return None


#: the strictness of exercise rubric-2
STRICTNESS = 4
#: how many verdicts Ragas' AspectCritic asks the LLM for on one sample at 0.4.0+3, whatever its strictness:
#: ``_ascore`` makes one call and passes that one verdict to ``_compute_score`` (the aspect-critic bridge cites the
#: line: bridges.entry("aspect_critic"))
RAGAS_040_VERDICTS = 1
#: the Ragas version the bridges were read from
RAGAS = f"Ragas {peer_versions()['ragas']}"


def _verdicts() -> int:
    return RAGAS_040_VERDICTS


def _diagnose_verdicts(given: Any, correct: int) -> str | None:
    if not isinstance(given, (int, float)) or isinstance(given, bool):
        return None
    documented = votes_for(STRICTNESS)
    if given == documented:
        return (f"{documented} is what Ragas documents: strictness {STRICTNESS} made odd, one vote each, the majority "
                f"wins (this library's designs.aspect_critic does that). The question is about the code of {RAGAS}: "
                "read the Ragas row of the aspect-critic bridge in the appendix.")
    if given == STRICTNESS:
        return (f"strictness {STRICTNESS} is not the number of calls at {RAGAS}, and the documented rule would make "
                f"it odd ({documented}) anyway. Read the Ragas row of the aspect-critic bridge in the appendix.")
    return None


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
        id="rubric-3",
        question=("Read the code metrics.show_code(\"g_eval\") prints. With variant=\"deepeval\" on the 1-5 scale, "
                  "the score tokens have these probabilities: 1: 0.005, 2: 0.095, 3: 0.300, 4: 0.400, 5: 0.200 "
                  "(written for the exercise). What weighted score does g_eval_score return?"),
        answer=_deepeval_weighted,
        hint="Find the line that builds `kept`: which scores does variant='deepeval' keep? Then read how `share` "
             "uses `total`.",
        explanation=(f"DeepEval's rule keeps the scores with probability at least DEEPEVAL_MIN_PROBABILITY "
                     f"({DEEPEVAL_MIN_PROBABILITY:g}), so score 1 (0.005) is dropped; total = "
                     f"{sum(p for p in TAIL.values() if p >= DEEPEVAL_MIN_PROBABILITY):.3f} and the weighted score is "
                     "(0.095 x 2 + 0.30 x 3 + 0.40 x 4 + 0.20 x 5) / total = "
                     f"{g_eval_score(TAIL, variant='deepeval', scale=(1, 5)).values['weighted']:.4f}. The paper's "
                     f"rule keeps score 1: {g_eval_score(TAIL, variant='paper', scale=(1, 5)).values['weighted']:.4f}."),
        diagnose=_diagnose_deepeval,
    ),
    Exercise(
        id="rubric-2",
        question=(f"You build Ragas' AspectCritic ({RAGAS}) with strictness={STRICTNESS}. How many verdicts "
                  "does it ask the LLM for on one sample? (The appendix's bridge cites its code.)"),
        answer=_verdicts, hint="Read the Ragas row of the aspect-critic bridge: what does _ascore do at 0.4.0?",
        explanation=("Once. Ragas documents strictness as the number of votes, made odd so that a "
                     f"majority exists (strictness {STRICTNESS} would give {votes_for(STRICTNESS)}), and its "
                     "_compute_score takes the majority; but at 0.4.0 its _ascore asks the LLM once and passes that one "
                     "verdict, so strictness changes nothing. This library's designs.aspect_critic asks what the "
                     f"documentation describes ({votes_for(STRICTNESS)} votes for strictness={STRICTNESS}); "
                     f"strictness=1 reproduces {RAGAS}."),
        diagnose=_diagnose_verdicts,
    ),
)
