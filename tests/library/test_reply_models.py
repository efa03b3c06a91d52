"""The reply models read a reply as pydantic 2 does, with no pydantic (so a recording replays in Pyodide).

pydantic is the oracle here (installed with the dev extra only): for every built-in design's reply model,
the JSON Schema is the one pydantic gives (the request keys of the shipped recordings hash it), and on
every shipped recorded reply and on generated junk, the check accepts what pydantic accepts, returns what
pydantic dumps, and names the same problems (type and message), in the same places.
"""

from __future__ import annotations

import json
import typing
from importlib import resources
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pydantic = pytest.importorskip("pydantic")  # the dev extra installs it: a reference, never the library's

from ragmetrics_edu.designs import schemas as design_schemas  # noqa: E402
from ragmetrics_edu.judges import schemas  # noqa: E402
from ragmetrics_edu.judges.base import parse_json_reply  # noqa: E402


def _as_pydantic(tp: Any, made: dict[type, Any]) -> Any:
    """The same type written for pydantic: Strict models become BaseModels, Before becomes BeforeValidator."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        extras = [pydantic.BeforeValidator(a.read) for a in args[1:] if isinstance(a, schemas.Before)]
        return Annotated[(_as_pydantic(args[0], made), *extras)]
    if origin is typing.Union:
        return typing.Optional[_as_pydantic([a for a in args if a is not type(None)][0], made)]
    if origin is list:
        return list[_as_pydantic(args[0], made)]  # type: ignore[misc]
    if isinstance(tp, type) and issubclass(tp, schemas.Strict):
        if tp not in made:
            fields = {n: (_as_pydantic(t, made), ...) for n, t in tp.fields().items()}
            made[tp] = pydantic.create_model(tp.__name__, __config__=pydantic.ConfigDict(extra="forbid"), **fields)
        return made[tp]
    return tp


def _pydantic_schema(model: Any) -> dict[str, Any]:
    """pydantic's schema with $defs inlined and titles dropped (what the library sent while it used pydantic)."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(x) for x in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return walk(defs[node["$ref"].rsplit("/", 1)[-1]])
        return {k: ({n: walk(s) for n, s in v.items()} if k == "properties" else walk(v))
                for k, v in node.items() if k not in ("$defs", "title", "description")}

    return walk(schema)


def _models() -> list[type[schemas.Strict]]:
    found = [v for v in vars(design_schemas).values()
             if isinstance(v, type) and issubclass(v, schemas.Strict) and v is not schemas.Strict]
    found += [schemas.Reason, design_schemas.rubric_score(1, 5), design_schemas.rubric_score(0, 10),
              schemas.keyed("V", ("node_1", "node_2"), schemas.YesNo),
              schemas.keyed("W", ("claim_1",), schemas.YesNoIdk),
              schemas.keyed("N", ("statement_1",), typing.Optional[int]),
              schemas.keyed("S", ("node_1",), design_schemas.JudgedStatements)]
    return found


MODELS = _models()


def _pydantic_result(model: Any, data: Any) -> tuple[str, Any]:
    try:
        return "ok", model.model_validate(data).model_dump(mode="json")
    except pydantic.ValidationError as exc:
        return "bad", [(e["loc"], e["type"], e["msg"]) for e in exc.errors()]


def _ours(model: type[schemas.Strict], data: Any) -> tuple[str, Any]:
    try:
        return "ok", model.check(data)
    except schemas.InvalidReply as exc:
        return "bad", [(e["loc"], e["type"], e["msg"]) for e in exc.errors()]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_each_schema_is_the_one_pydantic_gives(model: type[schemas.Strict]) -> None:
    assert schemas.schema_of(model) == _pydantic_schema(_as_pydantic(model, {}))


def _recorded_replies() -> list[tuple[str, str]]:
    """(step, raw reply) of every shipped recording."""
    out: list[tuple[str, str]] = []
    root = resources.files("ragmetrics_edu") / "data" / "recordings"
    stack = [root]
    while stack:
        here = stack.pop()
        for entry in here.iterdir():
            if entry.is_dir():
                stack.append(entry)
            elif entry.name.endswith(".json"):
                data = json.loads(entry.read_text(encoding="utf-8"))
                if isinstance(data, dict) and isinstance(data.get("replies"), list):
                    out += [(str(r.get("step")), r["raw"]) for r in data["replies"] if isinstance(r.get("raw"), str)]
    return out


def test_every_recorded_reply_reads_the_same_under_every_model() -> None:
    replies = _recorded_replies()
    assert len(replies) > 100  # the recordings are there to be read
    made: dict[type, Any] = {}
    compared = 0
    for _, raw in replies:
        try:
            data = parse_json_reply(raw)
        except ValueError:
            continue
        for model in MODELS:
            assert _ours(model, data) == _pydantic_result(_as_pydantic(model, made), data), (model.__name__, raw)
            compared += 1
    assert compared > 1000


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(["yes", "No", " YES ", "idk", "borderline", "true", "off", "3", " 4 ", "3.0", "+2", "x", "",
                       "supported", "Not_Supported", "contradicted", "not_mentioned", "1_0"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["claims", "statements", "statement", "node", "verdict", "quote", "score", "reason",
                         "node_1", "node_2", "claim_1", "statement_1", "question", "noncommittal", "answer",
                         "steps", "extra"]), inner, max_size=4),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(model_index=st.integers(0, len(MODELS) - 1), data=JSON)
def test_junk_reads_the_same_as_pydantic_reads_it(model_index: int, data: Any) -> None:
    model = MODELS[model_index]
    assert _ours(model, data) == _pydantic_result(_as_pydantic(model, {}), data)


def test_a_field_type_no_reply_needs_is_refused_when_the_schema_is_built() -> None:
    odd = schemas.model("Odd", {"when": float})
    with pytest.raises(TypeError, match="cannot hold a field"):
        odd.json_schema()


def test_a_reply_model_needs_no_pydantic() -> None:
    import subprocess
    import sys

    code = ("import sys; sys.modules['pydantic'] = None\n"
            "from ragmetrics_edu.designs import schemas\n"
            "print(schemas.Claims.check({'claims': ['a']}), schemas.rubric_score(1, 5).check({'score': 3.0}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "{'claims': ['a']} {'score': 3}"


def test_literal_and_yes_no_read_as_the_library_reads_verdicts() -> None:
    verdicts = schemas.keyed("V2", ("node_1", "node_2", "node_3"), schemas.YesNoIdk)
    assert verdicts.check({"node_1": " Yes", "node_2": 0, "node_3": "borderline"}) == \
        {"node_1": "yes", "node_2": "no", "node_3": "idk"}
    with pytest.raises(schemas.InvalidReply) as caught:
        verdicts.check({"node_1": "maybe", "node_3": "no", "node_4": "yes"})
    assert [(e["loc"], e["type"]) for e in caught.value.errors()] == [
        (("node_1",), "literal_error"), (("node_2",), "missing"), (("node_4",), "extra_forbidden")]
