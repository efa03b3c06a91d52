"""What every judged step shares: building a request, asking the judge, and finishing the result.

Every design (:mod:`ragmetrics_edu.designs`, or a contributor's own module) builds its requests from its
steps' contracts (:class:`~ragmetrics_edu.metrics.Step`) and attaches its calls with these, so a request
is built one way and a "call" means one thing everywhere: a request sent to the judge (its records,
repairs included, end up in ``result.calls``; see :mod:`.records`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..errors import InputError
from ..metrics.specs import Step
from ..results import MetricResult, fmt
from . import prompting, schemas
from .base import REASON, Judge, Request
from .errors import JudgeError
from .prompting import Untrusted
from .records import CallList
from .schemas import YesNo, YesNoIdk, keyed, schema_of

__all__ = ["MAX_ITEMS", "ask", "check_judge", "extracted", "finish", "keyed_list", "key_names", "list_field", "make_request",
           "schema_models", "sized", "verdict_request"]


def key_names(prefix: str, n: int) -> tuple[str, ...]:
    return tuple(f"{prefix}_{i}" for i in range(1, n + 1))


def make_request(step: Step, template_name: str, model: Any, expected: str, *,
             check: Callable[[dict[str, Any]], str | None] | None = None,
             shorthand: Callable[[Any], Any] | None = None, data: Mapping[str, Untrusted],
             legacy: bool = True, fence_from: tuple[str, ...] | None = None, top_logprobs: int = 0,
             sample: int | None = None, temperature: float | None = None, words: tuple[str, ...] = (),
             **values: Any) -> Request:
    """A step's request: the untrusted ``data`` in fenced blocks (see :mod:`.prompting`), ``values`` as they are.

    ``step``: the step's contract; its prompt ``template_name`` is read from its ``prompts`` folder, and its
    ``shorthand`` and ``schema`` are used unless ``shorthand`` or ``model`` is given (``model`` None: the
    contract's fixed schema). ``legacy=False`` for a step the version-1 prompts never had (no old recording can
    hold it); ``fence_from``, ``top_logprobs``, ``sample``, ``temperature`` and ``words``: see :class:`.base.Request`."""

    if not isinstance(step, Step):
        raise InputError("step", "a step's contract (a metrics.Step)", step)
    if model is None:
        if step.schema is None:
            raise InputError("model", f"the reply's model (step '{step.name}' has no fixed schema)", model)
        model = step.schema()
    folder = step.prompts
    return Request(step=step.name,
                   messages=prompting.messages(template_name, data, values, fence_from=fence_from, folder=folder),
                   model=model, schema=schema_of(model), expected=expected, check=check,
                   shorthand=step.shorthand if shorthand is None else shorthand,
                   legacy_messages=prompting.legacy_messages(template_name, data, values, folder) if legacy else None,
                   top_logprobs=top_logprobs, sample=sample, temperature=temperature, words=words)


def words(idk: bool) -> str:
    """The verdict words a yes/no(/idk) step allows, as its expected reply says them."""
    return '"yes", "no" or "idk"' if idk else '"yes" or "no"'


def verdict_request(step: Step, template_name: str, prefix: str, n: int, *, idk: bool,
                    data: Mapping[str, Untrusted], legacy: bool = True, **values: Any) -> Request:
    """A request for one verdict per item, as an object keyed ``<prefix>_1`` … ``<prefix>_n``."""

    keys = key_names(prefix, n)
    model = keyed(f"{step.name.replace('.', '_')}_{n}", keys, YesNoIdk if idk else YesNo)
    return make_request(step, template_name, model,
                        f"a JSON object with exactly the {n} keys {', '.join(keys)}, each {words(idk)}",
                        shorthand=keyed_list(prefix), data=data, legacy=legacy, keys=", ".join(keys), **values)


def keyed_list(prefix: str) -> Callable[[Any], Any]:
    def convert(answer: Any) -> Any:
        if isinstance(answer, (list, tuple)):
            return {f"{prefix}_{i}": v for i, v in enumerate(answer, start=1)}
        return answer
    return convert


def list_field(name: str) -> Callable[[Any], Any]:
    def convert(answer: Any) -> Any:
        return {name: list(answer)} if isinstance(answer, (list, tuple)) else answer
    return convert


#: The most texts one request may list. A prompt of 1,000 nodes is already beyond any chat model's
#: context window; beyond it, building the keyed JSON schema alone takes time (it has
#: one field per item), so the size is refused before any work.
MAX_ITEMS = 1000


def sized(field: str, texts: list[str]) -> list[str]:
    if len(texts) > MAX_ITEMS:
        raise InputError(field, f"at most {MAX_ITEMS} texts per judge request (no chat model reads more in one prompt)",
                         f"{len(texts)} texts", hint="Score a shorter list, e.g. the top-k retrieved nodes.")
    return texts


def extracted(step: str, what: str, items: list[str]) -> None:
    if len(items) > MAX_ITEMS:
        raise JudgeError(f"The reply to step '{step}' listed {len(items)} {what}; at most {MAX_ITEMS} can be judged "
                         "in one request.", step=step)


def check_judge(judge: Any) -> Judge:
    if not isinstance(judge, Judge):
        raise InputError("judge", "a judge: GivenJudge, OpenAIJudge or ReplayJudge", judge)
    return judge


def finish(result: MetricResult, judge: Judge, calls: CallList, reason: bool) -> MetricResult:
    """Attach the calls (and the opt-in reason) to the metric's result."""
    if reason:
        request = make_request(REASON, "reason", schema_models().Reason, 'a JSON object {"reason": "..."}',
                           data={"steps": "\n".join(result.narrative) + "\n\n" + result.table_text()},
                           metric=result.name, score=fmt(result.score))
        answer = ask(judge, request, calls)
        result.values["reason"] = answer.data["reason"]
        result.narrative.append(f"The judge's reason: {answer.data['reason']}")
    result.calls = calls
    result.inputs["judge"] = judge.describe()
    result.notes.append(f"Verdicts from {judge.describe()}: {calls.summary()}.")
    result.notes.extend(judge.run_notes)
    return result


def ask(judge: Judge, request: Request, calls: CallList) -> Any:
    """``judge.ask(request)``, adding its call records to ``calls``; a failure carries every call of the metric."""
    try:
        answer = judge.ask(request)
    except JudgeError as exc:
        exc.calls = list(calls) + [c for c in exc.calls if c not in calls]
        raise
    calls.extend(answer.calls)
    return answer


def schema_models() -> Any:

    return schemas
