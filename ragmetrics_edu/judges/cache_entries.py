"""The judge's on-disk cache entries and the token probabilities a reply carries, read and checked as data."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from . import files
from .errors import JudgeSetupError

__all__ = ["read_cache_entry", "token_logprobs", "real"]


def read_cache_entry(path: Path, key: str | None = None) -> dict[str, Any]:
    """One cache entry, every field checked; a malformed one raises JudgeSetupError naming the
    file and the field (and is left as it is: delete it to ask the server again)."""
    def bad(what: str) -> JudgeSetupError:
        return JudgeSetupError(f"The cache entry {path} is not usable: {what}. The cache keeps one JSON object per "
                               "reply (key, model, base_url, raw, tokens, latency_s, finish_reason, created); delete "
                               "this file to ask the server again.")

    entry = files.read_json(path, bad)
    if not isinstance(entry, dict):
        raise bad(f"expected a JSON object, got {type(entry).__name__}")
    if not isinstance(entry.get("raw"), str):
        raise bad(f"raw must be the reply's text (a string), got {files.clip(entry.get('raw'), 80)}")
    if entry.get("key") is not None and (not isinstance(entry["key"], str) or (key is not None and entry["key"] != key)):
        raise bad(f"key must be the file's own key {key!r}, got {files.clip(entry['key'], 80)}")
    for name in ("model", "base_url", "finish_reason", "created"):
        if entry.get(name) is not None and not isinstance(entry[name], str):
            raise bad(f"{name} must be a string or null, got {files.clip(entry[name], 80)}")
    for name in ("prompt_tokens", "completion_tokens"):
        value = entry.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise bad(f"{name} must be a whole number or null, got {files.clip(value, 80)}")
    latency = entry.get("latency_s")
    if latency is not None and not (real(latency) and latency >= 0):
        raise bad(f"latency_s must be a number of seconds >= 0, got {files.clip(latency, 80)}")
    if entry.get("logprobs") is not None:
        problem = files.logprobs_problem(entry["logprobs"])
        if problem:
            raise bad(f"logprobs {problem}")
    return entry


def token_logprobs(choice: Any) -> list[dict[str, Any]] | None:
    """The reply's tokens with their log-probabilities and top alternatives, as stored; None when the server sent none."""
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not isinstance(content, list):
        return None
    out = []
    for token in content:
        logprob = getattr(token, "logprob", None)
        if not isinstance(getattr(token, "token", None), str) or not isinstance(logprob, (int, float)) or not real(logprob):
            return None
        top = [[t.token, float(t.logprob)] for t in (getattr(token, "top_logprobs", None) or [])
               if isinstance(getattr(t, "token", None), str) and real(getattr(t, "logprob", None))]
        out.append({"token": token.token, "logprob": min(0.0, float(logprob)),
                    "top": [[t, min(0.0, lp)] for t, lp in top]})
    return out


def real(value: Any) -> bool:
    """A finite int or float (not a bool, not an int too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False

