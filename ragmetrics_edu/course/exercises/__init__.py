"""Exercises the notebooks end with, checked by :func:`check`.

A wrong answer gets an explanation of the likely slip (dividing by the wrong count,
counting ``idk`` the other way, forgetting Ragas' epsilon...), not only a "no". Each
notebook's exercises live in their own module here (``context_precision.py``, ...)
and register themselves; the correct answers are computed by the library, never typed.

    from ragmetrics_edu import exercises
    exercises.check("cp-1", 0.5)      # Feedback: correct or why not
    exercises.hint("cp-1")
    exercises.solution("cp-1")        # the worked answer
"""

from __future__ import annotations

import difflib
import importlib
import math
import pkgutil
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from ...errors import InputError, show_value

Diagnoser = Callable[[Any, Any], "str | None"]


@dataclass(frozen=True)
class Exercise:
    """One question: how to compute its answer, and how to explain a wrong one.

    ``kind`` is ``number`` (compared within ``tolerance``), ``list`` (element-wise),
    ``choice`` (a string, case-insensitive) or ``bool``. ``diagnose(given, correct)``
    returns an explanation for a recognised mistake, or None. ``accept(given, correct)``,
    when set, decides instead of the comparison by kind: for questions with more than one
    right answer (any best order) or more than one way to write it (0/1, yes/no, True/False).
    """

    id: str
    question: str
    answer: Callable[[], Any]
    kind: str = "number"
    hint: str = ""
    explanation: str = ""
    diagnose: Diagnoser | None = None
    tolerance: float = 1e-3
    accept: Callable[[Any, Any], bool] | None = None


@dataclass(frozen=True)
class Feedback:
    """The verdict on an answer, shown as Markdown in a notebook."""

    exercise: str
    correct: bool | None
    message: str

    def __bool__(self) -> bool:
        return bool(self.correct)

    def __str__(self) -> str:
        mark = {True: "Correct", False: "Not yet", None: "No answer yet"}[self.correct]
        return f"[{self.exercise}] {mark}: {self.message}"

    def _repr_markdown_(self) -> str:
        mark = {True: "✅ **Correct.**", False: "❌ **Not yet.**", None: "✏️ **No answer yet.**"}[self.correct]
        return f"{mark} {self.message}"


_REGISTRY: dict[str, Exercise] = {}
_LOADED = False


def register(*items: Exercise) -> None:
    """Add exercises (called by the modules of this package at import)."""
    for item in items:
        if item.kind not in ("number", "list", "choice", "bool"):
            raise InputError("kind", "number, list, choice or bool", item.kind)
        _REGISTRY[item.id] = item


def _load_all() -> None:
    global _LOADED
    if not _LOADED:
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        _LOADED = True


def ids(prefix: str = "") -> list[str]:
    """The registered exercise ids (optionally only those starting with ``prefix``)."""
    if not isinstance(prefix, str):
        raise InputError("prefix", "the start of an exercise id (a string), e.g. 'cp-'", prefix)
    _load_all()
    return sorted(i for i in _REGISTRY if i.startswith(prefix))


def get(exercise_id: str) -> Exercise:
    """The exercise with this id; an unknown id names the nearest ids, or all of them."""
    _load_all()
    if not isinstance(exercise_id, str) or exercise_id not in _REGISTRY:  # checked before hashing it
        known = sorted(_REGISTRY)
        text = exercise_id if isinstance(exercise_id, str) else ""
        family = [i for i in known if text and i.split("-")[0] == text.split("-")[0]]
        near = difflib.get_close_matches(text, known, n=3, cutoff=0.6) if text else []
        if family:
            expected = f"one of {', '.join(family)} (every id: exercises.ids())"
        elif near:
            expected = f"an exercise id (did you mean {' or '.join(near)}? every id: exercises.ids())"
        else:
            expected = f"one of {', '.join(known)}"
        raise InputError("exercise_id", expected, exercise_id)
    return _REGISTRY[exercise_id]


