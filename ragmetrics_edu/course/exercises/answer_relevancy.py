"""Exercises of notebook 06 (answer relevancy: DeepEval's statement form, Ragas' embedding form)."""

from __future__ import annotations

import math
from typing import Any

from ... import metrics
from ...embeddings.embedders import cosine_parts
from . import Exercise, close, register
from .changed_code import change_exercise

#: ar-1: DeepEval statement verdicts with an ambiguous one.
IDK_VERDICTS = ["yes", "idk", "no", "no"]
#: ar-2: the France question and its three generated questions (deck E), flags per generation.
FRANCE_QUESTION = "Where is France and what is it's capital?"
FRANCE_GENERATED = [
    "In which part of Europe is France located?",
    "What is the geographical location of France within Europe?",
    "Can you identify the region of Europe where France is situated?",
]
SOME_FLAGS = [True, False, True]
#: ar-3: two small vectors for a cosine by hand.
U, V = [1.0, 2.0, 0.0, 1.0], [2.0, 1.0, 1.0, 0.0]



def _diagnose_idk(given: Any, correct: float) -> str | None:
    n = len(IDK_VERDICTS)
    yes = IDK_VERDICTS.count("yes")
    idk = IDK_VERDICTS.count("idk")
    if close(given, yes / n):
        return ("You counted the 'idk' statement as irrelevant. DeepEval's answer relevancy counts an ambiguous "
                "statement as relevant: only 'no' lowers the score.")
    if close(given, yes / (n - idk)) or close(given, (yes + idk) / (n - idk)):
        return "You dropped the 'idk' statement from the denominator; every statement stays in it."
    if close(given, (yes + 0.5 * idk) / n):
        return "An 'idk' is not worth half a point here: DeepEval counts it as a full relevant statement."
    return None


def _some_flags_result():
    return metrics.answer_relevancy_embedding(FRANCE_QUESTION, FRANCE_GENERATED, noncommittal=SOME_FLAGS)


def _diagnose_noncommittal(given: Any, correct: float) -> str | None:
    rows = _some_flags_result().rows
    kept = [r["cosine"] for r in rows if not r["noncommittal"]]
    if close(given, 0.0):
        return ("Ragas 0.4 sets the score to 0 only when *every* generation flags the answer noncommittal. "
                "Here one of the three did not, so the mean cosine stands.")
    if kept and close(given, sum(kept) / len(kept)):
        return ("You averaged only the generations not flagged noncommittal. Ragas averages the cosines of all "
                "generated questions; the flags decide only whether the whole score is zeroed.")
    if close(given, sum(r["cosine"] for r in rows)):
        return "That is the sum of the three cosines; divide it by N = 3."
    return None


def _diagnose_cosine(given: Any, correct: float) -> str | None:
    dot, nu, nv, _ = cosine_parts(U, V)
    if close(given, dot):
        return f"That is the dot product ({dot:g}); divide it by the product of the two norms."
    if close(given, dot / (nu * nu * nv * nv)):
        return "You divided by the squared norms; the cosine divides by the norms themselves (square roots)."
    if close(given, dot / len(U)):
        return "Dividing by the length of the vectors gives a mean product, not a cosine."
    return None


def _diagnose_empty(given: Any, correct: float) -> str | None:
    if close(given, 0.0):
        return ("DeepEval does not score an answer without statements as 0: with nothing irrelevant in it, "
                "it defines the score as 1.0.")
    if isinstance(given, float) and math.isnan(given):
        return ("NaN is what Ragas' embedding form returns when no question was generated. DeepEval's statement "
                "form defines the score of an answer without statements as 1.0.")
    return None


register(
    Exercise(
        id="ar-1",
        question=("DeepEval's statement form. An answer splits into four statements judged "
                  f"{IDK_VERDICTS}. What is its answer relevancy?"),
        answer=lambda: metrics.answer_relevancy(["s1", "s2", "s3", "s4"], IDK_VERDICTS).score,
        hint="Which verdicts count as relevant in DeepEval, and what is the denominator?",
        explanation="yes and idk both count: (1 + 1) / 4 = 0.5.",
        diagnose=_diagnose_idk,
    ),
    Exercise(
        id="ar-2",
        question=("Ragas' embedding form with the offline embedder. Deck E's three France questions, but the "
                  f"judge flagged the answer noncommittal in generations {SOME_FLAGS}. What is the score?"),
        answer=lambda: _some_flags_result().score,
        hint=("Compute metrics.answer_relevancy_embedding(question, generated) and ask: are *all* generations "
              "flagged noncommittal?"),
        explanation=("Not all three generations flag the answer, so Ragas 0.4 keeps the mean cosine of all "
                     "three generated questions (the same score as with no flags at all)."),
        diagnose=_diagnose_noncommittal,
    ),
    Exercise(
        id="ar-3",
        question=f"By hand: the cosine of u = {U} and v = {V}? (4 decimals are enough)",
        answer=lambda: cosine_parts(U, V)[3],
        hint="cosine = (u · v) / (|u| |v|), with |u| the square root of the sum of squares.",
        explanation="u · v = 4, |u| = √6, |v| = √6, so the cosine is 4 / 6 ≈ 0.6667.",
        diagnose=_diagnose_cosine,
    ),
    Exercise(
        id="ar-4",
        question=("DeepEval's statement form. The judge finds no statement at all in the answer (an empty list). "
                  "What score does DeepEval give?"),
        answer=lambda: metrics.answer_relevancy([], []).score,
        hint="Nothing in the answer is irrelevant. Look at the edge-case table in the README.",
        explanation="With no statements DeepEval defines answer relevancy as 1.0 (nothing irrelevant was said).",
        diagnose=_diagnose_empty,
    ),
)


