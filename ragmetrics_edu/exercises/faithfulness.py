"""Exercises of notebook 05 (faithfulness, DeepEval and Ragas)."""

from __future__ import annotations

from typing import Any

from .. import metrics
from . import Exercise, _as_number, register

MIXED_VERDICTS = ["yes", "idk", "no", "yes"]

#: Deck E's Einstein context, and an answer with one claim the context does not mention.
EINSTEIN_CLAIMS = [
    "Einstein was born in Germany.",
    "Einstein was born on 14th March 1879.",
    "Einstein developed the theory of relativity.",
]
EINSTEIN_VERDICTS = ["yes", "yes", "idk"]

AMBIGUOUS_VERDICTS = ["yes", "idk", "idk"]


def _close(given: Any, value: float) -> bool:
    g = _as_number(given)
    return g is not None and abs(g - value) < 1e-3


def _claims(n: int) -> list[str]:
    return [f"claim {i}" for i in range(1, n + 1)]


def _diagnose_mixed(given: Any, correct: float) -> str | None:
    claims = _claims(len(MIXED_VERDICTS))
    ragas = metrics.faithfulness(claims, MIXED_VERDICTS, "ragas").score
    if _close(given, ragas):
        return ("That is the Ragas rule (only 'yes' counts). DeepEval counts a claim as faithful unless the "
                "context contradicts it, so the 'idk' claim counts too.")
    yes, no = MIXED_VERDICTS.count("yes"), MIXED_VERDICTS.count("no")
    if _close(given, yes / (yes + no)):
        return ("You left the 'idk' claim out of the denominator. It stays in; DeepEval counts it as faithful "
                "in the numerator as well.")
    if _close(given, no / len(MIXED_VERDICTS)):
        return "That is the share of contradicted claims; faithfulness counts the others."
    return None


def _diagnose_einstein(given: Any, correct: float) -> str | None:
    deepeval = metrics.faithfulness(EINSTEIN_CLAIMS, EINSTEIN_VERDICTS, "deepeval").score
    if _close(given, deepeval):
        return ("The relativity claim is true in the world, but the context does not mention it. Ragas counts "
                "only claims the context supports, so that claim counts 0; 1.0 is DeepEval's answer.")
    return None


def _diagnose_penalized(given: Any, correct: float) -> str | None:
    claims = _claims(len(AMBIGUOUS_VERDICTS))
    lenient = metrics.faithfulness(claims, AMBIGUOUS_VERDICTS, "deepeval").score
    if _close(given, lenient):
        return ("That is DeepEval's default. With penalize_ambiguous_claims=True (the library's penalize_ambiguous=True) "
                "an 'idk' claim no longer counts.")
    return None


def _empty_is_one() -> str:
    for variant in ("deepeval", "ragas"):
        if metrics.faithfulness([], [], variant).score == 1.0:
            return variant
    return "neither"


register(
    Exercise(
        id="faith-1",
        question=f"An answer's four claims get the verdicts {MIXED_VERDICTS}. Faithfulness, DeepEval variant?",
        answer=lambda: metrics.faithfulness(_claims(len(MIXED_VERDICTS)), MIXED_VERDICTS, "deepeval").score,
        hint="DeepEval counts every claim the context does not contradict; divide by all claims.",
        explanation="Two yes and one idk count, the no does not: 3 of 4.",
        diagnose=_diagnose_mixed,
    ),
    Exercise(
        id="faith-2",
        question=("Deck E's Einstein context (born 14 March 1879, German-born physicist). The answer's claims: "
                  + ", ".join(f"'{c}'" for c in EINSTEIN_CLAIMS)
                  + f". Verdicts {EINSTEIN_VERDICTS}. Faithfulness, Ragas variant?"),
        answer=lambda: metrics.faithfulness(EINSTEIN_CLAIMS, EINSTEIN_VERDICTS, "ragas").score,
        hint="Ragas asks of each claim: can it be inferred from the context? Only a yes counts.",
        explanation=("Place and date are supported; relativity, though true, is not in the context: 2 of 3. "
                     "Faithfulness measures agreement with the context, not with the world."),
        diagnose=_diagnose_einstein,
    ),
    Exercise(
        id="faith-3",
        question=(f"Verdicts {AMBIGUOUS_VERDICTS}, DeepEval's FaithfulnessMetric with penalize_ambiguous_claims=True "
                  "(in this library: variant 'deepeval', penalize_ambiguous=True). Faithfulness?"),
        answer=lambda: metrics.faithfulness(_claims(len(AMBIGUOUS_VERDICTS)), AMBIGUOUS_VERDICTS, "deepeval",
                                            penalize_ambiguous=True).score,
        hint="With the penalty switched on, an 'idk' claim is treated like an unsupported one.",
        explanation="Only the supported claim counts: 1 of 3.",
        diagnose=_diagnose_penalized,
    ),
    Exercise(
        id="faith-4",
        question=("An answer makes no claims at all (for instance 'I cannot say.'). Which variant scores it "
                  "1.0: 'deepeval' or 'ragas'?"),
        answer=_empty_is_one,
        kind="choice",
        hint="One of them says 'nothing to check, so nothing unfaithful'; the other divides 0 by 0.",
        explanation="DeepEval scores an answer with no claims 1.0; Ragas returns NaN (0/0).",
        diagnose=lambda g, c: ("Ragas returns NaN for an answer with no claims: 0 supported out of 0."
                               if isinstance(g, str) and g.strip().lower() == "ragas" else None),
    ),
)
