"""Exercises of notebook 05 (faithfulness, DeepEval and Ragas)."""

from __future__ import annotations

from itertools import product
from typing import Any

from ... import metrics
from .. import metric_map
from . import Exercise, close, register
from .changed_code import change_exercise

MIXED_VERDICTS = ["yes", "idk", "no", "yes"]

#: Deck E's Einstein context, and an answer with one claim the context does not mention.
EINSTEIN_CLAIMS = [
    "Einstein was born in Germany.",
    "Einstein was born on 14th March 1879.",
    "Einstein developed the theory of relativity.",
]
EINSTEIN_VERDICTS = ["yes", "yes", "idk"]

AMBIGUOUS_VERDICTS = ["yes", "idk", "idk"]



def _claims(n: int) -> list[str]:
    return [f"claim {i}" for i in range(1, n + 1)]


def _diagnose_mixed(given: Any, correct: float) -> str | None:
    claims = _claims(len(MIXED_VERDICTS))
    ragas = metrics.faithfulness(claims, MIXED_VERDICTS, "ragas").score
    if close(given, ragas):
        return ("That is the Ragas rule (only 'yes' counts). DeepEval counts a claim as faithful unless the "
                "context contradicts it, so the 'idk' claim counts too.")
    yes, no = MIXED_VERDICTS.count("yes"), MIXED_VERDICTS.count("no")
    if close(given, yes / (yes + no)):
        return ("You left the 'idk' claim out of the denominator. It stays in; DeepEval counts it as faithful "
                "in the numerator as well.")
    if close(given, no / len(MIXED_VERDICTS)):
        return "That is the share of contradicted claims; faithfulness counts the others."
    return None


def _diagnose_einstein(given: Any, correct: float) -> str | None:
    deepeval = metrics.faithfulness(EINSTEIN_CLAIMS, EINSTEIN_VERDICTS, "deepeval").score
    if close(given, deepeval):
        return ("The relativity claim is true in the world, but the context does not mention it. Ragas counts "
                "only claims the context supports, so that claim counts 0; 1.0 is DeepEval's answer.")
    return None


def _diagnose_penalized(given: Any, correct: float) -> str | None:
    claims = _claims(len(AMBIGUOUS_VERDICTS))
    lenient = metrics.faithfulness(claims, AMBIGUOUS_VERDICTS, "deepeval").score
    if close(given, lenient):
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


# --- judgement: build a disagreement; say which component failed --------------------------------

_VERDICT_WORDS = ("yes", "no", "idk")


def _verdicts(given: Any) -> list[str] | None:
    if isinstance(given, str) or not isinstance(given, (list, tuple)):
        return None
    if not all(isinstance(v, str) and v.strip().lower() in _VERDICT_WORDS for v in given):
        return None
    return [v.strip().lower() for v in given]


def _scores(verdicts: list[str]) -> tuple[float, float]:
    claims = _claims(len(verdicts))
    return (metrics.faithfulness(claims, verdicts, "deepeval").score,
            metrics.faithfulness(claims, verdicts, "ragas").score)


def _disagrees(given: Any, correct: Any) -> bool:
    verdicts = _verdicts(given)
    return verdicts is not None and len(verdicts) > 0 and _scores(verdicts) == (1.0, 0.0)


def _shortest_disagreement() -> list[str]:
    for n in range(1, 4):
        for combo in product(_VERDICT_WORDS, repeat=n):
            if _disagrees(list(combo), None):
                return list(combo)
    raise AssertionError("no verdict list of up to 3 claims makes DeepEval 1.0 and Ragas 0.0")