# --- judgement: which form punishes an evasive answer? ------------------------------------------

EVASIVE_QUESTION = "How do I reset my router?"
EVASIVE_STATEMENTS = ["It depends on your setup.", "Please contact support."]
EVASIVE_VERDICTS = ["idk", "idk"]
EVASIVE_GENERATED = ["What should I do about my setup?", "Who should I contact?", "Does it depend on the setup?"]


def evasive_scores() -> dict[str, float]:
    """Both forms on the evasive answer: every statement 'idk', every generation flagged noncommittal."""
    return {
        "deepeval": metrics.answer_relevancy(EVASIVE_STATEMENTS, EVASIVE_VERDICTS, question=EVASIVE_QUESTION).score,
        "ragas": metrics.answer_relevancy_embedding(EVASIVE_QUESTION, EVASIVE_GENERATED,
                                                    noncommittal=[True] * len(EVASIVE_GENERATED)).score,
    }


def _harsher_on_evasion() -> str:
    scores = evasive_scores()
    return min(scores, key=scores.__getitem__)


def _accept_form(given: Any, correct: str) -> bool:
    name = given.strip().lower() if isinstance(given, str) else ""
    aliases = {"deepeval": ("deepeval", "statements", "statement form"),
               "ragas": ("ragas", "embeddings", "embedding form")}
    return name in aliases[correct]


def _diagnose_evasive(given: Any, correct: str) -> str | None:
    scores = evasive_scores()
    name = given.strip().lower() if isinstance(given, str) else ""
    if name in ("deepeval", "statements", "statement form"):
        return (f"DeepEval's statement form scores this answer {scores['deepeval']:.1f}: an 'idk' statement gets the "
                "benefit of the doubt, so an answer made only of hedges loses nothing. Ragas' form sets the score "
                f"to {scores['ragas']:.1f} when every generation flags the answer noncommittal.")
    return "Answer 'deepeval' or 'ragas'."


register(
    Exercise(
        id="ar-5",
        question=(f"Choose a metric. A support bot answers '{EVASIVE_QUESTION}' with "
                  f"'{' '.join(EVASIVE_STATEMENTS)}' The judge marks both statements 'idk', and every generation "
                  "of Ragas' embedding form flags the answer noncommittal. You want the metric that punishes such "
                  "evasive answers. Which form: 'deepeval' (statements) or 'ragas' (embeddings)?"),
        answer=_harsher_on_evasion, kind="choice", accept=_accept_form,
        hint="How does each form count an 'idk' statement, and what does the noncommittal flag do?",
        explanation=("Ragas: the noncommittal rule sets the score to 0 whatever the cosines, while DeepEval counts "
                     "'idk' statements as relevant and gives this answer 1.0. To catch evasive answers, use Ragas' "
                     "form or a DeepEval judge instructed to answer 'no' for hedges."),
        diagnose=_diagnose_evasive,
    ),
)


#: ar-6's three generated questions' embeddings: cosines 1, 0.6 and 0 with the question's [1, 0]
AR6_GENERATED = [[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]]


# -- ar-6: change a line. any instead of all, as older Ragas: what is the score? ---------------------------
register(change_exercise(
    id="ar-6", metric="answer_relevancy_embedding",
    old="all_noncommittal = N > 0 and all(noncommittal)", new="all_noncommittal = N > 0 and any(noncommittal)",
    case=("a question embedded as `[1, 0]` and three generated questions embedded as `[1, 0]`, `[0.6, 0.8]` and "
          "`[0, 1]` (cosines 1, 0.6 and 0), of which only the second flagged the answer noncommittal"),
    run=lambda core: core.answer_relevancy_embedding([1.0, 0.0], AR6_GENERATED, ["g1", "g2", "g3"],
                                                     [False, True, False])[0],
    hint="any(...) is True when one flag is; then which branch sets the score?",
    explanation=("any([False, True, False]) is True, so the branch that zeroes the score runs: 0.0, where the code "
                 "as it is (all(...), Ragas 0.4) keeps the mean cosine 0.5333. Older Ragas wrote "
                 "`np.any(committal_list)` here (it flips the flag first), so in those versions a single "
                 "noncommittal generation zeroes answer relevancy; 0.4 zeroes it only when every one is."),
    slips=((lambda: 0.8, "That is the mean over the two committal questions; no line drops the flagged one."),),
))
