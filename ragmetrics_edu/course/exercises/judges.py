"""Exercises of notebook 10 (LLM as judge): agreement and kappa."""

from __future__ import annotations

from typing import Any

from ...agreement import cohen_kappa
from . import Exercise, as_number, register

_JUDGE = ["yes", "yes", "no", "no", "yes", "no", "no", "no", "yes", "no"]
_DECK = ["yes", "yes", "no", "no", "no", "no", "no", "no", "yes", "yes"]


def _diagnose_percent(given: Any, correct: float) -> str | None:
    g = as_number(given)
    if g is not None and abs(g * 100 - correct) < 1e-6:
        return (f"That is the agreement as a fraction ({g:g}). The question asks for percent (0-100): "
                "multiply the fraction by 100.")
    return None


def _diagnose_kappa(given: Any, correct: float) -> str | None:
    g = as_number(given)
    observed = sum(a == b for a, b in zip(_JUDGE, _DECK, strict=True)) / len(_DECK)
    if g is not None and abs(g - observed) < 1e-3:
        return (f"That is the observed agreement p_o = {observed:.2f}. Kappa subtracts the agreement expected "
                "by chance, p_e, and divides by what is left: (p_o - p_e) / (1 - p_e).")
    return None


register(
    Exercise(
        id="judge-1",
        question=f"A judge says {_JUDGE}; the deck says {_DECK}. What is the percent agreement (0-100)?",
        answer=lambda: 100 * sum(a == b for a, b in zip(_JUDGE, _DECK, strict=True)) / len(_DECK),
        hint="Count the positions where the two lists say the same thing.",
        explanation="8 of the 10 verdicts agree: 80%.",
        diagnose=_diagnose_percent,
    ),
    Exercise(
        id="judge-2",
        question="Same two lists: what is Cohen's kappa?",
        answer=lambda: cohen_kappa(_JUDGE, _DECK, ci=None).value,
        hint=("Start from the observed agreement p_o (your answer to judge-1, as a fraction); chance agreement "
              "p_e = P(both yes) + P(both no) from each rater's own yes/no rates; kappa = (p_o - p_e) / (1 - p_e)."),
        explanation="Both say yes 4 times in 10, so p_e = 0.4·0.4 + 0.6·0.6 = 0.52 and kappa = (0.8 - 0.52) / 0.48 ≈ 0.583.",
        diagnose=_diagnose_kappa,
    ),
)
