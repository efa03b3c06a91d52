"""Errors a judge raises on purpose, each written for a learner to act on.

:class:`JudgeError` covers a reply that could not be used (malformed JSON, the wrong
number of verdicts) and carries the raw text; :class:`JudgeSetupError` a judge that
cannot start (no key, no ``openai`` package, an unknown recording);
:class:`JudgeAPIError` a request the server refused or never answered.
"""

from __future__ import annotations

from typing import Any

from ..errors import RagMetricsError


class JudgeError(RagMetricsError):
    """A judge's reply could not be turned into verdicts.

    ``raw`` is the last reply's text, ``raws`` every reply of the failed exchange (the
    first answer and the answer to the repair request), ``step`` the step that failed and
    ``calls`` the call records made before the failure.
    """

    def __init__(self, message: str, *, raw: str | None = None, raws: list[str] | None = None,
                 step: str | None = None, calls: list[Any] | None = None) -> None:
        super().__init__(message)
        self.raw = raw
        self.raws = list(raws) if raws is not None else ([raw] if raw is not None else [])
        self.step = step
        self.calls = list(calls or [])


class ReplyFormatError(RagMetricsError, ValueError):
    """A reply's text is not one JSON object (:func:`~ragmetrics_edu.judges.parse_json_reply`).

    A ``ValueError`` too, and its message is what the repair request quotes to the model."""


class JudgeSetupError(JudgeError):
    """The judge cannot be used as configured (missing key, package or recording)."""


class JudgeAPIError(JudgeError):
    """The server refused a request or did not answer in time.

    ``status`` is the HTTP status (None for timeouts and connection failures) and
    ``cause`` the original exception from the ``openai`` client.
    """

    def __init__(self, message: str, *, status: int | None = None, cause: BaseException | None = None,
                 step: str | None = None, calls: list[Any] | None = None) -> None:
        super().__init__(message, step=step, calls=calls)
        self.status = status
        self.cause = cause
