"""Exercises of notebook 14 (judges against people): a corrected pass rate, and what the base rate does to
precision."""

from __future__ import annotations

from typing import Any

from ...agreement import corrected_pass_rate
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


register(
    Exercise(
        id="people-1",
        question=(f"Your judge flags {FLAGGED:.0%} of a system's answers as unfaithful. On a labelled set it passed "
                  f"{TPR:.0%} of the faithful answers (TPR) and flagged {TNR:.0%} of the unfaithful ones (TNR); "
                  "these rates are written for the exercise. What share of the system's answers is really "
                  "unfaithful? (a number between 0 and 1)"),
        answer=_really_unfaithful,
        hint="p_obs = 1 - 0.30 is the share passed; theta = (p_obs + TNR - 1) / (TPR + TNR - 1) is the share faithful.",
        explanation=("theta = (0.70 + 0.70 - 1) / (0.85 + 0.70 - 1) = 0.40 / 0.55 = 0.727 really faithful, so "
                     "0.273 unfaithful: a little under the 0.30 flagged, because the judge flags faithful answers too."),
        diagnose=_diagnose_share, tolerance=2e-3,
    ),
)
