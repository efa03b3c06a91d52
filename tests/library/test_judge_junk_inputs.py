"""Every public callable of ``ragmetrics_edu.judges`` and ``ragmetrics_edu.evaluate``, driven with junk.

For each callable the test starts from a valid call and replaces one argument with a
generated junk value. The only acceptable outcomes are an :class:`InputError` (or a
:class:`JudgeError`, which covers a judge that cannot start or a reply that does not fit),
or a documented result: a judge object, or scores within [0, 1] (NaN where the metric
documents it). Anything else (``TypeError``, ``KeyError``, ``AttributeError`` from deep
inside, a score of 1.8) fails. No request leaves the machine: the OpenAIJudge points at a
closed port on 127.0.0.1 and is only constructed; the metric steps use a GivenJudge that
answers every step with a valid made-up reply.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragmetrics_edu import InputError, designs, evaluate, judges
from ragmetrics_edu.judges import JudgeError
from ragmetrics_edu.metrics import SPECS
from ragmetrics_edu.results import MetricResult
from scripted_server import fake_value

CLOSED = "http://127.0.0.1:9/v1"
junk_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**400, max_value=10**400), st.floats(allow_nan=True),
    st.text(max_size=12), st.binary(max_size=6), st.just(float("inf")), st.just(""), st.just("   "),
    st.just(object()), st.just(Path("nowhere/at/all.json")), st.just(len),
)
junk = st.recursive(junk_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(st.text(max_size=5), inner, max_size=3),
    st.sets(st.integers(), max_size=3)), max_leaves=6)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def answering_judge() -> judges.GivenJudge:
    """A person who answers every step with a valid made-up reply (read from the request's schema)."""
    return judges.GivenJudge({step: (lambda req: fake_value(req.schema)) for step in judges.STEPS})


NODES = ["AI means artificial intelligence.", "NVIDIA makes chips."]
METRIC_CALLS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "context_precision": (designs.context_precision, {"question": "Q?", "nodes": NODES, "expected_output": "A."}),
    "context_recall": (designs.context_recall, {"expected_output": "A.", "nodes": NODES, "question": "Q?"}),
    "contextual_relevancy": (designs.contextual_relevancy, {"question": "Q?", "nodes": NODES}),
    "context_entity_recall": (designs.context_entity_recall, {"reference": "Paris.", "nodes": NODES}),
    "faithfulness": (designs.faithfulness, {"answer": "A.", "context": NODES, "question": "Q?"}),
    "faithfulness_reanswer": (designs.faithfulness_reanswer, {"answer": "A.", "context": NODES, "question": "Q?"}),
    "faithfulness_checked": (designs.faithfulness_checked, {"answer": "A.", "context": NODES, "question": "Q?"}),
    "answer_relevancy": (designs.answer_relevancy, {"question": "Q?", "answer": "A."}),
    "answer_relevancy_embedding": (designs.answer_relevancy_embedding, {"question": "Q?", "answer": "A.", "n": 2}),
    "answer_correctness": (designs.answer_correctness, {"question": "Q?", "answer": "A.", "ground_truth": "G."}),
    "g_eval": (designs.g_eval, {"answer": "A.", "context": NODES, "question": "Q?", "criteria": "Faithful."}),
    "aspect_critic": (designs.aspect_critic, {"answer": "A.", "context": NODES, "question": "Q?", "strictness": 3}),
}
OPTIONAL = {"variant": "deepeval", "threshold": 0.5, "reason": False}
#: every registered design that asks a judge and needs no embedder, driven through its spec's Ask with a valid case
THROUGH_ASK = [s for s in SPECS.values() if s.judged and not s.embedder]
CASE = {"question": "Q?", "answer": "A.", "contexts": NODES, "ground_truth": "G.", "embedder": None, "criteria": None}


def in_range(result: Any) -> bool:
    score = result.score
    return isinstance(score, float) and (math.isnan(score) or 0.0 <= score <= 1.0)


def accept(call: Callable[[], Any], check: Callable[[Any], bool]) -> None:
    """Run ``call``: it raises InputError/JudgeError, or returns something ``check`` accepts."""
    try:
        result = call()
    except (InputError, JudgeError):
        return
    assert check(result), f"returned an undocumented result: {result!r}"


def test_every_public_callable_is_covered() -> None:
    covered = {"GivenJudge", "OpenAIJudge", "ReplayJudge", "score_cases", "parse_json_reply", "write_recording"}
    data_types = {"Judge", "Request", "Answer", "Reply", "CallRecord", "CallList", "Usage", "STEPS",
                  "JudgeError", "JudgeAPIError", "JudgeSetupError"}
    assert set(judges.__all__) == covered | data_types, set(judges.__all__) ^ (covered | data_types)
    functions = {name for name in designs.__all__ if callable(getattr(designs, name))
                 and not isinstance(getattr(designs, name), type(designs))}
    # a design's own function is driven through its spec's Ask (test_registered_designs_take_junk_through_ask):
    # a new design needs no row here
    asked = {getattr(s.ask.target, "__name__", "") for s in THROUGH_ASK if s.ask is not None}
    assert functions <= set(METRIC_CALLS) | asked | {"evaluation_steps", "reanswer_reply", "support_request"}, \
        functions - (set(METRIC_CALLS) | asked)


