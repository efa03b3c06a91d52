"""A judge that asks a chat model through the official ``openai`` client.

It talks to OpenAI or to any OpenAI-compatible server (llama.cpp, Ollama, vLLM,
LM Studio) via ``base_url``. The API is synchronous, so it runs in a notebook cell with
no event loop; :func:`~ragmetrics_edu.judges.score_cases` runs cases in a thread pool
and a semaphore keeps at most ``max_concurrency`` requests in flight.

Structured output differs by server, hence ``mode``:

- ``"json_schema"``: OpenAI's ``response_format={"type": "json_schema", ...}`` (strict);
- ``"json_object_schema"``: ``{"type": "json_object", "schema": ...}``, which llama.cpp's
  server turns into a grammar (it answers ``json_schema`` with HTTP 500);
- ``"json"``: no response_format; the schema is written into the prompt and the reply is
  read with ```json fences stripped, then validated.

``"auto"`` picks ``json_schema`` for api.openai.com and ``json`` elsewhere. Replies can
be cached on disk (``cache_dir``): a re-run with the same model, server, prompt and
parameters makes no request at all. Only replies that validated are cached, so a reply
that was unusable is asked again on the next run, never replayed from the cache. A cache
entry is data: every field is checked when it is read, and an entry that is not well formed
raises :class:`JudgeSetupError` naming the file and the field; it is never overwritten
(delete the file to ask again).

Every argument is checked when the judge is built (a ``cache_dir`` that is a file or
cannot be written is caught before the first request), and a ``user:password@`` in
``base_url`` is used for the connection only: everything stored or shown (cache entries,
recordings, notes, ``repr``, error messages) carries ``***@`` instead.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import threading
import time
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from ..errors import InputError, refuse_in_browser
from ..validate import as_list, flag, integer, optional_integer, plain
from ..validate import path as validate_path
from . import files
from .base import Judge, Messages, Reply, Request, render
from .cache_entries import read_cache_entry, real, token_logprobs
from .errors import JudgeAPIError, JudgeSetupError
from .files import clip

MODES = ("auto", "json_schema", "json_object_schema", "json")
OPENAI_URL = "https://api.openai.com/v1"

NO_KEY = (
    "OpenAIJudge needs an API key or a server to talk to. Either\n"
    "  - set your OpenAI key: in a terminal `export OPENAI_API_KEY=sk-...`, or in the notebook\n"
    "    `import os; os.environ['OPENAI_API_KEY'] = 'sk-...'` (or pass api_key=...);\n"
    "  - or point base_url at a local OpenAI-compatible server, e.g.\n"
    "    OpenAIJudge(model='qwen2.5-1.5b', base_url='http://127.0.0.1:8080/v1', mode='json_object_schema');\n"
    "  - or replay a recorded run with no model at all: ReplayJudge('recording.json')."
)


class OpenAIJudge(Judge):
    """Verdicts from a chat model, with retries, an on-disk cache and a record of every call.

    ``model``: the model's name on the server. ``base_url``: an OpenAI-compatible server
    (``http://127.0.0.1:8080/v1``); None means OpenAI (or ``$OPENAI_BASE_URL``).
    ``api_key``: defaults to ``$OPENAI_API_KEY``; a local server needs none.
    ``temperature=0`` and a ``seed`` make replies as repeatable as the server allows.
    ``timeout`` (seconds per request) and ``max_retries`` go to the ``openai`` client,
    which retries 429, 5xx, timeouts and dropped connections with exponential backoff
    (honouring ``Retry-After``). ``max_concurrency`` bounds requests in flight.
    ``cache_dir``: a folder for the on-disk cache (None: no cache); a write that fails
    later (disk full) warns and adds a note to the results, and the paid reply is still
    used. ``mode``: see the module's docstring. ``max_tokens``: a cap on each reply's length.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        seed: int | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_concurrency: int = 4,
        cache_dir: str | os.PathLike[str] | None = None,
        mode: str = "auto",
        max_tokens: int | None = None,
    ) -> None:
        super().__init__()
        refuse_in_browser("A live judge (OpenAIJudge)", "the notebooks here replay recorded judges (ReplayJudge); for a "
                          "live one, install the package with its judge extra on your own machine: "
                          "pip install \".[llm]\" in a clone (or `make lab`)")
        if not isinstance(model, str) or not model.strip():
            raise InputError("model", "a model name such as 'gpt-4o-mini'", model)
        if not isinstance(mode, str) or mode not in MODES:
            raise InputError("mode", "one of " + ", ".join(repr(m) for m in MODES), mode)
        max_retries, max_concurrency, timeout, temperature, seed, max_tokens = (
            plain(v) for v in (max_retries, max_concurrency, timeout, temperature, seed, max_tokens))
        for name, value, low in (("max_retries", max_retries, 0), ("max_concurrency", max_concurrency, 1)):
            integer(name, value, low=low, high=10_000, expected=f"an integer from {low} to 10000")
        if not real(timeout) or timeout <= 0:
            raise InputError("timeout", "a finite number of seconds > 0", timeout)
        if not real(temperature) or not 0 <= temperature <= 2:
            raise InputError("temperature", "a number from 0 to 2 (0: as repeatable as the server allows)", temperature)
        seed = optional_integer("seed", seed, low=-(2**63), high=2**63 - 1, expected="a 64-bit integer or None")
        max_tokens = optional_integer("max_tokens", max_tokens, low=1, expected="an integer >= 1 or None")
        if api_key is not None and not isinstance(api_key, str):
            raise InputError("api_key", "a string or None", "<not shown>")
        if base_url is None:
            base_url = os.environ.get("OPENAI_BASE_URL") or None
        elif not isinstance(base_url, str) or not base_url.strip():
            raise InputError("base_url", "the URL of an OpenAI-compatible server, e.g. 'http://127.0.0.1:8080/v1' "
                             "(None for OpenAI)", base_url)
        if base_url is not None and _scheme(base_url) not in ("http", "https"):
            raise InputError("base_url", "a URL starting with http:// or https://", redact_url(base_url))
        self.cache_dir = _cache_folder(cache_dir)
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if not key:
            if base_url is None:
                raise JudgeSetupError(NO_KEY)
            key = "not-needed"  # local servers accept any key
        try:
            import openai  # lazy: openai is an optional extra (llm)
        except ImportError:
            raise JudgeSetupError("OpenAIJudge needs the openai package: `pip install openai`. "
                                  "To run without it, use ReplayJudge or GivenJudge.") from None
        self.model = model.strip()
        self._url = base_url.strip().rstrip("/") if base_url else None  # may hold credentials: never shown
        self.base_url = redact_url(self._url) if self._url else None
        self.temperature = float(temperature)
        self.seed = seed
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.max_concurrency = max_concurrency
        self.max_tokens = max_tokens
        if mode == "auto":
            mode = "json_schema" if self.base_url is None or "api.openai.com" in self.base_url else "json"
        self.mode = mode
        url = self._url
        self._new_client = lambda: openai.OpenAI(api_key=key, base_url=url, timeout=self.timeout,
                                                 max_retries=max_retries)
        self._client: Any = None
        self._client_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._cache_warned = False
        self._in_flight: dict[str, _Flight] = {}
        self._memo: dict[str, Reply] = {}  # validated replies of this judge's life: an identical request goes out once
        self._flight_lock = threading.Lock()

    @property
    def client(self) -> Any:
        """The ``openai.OpenAI`` client, built at the first request: building one loads the system's
        CA certificates (about 50 ms), which a judge that only reads its cache never needs."""
        with self._client_lock:
            if self._client is None:
                self._client = self._new_client()
            return self._client

    # -- what is sent ----------------------------------------------------------------
    @property
    def server(self) -> str:
        """The base URL requests go to (any user:password in it replaced by ***)."""
        return self.base_url or OPENAI_URL

    def describe(self) -> str:
        return f"{self.model} at {self.server}"

    def parameters(self, request: Request) -> dict[str, Any]:
        """The request parameters besides model and messages (part of the cache key)."""
        if not isinstance(request, Request):
            raise InputError("request", "a judges.Request (built by a metric step)", request)
        params: dict[str, Any] = {"temperature": self.temperature}
        if self.seed is not None:
            params["seed"] = self.seed
        if request.sample is not None:  # the n-th sample of one prompt: its own seed, and the step's temperature
            params["seed"] = sample_seed(self.seed, request.key)
            if request.temperature is not None:
                params["temperature"] = request.temperature
        if request.top_logprobs:
            params["logprobs"] = True
            params["top_logprobs"] = request.top_logprobs
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        if request.words:  # a one-word reply: no JSON format, one token (its alternatives carry the probabilities)
            params["max_tokens"] = 1
            return params
        if self.mode == "json_schema":
            name = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in request.step)
            params["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": name, "schema": request.schema, "strict": True}}
        elif self.mode == "json_object_schema":
            params["response_format"] = {"type": "json_object", "schema": request.schema}
        return params

    def prepare(self, request: Request) -> Messages:
        """In ``json`` mode the schema goes into the prompt; the server enforces nothing."""
        messages = super().prepare(request)
        if self.mode == "json" and not request.words:
            hint = render("json_schema_hint", schema=json.dumps(request.schema, ensure_ascii=False))
            messages[-1]["content"] = messages[-1]["content"] + "\n\n" + hint
        return messages

    # -- one request -------------------------------------------------------------------
    def _complete(self, request: Request, messages: Messages, attempt: int) -> Reply:
        params = self.parameters(request)
        key = self.cache_key(messages, params)
        # Identical requests at once (six answers to one question ask the same re-answer call) share one call: the
        # first sends it, the others wait until its reply has been parsed (and, if it validated, cached) and then
        # count it as a cache hit, not a call. The flight ends in settled(), after the parse, not when the reply
        # arrives: a twin that came between the two would find neither the flight nor the cache entry.
        with self._flight_lock:
            hit = None if key in self._in_flight else self._memo.get(key)
            if hit is not None:
                return dataclasses.replace(hit, cached=True, source="shared", cache_key=None, flight_key=None)
            hit = None if key in self._in_flight else self._cache_read(key)
            if hit is not None:
                return hit
            flight = self._in_flight.get(key)
            leader = flight is None
            if leader:
                flight = self._in_flight[key] = _Flight()
        assert flight is not None
        if not leader:
            flight.done.wait()
            if flight.reply is not None:
                return dataclasses.replace(flight.reply, cached=True, source="shared", cache_key=None, flight_key=None)
            return self._send(request, messages, params, key)  # the first one failed: ask for ourselves
        try:
            reply = self._send(request, messages, params, key)
        except BaseException:
            self._land(key, None)
            raise
        reply.flight_key = key
        return reply

    def _land(self, key: str, reply: Reply | None) -> None:
        """End the flight of ``key``: the requests waiting for it take ``reply`` (None: each asks for itself)."""
        with self._flight_lock:
            flight = self._in_flight.pop(key, None)
        if flight is not None:
            flight.reply = reply
            flight.done.set()

    def settled(self, reply: Reply, valid: bool) -> None:
        """A reply this judge sent for has been parsed (and, if it validated, kept): release its twins."""
        if not isinstance(reply, Reply):
            raise InputError("reply", "a judges.Reply (what the judge's own request returned)", reply)
        valid = flag("valid", valid)
        if reply.flight_key is None:
            return
        if valid:
            with self._flight_lock:
                self._memo[reply.flight_key] = reply
        self._land(reply.flight_key, reply if valid else None)
        reply.flight_key = None

    def _send(self, request: Request, messages: Messages, params: dict[str, Any], key: str) -> Reply:
        import openai  # lazy: openai is an optional extra (llm)

        with self._slots:
            start = time.perf_counter()
            try:
                response = self.client.chat.completions.create(
                    model=self.model, messages=messages, **params)
            except openai.OpenAIError as exc:
                raise self._explain(exc, request.step) from exc
            latency = time.perf_counter() - start
        choices = getattr(response, "choices", None)
        if not isinstance(choices, list):
            raise JudgeAPIError(
                f"{self.server} answered with HTTP 200 but not a chat completion (it sent {clip(response, 200)}). "
                "A proxy or a login page may sit in front of the server: check base_url (it usually ends in /v1).",
                step=request.step)
        choice = choices[0] if choices else None
        message = getattr(choice, "message", None)
        text = getattr(message, "content", None) or ""
        usage = getattr(response, "usage", None)
        return Reply(
            text=text if isinstance(text, str) else str(text), model=getattr(response, "model", None) or self.model,
            prompt_tokens=getattr(usage, "prompt_tokens", None), completion_tokens=getattr(usage, "completion_tokens", None),
            latency_s=latency, source="api", finish_reason=getattr(choice, "finish_reason", None), cache_key=key,
            logprobs=token_logprobs(choice) if request.top_logprobs else None,
        )

    def accepted(self, reply: Reply) -> None:
        """Keep a reply that validated in the cache; a failed write warns and never loses the reply."""
        if not isinstance(reply, Reply):
            raise InputError("reply", "a judges.Reply (what the judge's own request returned)", reply)
        if reply.source != "api" or reply.cache_key is None or self.cache_dir is None:
            return
        try:
            self._cache_write(reply.cache_key, reply)
        except OSError as exc:
            note = (f"The cache in {self.cache_dir} could not be written ({exc.strerror or exc}); the replies were "
                    "used but a re-run will ask the server again.")
            if note not in self.run_notes:
                self.run_notes.append(note)
            if not self._cache_warned:
                self._cache_warned = True
                warnings.warn(note, RuntimeWarning, stacklevel=2)

    def _explain(self, exc: Exception, step: str) -> JudgeAPIError:
        """A message that says what happened and what to do about it."""
        import openai  # lazy: openai is an optional extra (llm)

        status = getattr(exc, "status_code", None)
        said = self._scrub(getattr(exc, "message", None) or str(exc))
        where = self.server
        retries = _retries_said(exc, self.client, self.max_retries)
        local = self.base_url is not None and "api.openai.com" not in self.base_url
        if isinstance(exc, openai.APITimeoutError):
            text = (f"No reply from {where} within timeout={self.timeout:g} s ({retries}). A local model on a CPU "
                    "can need 30-50 s just to read a 1,000-token prompt: pass a larger timeout, "
                    f"e.g. OpenAIJudge(..., timeout={max(120, int(self.timeout * 4))}).")
        elif isinstance(exc, openai.APIConnectionError):
            text = (f"Could not connect to {where} ({said}). Is the server running and is base_url right "
                    "(it usually ends in /v1)? A local llama.cpp server: `python -m llama_cpp.server --model FILE.gguf "
                    "--port 8080`, then base_url='http://127.0.0.1:8080/v1'.")
        elif isinstance(exc, openai.AuthenticationError):
            text = (f"{where} rejected the API key (401: {said}). Check OPENAI_API_KEY (or api_key=); "
                    "a key is tied to one provider, and a local server accepts any key.")
        elif isinstance(exc, openai.PermissionDeniedError):
            text = f"{where} refused access (403: {said}). The key has no access to model '{self.model}' or this project."
        elif isinstance(exc, openai.NotFoundError):
            text = (f"Model '{self.model}' was not found at {where} (404: {said}). Check the model's name "
                    "(judge.client.models.list() lists what the server offers) and that base_url ends in /v1.")
        elif isinstance(exc, openai.RateLimitError):
            text = (f"{where} is rate-limiting the requests (429: {said}), still {retries} with backoff. Wait a "
                    f"minute, lower max_concurrency (now {self.max_concurrency}) or raise max_retries. If the "
                    "message says insufficient_quota, the account has no credit left.")
        elif isinstance(exc, openai.APIStatusError) and status is not None and status >= 500:
            text = f"{where} failed with HTTP {status} ({retries}): {said}."
            if local and self.mode == "json_schema":
                text += (" llama.cpp's server answers response_format json_schema with HTTP 500: "
                         "use mode='json_object_schema' (or mode='json').")
        elif isinstance(exc, openai.APIStatusError):
            text = f"{where} refused the request (HTTP {status}: {said})."
            if self.mode != "json":
                text += f" If the server does not support mode='{self.mode}', try mode='json'."
        else:
            text = f"The request to {where} failed: {type(exc).__name__}: {said}"
        return JudgeAPIError(self._scrub(text), status=status, cause=exc, step=step)

    def _scrub(self, text: str) -> str:
        """``text`` with the real base URL (and its credentials) replaced by the redacted one."""
        if self._url and self.base_url and self._url != self.base_url:
            text = text.replace(self._url, self.base_url)
            userinfo = urlsplit(self._url).netloc.rpartition("@")[0]
            if userinfo:
                text = text.replace(userinfo, "***")
        return text

    # -- cache ------------------------------------------------------------------------
    def cache_key(self, messages: Messages, params: dict[str, Any]) -> str:
        """sha256 of model, server, messages and parameters."""
        messages = as_list("messages", messages, "a list of {role, content} dicts (strings)")
        if not all(isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)
                   for m in messages):
            raise InputError("messages", "a list of {role, content} dicts (strings)", messages)
        try:
            json.dumps(params)
        except (TypeError, ValueError):
            raise InputError("params", "a dict of JSON values (the request's parameters)", params) from None
        if not isinstance(params, dict):
            raise InputError("params", "a dict of JSON values (the request's parameters)", params)
        blob = json.dumps({"model": self.model, "base_url": self.server, "messages": messages, "parameters": params},
                          sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def _cache_path(self, key: str) -> Path | None:
        return None if self.cache_dir is None else self.cache_dir / f"{key}.json"

    def _cache_read(self, key: str) -> Reply | None:
        path = self._cache_path(key)
        if path is None or not path.exists():
            return None
        entry = read_cache_entry(path, key)
        # The seconds the model took when the reply was paid for, as a replayed reply carries them: a
        # recording written after a resumed run keeps them (a tally counts no seconds for a cache hit).
        return Reply(text=entry["raw"], model=entry.get("model") or self.model, prompt_tokens=entry.get("prompt_tokens"),
                     completion_tokens=entry.get("completion_tokens"), latency_s=float(entry.get("latency_s") or 0.0),
                     cached=True, source="cache", finish_reason=entry.get("finish_reason"),
                     logprobs=entry.get("logprobs"))

    def _cache_write(self, key: str, reply: Reply) -> None:
        path = self._cache_path(key)
        if path is None:
            return
        entry: dict[str, Any] = {"key": key, "model": reply.model, "base_url": self.server, "raw": reply.text,
                 "prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                 "latency_s": reply.latency_s, "finish_reason": reply.finish_reason,
                 "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        if reply.logprobs is not None:
            entry["logprobs"] = reply.logprobs
        files.write_atomic(path, json.dumps(entry, ensure_ascii=False, indent=1))

    # -- recordings ---------------------------------------------------------------------
    def save_recording(self, path: str | os.PathLike[str], *, server: str | None = None, notes: str = "") -> Path:
        """Write every reply this judge received to a file :class:`ReplayJudge` can answer from.

        ``server`` describes what served the model (e.g. "llama-cpp-python 0.3.36, Q4_K_M,
        2 CPU threads"); it defaults to the base URL. The date is today's (UTC). An existing
        file at ``path`` is replaced only if it is a recording (see :func:`~.files.write_recording`).
        """
        if server is not None and (not isinstance(server, str) or not server.strip()):
            raise InputError("server", "a description of what served the model, or None", server)
        if not isinstance(notes, str):
            raise InputError("notes", "a string", notes)
        meta = {"model": self.model, "server": server or self.server, "base_url": self.server,
                "parameters": {"temperature": self.temperature, "seed": self.seed, "mode": self.mode,
                               "max_tokens": self.max_tokens},
                "notes": notes}
        return files.write_recording(path, meta, [c for c in self.calls if c.source in ("api", "cache")])


def sample_seed(seed: int | None, request_key: str) -> int:
    """The seed of one sampled request: drawn from the judge's seed and the request's key (which holds the sample
    number), so the votes on one answer differ from each other and from every other answer's votes.

    (A seed of judge seed + vote number gave every answer's k-th vote the same random number: the votes were then
    a near-fixed function of p(yes), not independent samples.)"""
    blob = f"{seed}:{request_key}".encode()
    return int(hashlib.sha256(blob).hexdigest()[:7], 16)


class _Flight:
    """A request on its way: the others asking the same wait for ``done`` and reuse ``reply``."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.reply: Reply | None = None


def redact_url(url: str) -> str:
    """``url`` with any ``user:password@`` replaced by ``***@`` (what is stored and shown)."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL at all: hide everything before an @
        return "***@" + url.rpartition("@")[2] if "@" in url else url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]))


