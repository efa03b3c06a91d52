"""Exercises of notebook 14 (judges against people): a system's pass rate from labels alone (Wilson's interval), and
Rogan–Gladen's correction with its assumption."""

from __future__ import annotations

from typing import Any

from ...agreement import corrected_pass_rate, estimate_pass_rate
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
                     f"[0, 1] and keeps close to its level. The judge's {JUDGE_SHARE:.0%} is not used: it is what "
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
                     "0.273 unfaithful: a little under the 0.30 flagged, because the judge flags faithful answers too. The "
                     "figure is only as good as the assumption that TPR and TNR transfer to this system; lesson 14 "
                     "shows rates pooled over other systems missing, and labels alone needs no such assumption."),
        diagnose=_diagnose_share, tolerance=2e-3,
    ),
)