def _diagnose_disagreement(given: Any, correct: Any) -> str | None:
    verdicts = _verdicts(given)
    if verdicts is None:
        return "Give a list of verdicts, each 'yes', 'no' or 'idk', e.g. ['yes', 'no']."
    if not verdicts:
        return ("With no claims DeepEval scores 1.0 but Ragas returns NaN (0/0), not 0. Give at least one claim's "
                "verdict.")
    deepeval, ragas = _scores(verdicts)
    if "no" in verdicts:
        return (f"DeepEval scores your list {deepeval:.3f}: a 'no' (the context contradicts the claim) costs under "
                "both rules. Which verdict does DeepEval count and Ragas not?")
    return (f"Ragas scores your list {ragas:.3f}: a 'yes' counts under both rules. Which verdict does DeepEval "
            "count and Ragas not?")


#: Scores of one RAG system on a batch of questions (means).
DIAGNOSIS_SCORES = {"context precision": 0.92, "context recall": 1.0, "faithfulness": 0.38,
                    "answer relevancy (statements)": 0.95}


def _failed_component() -> str:
    worst = min(DIAGNOSIS_SCORES, key=DIAGNOSIS_SCORES.__getitem__)
    return metric_map.get(worst).component


def _diagnose_component(given: Any, correct: str) -> str | None:
    name = given.strip().lower() if isinstance(given, str) else ""
    retriever = [m for m in DIAGNOSIS_SCORES if metric_map.get(m).component == "retriever"]
    if name == "retriever":
        return (f"The retriever's metrics ({', '.join(retriever)}) are high: it fetched what the answer needs, "
                "near the top. The low score is faithfulness, which compares the answer with those very contexts: "
                "the answer says things its context does not support.")
    if name not in ("retriever", "generator"):
        return "Answer 'retriever' or 'generator'."
    return None


register(
    Exercise(
        id="faith-5",
        question=("Design a case: give the verdicts of an answer's claims (a list of 'yes', 'no', 'idk') on which "
                  "DeepEval's default faithfulness is 1.0 and Ragas' is 0.0."),
        answer=_shortest_disagreement, kind="list", accept=_disagrees,
        hint="Look at the table of section 1: which verdict counts 1 for DeepEval and 0 for Ragas?",
        explanation=("Every claim 'idk': the context neither supports nor contradicts it. DeepEval counts it "
                     "(nothing contradicts the answer), Ragas does not (nothing supports it). An answer padded "
                     "with unverifiable claims is where the two libraries part ways most."),
        diagnose=_diagnose_disagreement,
    ),
    Exercise(
        id="faith-6",
        question=(f"A RAG system's mean scores: {DIAGNOSIS_SCORES}. Which component failed: 'retriever' or "
                  "'generator'?"),
        answer=_failed_component, kind="choice",
        hint="metric_map.get(name).component says which component each metric judges. Which score is low?",
        explanation=("The generator: the retriever found the material (high recall) and ranked it well (high "
                     "precision), and the answer is on topic, but it adds claims the context does not support. "
                     "Fix the prompt or the model, not the index."),
        diagnose=_diagnose_component,
    ),
)


# -- faith-7: change a line. Half credit for idk: what does DeepEval score? -------------------------------
register(change_exercise(
    id="faith-7", metric="faithfulness",
    old='counts = {"yes": 1, "idk": 0 if penalize_ambiguous else 1, "no": 0}',
    new='counts = {"yes": 1, "idk": 0.5, "no": 0}',
    case="four claims with the verdicts yes, idk, no, idk, under DeepEval's variant",
    run=lambda core: core.faithfulness(["a", "b", "c", "d"], ["yes", "idk", "no", "idk"], "deepeval")[0],
    hint="DeepEval's table changed; the counting rule still adds the numbers and divides by the claims.",
    explanation=("With idk worth 0.5 the count is 1 + 0.5 + 0 + 0.5 = 2 over 4 claims: 0.5, between DeepEval's "
                 "0.75 (idk counts 1) and Ragas' and penalize_ambiguous_claims' 0.25 (idk counts 0). How a "
                 "metric scores 'the context does not say' is one entry of one table."),
    slips=((lambda: 0.25, "That is Ragas' score (idk counts 0); the changed table gives idk 0.5."),
           (lambda: 2.0, "That is the count; the rule divides it by the 4 claims.")),
))
