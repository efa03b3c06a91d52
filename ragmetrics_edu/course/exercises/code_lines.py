"""Exercises answered by reading a metric's core, ``metrics.show_code(name)``: the learner names one line.

A line is named by its number as the display shows it (line 1 is the first line of
``show_code(name).source``) or by its text: the whole line copied, or any part of it that occurs
in no other line. The right line is found in the core's source by a rule the exercise states
(``is_answer``), so the answer follows the code the learner reads and is never typed in.
A wrong line is answered with what that line does instead, when the exercise knows it (``decoys``).
"""

from __future__ import annotations

from typing import Any, Callable

from ...errors import show_value
from . import Exercise

LineRule = Callable[[str], bool]
#: a part of a line shorter than this (spaces not counted) is too little to name it
SHORTEST_PART = 3


def source_lines(metric: str) -> list[str]:
    """The lines of the core ``metrics.show_code(metric)`` shows, numbered from 1 by their position + 1."""
    from ... import metrics  # the metrics package loads after the exercises' registry, on first use

    return metrics.show_code(metric).source.splitlines()


def _squash(text: str) -> str:
    return " ".join(text.split())


def find_line(metric: str, is_answer: LineRule) -> int:
    """The number of the one line of the core that ``is_answer`` picks; an error when it picks none or several."""
    hits = [n for n, line in enumerate(source_lines(metric), start=1) if is_answer(line)]
    if len(hits) != 1:
        raise LookupError(f"the rule should pick one line of show_code({metric!r}).source, it picks {len(hits)}: "
                          f"{hits}; the core changed, update the exercise")
    return hits[0]


def named_line(metric: str, given: Any) -> int | None:
    """The line number an answer names: a whole number in range, a line's text, or a part of one line only."""
    lines = source_lines(metric)
    if isinstance(given, str) and given.strip().isdigit():
        given = int(given.strip())
    if isinstance(given, float) and given.is_integer():
        given = int(given)
    if isinstance(given, int) and not isinstance(given, bool):
        return given if 1 <= given <= len(lines) else None
    if not isinstance(given, str):
        return None
    text = _squash(given.strip().strip("`"))
    if not text:
        return None
    whole = [n for n, line in enumerate(lines, start=1) if _squash(line) == text]
    if len(whole) == 1:
        return whole[0]
    parts = [n for n, line in enumerate(lines, start=1) if text in _squash(line)]
    if len(text.replace(" ", "")) >= SHORTEST_PART and len(parts) == 1:
        return parts[0]
    return None


def line_exercise(*, id: str, metric: str, question: str, is_answer: LineRule, hint: str, explanation: str,
                  decoys: tuple[tuple[LineRule, str], ...] = ()) -> Exercise:
    """An exercise whose answer is the line of ``metric``'s core that ``is_answer`` picks.

    ``decoys`` pairs a rule for a tempting wrong line with what that line does instead.
    """

    def accept(given: Any, correct: int) -> bool:
        return named_line(metric, given) == correct

    def diagnose(given: Any, correct: int) -> str:
        lines = source_lines(metric)
        n = named_line(metric, given)
        if n is None:
            return (f"Name one line of `metrics.show_code({metric!r})`: its number as the display shows it "
                    f"(1 to {len(lines)}), or its text copied from the display; {show_value(given)} names "
                    "no single line.")
        shown = f"Line {n} (`{lines[n - 1].strip()}`)"
        for is_decoy, why in decoys:
            if is_decoy(lines[n - 1]):
                return f"{shown} {why}"
        return f"{shown} is not it. Hint: {hint}"

    return Exercise(id=id, question=question, answer=lambda: find_line(metric, is_answer), kind="number",
                    hint=hint, explanation=explanation, diagnose=diagnose, accept=accept)
