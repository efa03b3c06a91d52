"""What a judge keeps of every call: the prompt, the raw reply, the parsed verdicts,
the tokens and the time, so a learner can see exactly what the model was asked and said.

What counts as a *call* is written once, here (:func:`tally`), and every count in the library
and the course uses it: a call is a request the judge answered by asking its source - a server,
a recording (replayed) or verdicts given in code - repair requests included; a reply read from the
judge's on-disk cache is a *cache hit*, not a call (nothing was asked, nothing paid). Repairs
(retries after an unusable reply) are also counted on their own, as ``repairs``.

``CallList`` is a plain list of :class:`CallRecord` that displays as a table in a
notebook; :class:`Usage` holds a judge's running totals; :class:`CallTally` the totals of
any list of records.
"""

from __future__ import annotations

import html
import json
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from ..errors import InputError
from ..validate import as_list


@dataclass
class CallRecord:
    """One request to a judge and its reply.

    ``attempt`` is 0 for the first request of a step and 1 for the repair request;
    ``source`` says where the reply came from: ``"api"`` (a live server), ``"cache"``
    (the on-disk cache, then ``cached`` is True), ``"shared"`` (an identical request
    in flight at the same time was sent once and its reply shared; ``cached`` is True), ``"replay"`` (a recording) or
    ``"given"`` (verdicts given in code, :class:`~ragmetrics_edu.judges.GivenJudge`). ``parsed`` holds the
    validated reply (None when it could not be used, and ``error`` then says why). Token counts are those the server
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
    logprobs: list[dict[str, Any]] | None = None  # per reply token {token, logprob, top: [[token, logprob], ...]}

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

    @property
    def is_call(self) -> bool:
        """Whether this record is a call (see the module): not answered from the on-disk cache."""
        return not self.cached

    def _repr_html_(self) -> str:
        return CallList([self])._repr_html_()


@dataclass(frozen=True)
class CallTally:
    """What a list of call records cost: calls (repairs included), of which repairs, cache hits,
    and the calls' tokens and seconds (see the module for what a call is)."""

    calls: int = 0
    repairs: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The totals as a plain dict (the columns of a run's rows)."""
        return asdict(self)


def timings(records: Iterable[CallRecord], started: float) -> dict[str, float]:
    """A recording's times: the calls' latencies summed (machine time) and the wall time since ``started``
    (a ``time.monotonic()`` reading), in seconds to one decimal."""
    return {"machine_time_s": round(sum(r.latency_s or 0.0 for r in records), 1),
            "wall_time_s": round(time.monotonic() - started, 1)}


def tally(records: Iterable[CallRecord]) -> CallTally:
    """The totals of ``records``: the one definition of a call, a repair and a cache hit."""
    calls = repairs = hits = prompt = completion = 0
    seconds = 0.0
    for record in records:
        if not record.is_call:
            hits += 1
            continue
        calls += 1
        repairs += int(record.attempt > 0)
        prompt += record.prompt_tokens or 0
        completion += record.completion_tokens or 0
        seconds += record.latency_s or 0.0
    return CallTally(calls, repairs, hits, prompt, completion, seconds)


def recordable(records: Iterable[CallRecord], sources: tuple[str, ...] = ("api", "cache")) -> list[CallRecord]:
    """The calls a recording keeps: those from ``sources`` (what was paid for, or read back from the cache), each
    request and attempt once, in order (a reply shared by two answers is kept once)."""
    seen: set[tuple[str | None, int]] = set()
    out: list[CallRecord] = []
    for c in records:
        if not isinstance(c, CallRecord):
            raise InputError("records", "call records (judge.calls)", c)
        if c.source in sources and (c.key, c.attempt) not in seen:
            seen.add((c.key, c.attempt))
            out.append(c)
    return out


class CallList(list):
    """A list of :class:`CallRecord` that shows as a table in a notebook."""

    def __init__(self, iterable: Iterable[CallRecord] = ()) -> None:
        items = as_list("iterable", iterable, "CallRecords (a list, or judge.calls)", iterables=True)
        for i, item in enumerate(items):
            if not isinstance(item, CallRecord):
                raise InputError(f"iterable[{i}]", "a CallRecord", item)
        super().__init__(items)

    @property
    def tally(self) -> CallTally:
        """The totals of these records (:func:`tally`)."""
        return tally(self)

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens of the calls (cache hits cost none)."""
        return self.tally.prompt_tokens

    @property
    def completion_tokens(self) -> int:
        """Completion tokens of the calls (cache hits cost none)."""
        return self.tally.completion_tokens

    def summary(self) -> str:
        """One line: how many calls (and repairs among them), cache hits, tokens and time."""
        t = self.tally
        return (f"{t.calls} calls ({t.cache_hits} from cache, {t.repairs} repairs), "
                f"{t.prompt_tokens} prompt + {t.completion_tokens} completion tokens, {t.latency_s:.2f} s")

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

    The same counts as :func:`tally` (see the module), kept as the judge goes: ``calls``,
    ``repairs`` among them, ``cache_hits``, and the calls' ``prompt_tokens`` and
    ``completion_tokens``.
    """

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    repairs: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, record: CallRecord) -> None:
        """Count one call (thread-safe)."""
        if not isinstance(record, CallRecord):
            raise InputError("record", "a CallRecord", record)
        with self._lock:
            if not record.is_call:
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
