"""What the judges write to disk, in one place: atomic writes and recording files.

Both the on-disk cache of :class:`~ragmetrics_edu.judges.OpenAIJudge` and the
recordings :class:`~ragmetrics_edu.judges.ReplayJudge` reads are written here, so the
judge modules import this module and never each other.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from .. import __version__
from ..errors import InputError
from ..validate import path as validate_path
from .records import CallRecord

FORMAT = "ragmetrics-edu/recording-1"


def read_json(path: Path, problem: Callable[[str], Exception]) -> Any:
    """The JSON value in ``path``; a file that cannot be read, or is not UTF-8 JSON, raises
    ``problem(what went wrong)`` (the caller says which file it is and what to do)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise problem(f"it is not UTF-8 text ({exc.reason})") from None
    except ValueError as exc:
        raise problem(f"it is not JSON ({exc})") from None
    except OSError as exc:
        raise problem(f"it cannot be read ({exc.strerror or exc})") from None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so readers never see half a file (tempfile + os.replace)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class RecordingProblem(ValueError):
    """What is wrong with a recording: ``field`` names it (``replies[3].raw``), the message says how."""

    def __init__(self, field: str, message: str, value: Any = None) -> None:
        super().__init__(f"{field} {message}" if field else message)
        self.field = field
        self.value = value


