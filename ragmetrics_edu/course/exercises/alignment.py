"""Exercises of notebook 15 (aligning a judge with people): a support score, where few-shot examples and a
cross-validated fit may take labels from, Platt scaling, a reliability table's ECE, span F1 and a Wilson plan."""

from __future__ import annotations

from typing import Any

from ...agreement import labels_needed, span_agreement
from ...agreement.calibration import reliability
from ...agreement.combine import Combination
from ...metrics.support import support_score
from ...text import sentence_spans
from . import Exercise, register

#: an answer and the p(yes) a judge gave each of its sentences (written for the exercise, not recorded)
ANSWER = "The museum opened in 1905. It holds 40,000 paintings. Entry is free on Sundays."
SUPPORTS = (0.91, 0.22, 0.64)


def _lowest() -> float:
    return support_score(ANSWER, sentence_spans(ANSWER), list(SUPPORTS)).score


def _diagnose_lowest(given: Any, correct: float) -> str | None:
    mean = sum(SUPPORTS) / len(SUPPORTS)
    if isinstance(given, (int, float)) and abs(given - mean) < 1e-3:
        return ("That is the mean support. The design's default score is its least supported sentence: one "
                "unsupported sentence is enough to make an answer unfaithful.")
    if isinstance(given, (int, float)) and abs(given - max(SUPPORTS)) < 1e-9:
        return "That is the best supported sentence; the score is the least supported one."
    return None


def _source() -> str:
    return "other"


def _diagnose_source(given: Any, correct: str) -> str | None:
    if isinstance(given, str) and given.strip().lower() in ("same", "own"):
        return ("Examples from the answer's own source would show the judge people's verdicts on sentences about the "
                "very passages it is checking, often the same claims: its dev figure would then measure memory of the "
                "labels, not judgement, and would not hold on test, where no labels exist.")
    if isinstance(given, str) and given.strip().lower() == "test":
        return "Test labels are only for the one final score: any test row in a prompt leaks the answer."
    return None


register(
    Exercise(
        id="align-1",
        question=(f"A judge gave the three sentences of the answer {ANSWER!r} these p(yes): "
                  f"{', '.join(str(p) for p in SUPPORTS)} (written for the exercise). What is the support design's "
                  "default score for the answer (a number between 0 and 1)?"),
        answer=_lowest, hint="The default aggregate is 'min': the least supported sentence.",
        explanation=("The least supported sentence decides: min(0.91, 0.22, 0.64) = 0.22. Whether that sentence, 'It "
                     "holds 40,000 paintings.', becomes a span depends on the threshold, which is chosen on dev, never "
                     "read as 0.5 (a small judge's p(yes) is not calibrated). Below the threshold chosen on dev (notebook "
                     "15 prints support_min's), it is a span with confidence 1 - 0.22 = 0.78."),
        diagnose=_diagnose_lowest,
    ),
    Exercise(
        id="align-2",
        question=("You score a dev answer with few-shot examples taken from people's labels. Where may the examples "
                  "come from: 'same' (the answer's own source), 'other' (other dev sources) or 'test'?"),
        answer=_source, kind="choice", diagnose=_diagnose_source,
        hint="What would the figure measure if the judge had seen people's verdicts on these very passages?",
        explanation=("Other dev sources only: a dev answer must not see its own source's labels (its figure would "
                     "flatter the design), and no test row may enter any prompt. judges.examples.pick_examples "
                     "enforces both."),
    ),
)


# --- one exercise per method the lesson computes in view (Platt scaling, ECE, span F1, a Wilson plan) ---

#: a Platt fit written for the exercise: logit p(unsupported) = PLATT_A + PLATT_B * p(yes) (not fitted on data)
PLATT_A, PLATT_B, PLATT_P = 0.8, -2.0, 0.15


def _platt() -> float:
    line = Combination(signals=("p_yes",), means={"p_yes": 0.0}, scales={"p_yes": 1.0}, weights={"p_yes": PLATT_B},
                       intercept=PLATT_A, cross_validated=[], groups=0)
    return line.score({"p_yes": [PLATT_P]})[0]   # 1 - p(unsupported): the scaled p(supported)


def _diagnose_platt(given: Any, correct: float) -> str | None:
    if isinstance(given, (int, float)) and abs(given - (1 - correct)) < 1e-3:
        return ("That is p(unsupported), what the fitted line models; the scaled p(yes) is the probability the "
                "sentence is supported, 1 minus it.")
    return None


#: a reliability table written for the exercise: (sentences, their p, how many people left unmarked)
TABLE = ((40, 0.15, 12), (50, 0.45, 25), (10, 0.85, 6))


def _ece() -> float:
    p = [v for n, value, _ in TABLE for v in [value] * n]
    supported = [k < true for n, _, true in TABLE for k in range(n)]
    return float(reliability(p, supported)["ece"])


def _diagnose_ece(given: Any, correct: float) -> str | None:
    gaps = [abs(value - true / n) for n, value, true in TABLE]
    if isinstance(given, (int, float)) and abs(given - sum(gaps) / len(gaps)) < 1e-3:
        return "That is the plain mean of the bins' gaps; ECE weights each gap by its bin's share of the sentences."
    return None


