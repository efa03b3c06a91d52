"""The library's own exceptions.

Every bad input raises :class:`InputError`, a ``ValueError`` whose message names the
argument, what was expected and what was given, so a learner sees at once what to fix.
"""

from __future__ import annotations

import re
import sys
from typing import Any

#: True in Pyodide: the course's browser site (JupyterLite), where no socket, thread or subprocess is
#: available. What needs one says so in one line (:func:`refuse_in_browser`).
IN_BROWSER = sys.platform == "emscripten"


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


class NotInBrowser(RagMetricsError, RuntimeError):
    """What cannot run in a browser (a live judge, a neural embedder, the judge server), said in one line.

    In a notebook it shows as that one line, with no traceback (IPython's ``_render_traceback_``).
    """

    def _render_traceback_(self) -> list[str]:
        return [f"NotInBrowser: {self}"]


def refuse_in_browser(what: str, instead: str) -> None:
    """Raise :class:`NotInBrowser` when running in Pyodide: ``what`` cannot run here; ``instead`` says what to do."""
    if IN_BROWSER:
        raise NotInBrowser(f"{what} cannot run in a browser (JupyterLite/Pyodide has no network sockets, threads "
                           f"or subprocesses): {instead}")


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