def check_recording(data: Any) -> dict[tuple[str, int], dict[str, Any]]:
    """Every field of a recording checked: its replies by (request key, attempt), or
    :class:`RecordingProblem` naming the first field that is wrong. Both the reader
    (:class:`~ragmetrics_edu.judges.ReplayJudge`) and the writer (:func:`write_recording`) use it,
    so a file written is a file that loads."""
    def bad(field: str, what: str, value: Any = None) -> RecordingProblem:
        return RecordingProblem(field, what, value)

    if not isinstance(data, dict):
        raise bad("", f"expected a JSON object, got {type(data).__name__}")
    if data.get("format", FORMAT) != FORMAT:
        raise bad("format", f"is {clip(data.get('format'))}, not {FORMAT!r}")
    missing = [k for k in ("model", "server", "date", "replies") if k not in data]
    if missing:
        raise bad("", f"missing {', '.join(missing)}; a recording names its model, server and date")
    for name in ("model", "server", "date"):
        if not isinstance(data[name], str) or not data[name].strip():
            raise bad(name, f"must be a non-empty string, got {clip(data[name])}", data[name])
    for name in ("notes", "base_url", "library"):
        if data.get(name) is not None and not isinstance(data[name], str):
            raise bad(name, f"must be a string (or absent), got {clip(data[name])}", data[name])
    for name in ("parameters", "gguf", "pass"):
        if data.get(name) is not None and not isinstance(data[name], dict):
            raise bad(name, f"must be an object (or absent), got {type(data[name]).__name__} {clip(data[name])}")
    for name in ("machine_time_s", "wall_time_s"):
        if data.get(name) is not None and not _seconds(data[name]):
            raise bad(name, f"must be a number of seconds >= 0 (or absent), got {clip(data[name])}", data[name])
    if not isinstance(data["replies"], list):
        raise bad("replies", f"must be a list, got {type(data['replies']).__name__}")
    replies: dict[tuple[str, int], dict[str, Any]] = {}
    for i, entry in enumerate(data["replies"]):
        at = f"replies[{i}]"
        if not isinstance(entry, dict):
            raise bad(at, f"must be an object, got {type(entry).__name__}")
        for name in ("request_key", "step", "raw"):
            if not isinstance(entry.get(name), str):
                raise bad(f"{at}.{name}", f"must be a string, got {clip(entry.get(name))}", entry.get(name))
        if entry.get("model") is not None and not isinstance(entry["model"], str):
            raise bad(f"{at}.model", f"must be a string (or absent), got {clip(entry['model'])}", entry['model'])
        attempt = entry.get("attempt", 0)
        if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 0:
            raise bad(f"{at}.attempt", f"must be an integer >= 0, got {clip(attempt)}", attempt)
        messages = entry.get("messages")
        if messages is not None and not (isinstance(messages, list) and all(
                isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)
                for m in messages)):
            raise bad(f"{at}.messages", "must be a list of {role, content} objects")
        for name in ("prompt_tokens", "completion_tokens"):
            value = entry.get(name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise bad(f"{at}.{name}", f"must be a whole number or null, got {clip(value)}", value)
        latency = entry.get("latency_s", 0.0)
        if latency is not None and not _seconds(latency):
            raise bad(f"{at}.latency_s", f"must be a number of seconds, got {clip(latency)}", latency)
        if entry.get("logprobs") is not None:
            problem = logprobs_problem(entry["logprobs"])
            if problem:
                raise bad(f"{at}.logprobs", problem, entry["logprobs"])
        replies[(entry["request_key"], attempt)] = entry
    return replies


def logprobs_problem(value: Any) -> str | None:
    """None when ``value`` is a reply's token probabilities as stored ({token, logprob, top}), else the problem."""
    if not isinstance(value, list):
        return f"must be a list of tokens, got {clip(value)}"
    for i, token in enumerate(value):
        if not (isinstance(token, dict) and isinstance(token.get("token"), str) and _logprob(token.get("logprob"))
                and isinstance(token.get("top"), list)
                and all(isinstance(t, list) and len(t) == 2 and isinstance(t[0], str) and _logprob(t[1])
                        for t in token["top"])):
            return f"token {i} must be {{token: str, logprob: number <= 0, top: [[str, number], ...]}}, got {clip(token)}"
    return None


def _logprob(value: Any) -> bool:
    return (not isinstance(value, bool) and isinstance(value, (int, float)) and not math.isnan(value)
            and value <= 0)


def _seconds(value: Any) -> bool:
    """A finite number >= 0 (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value) and value >= 0
    except OverflowError:  # an int too large for a float
        return False


def clip(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut short: a malformed field can be huge."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the problem it is part of
        text = f"<unprintable {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_recording_file(path: Path) -> bool:
    """Whether ``path`` holds a recording (a JSON object in this format), so writing over it loses nothing else."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def write_recording(path: str | os.PathLike[str], meta: Mapping[str, Any], calls: Iterable[CallRecord]) -> Path:
    """Write a recording: ``meta`` (model, server, ...), today's date and the calls' replies.

    The document is checked as :class:`~ragmetrics_edu.judges.ReplayJudge` will read it
    (:func:`check_recording`) before anything is written, so a bad ``meta`` or call never
    replaces a good file; the write is atomic; and an existing file is replaced only when it
    is itself a recording (a path that names a folder, or a file of anything else, is an InputError)."""
    target = validate_path("path", path, exists=False, expected="a file path (str or Path) for the recording")
    if target.is_file() and not _is_recording_file(target):
        raise InputError("path", "a new file or an existing recording", str(target),
                         hint="that file holds something else, and a recording is never written over it")
    if not isinstance(meta, Mapping) or not all(isinstance(k, str) for k in meta):
        raise InputError("meta", "a dict naming the model and server", meta)
    try:
        json.dumps(dict(meta), allow_nan=False)
    except (TypeError, ValueError):
        raise InputError("meta", "a dict of JSON values (strings, numbers, lists, dicts)", meta) from None
    if isinstance(calls, (str, bytes, Mapping)) or not isinstance(calls, Iterable):
        raise InputError("calls", "a list of CallRecord", calls)
    try:
        calls = list(calls)
    except Exception as exc:  # noqa: BLE001 - an iterable that breaks is bad input
        raise InputError("calls", "a list of CallRecord", calls, hint=f"reading it failed ({type(exc).__name__})") from None
    for i, c in enumerate(calls):
        if not isinstance(c, CallRecord):
            raise InputError(f"calls[{i}]", "a CallRecord (from judge.calls)", c)

    replies = [{"request_key": c.key, "attempt": c.attempt, "step": c.step, "model": c.model,
                "messages": c.messages, "raw": c.raw, "prompt_tokens": c.prompt_tokens,
                "completion_tokens": c.completion_tokens,
                "latency_s": round(c.latency_s, 3) if _seconds(c.latency_s) else c.latency_s,
                **({"logprobs": c.logprobs} if c.logprobs is not None else {})} for c in calls]
    document = {"format": FORMAT, **dict(meta),
                "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "library": f"ragmetrics-edu {__version__}", "replies": replies}
    try:
        check_recording(document)
    except RecordingProblem as problem:
        field = problem.field
        if field.startswith("replies["):  # replies[i].x is the i-th call's x
            field = "calls[" + field[len("replies["):]
        else:
            field = f"meta[{field!r}]" if field else "meta"
        raise InputError(field, "a value a recording can hold", problem.value, hint=str(problem)) from None
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, json.dumps(document, ensure_ascii=False, indent=1))
    return target


def check_writable_dir(path: Path) -> str | None:
    """None when ``path`` is (or can be made) a folder this process can write in, else the problem."""
    if path.exists() and not path.is_dir():
        return f"{path.name!r} exists and is a file, not a folder"
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"cannot write there ({exc.strerror or exc})"
    return None
