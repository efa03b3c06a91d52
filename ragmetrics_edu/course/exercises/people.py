"""Exercises of notebook 14 (judges against people), one per method the lesson computes: the stratified AUC on a toy
table, PPI++'s λ by hand, a Wilson plan near 0.95, a system's pass rate from labels alone (Wilson's interval), and
Rogan–Gladen's correction with its assumption."""

from __future__ import annotations

from typing import Any

from ...agreement import corrected_pass_rate, estimate_pass_rate, labels_needed, roc_auc, stratified_auc_of
from ...agreement.planning import ppi_lambda
from . import Exercise, register

#: rates written for the exercise (not measured): TPR = passing answers the judge passes, TNR = failing ones it flags
TPR, TNR, FLAGGED = 0.85, 0.70, 0.30


def _really_unfaithful() -> float:
    # 1000 answers of a system, the judge passes 70 % of them; a labelled set with the exercise's TPR and TNR
    system = [True] * 700 + [False] * 300
    labelled_failed = [False] * 100 + [True] * 100
    labelled_passes = [True] * 85 + [False] * 15 + [False] * 70 + [True] * 30
    return 1 - corrected_pass_rate(system, labelled_failed, labelled_passes).score


def _diagnose_share(given: Any, correct: float) -> str | None:
    if isinstance(given, (int, float)) and abs(given - FLAGGED) < 1e-9:
        return ("0.30 is the share the judge flags, not the share really unfaithful: the judge misses some "
                "hallucinations and flags some faithful answers. Correct with theta = (p_obs + TNR - 1) / "
                "(TPR + TNR - 1), where p_obs is the share it passes, then take 1 - theta.")
    if isinstance(given, (int, float)) and abs(given - (1 - correct)) < 1e-3:
        return "That is the share really faithful (theta). The question asks for the share unfaithful: 1 - theta."
    return None


#: people-2's labelled sample and the judge's pass rate on every answer (written for the exercise, not measured)
LABELLED, PASSED, JUDGE_SHARE, JUDGED = 60, 51, 0.95, 1000


def _labels_alone() -> tuple[list[bool], list[bool], list[bool]]:
    people = [True] * PASSED + [False] * (LABELLED - PASSED)
    judged = [True] * round(JUDGE_SHARE * JUDGED) + [False] * (JUDGED - round(JUDGE_SHARE * JUDGED))
    return people, people, judged   # labels alone ignores the judge; its verdicts are only there to call the function


def _wilson() -> tuple[float, float]:
    ci = estimate_pass_rate(*_labels_alone(), method="labels", level=0.95).ci
    assert ci is not None
    return ci


def _wilson_low() -> float:
    return _wilson()[0]


def _normal() -> tuple[float, float]:
    """The normal (Wald) interval, share ± 1.96·sqrt(share·(1 - share)/n), for comparison with Wilson's."""
    share = PASSED / LABELLED
    half = 1.959964 * (share * (1 - share) / LABELLED) ** 0.5
    return share - half, share + half


def _compare() -> str:
    """Wilson's and the normal interval on the exercise's numbers, both computed: about as wide, centred apart."""
    (w_lo, w_hi), (n_lo, n_hi) = _wilson(), _normal()
    return (f"Wilson's [{w_lo:.3f}, {w_hi:.3f}] (width {w_hi - w_lo:.3f}, centre {(w_lo + w_hi) / 2:.3f}) against "
            f"the normal [{n_lo:.3f}, {n_hi:.3f}] (width {n_hi - n_lo:.3f}, centre {(n_lo + n_hi) / 2:.3f})")


def _diagnose_wilson(given: Any, correct: float) -> str | None:
    if not isinstance(given, (int, float)) or isinstance(given, bool):
        return None
    share = PASSED / LABELLED
    if abs(given - share) < 1e-3:
        return "That is the estimate itself (people's share). The question asks for the low end of its interval."
    if abs(given - _normal()[0]) < 2e-3:
        return ("That is the normal (Wald) interval, share ± 1.96·sqrt(share·(1 - share)/n). With "
                f"{LABELLED - PASSED} of {LABELLED} labels on the rarer side it is about as wide as Wilson's, but "
                "centred on the share, where Wilson's is pulled toward 0.5; with only a few labels on the rarer "
                "side (near 0 or 1) it grows too narrow and covers less often than it claims. Labels alone uses "
                "Wilson's interval: call agreement.estimate_pass_rate(..., method='labels').")
    if abs(given - JUDGE_SHARE) < 1e-3:
        return ("That is the judge's pass rate. Labels alone reads only people's verdicts on the random sample; the "
                "judge's share is not an estimate of the true pass rate.")
    return None


