"""Exercises of notebook 10 (LLM as judge): agreement and kappa, diagnose a failure, decide on a switch."""

from __future__ import annotations

from typing import Any

from ... import data
from ...agreement import cohen_kappa
from ...judges.replay import ReplayJudge
from ...studies.deck_agreement import metric_agreement
from ..deck_cases import run_deck_cases
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
        answer=lambda: cohen_kappa(_JUDGE, _DECK, level=None).score,
        hint=("Start from the observed agreement p_o (your answer to judge-1, as a fraction); chance agreement "
              "p_e = P(both yes) + P(both no) from each rater's own yes/no rates; kappa = (p_o - p_e) / (1 - p_e)."),
        explanation="Both say yes 4 times in 10, so p_e = 0.4·0.4 + 0.6·0.6 = 0.52 and kappa = (0.8 - 0.52) / 0.48 ≈ 0.583.",
        diagnose=_diagnose_kappa,
    ),
)


#: the deck case judge-3 asks about, and the failure kinds the course names
_DIAGNOSED = "E-faith-einstein [low]"
_KINDS = ("malformed output", "merged", "split", "wrong text", "extraction error", "wrong verdict")


def _runs() -> list[Any]:
    return run_deck_cases(ReplayJudge(data.recording("qwen2.5-coder-1.5b_deck-examples")))


def _einstein_kind() -> str:
    run = next(r for r in _runs() if r.case.label == _DIAGNOSED)
    return run.failures()[0].category


def _diagnose_kind(given: Any, correct: str) -> str | None:
    name = given.strip().lower() if isinstance(given, str) else ""
    if name == "wrong verdict":
        return ("The verdict on the judge's one claim is right: 'born in Germany on 20 March 1879' is contradicted "
                "(the context says 14 March). What went wrong is the claim itself: it holds two of the deck's "
                "claims, one true and one false, so one verdict stands for both.")
    if name == "extraction error":
        return ("Nothing was invented or dropped: both facts of the answer are in the judge's claim. Count the "
                "claims: the deck has two, the judge one.")
    if name and name not in _KINDS:
        return "Answer with one of the kinds in the failure table: " + ", ".join(_KINDS) + "."
    return None


def _too_few_cases() -> int:
    return int(metric_agreement(_runs(), "context_precision")["cases"])


def _accept_no(given: Any, correct: Any) -> bool:
    return isinstance(given, str) and given.strip().lower() in ("no", "don't switch", "do not switch", "not yet")


def _diagnose_switch(given: Any, correct: Any) -> str | None:
    if isinstance(given, str) and given.strip().lower() in ("yes", "switch"):
        n = _too_few_cases()
        return (f"0.60 against 0.47 is measured on {n} cases. Items inside a case are not independent, so the "
                f"evidence is {n} units, under the ten the course asks before it gives any interval: the data "
                "cannot tell the two apart, in either direction. Decide on a larger labelled set with a paired "
                "comparison (notebook 11).")
    return None


register(
    Exercise(
        id="judge-3",
        question=("Diagnose. Deck E's Einstein answer makes two claims; the deck scores its faithfulness 0.5, the "
                  "recorded judge 0.0. Which kind of failure explains the drop (malformed output, merged, split, "
                  "wrong text, extraction error or wrong verdict)?"),
        answer=_einstein_kind, kind="choice",
        hint="Compare the number of claims the judge extracted with the deck's, then read the judge's claim.",
        explanation=("Merged: the judge made one claim of 'born in Germany' (supported) and 'born on 20 March "
                     "1879' (contradicted) and called it contradicted, so one supported claim of two became none "
                     "of one. The score cannot show it; only the items do."),
        diagnose=_diagnose_kind,
    ),
    Exercise(
        id="judge-4",
        question=("Decide. On the decks' context-precision cases the judge's kappa with the deck is 0.60 and word "
                  "overlap's 0.47. A colleague proposes to replace word overlap by the judge in your CI now. "
                  "Switch (yes) or not yet (no)?"),
        answer=lambda: "no", kind="choice", accept=_accept_no,
        hint="How many independent cases is that comparison made on, and what does the course give under ten?",
        explanation=("Not yet: the comparison rests on fewer than ten cases, too few to tell the judge from word "
                     "overlap. Compare them paired, on the same cases of a larger labelled set, with an interval "
                     "(notebook 11), then decide."),
        diagnose=_diagnose_switch,
    ),
)
