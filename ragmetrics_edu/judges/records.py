"""What a judge keeps of every call: the prompt, the raw reply, the parsed verdicts,
the tokens and the time, so a learner can see exactly what the model was asked and said.

``CallList`` is a plain list of :class:`CallRecord` that displays as a table in a
notebook; :class:`Usage` holds a judge's running totals.
"""

from __future__ import annotations

import html
import json
import threading
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class CallRecord:
    """One request to a judge and its reply.

    ``attempt`` is 0 for the first request of a step and 1 for the repair request;
    ``source`` says where the reply came from: ``"api"`` (a live server), ``"cache"``
    (the on-disk cache, then ``cached`` is True), ``"replay"`` (a recording) or
    ``"given"`` (typed by a person). ``parsed`` holds the validated reply (None when it
    could not be used, and ``error`` then says why). Token counts are those the server
    reported for the original request (None when it reported none).
    """

    step: str
    messages: list[dict[str, str]]
    raw: str
    parsed: dict[str, Any] | None
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    cached: bool = False
    source: str = "api"
    attempt: int = 0
    error: str | None = None
    key: str | None = None

    @property
    def ok(self) -> bool:
        """Whether this reply was valid and used."""
        return self.error is None

    @property
    def prompt_chars(self) -> int:
        """Characters sent in the prompt (about four per token)."""
        return sum(len(m.get("content", "")) for m in self.messages)

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-able dict of the record."""
        return asdict(self)

    def _repr_html_(self) -> str:
        return CallList([self])._repr_html_()


class CallList(list):
    """A list of :class:`CallRecord` that shows as a table in a notebook."""

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens of the calls not answered from the cache."""
        return sum(c.prompt_tokens or 0 for c in self if not c.cached)

    @property
    def completion_tokens(self) -> int:
        """Completion tokens of the calls not answered from the cache."""
        return sum(c.completion_tokens or 0 for c in self if not c.cached)

    def summary(self) -> str:
        """One line: how many calls, how many from cache or repairs, tokens and time."""
        cached = sum(c.cached for c in self)
        repairs = sum(c.attempt > 0 for c in self)
        seconds = sum(c.latency_s for c in self)
        return (f"{len(self)} calls ({cached} from cache, {repairs} repairs), "
                f"{self.prompt_tokens} prompt + {self.completion_tokens} completion tokens, {seconds:.2f} s")

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in
                       ("#", "step", "try", "model", "source", "prompt tok", "completion tok", "latency s", "verdicts"))
        rows = []
        for i, c in enumerate(self, start=1):
            parsed = json.dumps(c.parsed, ensure_ascii=False) if c.ok else f"unusable: {c.error}"
            cells = [str(i), c.step, str(c.attempt), c.model, c.source + (" (cached)" if c.cached and c.source != "cache" else ""),
                     _num(c.prompt_tokens), _num(c.completion_tokens), f"{c.latency_s:.3f}", _short(parsed, 160)]
            rows.append("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in cells) + "</tr>")
            prompt = "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in c.messages)
            rows.append(
                f"<tr><td></td><td colspan='8'><details><summary>prompt ({c.prompt_chars} chars) and raw reply</summary>"
                f"<pre style='white-space:pre-wrap'>{html.escape(prompt)}</pre><b>raw reply</b>"
                f"<pre style='white-space:pre-wrap'>{html.escape(c.raw)}</pre></details></td></tr>"
            )
        return (f"<div class='ragmetrics-calls'><p>{html.escape(self.summary())}</p>"
                f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")

    def __repr__(self) -> str:
        return f"CallList({self.summary()})"


@dataclass
class Usage:
    """A judge's running totals.

    ``calls`` counts replies not taken from the cache (requests sent, or replayed, or
    typed); ``prompt_tokens`` and ``completion_tokens`` add up those replies' tokens;
    ``cache_hits`` counts replies read from the on-disk cache (which cost nothing);
    ``repairs`` counts repair requests among the calls.
    """

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    repairs: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, record: CallRecord) -> None:
        """Count one call (thread-safe)."""
        with self._lock:
            if record.cached:
                self.cache_hits += 1
                return
            self.calls += 1
            self.prompt_tokens += record.prompt_tokens or 0
            self.completion_tokens += record.completion_tokens or 0
            self.repairs += int(record.attempt > 0)

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, int]:
        """The totals as a plain dict."""
        return {"calls": self.calls, "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "cache_hits": self.cache_hits, "repairs": self.repairs}


def _num(x: int | None) -> str:
    return "–" if x is None else str(x)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