register(
    Exercise(
        id="people-2",
        question=(f"People label a random sample of {LABELLED} of a system's answers and pass {PASSED} of them. The "
                  f"judge passes {JUDGE_SHARE:.0%} of all {JUDGED} of the system's answers (numbers written for the "
                  "exercise). Estimate the system's pass rate by labels alone: what is the low end of its 95% "
                  "interval? Use agreement.estimate_pass_rate(people, judge_on_labelled, judge_on_all, "
                  "method='labels'). (a number between 0 and 1)"),
        answer=_wilson_low,
        hint=(f"people = [True] * {PASSED} + [False] * {LABELLED - PASSED}; labels alone ignores the judge, so judge_on_labelled and "
              "judge_on_all can be any lists of True/False; read .ci[0]."),
        explanation=(f"Labels alone estimates {PASSED}/{LABELLED} = {PASSED / LABELLED:.2f}, and its interval is "
                     f"Wilson's. Here the two intervals are about equally wide: {_compare()}; Wilson's is shifted "
                     "toward 0.5. They part near 0 or 1 with few labels on the rarer side: there the normal "
                     "interval, share ± 1.96·sqrt(share·(1 - share)/n), shrinks (to zero width when every label "
                     "agrees) and covers the true rate less often than its level, while Wilson's stays inside "
                     "[0, 1] and covers much closer to its level, though it still dips below it for some "
                     f"n. The judge's {JUDGE_SHARE:.0%} is not used: it is what "
                     "the judge passes, not what passes."),
        diagnose=_diagnose_wilson, tolerance=2e-3,
    ),
    Exercise(
        id="people-1",
        question=(f"Your judge flags {FLAGGED:.0%} of a system's answers as unfaithful. On a labelled set it passed "
                  f"{TPR:.0%} of the faithful answers (TPR) and flagged {TNR:.0%} of the unfaithful ones (TNR); "
                  "these rates are written for the exercise. Correct the judge's share by Rogan–Gladen, assuming "
                  "(as the correction must) that those error rates hold on this system's answers: what share of "
                  "the system's answers is really unfaithful? (a number between 0 and 1)"),
        answer=_really_unfaithful,
        hint="p_obs = 1 - 0.30 is the share passed; theta = (p_obs + TNR - 1) / (TPR + TNR - 1) is the share faithful.",
        explanation=("theta = (0.70 + 0.70 - 1) / (0.85 + 0.70 - 1) = 0.40 / 0.55 = 0.727 really faithful, so "
                     "0.273 unfaithful: a little under the 0.30 flagged, because it flags more faithful answers than it misses unfaithful ones. The "
                     "figure is only as good as the assumption that TPR and TNR transfer to this system; lesson 14 "
                     "shows rates pooled over other systems missing, and labels alone needs no such assumption."),
        diagnose=_diagnose_share, tolerance=2e-3,
    ),
)


# -- one exercise per method the lesson computes in view: the stratified AUC, PPI++'s λ, a Wilson plan ----------

#: people-3's toy table, written for the exercise: (model, faithful answers' scores, hallucinated answers' scores)
TOY = (("A", (0.9, 0.8), (0.7,)), ("B", (0.5, 0.3), (0.4, 0.6)))


def _toy_lists() -> tuple[list[bool], list[float], list[str]]:
    failed, scores, models = [], [], []
    for model, faithful, hallucinated in TOY:
        for label, values in ((False, faithful), (True, hallucinated)):
            failed += [label] * len(values)
            scores += list(values)
            models += [model] * len(values)
    return failed, scores, models


def _within() -> float:
    failed, scores, models = _toy_lists()
    return stratified_auc_of(failed, scores, models)["score"]


def _diagnose_within(given: Any, correct: float) -> str | None:
    if not isinstance(given, (int, float)) or isinstance(given, bool):
        return None
    failed, scores, models = _toy_lists()
    per_model = [roc_auc([f for f, m in zip(failed, models, strict=True) if m == name],
                         [s for s, m in zip(scores, models, strict=True) if m == name]) for name, _, _ in TOY]
    if abs(given - roc_auc(failed, scores)) < 2e-3:
        return ("That is the pooled AUC: it also ranks model A's faithful answers against model B's hallucinated "
                "ones. The stratified AUC keeps only the pairs whose two answers one model wrote.")
    if abs(given - sum(per_model) / len(per_model)) < 2e-3:
        return ("That is the mean of the two models' AUCs. The stratified AUC counts pairs: model B has 4 pairs and "
                "model A 2, so B weighs twice as much. Add the pairs ranked right in both, then divide by all 6.")
    return None


