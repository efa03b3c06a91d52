"""Recordings of a real judge, and a judge that answers from them.

A recording is a JSON file that names the model, the server and the date that made it,
then lists every reply with the request it answered. :class:`ReplayJudge` answers the
same requests with the same replies, so a notebook shows a real model's verdicts
offline, deterministically and at no cost. A reply is found by the request's key (a hash
of the step, its prompt and schema) and the attempt number, so repairs replay too.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping

from .base import Judge, Messages, Reply, Request
from .errors import JudgeError, JudgeSetupError
from .records import CallRecord

FORMAT = "ragmetrics-edu/recording-1"
REQUIRED = ("model", "server", "date", "replies")


def write_recording(path: str | os.PathLike[str], meta: Mapping[str, Any], calls: Iterable[CallRecord]) -> Path:
    """Write a recording: ``meta`` (model, server, ...), today's date and the calls' replies."""
    from .. import __version__
    from .openai_judge import write_atomic

    replies = [{"request_key": c.key, "attempt": c.attempt, "step": c.step, "model": c.model,
                "messages": c.messages, "raw": c.raw, "prompt_tokens": c.prompt_tokens,
                "completion_tokens": c.completion_tokens, "latency_s": round(c.latency_s, 3)} for c in calls]
    document = {"format": FORMAT, **dict(meta),
                "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "library": f"ragmetrics-edu {__version__}", "replies": replies}
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, json.dumps(document, ensure_ascii=False, indent=1))
    return target


class ReplayJudge(Judge):
    """Answers from a recording file (or an already loaded recording dict).

    ``model``, ``server`` and ``date`` say who made the recording; ``notes`` anything the
    recorder added. A request the recording does not hold raises :class:`JudgeError`:
    a recording answers only the exact prompts it was made with.
    """

    def __init__(self, recording: str | os.PathLike[str] | Mapping[str, Any], *, max_concurrency: int = 4) -> None:
        super().__init__()
        if isinstance(recording, Mapping):
            data, self.path = dict(recording), None
        else:
            self.path = Path(recording)
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                raise JudgeSetupError(f"No recording at {self.path}. Record one with "
                                      "OpenAIJudge(...).save_recording(path) after a run.") from None
            except ValueError as exc:
                raise JudgeSetupError(f"{self.path} is not a JSON recording: {exc}") from None
        missing = [k for k in REQUIRED if k not in data]
        if missing or data.get("format", FORMAT) != FORMAT:
            raise JudgeSetupError(f"Not a ragmetrics-edu recording (format {data.get('format')!r}, missing "
                                  f"{', '.join(missing) or 'nothing'}); a recording names its model, server and date.")
        self.model = str(data["model"])
        self.server = str(data["server"])
        self.date = str(data["date"])
        self.notes = str(data.get("notes", ""))
        self.parameters = dict(data.get("parameters") or {})
        self.max_concurrency = max_concurrency
        self._replies: dict[tuple[str, int], dict[str, Any]] = {}
        for entry in data["replies"]:
            self._replies[(entry["request_key"], int(entry.get("attempt", 0)))] = entry

    def describe(self) -> str:
        return f"a replay of {self.model} ({self.server}, recorded {self.date})"

    @property
    def steps(self) -> list[str]:
        """The steps this recording holds replies for."""
        return sorted({e["step"] for e in self._replies.values()})

    def _complete(self, request: Request, messages: Messages, attempt: int) -> Reply:
        entry = self._replies.get((request.key, attempt))
        if entry is None:
            raise JudgeError(
                f"The recording of {self.model} ({self.date}) holds no reply for step '{request.step}' with these "
                f"inputs (attempt {attempt}). A recording answers only the exact prompts it was made with; it holds "
                f"steps: {', '.join(self.steps) or 'none'}. Change nothing in the case, or record again with OpenAIJudge.",
                step=request.step)
        return Reply(text=entry["raw"], model=entry.get("model", self.model), prompt_tokens=entry.get("prompt_tokens"),
                     completion_tokens=entry.get("completion_tokens"), latency_s=float(entry.get("latency_s", 0.0)),
                     source="replay", sent=entry.get("messages"))
