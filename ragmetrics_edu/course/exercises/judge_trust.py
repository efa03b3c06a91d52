"""Exercises of notebook 11 (can you trust the judge?): gate, kappa vs agreement, baseline, repeat runs."""

from __future__ import annotations

from typing import Any

from ...agreement import cohen_kappa
from .. import judge_agreement
from ..judge_report import SAME_ITEMS_PASS, verdicts
from ..judge_study import available, rows
from . import Exercise, register

_METRICS = ("context_precision", "context_recall", "faithfulness", "answer_relevancy")


def _verdicts(metric: str) -> dict[str, Any]:
    return verdicts(SAME_ITEMS_PASS[metric], metric)


def _gate_metric() -> str:
    """The metric whose judge kappa has the highest lower bound, among those above their baseline's kappa."""
    best, best_low = "", -2.0
    for metric in _METRICS:
        if SAME_ITEMS_PASS[metric] not in available():
            continue
        found = _verdicts(metric)
        low = found["judge"].ci[0]
        if found["judge"].value > found["baseline"].value and low > best_low:
            best, best_low = metric, low
    return best


def _diagnose_gate(given: Any, correct: str) -> str | None:
    name = given.strip().lower().replace(" ", "_") if isinstance(given, str) else ""
    if name in _METRICS and name != correct:
        found = _verdicts(name)
        low, high = found["judge"].ci
        return (f"{name}: the judge's kappa is {found['judge'].value:.2f} [{low:.2f}, {high:.2f}] and word overlap's "
                f"{found['baseline'].value:.2f}. A gate needs a judge that beats counting words, and the lower end "
                "of its interval is what you can rely on.")
    return None


_P_O, _P_E = 0.90, 0.82


def _kappa_from_parts() -> float:
    # 100 items: 90 agree; human says yes 90 times; judge says yes 90 times -> p_e = 0.9^2 + 0.1^2 = 0.82
    human = ["yes"] * 90 + ["no"] * 10
    judge = ["yes"] * 85 + ["no"] * 5 + ["yes"] * 5 + ["no"] * 5
    return cohen_kappa(human, judge, n_resamples=200).value


def _diagnose_kappa(given: Any, correct: float) -> str | None:
    if isinstance(given, (int, float)) and abs(given - _P_O) < 1e-3:
        return "That is the percent agreement p_o. Kappa subtracts chance: (p_o - p_e) / (1 - p_e)."
    if isinstance(given, (int, float)) and abs(given - (_P_O - _P_E)) < 1e-3:
        return "You subtracted chance but forgot to divide by what chance leaves, 1 - p_e."
    return None


def _judge_beats_overlap_on_pairs() -> bool:
    found = judge_agreement.pairwise(rows("qwen_same_items"))
    return bool(found["judge"].value > found["baseline"].value)


register(
    Exercise(
        id="trust-1",
        question=("You may let one judged metric gate a CI run (fail the build below a threshold). Going by "
                  "judge_report.agreement_table(), which metric's judge would you trust for it? Answer with its name "
                  "(context_precision, context_recall, faithfulness or answer_relevancy)."),
        answer=_gate_metric, kind="choice",
        hint="Look for a judge kappa above the word-overlap kappa, then compare the lower ends of the intervals.",
        explanation=("Trust the judge whose agreement with people is both above the word-overlap baseline and high at "
                     "the low end of its interval; gate with a tolerance (notebook 12's ci_gate), and re-check the "
                     "agreement when you change the judge model or its prompt."),
        diagnose=_diagnose_gate,
    ),
    Exercise(
        id="trust-2",
        question=("A judge and a person agree on 90 of 100 verdicts (p_o = 0.90), but both say 'yes' to 90 of them, "
                  "so chance alone agrees p_e = 0.9*0.9 + 0.1*0.1 = 0.82. What is Cohen's kappa? (Then say to "
                  "yourself why kappa falls while percent agreement stays high.)"),
        answer=_kappa_from_parts, kind="number", tolerance=5e-3,
        hint="kappa = (p_o - p_e) / (1 - p_e); check with agreement.cohen_kappa on two lists built to match.",
        explanation=("(0.90 - 0.82) / 0.18 = 0.444. When one class dominates, two raters who both mostly say 'yes' "
                     "agree often by chance, so high percent agreement is cheap; kappa credits only the agreement "
                     "beyond that."),
        diagnose=_diagnose_kappa,
    ),
    Exercise(
        id="trust-3",
        question=("On the labelled pairs (a supported and an unsupported answer to the same question), does the "
                  "recorded 1.5B judge's library faithfulness order more pairs correctly than word overlap does? "
                  "(True or False; judge_agreement.pairwise on judge_study.rows('qwen_same_items'))"),
        answer=_judge_beats_overlap_on_pairs, kind="bool",
        hint="Compare found['judge'].value with found['baseline'].value, and look at both intervals.",
        explanation=("Read the intervals too: with about twenty pairs, a difference of a few pairs is within what "
                     "another sample could give, so 'beats the baseline' needs the interval, not just the point."),
    ),
)
