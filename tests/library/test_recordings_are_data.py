"""Issue 21 §3: recordings and caches are data.

Every field of a judge recording and of a judge cache entry is checked when it loads: a
malformed one raises JudgeSetupError naming the file, the entry and the field, and the file
is left exactly as it was. A recording is never written over something that is not a
recording, and a document that would not load is never written at all.
"""

from __future__ import annotations

import json

import pytest

from ragmetrics_edu import InputError, designs
from ragmetrics_edu import judges as J
from ragmetrics_edu.judges.records import tally
from scripted_server import ScriptedServer, good

FORMAT = "ragmetrics-edu/recording-1"


def good_recording() -> dict:
    return {"format": FORMAT, "model": "m", "server": "s", "date": "2026-01-01", "notes": "", "base_url": "http://x/v1",
            "library": "ragmetrics-edu 0.1.0", "parameters": {"temperature": 0.0, "seed": 7},
            "gguf": {"file": "m.gguf"}, "pass": {"name": "p"}, "machine_time_s": 1.5, "wall_time_s": 2.0,
            "replies": [{"request_key": "ab" * 32, "attempt": 0, "step": "context_precision", "model": "m",
                         "messages": [{"role": "user", "content": "x"}], "raw": "{}", "prompt_tokens": 1,
                         "completion_tokens": 1, "latency_s": 0.1}]}


#: field -> values of the wrong type or range for it (each must be refused).
TOP_LEVEL = {
    "format": [3, "something-else/9", None, ["ragmetrics-edu/recording-1"]],
    "model": [None, 3, "", "  ", ["m"], {"name": "m"}, True],
    "server": [None, 3, "", ["s"], {"a": 1}],
    "date": [None, 20260101, "", ["2026"]],
    "notes": [3, ["a note"], {"a": 1}, True],
    "base_url": [3, ["http://x"], {"a": 1}],
    "library": [3, ["x"]],
    "parameters": [[1, 2], [["temperature", 0]], "temperature=0", 3, True],
    "gguf": [["m.gguf"], "m.gguf", 3],
    "pass": [["p"], "p", 3],
    "machine_time_s": ["fast", -1, True, [1.0]],
    "wall_time_s": ["slow", -0.5, False, {"s": 1}],
    "replies": ["replies", {"a": 1}, 3, None],
}
PER_REPLY = {
    "request_key": [None, 3, ["ab"], {"a": 1}, True],
    "step": [None, 3, ["context_precision"]],
    "raw": [None, 3, ["{}"], {"node_1": "yes"}, True],
    "model": [3, ["m"], {"a": 1}],
    "attempt": ["first", -1, True, 1.5, None, [0]],
    "messages": ["hello", [1], [{"role": 1, "content": "x"}], [{"role": "user"}], {"role": "user"}],
    "prompt_tokens": ["many", -1, True, 1.5, [1]],
    "completion_tokens": ["few", -2, False, 0.5],
    "latency_s": ["fast", -1, True, [0.1], {"s": 1}],
}
PLANTS = ([(name, value, name) for name, values in TOP_LEVEL.items() for value in values]
          + [(name, value, f"replies[0].{name}") for name, values in PER_REPLY.items() for value in values])


def _id(plant):
    name, value, _ = plant
    return f"{name}={json.dumps(value)}"


@pytest.mark.parametrize("plant", PLANTS, ids=[_id(p) for p in PLANTS])
def test_a_malformed_recording_field_names_the_file_and_the_field(plant, tmp_path) -> None:
    name, value, field = plant
    doc = good_recording()
    (doc if field == name else doc["replies"][0])[name] = value
    path = tmp_path / "recording.json"
    path.write_text(json.dumps(doc))
    before = path.read_bytes()
    with pytest.raises(J.JudgeSetupError) as info:
        J.ReplayJudge(path)
    message = str(info.value)
    assert str(path) in message and field in message, message
    assert path.read_bytes() == before                    # the file is left as it was
    with pytest.raises(J.JudgeSetupError, match="the recording") as info:
        J.ReplayJudge(doc)                                 # a loaded dict: the same check
    assert field in str(info.value)


def test_a_reply_that_is_not_an_object_is_named_by_its_index(tmp_path) -> None:
    doc = good_recording()
    doc["replies"].append("not a reply")
    path = tmp_path / "recording.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(J.JudgeSetupError, match=r"replies\[1\] must be an object"):
        J.ReplayJudge(path)


def test_every_field_of_the_good_recording_loads() -> None:
    judge = J.ReplayJudge(good_recording())
    assert judge.parameters == {"temperature": 0.0, "seed": 7} and judge.steps == ["context_precision"]


def test_absent_optional_fields_are_fine() -> None:
    doc = good_recording()
    for name in ("notes", "base_url", "library", "parameters", "gguf", "pass", "machine_time_s", "wall_time_s"):
        del doc[name]
    for name in ("model", "messages", "prompt_tokens", "completion_tokens", "latency_s", "attempt"):
        del doc["replies"][0][name]
    assert J.ReplayJudge(doc).parameters == {}


def test_every_shipped_recording_passes_the_check() -> None:
    from ragmetrics_edu import data

    names = [n for n in data.names() if n.startswith("recordings/") and n.endswith(".json")]
    judged = 0
    for name in names:
        doc = json.loads(data.path(name).read_text(encoding="utf-8"))
        if "replies" in doc:                               # a judge recording (not an embedding one)
            J.ReplayJudge(data.path(name))
            judged += 1
    assert judged >= 2


