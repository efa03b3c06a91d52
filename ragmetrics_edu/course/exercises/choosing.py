"""Exercises of notebook 12 (choosing and using metrics): which metric, which leg, does the gate pass."""

from __future__ import annotations

from typing import Any

from ...ci_gate import gate
from .. import metric_map
from . import Exercise, register

_CANDIDATES = ("context recall", "faithfulness", "answer correctness", "context entity recall")
_GATE_SCORES = [0.9, 0.4, 0.8, 0.5, 0.6, 0.7, 0.3, 0.9]
_GATE_THRESHOLD = 0.70


def _reference_free_candidate() -> str:
    free = [name for name in _CANDIDATES if metric_map.get(name).reference_free]
    assert len(free) == 1, free
    return free[0]


def _diagnose_reference(given: Any, correct: str) -> str | None:
    name = given.strip().lower() if isinstance(given, str) else None
    if name in _CANDIDATES and name != correct:
        needs = ", ".join(metric_map.get(name).needs)
        return (f"{name} reads {needs}: it needs a reference answer, which live traffic does not have. "
                "Look for the metric whose inputs are only what the system itself produced.")
    return None


def _groundedness() -> str:
    leg = next(leg for leg in metric_map.triad() if leg["leg"] == "groundedness")
    return leg["ours"]


def _accept_groundedness(given: Any, correct: str) -> bool:
    return isinstance(given, str) and given.strip().lower() in (correct, "groundedness")


def _diagnose_leg(given: Any, correct: str) -> str | None:
    name = given.strip().lower() if isinstance(given, str) else ""
    if "relevan" in name:
        return ("The answers are on topic, so a relevance leg would score them well. Made-up facts are claims the "
                "retrieved passages do not support: which leg links the contexts to the answer?")
    return None


def _gate_passes() -> bool:
    return gate(_GATE_SCORES, _GATE_THRESHOLD).passed


def _diagnose_gate(given: Any, correct: bool) -> str | None:
    mean = sum(_GATE_SCORES) / len(_GATE_SCORES)
    if given is False and correct:
        return (f"The mean, {mean:.3f}, is below {_GATE_THRESHOLD}, but the gate allows the bootstrap tolerance: "
                "compare mean + tolerance (the top of the interval) with the threshold, not the mean alone.")
    return None


register(
    Exercise(
        id="choose-1",
        question=("Your assistant answers live user questions: you have the question, the retrieved contexts and "
                  "the answer, but no reference answer. Which one of " + ", ".join(_CANDIDATES) + " can you run?"),
        answer=_reference_free_candidate, kind="choice",
        hint="metric_map.table() has a 'ref-free' column; 'needs' shows R for a reference answer.",
        explanation=("Faithfulness reads only the contexts and the answer. Context recall, context entity recall and "
                     "answer correctness all compare against a reference the product never sees."),
        diagnose=_diagnose_reference,
    ),
    Exercise(
        id="choose-2",
        question=("Users say the answers are on topic and read well, but some state facts that are in none of the "
                  "retrieved passages. Which of our metrics measures the triad leg that catches this?"),
        answer=_groundedness, kind="choice", accept=_accept_groundedness,
        hint="metric_map.triad_table(): which leg links the contexts to the answer?",
        explanation=("Groundedness, our faithfulness: each claim of the answer is checked against the contexts. "
                     "Answer relevance would pass these answers, since they are on topic."),
        diagnose=_diagnose_leg,
    ),
    Exercise(
        id="choose-3",
        question=(f"A CI gate scores 8 cases: {_GATE_SCORES}, threshold {_GATE_THRESHOLD}, tolerance from a 95% "
                  "bootstrap interval of the mean (ci_gate.gate). Does the gate pass (True or False)?"),
        answer=_gate_passes, kind="bool",
        hint="Run ci_gate.gate(scores, 0.70) and read mean, high and tolerance before you decide.",
        explanation=(f"The mean is {sum(_GATE_SCORES) / len(_GATE_SCORES):.4f}, below {_GATE_THRESHOLD}, but with 8 cases its interval reaches above the threshold: the drop "
                     "is within what another draw of 8 questions could give, so the gate passes. To make the gate "
                     "stricter, score more cases (the interval narrows), not a bare mean >= threshold."),
        diagnose=_diagnose_gate,
    ),
)
