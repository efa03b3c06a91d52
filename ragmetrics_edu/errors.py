"""The library's own exceptions.

Every bad input raises :class:`InputError`, a ``ValueError`` whose message names the
argument, what was expected and what was given, so a learner sees at once what to fix.
"""

from __future__ import annotations

import re
from typing import Any


class RagMetricsError(Exception):
    """Base class of every error ragmetrics_edu raises on purpose."""


class InputError(RagMetricsError, ValueError):
    """An argument has the wrong type, length or value.

    ``field`` is the argument's name, ``expected`` says what would be accepted and
    ``got`` shows what was passed (shortened).
    """

    def __init__(self, field: str, expected: str, got: Any = None, *, hint: str = "") -> None:
        self.field = field
        self.expected = expected
        self.got = got
        message = f"{field}: expected {expected}, got {show_value(got)}"
        if hint:
            message += f". {hint}"
        super().__init__(message)


def show_value(value: Any, limit: int = 60) -> str:
    """A short, readable rendering of a bad value for an error message."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the InputError it is part of
        text = f"<unprintable {type(value).__name__}>"
    text = re.sub(r"\s*\n\s*", " ", text)  # a Series or an array prints on several lines: one line here
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{text} ({type(value).__name__})"
