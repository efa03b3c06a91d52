"""What the judges write to disk, in one place: atomic writes and recording files.

Both the on-disk cache of :class:`~ragmetrics_edu.judges.OpenAIJudge` and the
recordings :class:`~ragmetrics_edu.judges.ReplayJudge` reads are written here, so the
judge modules import this module and never each other.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Mapping

from .records import CallRecord

FORMAT = "ragmetrics-edu/recording-1"


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


def write_recording(path: str | os.PathLike[str], meta: Mapping[str, Any], calls: Iterable[CallRecord]) -> Path:
    """Write a recording: ``meta`` (model, server, ...), today's date and the calls' replies."""
    from .. import __version__
    from ..errors import InputError

    if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise InputError("path", "a file path (str or Path)", path)
    if not isinstance(meta, Mapping) or not all(isinstance(k, str) for k in meta):
        raise InputError("meta", "a dict naming the model and server", meta)
    try:
        json.dumps(dict(meta), allow_nan=False)
    except (TypeError, ValueError):
        raise InputError("meta", "a dict of JSON values (strings, numbers, lists, dicts)", meta) from None
    if isinstance(calls, (str, bytes, Mapping)) or not isinstance(calls, Iterable):
        raise InputError("calls", "a list of CallRecord", calls)
    calls = list(calls)
    for i, c in enumerate(calls):
        if not isinstance(c, CallRecord):
            raise InputError(f"calls[{i}]", "a CallRecord (from judge.calls)", c)

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
