"""The judge interface: a request goes in, validated JSON and the call records come out.

A design's step (see :mod:`ragmetrics_edu.designs`) builds a :class:`Request`: the
prompt messages, the reply model describing the JSON it expects and any extra check
(a node number in range, say). :meth:`Judge.ask` gets a reply, parses and validates it,
and on a malformed reply or a wrong number of verdicts sends ONE repair request that
quotes the problem; a second failure raises :class:`JudgeError` with the raw text.
Verdicts are never dropped or padded to make the count fit.

This module does not import ``openai``; the judges that need it
import it when they are built.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterator, Mapping

from ..errors import InputError
from ..metrics.specs import SPECS, Step
from ..validate import integer
from .errors import JudgeError, ReplyFormatError
from .records import CallList, CallRecord, Usage
from .schemas import InvalidReply

Messages = list[dict[str, str]]


#: The judges' own prompts (the system prompt, the repair request, the reason); a design's are beside its module.
PROMPTS = resources.files(__package__).joinpath("prompts")


@lru_cache(maxsize=None)
def template(name: str, folder: Any = None) -> string.Template:
    """The prompt template ``<folder>/<name>.txt`` (``$placeholders``, so JSON braces stay literal);
    ``folder`` None: the judges' own (:data:`PROMPTS`)."""
    text = (PROMPTS if folder is None else folder).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    return string.Template(text.strip())


def render(name: str, folder: Any = None, /, **values: Any) -> str:
    """Fill a prompt template (in ``folder``, see :func:`template`); a missing placeholder is an error, not silent text."""
    return template(name, folder).substitute(**values)


@dataclass
class Request:
    """What one metric step asks a judge.

    ``step`` names the step (``"faithfulness.verdicts"``); ``messages`` are the chat
    messages before any judge-specific addition; ``model`` is the reply model (:mod:`.schemas`) of the
    expected JSON and ``schema`` its JSON Schema; ``check`` returns a problem the schema
    cannot express (or None); ``expected`` says in words what a valid reply holds;
    ``shorthand`` turns a short given answer (a plain list of verdicts) into the JSON.
    """

    step: str
    messages: Messages
    model: Any
    schema: dict[str, Any]
    expected: str
    check: Callable[[dict[str, Any]], str | None] | None = None
    shorthand: Callable[[Any], Any] | None = None
    legacy_messages: Messages | None = None  # the same step in the version-1 prompts (no data blocks)
    top_logprobs: int = 0  # > 0: ask the server for each reply token's most likely alternatives (G-Eval's weights)
    sample: int | None = None  # the n-th of several sampled replies to one prompt (a vote, a sampled score)
    temperature: float | None = None  # the sampling temperature of a sampled request (None: the judge's own)
    words: tuple[str, ...] = ()  # a one-word reply from these (no JSON asked, one token): read as {"verdict": word}

    @property
    def key(self) -> str:
        """sha256 of the step, its messages and schema (and the sample number): the same request, whatever the judge."""
        return _key(self.step, self.messages, self.schema, self.sample)

    @property
    def legacy_key(self) -> str | None:
        """The key this request had with the version-1 prompts (how older recordings name it)."""
        return None if self.legacy_messages is None else _key(self.step, self.legacy_messages, self.schema)

    def parse(self, text: str) -> tuple[dict[str, Any] | None, str | None]:
        """Parse and validate a reply: (data, None) when usable, else (None, the problem).

        A request with ``words`` also takes a bare reply that is one of them ("Yes", "no."), as ``{"verdict": word}``."""
        if self.words and isinstance(text, str):
            word = text.strip().strip(".!\"'`").strip().lower()
            if word in self.words:
                text = json.dumps({"verdict": word})
        try:
            data = parse_json_reply(text)
        except ValueError as exc:
            return None, str(exc)

        try:
            clean = self.model.check(data)
        except InvalidReply as exc:
            return None, _validation_problem(exc, self.expected)
        if self.check is not None:
            problem = self.check(clean)
            if problem:
                return None, f"{problem}. Expected {self.expected}."
        return clean, None