# -- writing: nothing already recorded is lost ------------------------------------------------------
def test_a_recording_is_never_written_over_a_file_that_is_not_one(tmp_path) -> None:
    precious = tmp_path / "notes.json"
    precious.write_text('{"my": "notes"}')
    with pytest.raises(InputError, match=r"^path: .*never written over"):
        J.write_recording(precious, {"model": "m", "server": "s"}, [])
    assert precious.read_text() == '{"my": "notes"}'
    with pytest.raises(InputError, match=r"^path: .*folder"):
        J.write_recording(tmp_path, {"model": "m", "server": "s"}, [])


@pytest.mark.parametrize("meta, field", [
    ({"model": "m", "server": "s", "parameters": [1, 2]}, "meta['parameters']"),
    ({"model": "", "server": "s"}, "meta['model']"),
    ({"model": "m", "server": "s", "format": "other/1"}, "meta['format']"),
    ({"model": "m", "server": "s", "notes": 3}, "meta['notes']"),
])
def test_a_document_that_would_not_load_is_never_written(meta, field, tmp_path) -> None:
    path = tmp_path / "recording.json"
    J.write_recording(path, {"model": "m", "server": "s"}, [])
    before = path.read_bytes()
    with pytest.raises(InputError) as info:
        J.write_recording(path, meta, [])
    assert info.value.field == field
    assert path.read_bytes() == before                    # the good recording is still there
    J.ReplayJudge(path)


def test_a_call_record_that_would_not_load_is_named_by_its_index(tmp_path) -> None:
    bad = J.CallRecord(step="context_precision", messages=[], raw=3, parsed=None, model="m", key="ab" * 32)
    with pytest.raises(InputError) as info:
        J.write_recording(tmp_path / "r.json", {"model": "m", "server": "s"}, [bad])
    assert info.value.field == "calls[0].raw"
    assert not (tmp_path / "r.json").exists()


# -- the judge's cache ------------------------------------------------------------------------------
QUESTION = "What is AI?"
EXPECTED = "AI is the simulation of human intelligence by machines."
NODES = ["NVIDIA makes AI chips.", "AI is the simulation of human intelligence."]


def _judge(server: ScriptedServer, cache_dir) -> J.OpenAIJudge:
    return J.OpenAIJudge("scripted-model", base_url=server.base_url, api_key="test-key", seed=7, mode="json_schema",
                         timeout=5.0, max_retries=0, cache_dir=cache_dir)


def _ask(judge: J.Judge):
    return designs.context_precision(judge, QUESTION, NODES, EXPECTED)


CACHE_PLANTS = [
    ("raw", None), ("raw", 3), ("raw", ["{}"]), ("raw", {"node_1": "no"}),
    ("key", 3), ("key", "0" * 64),
    ("model", 3), ("model", ["m"]), ("base_url", 7), ("finish_reason", ["stop"]), ("created", 20260101),
    ("prompt_tokens", "many"), ("prompt_tokens", -1), ("prompt_tokens", True), ("completion_tokens", 1.5),
    ("latency_s", "fast"), ("latency_s", -1), ("latency_s", True),
]


@pytest.fixture
def cached(server: ScriptedServer, tmp_path):
    """A cache folder holding one entry written by a real (scripted) run."""
    server.push(good({"node_1": "no", "node_2": "yes"}))
    assert _ask(_judge(server, tmp_path)).score == 0.5
    (entry,) = tmp_path.glob("*.json")
    assert server.hits == 1
    return entry


def test_a_good_cache_entry_answers_without_a_request(server: ScriptedServer, cached) -> None:
    judge = _judge(server, cached.parent)
    assert _ask(judge).score == 0.5 and judge.usage.cache_hits == 1 and server.hits == 1


def test_a_cache_hit_keeps_the_seconds_the_model_took_and_a_recording_written_from_it_too(
        server: ScriptedServer, cached, tmp_path) -> None:
    # A run resumed from the cache writes its recording from cache hits: the model's seconds must survive
    # (they were once replaced by the time it took to read the file), as a replayed reply keeps them.
    entry = json.loads(cached.read_text())
    entry["latency_s"] = 12.5
    cached.write_text(json.dumps(entry))
    judge = _judge(server, cached.parent)
    _ask(judge)
    (hit,) = [c for c in judge.calls if c.source == "cache"]
    assert hit.latency_s == 12.5 and tally([hit]).latency_s == 0.0      # a cache hit costs no seconds now
    target = J.write_recording(tmp_path / "resumed.json", {"model": "scripted-model", "server": "scripted"}, [hit])
    assert json.loads(target.read_text())["replies"][0]["latency_s"] == 12.5


@pytest.mark.parametrize("name, value", CACHE_PLANTS, ids=[f"{n}={json.dumps(v)}" for n, v in CACHE_PLANTS])
def test_a_malformed_cache_entry_names_the_file_and_the_field(name, value, server: ScriptedServer, cached) -> None:
    entry = json.loads(cached.read_text())
    entry[name] = value
    cached.write_text(json.dumps(entry))
    before = cached.read_bytes()
    with pytest.raises(J.JudgeSetupError) as info:
        _ask(_judge(server, cached.parent))
    message = str(info.value)
    assert str(cached) in message and name in message, message
    assert cached.read_bytes() == before                  # not overwritten by a fresh reply
    assert server.hits == 1                                # and nothing was asked


@pytest.mark.parametrize("content", ["[1, 2]", "not json", "", "null"])
def test_a_cache_entry_that_is_not_a_json_object_is_named(content, server: ScriptedServer, cached) -> None:
    cached.write_text(content)
    with pytest.raises(J.JudgeSetupError, match="cache entry"):
        _ask(_judge(server, cached.parent))
    assert cached.read_text() == content and server.hits == 1


def test_a_cache_entry_that_is_not_text_is_named(server: ScriptedServer, cached) -> None:
    cached.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(J.JudgeSetupError, match="UTF-8"):
        _ask(_judge(server, cached.parent))
    assert cached.read_bytes() == b"\xff\xfe\x00binary"