def _scheme(url: str) -> str:
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        return ""
    return parts.scheme if parts.hostname else ""


def _cache_folder(cache_dir: Any) -> Path | None:
    """The cache folder, checked before any request: it must be a folder this process can write in."""
    if cache_dir is None:
        return None
    path = validate_path("cache_dir", cache_dir, kind="dir", exists=False,
                         expected="a folder path (str or Path) or None")
    problem = files.check_writable_dir(path)
    if problem:
        raise InputError("cache_dir", "a folder the cache can be written in", str(path), hint=problem)
    return path


def _retries_said(exc: Exception, client: Any, max_retries: int) -> str:
    """What the client did about retries, truthfully: it never retries a Retry-After beyond its limit."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    wait = None
    if headers is not None:
        try:  # the client's own reading of Retry-After / retry-after-ms, so the message matches what it did
            wait = client._parse_retry_after_header(headers)
        except Exception:  # noqa: BLE001 - a private helper that may change; then say what we know
            wait = None
    try:
        from openai._constants import MAX_RETRY_AFTER_DELAY as limit  # lazy: openai is an optional extra (llm)
    except ImportError:
        limit = 60
    if wait is not None and math.isfinite(wait) and wait > limit:
        return (f"not retried: the server asked to wait {wait:g} s (Retry-After), longer than the openai client "
                f"ever waits ({limit:g} s)")
    if headers is not None and headers.get("x-should-retry") == "false":
        return "not retried: the server said x-should-retry: false"
    return f"after up to {max_retries} retr{'y' if max_retries == 1 else 'ies'}"