def _key(step: str, messages: Messages, schema: dict[str, Any], sample: int | None = None) -> str:
    what: dict[str, Any] = {"step": step, "messages": messages, "schema": schema}
    if sample is not None:  # only sampled requests carry it, so every older key stays the same
        what["sample"] = sample
    blob = json.dumps(what, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass
class Reply:
    """A judge's raw answer to one request, before parsing."""

    text: str
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_s: float = 0.0
    cached: bool = False
    source: str = "api"
    finish_reason: str | None = None
    sent: Messages | None = None  # the messages as originally sent, when a recording supplies them
    cache_key: str | None = None  # where a judge with a cache keeps this reply once it has validated
    flight_key: str | None = None  # the request this reply answers, while identical requests wait for it
    logprobs: list[dict[str, Any]] | None = None  # per reply token: token, logprob, top (alternatives), when asked


@dataclass
class Answer:
    """The validated JSON of a step and the call records that produced it."""

    data: dict[str, Any]
    calls: CallList = field(default_factory=CallList)


#: The judges' own step: the opt-in written reason any design's result may ask for (see :func:`requests.finish`).
REASON = Step("reason", '{"reason": str}; short form: the text',
              shorthand=lambda a: {"reason": a} if isinstance(a, str) else a)


class Steps(Mapping[str, str]):
    """Every step a judge may be asked, with what its JSON holds (GivenJudge answers by these names): the steps of
    every registered design (its spec's :class:`~ragmetrics_edu.metrics.Step` contracts) and the judges' own
    :data:`REASON`, read live from the registry."""

    def contracts(self) -> dict[str, Step]:
        """Step name -> its contract."""
        found = {REASON.name: REASON}
        for spec in SPECS.values():
            found.update((step.name, step) for step in spec.steps)
        return found

    def __getitem__(self, name: str) -> str:
        return self.contracts()[name].expects

    def __iter__(self) -> Iterator[str]:
        return iter(self.contracts())

    def __len__(self) -> int:
        return len(self.contracts())


STEPS = Steps()


_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


def parse_json_reply(text: str) -> dict[str, Any]:
    """Read one JSON object from a reply, stripping a ```json fence or text around it.

    Raises :class:`~.errors.ReplyFormatError` (a ValueError) saying what is wrong (used verbatim in
    the repair request); a ``text`` that is not a string raises :class:`~ragmetrics_edu.InputError`.
    """
    if not isinstance(text, str):
        raise InputError("text", "the reply's text (a string)", text)
    if not text.strip():
        raise ReplyFormatError("the reply was empty")
    body = text.strip()
    fenced = _FENCE.search(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        start, end = body.find("{"), body.rfind("}")
        data = None
        if 0 <= start < end:
            try:
                data = json.loads(body[start:end + 1])
            except json.JSONDecodeError:
                data = None
        if data is None:
            raise ReplyFormatError(f"the reply is not valid JSON ({exc.msg} at line {exc.lineno}, "
                                   f"column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ReplyFormatError(f"the reply is JSON but not an object (got a {type(data).__name__})")
    return data


def _validation_problem(exc: Any, expected: str) -> str:
    """Turn an :class:`~.schemas.InvalidReply` into a short list of problems a model can fix."""
    problems: list[str] = []
    for err in exc.errors()[:8]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "the object"
        kind = err.get("type", "")
        if kind == "missing":
            problems.append(f"missing key {where}")
        elif kind == "extra_forbidden":
            problems.append(f"unexpected key {where}")
        else:
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
    more = len(exc.errors()) - 8
    if more > 0:
        problems.append(f"and {more} more problems")
    return "; ".join(problems) + f". Expected {expected}."


class Judge(ABC):
    """Where verdicts come from. Subclasses implement :meth:`_complete`.

    Every judge keeps ``usage`` (running totals) and ``calls`` (every call record, in
    order); ``max_repairs`` is how many repair requests follow a bad reply (1 for a
    model, 0 for verdicts given in code); ``max_concurrency`` bounds the threads of
    :func:`~ragmetrics_edu.judges.score_cases`.
    """

    model: str = "judge"
    max_repairs: int = 1
    max_concurrency: int = 1

    def __init__(self) -> None:
        self.usage = Usage()
        self.calls = CallList()
        self._calls_lock = threading.Lock()
        self.stopping = threading.Event()  # set by evaluate() when interrupted: no new request starts
        self.run_notes: list[str] = []  # problems worth a line in later results (a cache write that failed)

    def describe(self) -> str:
        """Who answered, in a few words (shown in every result's notes)."""
        return self.model

    def prepare(self, request: Request) -> Messages:
        """The messages actually sent for a request (a judge may add to them)."""
        return [dict(m) for m in _request(request).messages]

    @abstractmethod
    def _complete(self, request: Request, messages: Messages, attempt: int) -> Reply:
        """Return the raw reply to ``messages`` (attempt 0, or 1 for the repair); each judge implements it."""

    def ask(self, request: Request) -> Answer:
        """Get a valid reply to ``request``: one try, one repair, else :class:`JudgeError`."""
        request = _request(request)
        messages = self.prepare(request)
        records = CallList()
        raws: list[str] = []
        problem = ""
        for attempt in range(self.max_repairs + 1):
            if self.stopping.is_set():
                raise JudgeError(f"Stopped before step '{request.step}': the run was interrupted.",
                                 step=request.step, calls=list(records))
            try:
                reply = self._complete(request, messages, attempt)
            except JudgeError as exc:
                exc.step = exc.step or request.step
                exc.calls = list(records) + exc.calls
                raise
            data: dict[str, Any] | None = None
            try:
                data, found = request.parse(reply.text)
                if data is not None:
                    self.accepted(reply)
            finally:
                self.settled(reply, data is not None)
            problem = found or ""
            if problem and reply.finish_reason == "length":
                problem += " (the reply was cut off at the token limit)"
            record = CallRecord(
                step=request.step, messages=reply.sent or messages, raw=reply.text, parsed=data, model=reply.model,
                prompt_tokens=reply.prompt_tokens, completion_tokens=reply.completion_tokens,
                latency_s=reply.latency_s, cached=reply.cached, source=reply.source, attempt=attempt,
                error=problem or None, key=request.key, logprobs=reply.logprobs,
            )
            self._keep(record)
            records.append(record)
            raws.append(reply.text)
            if data is not None:
                return Answer(data=data, calls=records)
            messages = messages + [
                {"role": "assistant", "content": reply.text},
                {"role": "user", "content": render("repair", problem=problem)},
            ]
        if self.max_repairs:
            message = (f"{self.describe()} gave no usable reply for step '{request.step}', even after a repair "
                       f"request: {problem} Raw reply: {_clip(raws[-1])}")
        else:
            message = f"The answer for step '{request.step}' does not fit: {problem} Given: {_clip(raws[-1])}"
        raise JudgeError(message, raw=raws[-1], raws=raws, step=request.step, calls=records)

    def settled(self, reply: Reply, valid: bool) -> None:
        """Called with every reply once it is parsed, after :meth:`accepted` (an OpenAIJudge releases the
        identical requests that wait for it here, so none of them sends a twin before the reply is kept)."""

    def accepted(self, reply: Reply) -> None:
        """Called with every reply that validated (a judge with a cache keeps it; others do nothing).

        Only validated replies reach here, so an unusable reply is never answered from a cache.
        """

    def _keep(self, record: CallRecord) -> None:
        self.usage.add(record)
        with self._calls_lock:
            self.calls.append(record)

    def __repr__(self) -> str:
        u = self.usage
        return (f"{type(self).__name__}({self.describe()}: {u.calls} calls, {u.cache_hits} cache hits, "
                f"{u.prompt_tokens}+{u.completion_tokens} tokens)")


class InTurn:
    """Answers one GivenJudge step gives in turn (``GivenJudge.in_turn``): the k-th request gets answer k mod n."""

    def __init__(self, answers: tuple[Any, ...]) -> None:
        if not answers:
            raise InputError("answers", "at least one answer to give in turn", answers)
        self.answers = tuple(answers)
        self._asked = 0
        self._lock = threading.Lock()

    def next(self) -> Any:
        with self._lock:
            answer = self.answers[self._asked % len(self.answers)]
            self._asked += 1
        return answer

    def __repr__(self) -> str:
        return f"GivenJudge.in_turn{self.answers!r}"


class GivenJudge(Judge):
    """Verdicts given in code (written by a person, copied from a deck, or made by a script), checked
    exactly like a model's reply.

    ``answers`` maps a step name (``"context_precision"``, ``"faithfulness.claims"``,
    ``"faithfulness.verdicts"`` ...: a step of a registered design; see :data:`ragmetrics_edu.judges.STEPS`) to the
    answer: the JSON object a model would return, a short form (a list of verdicts, a
    list of claims), or a function of the :class:`Request` returning either. A wrong
    count raises :class:`JudgeError` at once: given verdicts are not asked to repair.

    A design that asks the same step more than once in a case (claims of the response, then of the
    reference) gets its answers in turn: ``GivenJudge({"step": GivenJudge.in_turn(first, second)})``; the
    k-th request of that step (from 0) gets answer k mod their number, so the same answers serve every case.
    A request asked again with the same text is answered from the cache, like a model's.
    """

    max_repairs = 0

    def __init__(self, answers: Mapping[str, Any] | None = None, *, max_concurrency: int = 1) -> None:
        super().__init__()
        if answers is not None and not isinstance(answers, Mapping):
            raise InputError("answers", "a dict mapping step names (e.g. 'context_precision') to answers", answers)
        known = STEPS.contracts()
        unknown = [k for k in (answers or {}) if not isinstance(k, str) or k not in known]
        if unknown:
            raise InputError("answers", "step names of the registered designs: " + ", ".join(known), unknown[0])
        max_concurrency = integer("max_concurrency", max_concurrency, low=1, expected="an integer >= 1")
        self.model = "given"
        self.answers: dict[str, Any] = dict(answers or {})
        self.max_concurrency = max_concurrency

    @staticmethod
    def in_turn(first: Any, *more: Any) -> InTurn:
        """Answers for one step asked more than once per case, given in the order the design asks (see the class)."""
        return InTurn((first, *more))

    def describe(self) -> str:
        return "verdicts given in code"

    def _complete(self, request: Request, messages: Messages, attempt: int) -> Reply:
        if request.step not in self.answers:
            have = ", ".join(sorted(self.answers)) or "none"
            raise JudgeError(f"GivenJudge has no answer for step '{request.step}' (it has: {have}). "
                             f"Add one, e.g. GivenJudge({{'{request.step}': ...}}), holding {request.expected}.",
                             step=request.step)
        answer = self.answers[request.step]
        if isinstance(answer, InTurn):
            answer = answer.next()
        if callable(answer):
            answer = answer(request)
        if request.shorthand is not None:
            try:
                answer = request.shorthand(answer)
            except (TypeError, ValueError, IndexError, KeyError) as exc:
                raise JudgeError(f"The answer for step '{request.step}' does not fit its short form ({exc}). "
                                 f"Expected {request.expected}.", step=request.step) from None
        try:
            text = json.dumps(answer, ensure_ascii=False)
        except TypeError as exc:
            raise JudgeError(f"The answer for step '{request.step}' is not JSON-able: {exc}", step=request.step) from None
        return Reply(text=text, model="given", source="given")


def _request(request: Any) -> Request:
    """A :class:`Request` (what a metric step builds), else an InputError."""
    if not isinstance(request, Request):
        raise InputError("request", "a judges.Request (built by a design's step, e.g. designs.context_precision)",
                         request)
    return request


def _clip(text: str, limit: int = 300) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."
