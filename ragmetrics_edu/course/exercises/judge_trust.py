"""Exercises of notebook 11 (can you trust the judge?): decide on a gate, compute kappa, decide on a claim.

Every answer is computed from the recordings: the comparisons are paired over the 22 pairs of the project's
labelled set (labels written by language-model passes), their intervals resampling pairs
(:func:`ragmetrics_edu.course.judge_study.report.compare`).
"""

from __future__ import annotations

from typing import Any

from ...agreement import cohen_kappa
from ...studies.judge_study.paired import compare, fmt_compare
from ...studies.judge_study.tables import SAME_ITEMS_PASS
from ..judge_study import report as judge_agreement  # its pairwise() binds the shipped labelled pairs
from ..judge_study.passes import available, rows
from ..judge_study.report import verdicts
from . import Exercise, register


def _comparison(metric: str) -> dict[str, Any]:
    found = verdicts(SAME_ITEMS_PASS[metric], metric)
    return compare(found["judge_agrees"], found["baseline_agrees"], found["groups"])


def _gate_metric() -> str:
    """The metric on which the judge agrees with the labels more often than word overlap, paired over pairs with
    the interval above 0 (the one with the highest lower end), or "none"."""
    best, best_low = "none", 0.0
    for metric in SAME_ITEMS_PASS:
        if SAME_ITEMS_PASS[metric] not in available():
            continue
        found = _comparison(metric)
        if found["ci"] is not None and found["ci"][0] > best_low:
            best, best_low = metric, found["ci"][0]
    return best


def _diagnose_gate(given: Any, correct: str) -> str | None:
    name = given.strip().lower().replace(" ", "_") if isinstance(given, str) else ""
    if name in SAME_ITEMS_PASS and name != correct:
        found = verdicts(SAME_ITEMS_PASS[name], name)
        return (f"{name}: the judge's kappa is {found['judge'].score:.2f} and word overlap's "
                f"{found['baseline'].score:.2f}, but the question is whether the judge beats counting words on the "
                f"same items. Paired over pairs, judge - overlap in the share of items agreeing with the labels is "
                f"{fmt_compare(_comparison(name))}. Two separate intervals that overlap, or a higher kappa alone, "
                "do not answer that; the paired difference does.")
    return None


_P_O, _P_E = 0.90, 0.82


def _kappa_from_parts() -> float:
    # 100 items: 90 agree; rater A says yes 90 times; the judge says yes 90 times -> p_e = 0.9^2 + 0.1^2 = 0.82
    first = ["yes"] * 90 + ["no"] * 10
    judge = ["yes"] * 85 + ["no"] * 5 + ["yes"] * 5 + ["no"] * 5
    return cohen_kappa(first, judge, level=None).score


def _diagnose_kappa(given: Any, correct: float) -> str | None:
    if isinstance(given, (int, float)) and abs(given - _P_O) < 1e-3:
        return "That is the percent agreement p_o. Kappa subtracts chance: (p_o - p_e) / (1 - p_e)."
    if isinstance(given, (int, float)) and abs(given - (_P_O - _P_E)) < 1e-3:
        return "You subtracted chance but forgot to divide by what chance leaves, 1 - p_e."
    return None


def _pairs_show_judge_better() -> bool:
    found = judge_agreement.pairwise(rows("qwen_same_items"))
    return compare(found["judge_credit"], found["baseline_credit"])["verdict"] == "judge better"


def _diagnose_pairs(given: Any, correct: bool) -> str | None:
    if given is True and correct is False:
        found = judge_agreement.pairwise(rows("qwen_same_items"))
        return (f"The judge's pairwise accuracy ({found['judge'].score:.2f}) is above word overlap's "
                f"({found['baseline'].score:.2f}), but the paired difference over the {found['pairs']} pairs is "
                f"{fmt_compare(compare(found['judge_credit'], found['baseline_credit']))}. An interval that "
                "includes 0 means the set cannot tell them apart: a higher point estimate is not a win.")
    return None


register(
    Exercise(
        id="trust-1",
        question=("Decide. You may let one judged metric gate a CI run, but only where the 1.5B judge beats counting "
                  "words. Going by the paired differences printed with the agreement figure (judge - overlap, paired "
                  "over pairs; tables.agreement_table(shipped)), on which "
                  "metric does the judge agree with the project's labels more often than word overlap, with an "
                  "interval above 0? Answer context_precision, context_recall, faithfulness, answer_relevancy, "
                  "or 'none'."),
        answer=_gate_metric, kind="choice",
        hint=("Read the 'judge - overlap' column, not the kappas: a metric qualifies only when the lower end of the "
              "paired interval is above 0."),
        explanation=("A gate needs a judge that beats the free baseline on the same items, and 'beats' is a paired "
                     "difference whose interval excludes 0, with the independent unit (the pair) resampled. On this "
                     "set a higher kappa is not enough; and even a win here is measured on the project's own "
                     "language-model labels of hard constructed cases, so check it again on data like yours."),
        diagnose=_diagnose_gate,
    ),
    Exercise(
        id="trust-2",
        question=("Diagnose. A vendor writes: 'our judge agrees with the annotators on 90 of 100 verdicts'. Both "
                  "the judge and the annotators said 'yes' to 90 of the 100, so two raters guessing at those rates "
                  "would agree p_e = 0.9*0.9 + 0.1*0.1 = 0.82 of the time. How much of the 0.90 is agreement beyond "
                  "chance? Give Cohen's kappa, then say whether '90% agreement' shows a good judge."),
        answer=_kappa_from_parts, kind="number", tolerance=5e-3,
        hint="kappa = (p_o - p_e) / (1 - p_e); check with agreement.cohen_kappa on two lists built to match.",
        explanation=("(0.90 - 0.82) / 0.18 = 0.444: moderate, so '90% agreement' alone does not show a good judge. "
                     "When one class dominates, two raters who both mostly say 'yes' agree often by chance, so high "
                     "percent agreement is cheap; kappa credits only the agreement beyond that. Ask for kappa (with "
                     "its interval) and for how often each side says 'yes'."),
        diagnose=_diagnose_kappa,
    ),
    Exercise(
        id="trust-3",
        question=("Decide. A colleague writes: 'the library's faithfulness judge orders the answer pairs better than "
                  "word overlap: its pairwise accuracy is higher'. Does this set support the claim? Answer True or False, after "
                  "paired.compare on the per-pair credits of judge_agreement.pairwise("
                  "judge_study.rows('qwen_same_items'), cases, judge_eval.final_labels()) (the names sections 2 and 3 "
                  "import)."),
        answer=_pairs_show_judge_better, kind="bool",
        hint="Compare found['judge_credit'] with found['baseline_credit'] pair by pair, and read the interval.",
        explanation=("A claim that one scorer beats another is a paired difference on the same pairs with its "
                     "interval. With 22 pairs, a difference of a pair or two is within what another sample could "
                     "give: when the interval includes 0, say the set cannot tell them apart."),
        diagnose=_diagnose_pairs,
    ),
)
