"""Exercises of notebook 10 (LLM as judge): diagnose a failure, decide on a switch."""

from __future__ import annotations

from typing import Any

from ... import data
from ...judges.replay import ReplayJudge
from ...studies.deck_agreement import metric_agreement
from ..deck_cases import run_deck_cases
from . import Exercise, register

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
