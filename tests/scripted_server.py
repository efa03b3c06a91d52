"""A real HTTP server speaking OpenAI's /v1/chat/completions with scripted replies.

Tests push replies (good JSON, malformed text, HTTP errors, slow replies) and point the
real ``openai`` client at ``server.base_url``; the server keeps every request body so a
test can count hits and read what was sent. A ``responder`` answers whatever is not
scripted; with neither, the server answers 500 "script exhausted" so a stray request
fails loudly.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Scripted:
    """One scripted reply: assistant ``content`` with status 200, or an HTTP error."""

    content: str | None = None
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    message: str = ""
    prompt_tokens: int = 50
    completion_tokens: int = 7
    body: str | None = None          # sent as is instead of a chat completion (e.g. a proxy's HTML page)
    content_type: str = "application/json"
    logprobs: list[dict[str, Any]] | None = None  # OpenAI's choices[0].logprobs.content, as a server sends it


def good(data: dict[str, Any], **kwargs: Any) -> Scripted:
    """A 200 reply whose content is ``data`` as JSON."""
    return Scripted(content=json.dumps(data), **kwargs)


class ScriptedServer:
    """ThreadingHTTPServer on 127.0.0.1 and a free port, run in a daemon thread."""

    def __init__(self) -> None:
        self.script: deque[Scripted] = deque()
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.responder: Callable[[dict[str, Any]], Scripted] | None = None
        self.in_flight = 0
        self.max_in_flight = 0
        self.models: list[str] | None = None  # GET /v1/models lists these (None: 404, as a server without it)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- control --------------------------------------------------------------------
    def push(self, *replies: Scripted) -> None:
        """Queue replies; each request takes the next one."""
        self.script.extend(replies)

    @property
    def hits(self) -> int:
        """Requests received so far (retries included)."""
        return len(self.requests)

    @property
    def port(self) -> int:
        assert self._httpd is not None
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> "ScriptedServer":
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                if owner.models is None or not self.path.rstrip("/").endswith("/models"):
                    data = json.dumps({"error": {"message": "not found", "type": "scripted_error"}}).encode()
                    self.send_response(404)
                else:
                    data = json.dumps({"object": "list", "data": [{"id": m, "object": "model", "owned_by": "me",
                                                                   "created": 0} for m in owner.models]}).encode()
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                reply = owner._next(self.path, body)
                with owner._lock:
                    owner.in_flight += 1
                    owner.max_in_flight = max(owner.max_in_flight, owner.in_flight)
                try:
                    if reply.delay:
                        time.sleep(reply.delay)
                    self._send(reply, body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout); nothing to answer
                finally:
                    with owner._lock:
                        owner.in_flight -= 1

            def _send(self, reply: Scripted, body: dict[str, Any]) -> None:
                if reply.status == 200:
                    payload = {
                        "id": f"chatcmpl-{owner.hits}", "object": "chat.completion", "created": 1_700_000_000,
                        "model": body.get("model", "scripted"),
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": reply.content},
                                     "logprobs": None if reply.logprobs is None else {"content": reply.logprobs}}],
                        "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                                  "total_tokens": reply.prompt_tokens + reply.completion_tokens},
                    }
                else:
                    payload = {"error": {"message": reply.message or f"scripted HTTP {reply.status}",
                                         "type": "scripted_error", "code": None}}
                data = (reply.body if reply.body is not None else json.dumps(payload)).encode("utf-8")
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        httpd.daemon_threads = True
        httpd.block_on_close = False
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (a handler still sleeping is abandoned)."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _next(self, path: str, body: dict[str, Any]) -> Scripted:
        with self._lock:
            self.requests.append(body)
            self.paths.append(path)
            if not path.endswith(("/chat/completions", "/embeddings")):
                return Scripted(status=404, message=f"no route {path}")
            if self.script:
                return self.script.popleft()
        if self.responder is not None:
            return self.responder(body)
        return Scripted(status=500, message="script exhausted", headers={"x-should-retry": "false"})


def keys_of(body: dict[str, Any]) -> list[str]:
    """The keys a request asks for, read from its response_format schema."""
    fmt = body.get("response_format") or {}
    schema = fmt.get("json_schema", {}).get("schema") if fmt.get("type") == "json_schema" else fmt.get("schema")
    return list((schema or {}).get("required", []))


def fake_value(schema: dict[str, Any]) -> Any:
    """A plausible value for a JSON Schema: the first enum word, one-item lists, node 1."""
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        return fake_value(schema["anyOf"][0])
    kind = schema.get("type")
    if kind == "object":
        return {k: fake_value(v) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [fake_value(schema.get("items", {"type": "string"})) for _ in range(2)]
    if kind == "integer":
        return 1
    if kind == "boolean":
        return False
    return "Paris is the capital of France."


def schema_responder(delay: float = 0.0) -> Callable[[dict[str, Any]], Scripted]:
    """A responder that answers any structured request with a valid made-up object."""
    def respond(body: dict[str, Any]) -> Scripted:
        fmt = body.get("response_format") or {}
        schema = fmt["json_schema"]["schema"] if fmt.get("type") == "json_schema" else fmt.get("schema", {})
        return Scripted(content=json.dumps(fake_value(schema)), delay=delay)
    return respond


def scripted_judge(server: ScriptedServer, **kwargs: Any) -> Any:
    """An ``OpenAIJudge`` on ``server`` as the judge tests make one: JSON-schema mode, a 5 s timeout, no
    retry, seed 7 (``kwargs`` override any of these)."""
    from ragmetrics_edu.judges import OpenAIJudge

    options = {"mode": "json_schema", "timeout": 5.0, "max_retries": 0, "base_url": server.base_url,
               "api_key": "test-key", "seed": 7, **kwargs}
    return OpenAIJudge("scripted-model", **options)


def score_tokens(score: int, alternatives: dict[str, float]) -> list[dict[str, Any]]:
    """The logprobs of a reply ``{"score": N}`` as a server sends them: the digit's alternatives as given
    (token -> probability), every other token certain."""
    import math

    def certain(token: str) -> dict[str, Any]:
        return {"token": token, "logprob": 0.0, "bytes": None, "top_logprobs": [{"token": token, "logprob": 0.0,
                                                                                   "bytes": None}]}
    digit = {"token": str(score), "logprob": math.log(alternatives[str(score)]), "bytes": None,
             "top_logprobs": [{"token": t, "logprob": math.log(p), "bytes": None} for t, p in alternatives.items()]}
    return [certain('{"'), certain("score"), certain('":'), certain(" "), digit, certain("}")]


def yes_no_tokens(p_yes: float) -> list[dict[str, Any]]:
    """The logprobs of a one-word reply as a server sends them: the likelier word and both alternatives."""
    import math

    word = "yes" if p_yes >= 0.5 else "no"
    alts = {"yes": p_yes, "no": 1 - p_yes}
    return [{"token": word, "logprob": math.log(alts[word]), "bytes": None,
             "top_logprobs": [{"token": t, "logprob": math.log(p), "bytes": None} for t, p in alts.items() if p > 0]}]