#: people-4's summary figures, written for the exercise
PPI_N, PPI_BIG_N, PPI_COV, PPI_VAR_F = 100, 900, 0.06, 0.15


def _lambda() -> float:
    return ppi_lambda(PPI_N, PPI_BIG_N, PPI_VAR_F, PPI_COV)


def _diagnose_lambda(given: Any, correct: float) -> str | None:
    if not isinstance(given, (int, float)) or isinstance(given, bool):
        return None
    if abs(given - PPI_COV / PPI_VAR_F) < 2e-3:
        return (f"Cov / Var = {PPI_COV / PPI_VAR_F:.2f} leaves out the (1 + n/N) factor: the judge's N answers are "
                "themselves a sample, and their noise pulls the best weight down.")
    if abs(given - 1) < 1e-9:
        return "λ = 1 is classic PPI, not the tuned weight; here it would add more of the judge's noise than it removes."
    return None


#: people-5's plan, written for the exercise: a pass rate expected near 0.95, an interval of ± 0.05
PLAN_RATE, PLAN_HALF = 0.95, 0.05


def _plan(interval: str) -> float:
    # labels alone reads no judge: its rates (any, here 0.5) do not enter the plan
    return labels_needed(0.5, 0.5, PLAN_RATE, half_width=PLAN_HALF, method="labels", interval=interval).score


def _diagnose_plan(given: Any, correct: float) -> str | None:
    if isinstance(given, (int, float)) and not isinstance(given, bool) and abs(given - _plan("normal")) < 0.5:
        return (f"{_plan('normal'):.0f} is the normal plan, z²·θ(1 - θ)/h². Near 0.95 the normal interval is too "
                "narrow for its level; plan with Wilson's half-width, which asks for more labels.")
    return None


register(
    Exercise(
        id="people-3",
        question=("A judge scored six answers of two models (numbers written for the exercise). Model A: faithful "
                  "0.9 and 0.8, hallucinated 0.7. Model B: faithful 0.5 and 0.3, hallucinated 0.4 and 0.6. What "
                  "is the stratified AUC, over the pairs of one faithful and one hallucinated answer by the same "
                  "model? (a number between 0 and 1)"),
        answer=_within,
        hint="List model A's pairs, then model B's; a pair is ranked right when the faithful answer scores higher.",
        explanation=("Model A: 2 pairs, both right. Model B: 4 pairs; only 0.5 > 0.4 is right. (2 + 1) / (2 + 4) "
                     "= 0.5: within one model this judge is a coin. Pooled over both models it scores 7/12 = 0.583, "
                     "because model A's answers all score above model B's: the pooled AUC rewards telling the "
                     "models apart. agreement.stratified_auc_of(failed, scores, models) computes it."),
        diagnose=_diagnose_within, tolerance=2e-3,
    ),
    Exercise(
        id="people-4",
        question=(f"PPI++ with n = {PPI_N} labelled answers and N = {PPI_BIG_N} judged ones; on them Cov(people, "
                  f"judge) = {PPI_COV} and Var(judge) = {PPI_VAR_F} (written for the exercise). What weight λ "
                  "does PPI++ give the judge? (a number between 0 and 1)"),
        answer=_lambda,
        hint="λ = Cov(y, f) / ((1 + n/N) · Var(f)), clipped to [0, 1].",
        explanation=(f"λ = {PPI_COV} / ((1 + {PPI_N}/{PPI_BIG_N}) · {PPI_VAR_F}) = {_lambda():.3f}. The tuned λ "
                     "makes the estimate's variance smallest, which is why PPI++ is asymptotically never wider than "
                     "labels alone (λ = 0 is among its choices); classic PPI fixes λ = 1 and has no such "
                     "guarantee. agreement.planning.ppi_lambda computes it."),
        diagnose=_diagnose_lambda, tolerance=2e-3,
    ),
    Exercise(
        id="people-5",
        question=(f"You expect a system to pass about {PLAN_RATE:.0%} of its answers and want people's share with a "
                  f"95% Wilson interval of at most ± {PLAN_HALF}. How many random answers must people label? Use "
                  "agreement.labels_needed(tpr, tnr, pass_rate, half_width=..., method='labels', "
                  "interval='wilson'); labels alone reads no judge, so any tpr and tnr do. (a whole number)"),
        answer=lambda: _plan("wilson"),
        hint="Read .score of the result; then compare it with interval='normal'.",
        explanation=(f"Wilson's plan asks for {_plan('wilson'):.0f} labels; the normal formula z²·θ(1 - θ)/h² "
                     f"gives {_plan('normal'):.0f}, too few near 0.95, where the normal interval is narrower than "
                     "its level warrants."),
        diagnose=_diagnose_plan, tolerance=0.25,
    ),
)