@pytest.mark.parametrize("name", sorted(METRIC_CALLS))
@SETTINGS
@given(value=junk, data=st.data())
def test_metric_steps_take_junk(name: str, value: Any, data: Any) -> None:
    function, kwargs = METRIC_CALLS[name]
    params = ["judge", *kwargs, *(k for k in OPTIONAL if k in function.__code__.co_varnames)]
    field = data.draw(st.sampled_from(params))
    args = {"judge": answering_judge(), **kwargs}
    args[field] = value
    accept(lambda: function(**args), lambda r: isinstance(r, MetricResult) and in_range(r))


@pytest.mark.parametrize("name", [s.name for s in THROUGH_ASK])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=junk, data=st.data())
def test_registered_designs_take_junk_through_ask(name: str, value: Any, data: Any) -> None:
    spec = SPECS[name]
    assert spec.ask is not None
    field = data.draw(st.sampled_from(["judge", *spec.ask.needs]))
    passed = {**CASE, "judge": answering_judge(), field: value}
    accept(lambda: spec.ask(passed), lambda r: isinstance(r, MetricResult))


@pytest.mark.parametrize("field", ["model", "base_url", "api_key", "temperature", "seed", "timeout", "max_retries",
                                   "max_concurrency", "cache_dir", "mode", "max_tokens"])
@SETTINGS
@given(value=junk)
def test_openai_judge_takes_junk(field: str, value: Any, tmp_path_factory) -> None:
    if field == "cache_dir" and isinstance(value, (str, Path)) and str(value).strip():
        value = tmp_path_factory.mktemp("c") / str(value).replace("\x00", "").lstrip("/")[:40]
    args: dict[str, Any] = {"base_url": CLOSED, "api_key": "k"}
    model = "m"
    if field == "model":
        model = value
    else:
        args[field] = value
    accept(lambda: judges.OpenAIJudge(model, **args), lambda j: isinstance(j, judges.OpenAIJudge))


@SETTINGS
@given(value=junk)
def test_given_and_replay_judges_take_junk(value: Any) -> None:
    accept(lambda: judges.GivenJudge(value), lambda j: isinstance(j, judges.GivenJudge))
    accept(lambda: judges.GivenJudge({}, max_concurrency=value), lambda j: isinstance(j, judges.GivenJudge))
    if isinstance(value, (str, Path)):
        return  # a junk path is a file name: covered by the malformed-recording tests, which use tmp_path
    accept(lambda: judges.ReplayJudge(value), lambda j: isinstance(j, judges.ReplayJudge))
    recording = {"model": "m", "server": "s", "date": "d", "replies": value}
    accept(lambda: judges.ReplayJudge(recording), lambda j: isinstance(j, judges.ReplayJudge))
    accept(lambda: judges.ReplayJudge({**recording, "replies": [value]}), lambda j: isinstance(j, judges.ReplayJudge))


@SETTINGS
@given(value=junk, field=st.sampled_from(["step", "cases", "judge", "max_concurrency", "progress"]))
def test_score_cases_takes_junk(value: Any, field: str) -> None:
    args: dict[str, Any] = {"step": designs.context_precision, "judge": answering_judge(),
                            "cases": [{"question": "Q?", "nodes": NODES, "expected_output": "A."}]}
    args[field] = value
    accept(lambda: judges.score_cases(**args),
           lambda rs: isinstance(rs, list) and all(isinstance(r, MetricResult) and in_range(r) for r in rs))


@SETTINGS
@given(value=junk)
def test_parse_json_reply_takes_junk(value: Any) -> None:
    # Documented: a string that holds no JSON object raises ValueError saying what is wrong (the repair
    # request quotes it); anything but a string is an InputError.
    try:
        result = judges.parse_json_reply(value)
    except InputError:
        assert not isinstance(value, str)
        return
    except ValueError as exc:
        assert isinstance(value, str) and str(exc).startswith("the reply ")
        return
    assert isinstance(result, dict)


@SETTINGS
@given(value=junk, field=st.sampled_from(["meta", "calls"]))
def test_write_recording_takes_junk(value: Any, field: str, tmp_path_factory) -> None:
    args: dict[str, Any] = {"path": tmp_path_factory.mktemp("rec") / "r.json", "meta": {"model": "m"}, "calls": []}
    args[field] = value
    accept(lambda: judges.write_recording(**args), lambda p: isinstance(p, Path) and p.is_file())


CASES = [{"question": "Q?", "answer": "A.", "contexts": NODES, "ground_truth": "G."}]


@SETTINGS
@given(value=junk, field=st.sampled_from(["data", "metrics", "judge", "max_concurrency", "progress"]))
def test_evaluate_takes_junk(value: Any, field: str) -> None:
    args: dict[str, Any] = {"data": CASES, "metrics": ["context_precision", "faithfulness"],
                            "judge": answering_judge(), "progress": False}
    if field == "data" and isinstance(value, (str, Path)):
        value = Path("/nonexistent-ragmetrics") / str(value).replace("\x00", "")[:20]
    args[field] = value

    def scores_in_range(frame: Any) -> bool:
        names = [c for c in frame.columns if c in SPECS and not SPECS[c].embedder]  # a cosine may be negative
        return all(math.isnan(v) or 0.0 <= v <= 1.0 for c in names for v in frame[c])

    accept(lambda: evaluate(**args), scores_in_range)
