"""Recordings of a real judge, and a judge that answers from them.

A recording is a JSON file that names the model, the server and the date that made it,
then lists every reply with the request it answered. :class:`ReplayJudge` answers the
same requests with the same replies, so a notebook shows a real model's verdicts
offline, deterministically and at no cost. A reply is found by the request's key (a hash
of the step, its prompt and schema) and the attempt number, so repairs replay too.

Recordings made with the version-1 prompts (before the texts under evaluation were put
in data blocks, see :mod:`.prompting`) name their replies by the version-1 key; a request
also carries that key, so those recordings keep replaying. Each call record then holds
the messages the model was really sent (the version-1 prompt).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from ..errors import InputError
from ..validate import NAME_MAX, PATH_MAX, integer
from .base import Judge, Messages, Reply, Request
from .errors import JudgeError, JudgeSetupError
from .files import FORMAT, RecordingProblem, check_recording, read_json, write_recording

__all__ = ["FORMAT", "ReplayJudge", "write_recording"]


class ReplayJudge(Judge):
    """Answers from a recording file (or an already loaded recording dict).

    ``model``, ``server`` and ``date`` say who made the recording; ``notes`` anything the
    recorder added. A request the recording does not hold raises :class:`JudgeError`:
    a recording answers only the exact prompts it was made with. A recording is data: every
    field is checked when it loads, and one that is not well formed raises
    :class:`JudgeSetupError` naming the file, the entry and the field (``replies[3].raw``).
    ``recording`` that is not a path or a dict, or a path too long to be one, is an InputError.
    """

    def __init__(self, recording: str | os.PathLike[str] | Mapping[str, Any], *, max_concurrency: int = 4) -> None:
        super().__init__()
        max_concurrency = integer("max_concurrency", max_concurrency, low=1, expected="an integer >= 1")
        if isinstance(recording, Mapping):
            data: Any = dict(recording)
            self.path: Path | None = None
            where = "the recording"
        elif isinstance(recording, (str, os.PathLike)) and str(recording).strip():
            if len(str(recording)) > PATH_MAX or any(len(p) > NAME_MAX for p in str(recording).split(os.sep)):
                raise InputError("recording", "the path of a recording file (str or Path)",
                                 f"a {len(str(recording))}-character string", hint="too long to be a path")
            self.path = Path(recording)
            where = str(self.path)
            data = _read(self.path)
        else:
            raise InputError("recording", "the path of a recording file (str or Path) or a loaded recording dict",
                             recording)
        self._replies = _check_recording(data, where)
        self.model = str(data["model"])
        self.server = str(data["server"])
        self.date = str(data["date"])
        self.notes = str(data.get("notes") or "")
        self.parameters = dict(data.get("parameters") or {})
        self.max_concurrency = max_concurrency

    def describe(self) -> str:
        return f"a replay of {self.model} ({self.server}, recorded {self.date})"

    @property
    def steps(self) -> list[str]:
        """The steps this recording holds replies for."""
        return sorted({e["step"] for e in self._replies.values()})

    def _complete(self, request: Request, messages: Messages, attempt: int) -> Reply:
        entry = self._replies.get((request.key, attempt))
        if entry is None and request.legacy_key is not None:
            entry = self._replies.get((request.legacy_key, attempt))
        if entry is None:
            raise JudgeError(
                f"The recording of {self.model} ({self.date}) holds no reply for step '{request.step}' with these "
                f"inputs (attempt {attempt}). A recording answers only the exact prompts it was made with; it holds "
                f"steps: {', '.join(self.steps) or 'none'}. Change nothing in the case, or record again with OpenAIJudge.",
                step=request.step)
        return Reply(text=entry["raw"], model=str(entry.get("model") or self.model),
                     prompt_tokens=entry.get("prompt_tokens"), completion_tokens=entry.get("completion_tokens"),
                     latency_s=float(entry.get("latency_s") or 0.0), source="replay", sent=entry.get("messages"),
                     logprobs=entry.get("logprobs"))


def _read(path: Path) -> Any:
    if not path.exists():
        raise JudgeSetupError(f"No recording at {path}. Record one with "
                              "OpenAIJudge(...).save_recording(path) after a run.")
    if path.is_dir():
        raise JudgeSetupError(f"{path} is a folder; a recording is one .json file.")
    return read_json(path, lambda what: JudgeSetupError(f"{path} is not a usable JSON recording: {what}."))


def _check_recording(data: Any, where: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The replies by (request key, attempt), or JudgeSetupError naming the file and the first field wrong."""
    try:
        return check_recording(data)
    except RecordingProblem as problem:
        raise JudgeSetupError(f"{where} is not a usable ragmetrics-edu recording: {problem}. A recording is the "
                              "JSON object OpenAIJudge.save_recording writes (model, server, date, replies).") from None