def as_number(value: Any) -> float | None:
    """A learner's numeric answer as a float (a number, or a string like '0.5' or '1/2'); None otherwise."""
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, (int, float, Fraction)):
            return float(value)
        if isinstance(value, str):
            return float(Fraction(value.strip()))
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return None


def close(given: Any, value: float, tolerance: float = 1e-3) -> bool:
    """Whether an answer is a number (as :func:`as_number` reads it) within ``tolerance`` of ``value``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError("value", "the number an answer is compared with", value)
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not tolerance >= 0:
        raise InputError("tolerance", "a tolerance (a number >= 0)", tolerance)
    g = as_number(given)
    return g is not None and abs(g - value) < tolerance


def as_name(given: Any) -> str | None:
    """A learner's name of a choice (a variant, a measure): stripped, lower case, spaces and hyphens as ``_``."""
    return given.strip().lower().replace(" ", "_").replace("-", "_") if isinstance(given, str) else None


def _same(kind: str, given: Any, correct: Any, tolerance: float) -> bool:
    if kind == "number":
        g, c = as_number(given), float(correct)
        return g is not None and (math.isclose(g, c, abs_tol=tolerance) or (math.isnan(c) and math.isnan(g)))
    if kind == "list":
        try:
            items = list(given)
        except TypeError:
            return False
        return len(items) == len(correct) and all(
            _same("number" if isinstance(c, (int, float)) and not isinstance(c, bool) else "choice", g, c, tolerance)
            for g, c in zip(items, correct, strict=True))
    if kind == "bool":
        return isinstance(given, bool) and given == correct
    return isinstance(given, str) and given.strip().lower() == str(correct).strip().lower()


def _not_a_bool(answer: Any) -> str:
    """Why a yes/no question wants Python's True or False, whatever was given instead."""
    if isinstance(answer, str) and answer.strip().lower() in ("true", "false", "yes", "no"):
        return (f"You gave the string {show_value(answer)}. Answer with Python's True or False, without quotes: "
                "a non-empty string is not a truth value here.")
    return f"Answer with Python's True or False (without quotes); got {show_value(answer)}."


def check(exercise_id: str, answer: Any) -> Feedback:
    """Compare ``answer`` with the computed one; explain a wrong answer.

    ``None`` (the notebooks' placeholder) gives a reminder, not an error. No hint is shown unless asked for
    with :func:`hint`, so a notebook run top to bottom gives nothing away.
    """
    item = get(exercise_id)
    ask = f"`exercises.hint({exercise_id!r})` gives a hint"
    if answer is None or answer is ...:
        return Feedback(exercise_id, None, f"Replace `None` with your answer and run the cell again; {ask}.")
    correct = item.answer()
    right = item.accept(answer, correct) if item.accept else _same(item.kind, answer, correct, item.tolerance)
    if right:
        return Feedback(exercise_id, True, item.explanation or "Well done.")
    specific = item.diagnose(answer, correct) if item.diagnose else None
    if item.kind == "number" and as_number(answer) is None:
        specific = specific or f"Give a number (a float like 0.5 or a fraction string like '1/2'); got {show_value(answer)}."
    if item.kind == "bool" and not isinstance(answer, bool):
        specific = specific or _not_a_bool(answer)
    message = specific or f"That is not it: {ask}."
    return Feedback(exercise_id, False, f"{message} Stuck? `exercises.solution({exercise_id!r})` shows the worked answer.")


def hint(exercise_id: str) -> str:
    """The exercise's hint, shown only when asked for."""
    return get(exercise_id).hint


def solution(exercise_id: str) -> str:
    """The correct answer and why, computed now by the library."""
    item = get(exercise_id)
    return f"Answer: {item.answer()!r}. {item.explanation}".strip()


__all__ = ["Exercise", "Feedback", "as_name", "as_number", "check", "close", "get", "hint", "ids", "register",
           "solution"]
