"""Exercises answered by reading a metric's core, ``metrics.show_code(name)``: the learner names one line.

A line is named by its text, copied from the display: the whole line, or any part of it that occurs
in no other line. The lines are those the display shows, the core's own and then those of the shared
cores it uses (the counting rule, the per-k loop, the cosine). The right line is found by a rule the
exercise states (``is_answer``), so the answer follows the code the learner reads and is never typed
in. A wrong line is answered with what that line does instead, when the exercise knows it (``decoys``).
"""

from __future__ import annotations

from typing import Any, Callable

from ... import metrics
from ...errors import show_value
from ...text import squash_spaces as _squash
from . import Exercise

LineRule = Callable[[str], bool]
#: a part of a line shorter than this (spaces not counted) is too little to name it
SHORTEST_PART = 3


def source_lines(metric: str) -> list[str]:
    """The code lines ``metrics.show_code(metric)`` displays: its core's, then each shared core's."""
    code = metrics.show_code(metric)
    return [line for part in (code, *code.shared) for line in part.source.splitlines()]


def find_line(metric: str, is_answer: LineRule) -> str:
    """The one line of the displayed code that ``is_answer`` picks (stripped); an error when it picks none or several."""
    hits = [line.strip() for line in source_lines(metric) if is_answer(line)]
    if len(hits) != 1:
        raise LookupError(f"the rule should pick one line of show_code({metric!r}), it picks {len(hits)}: "
                          f"{hits}; the core changed, update the exercise")
    return hits[0]


def named_line(metric: str, given: Any) -> str | None:
    """The line an answer names (stripped): a line's whole text, or a part of it found in no other line."""
    if not isinstance(given, str):
        return None
    text = _squash(given.strip().strip("`"))
    if len(text.replace(" ", "")) < SHORTEST_PART:
        return None
    lines = [line.strip() for line in source_lines(metric)]
    whole = {line for line in lines if _squash(line) == text}
    parts = {line for line in lines if text in _squash(line)}
    found = whole or parts
    return found.pop() if len(found) == 1 else None


def line_exercise(*, id: str, metric: str, question: str, is_answer: LineRule, hint: str, explanation: str,
                  decoys: tuple[tuple[LineRule, str], ...] = ()) -> Exercise:
    """An exercise whose answer is the line of ``metric``'s displayed code that ``is_answer`` picks.

    ``decoys`` pairs a rule for a tempting wrong line with what that line does instead.
    """

    def accept(given: Any, correct: str) -> bool:
        return named_line(metric, given) == correct

    def diagnose(given: Any, correct: str) -> str:
        line = named_line(metric, given)
        if line is None:
            return (f"Copy one line of code from `metrics.show_code({metric!r})` as a string, the whole line or "
                    f"a part of it found in no other line; {show_value(given)} names no single line.")
        for is_decoy, why in decoys:
            if is_decoy(line):
                return f"`{line}` {why}"
        return f"`{line}` is not it. Hint: {hint}"

    return Exercise(id=id, question=question, answer=lambda: find_line(metric, is_answer), kind="choice",
                    hint=hint, explanation=explanation, diagnose=diagnose, accept=accept)
