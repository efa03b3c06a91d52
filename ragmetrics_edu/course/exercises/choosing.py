"""Exercises of notebook 12 (choosing and using metrics): which metric, which leg, ship or not (the paired gate)."""

from __future__ import annotations

from typing import Any

from ...text import squash_spaces
from .. import gate_cases, metric_map
from . import Exercise, register

_CANDIDATES = ("context recall", "faithfulness", "answer correctness", "context entity recall")


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
    names = (correct, "groundedness", "faithfulness", "word_overlap", "word overlap")   # the leg, or either design
    return isinstance(given, str) and squash_spaces(given, lower=True) in names


def _diagnose_leg(given: Any, correct: str) -> str | None:
    name = given.strip().lower() if isinstance(given, str) else ""
    if "relevan" in name:
        return ("The answers are on topic, so a relevance leg would score them well. Made-up facts are claims the "
                "retrieved passages do not support: which leg links the contexts to the answer?")
    return None


_ANSWERS = {"pass": "pass", "fail": "fail", "cannot tell": "cannot tell", "cant tell": "cannot tell", "ship": "ship",
            "dont ship": "don't ship", "do not ship": "don't ship"}   # keys without apostrophes: can't, don't
_DECISION_OF = {"pass": "ship", "fail": "don't ship", "cannot tell": "don't ship"}


def _read_answer(given: Any) -> str | None:
    return _ANSWERS.get(squash_spaces(given, lower=True).replace("'", "")) if isinstance(given, str) else None


def _accept_verdict(given: Any, correct: str) -> bool:
    """The gate's verdict, or the decision it leads to (CANNOT TELL blocks like FAIL: "don't ship" for both)."""
    return _read_answer(given) in (correct, _DECISION_OF[correct])


def _verdict(name: str) -> Any:
    return lambda: gate_cases.case_gate(name).verdict.lower()


def _means(name: str) -> tuple[float, float]:
    case = gate_cases.CASES[name]
    return (sum(case["accepted"]) / len(case["accepted"]), sum(case["candidate"]) / len(case["candidate"]))


def _diagnose_verdict(name: str) -> Any:
    def diagnose(given: Any, correct: str) -> str | None:
        found = _read_answer(given)
        if found is None:
            return "Answer PASS, FAIL or CANNOT TELL (or the decision: ship, don't ship)."
        case, result = gate_cases.CASES[name], gate_cases.case_gate(name)
        accepted, candidate = _means(name)
        low, high = result.ci or (float("nan"), float("nan"))
        paired = (f"Paired, on the same {result.n} questions: {result.better} better, {result.worse} worse, "
                  f"{result.same} the same; the interval of candidate - accepted, judge noise included, is "
                  f"[{low:+.3f}, {high:+.3f}] against -margin {-case['margin']:g}.")
        if found in ("pass", "ship") and candidate >= case["bar"]:
            return (f"The candidate's mean, {candidate:.3f}, clears the bar {case['bar']:g}, but the bar is not the "
                    f"question: the accepted version scored {accepted:.3f} on the same questions. " + paired)
        if found in ("fail", "don't ship") and candidate < case["bar"] and correct == "pass":
            return (f"The candidate's mean, {candidate:.3f}, misses the bar {case['bar']:g}, but so did the accepted "
                    f"version ({accepted:.3f}): these questions are hard, and the candidate is no worse. " + paired)
        if found == "fail" and correct == "cannot tell":
            sampling = result.sampling_ci or (float("nan"), float("nan"))
            return (f"The means fell by {accepted - candidate:.3f}, more than the margin, and the sign test says the "
                    f"candidate is worse where it changed ({result.worse} worse, {result.better} better, p = "
                    f"{result.sign_p:.3f}). But by how much? The bootstrap interval of the mean drop alone, "
                    f"[{sampling[0]:+.3f}, {sampling[1]:+.3f}], straddles -margin: the data allow a drop smaller "
                    f"than the margin as well as a larger one (the judge's per-run shift adds ±"
                    f"{result.noise_band:.3f}). " + paired)
        if found == "cannot tell":
            return "The interval lies entirely on one side of -margin, so the gate can tell. " + paired
        return paired
    return diagnose


def _case_question(name: str, reading: str) -> str:
    case = gate_cases.CASES[name]
    accepted, candidate = _means(name)
    noise = ("a judge at temperature 0 (repeat runs gave identical scores)" if case["temperature"] == "0" else
             f"a judge at temperature {case['temperature']} (its measured run-to-run noise)")
    return (f"Constructed case '{name}': on the same {len(case['accepted'])} questions the last accepted version "
            f"scores a mean of {accepted:.3f} and the candidate {candidate:.3f}; the team's bar is {case['bar']:g} "
            f"and its margin {case['margin']:g}, with {noise}. {reading} What does the paired gate "
            f"(gate_cases.case_gate('{name}')) say: PASS, FAIL or CANNOT TELL? (The build ships only on PASS.)")


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
        explanation=("Groundedness, our faithfulness: the answer is checked against the contexts. evaluate()'s "
                     "default 'word_overlap' does it by counting words (the share of the answer's content words "
                     "found in the contexts, no judge: the design chosen on the evidence of notebook 14); "
                     "'faithfulness' checks each claim with a judge (DeepEval's and Ragas' design). Answer relevance would pass "
                     "these answers, since they are on topic."),
        diagnose=_diagnose_leg,
    ),
    Exercise(
        id="choose-3",
        question=_case_question("clears the bar", "The naive reading: the candidate clears the bar, ship it."),
        answer=_verdict("clears the bar"), kind="choice", accept=_accept_verdict,
        hint="print(gate_cases.case_gate('clears the bar')) and read the per-question counts and the interval.",
        explanation=("FAIL, so don't ship. The candidate is worse than the accepted version on every question and the "
                     "whole interval lies below -margin. A bar hides a regression whenever the accepted version was "
                     "well above it: compare with what you had, on the same questions."),
        diagnose=_diagnose_verdict("clears the bar"),
    ),
    Exercise(
        id="choose-4",
        question=_case_question("misses the bar", "The naive reading: the candidate misses the bar, block it."),
        answer=_verdict("misses the bar"), kind="choice", accept=_accept_verdict,
        hint="print(gate_cases.case_gate('misses the bar')): how many questions changed at all?",
        explanation=("PASS, so ship. The questions are hard for both versions; the candidate changed 3 of 20 scores, "
                     "and the interval of the difference lies above -margin. A bar would block a change no worse than "
                     "the margin (and would have blocked the accepted version too)."),
        diagnose=_diagnose_verdict("misses the bar"),
    ),
    Exercise(
        id="choose-5",
        question=_case_question("drop near the margin", "The naive reading: the mean fell by more than the "
                                "margin, block it."),
        answer=_verdict("drop near the margin"), kind="choice", accept=_accept_verdict,
        hint="print(gate_cases.case_gate('drop near the margin')) and compare its interval with -margin.",
        explanation=("CANNOT TELL, so don't ship. Six scores fell and none rose, so the candidate is worse where it "
                     "changed, but the interval of the mean drop straddles -margin: 20 questions cannot tell whether "
                     "the drop is larger than the margin. Add questions (the interval narrows), or run repeats if the "
                     "judge's per-run shift is large. CANNOT TELL blocks like a FAIL (ship only on PASS): the naive "
                     "reading reached the same decision for another reason, taking a drop beyond the margin as proven."),
        diagnose=_diagnose_verdict("drop near the margin"),
    ),
)