#: an answer's characters people marked and the judge marked (written for the exercise)
PEOPLE_SPAN, JUDGE_SPAN = (40, 60), (50, 80)


def _span_f1() -> float:
    return float(span_agreement([[JUDGE_SPAN]], [[PEOPLE_SPAN]]).score)


def _diagnose_span(given: Any, correct: float) -> str | None:
    both = max(0, min(PEOPLE_SPAN[1], JUDGE_SPAN[1]) - max(PEOPLE_SPAN[0], JUDGE_SPAN[0]))
    precision, recall = both / (JUDGE_SPAN[1] - JUDGE_SPAN[0]), both / (PEOPLE_SPAN[1] - PEOPLE_SPAN[0])
    if isinstance(given, (int, float)) and min(abs(given - precision), abs(given - recall)) < 1e-3:
        return "That is precision or recall alone; F1 is their harmonic mean, 2PR / (P + R)."
    return None


#: the pass rate and half-width of the Wilson-plan exercise
WILSON_RATE, WILSON_HALF = 0.95, 0.05


def _wilson(interval: str = "wilson") -> float:
    # people's share alone does not use the judge's rates: any TPR and TNR give the same plan
    return float(labels_needed(0.5, 0.5, WILSON_RATE, half_width=WILSON_HALF, method="labels",
                               interval=interval).score)


def _diagnose_wilson(given: Any, correct: float) -> str | None:
    if isinstance(given, (int, float)) and abs(given - _wilson("normal")) < 0.5:
        return ("That is the normal approximation's plan, z²θ(1−θ)/h². Near a pass rate of 1 it asks for too few "
                "labels: find the smallest n whose Wilson half-width is at most the target (the lesson's cell "
                "does it in a loop).")
    return None


register(
    Exercise(
        id="align-3",
        question=(f"Platt scaling fitted logit p(unsupported) = {PLATT_A} − {abs(PLATT_B)} · p(yes) (written for the "
                  f"exercise). A sentence has p(yes) = {PLATT_P}. What is its scaled p(supported)? Compute it with "
                  "numpy as the lesson's Platt cell does."),
        answer=_platt, diagnose=_diagnose_platt,
        hint="Put p(yes) into the line, turn the logit into a probability with 1 / (1 + exp(-logit)), then take "
             "1 minus it.",
        explanation=(f"logit = {PLATT_A} − {abs(PLATT_B)} × {PLATT_P} = {PLATT_A + PLATT_B * PLATT_P:.2f}; p(unsupported) "
                     f"= 1 / (1 + exp(-{PLATT_A + PLATT_B * PLATT_P:.2f})) = {1 - _platt():.4f}; p(supported) = "
                     f"{_platt():.4f}. The raw p(yes) said {PLATT_P}: the fit moves it toward what dev's labels say."),
    ),
    Exercise(
        id="align-4",
        question=("A reliability table (written for the exercise): " + "; ".join(
            f"{n} sentences at p = {value}, {true} of them unmarked by people" for n, value, true in TABLE)
                  + ". What is its expected calibration error (ECE)?"),
        answer=_ece, diagnose=_diagnose_ece,
        hint="Per bin: |mean p - share unmarked|, weighted by the bin's sentences over all sentences.",
        explanation=("Gaps 0.15, 0.05 and 0.25, weighted 40, 50 and 10 of 100 sentences: (6 + 2.5 + 2.5) / 100 = "
                     "0.11. agreement.calibration.reliability computes it."),
    ),
    Exercise(
        id="align-5",
        question=(f"People marked characters {PEOPLE_SPAN[0]} to {PEOPLE_SPAN[1]} (end excluded) of an answer; the "
                  f"judge marked {JUDGE_SPAN[0]} to {JUDGE_SPAN[1]}. What is the character-level span F1?"),
        answer=_span_f1, diagnose=_diagnose_span,
        hint="Count the characters both marked, then precision = both / judge's, recall = both / people's.",
        explanation=("Both marked 50 to 60: 10 characters. Precision 10/30, recall 10/20, F1 = 2·(1/3)(1/2) / "
                     "(1/3 + 1/2) = 0.4. agreement.span_agreement computes it over many answers."),
    ),
    Exercise(
        id="align-6",
        question=(f"A system passes about {WILSON_RATE:.0%} of its answers. How many labels does people's share "
                  f"alone need for a 95 % Wilson interval of half-width {WILSON_HALF} (planned at k/n = "
                  f"{WILSON_RATE})? Change the lesson's labels cell and run it."),
        answer=_wilson, diagnose=_diagnose_wilson,
        hint="Start from the normal plan and increase n until Wilson's half-width is at most the target.",
        explanation=(f"The normal approximation plans {_wilson('normal'):.0f}; Wilson's interval, which is better "
                     f"near a pass rate of 1, needs {_wilson():.0f}. agreement.labels_needed(..., method='labels', "
                     "interval='wilson') gives it."),
    ),
)
