"""Exercises of notebook 15 (aligning a judge with people): a support score and its spans, and where few-shot
examples may come from."""

from __future__ import annotations

from typing import Any

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
