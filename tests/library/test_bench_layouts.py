"""benchmarks/bench_layouts.py against a real HTTP server on 127.0.0.1 that writes llama.cpp's log line per request:
each arm asks about the same answers, G-Eval's steps once, and the reuse share is computed from the log."""

import importlib.util
import json
import math
from pathlib import Path

import pytest

from ragmetrics_edu.course.against_people.items import items
from ragmetrics_edu.text import sentence_spans
from scripted_server import Scripted, score_tokens

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_layouts.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_layouts", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_arm_asks_the_same_answers_and_reads_the_servers_log(server, tmp_path):
    log = tmp_path / "server.log"
    log.write_text("started\n", encoding="utf-8")

    def respond(body):
        with open(log, "a", encoding="utf-8") as handle:
            handle.write("Llama.generate: 10 prefix-match hit, remaining 40 prompt tokens to eval\n")
        fmt = body.get("response_format") or {}
        schema = fmt["json_schema"]["schema"] if fmt.get("type") == "json_schema" else fmt.get("schema", {})
        if "steps" in schema.get("properties", {}):
            return Scripted(content=json.dumps({"steps": ["Read.", "Compare.", "Score."]}))
        if "score" in schema.get("properties", {}):
            return Scripted(content='{"score": 4}', logprobs=score_tokens(4, {"4": 0.6, "5": 0.4}))
        return Scripted(content="yes", logprobs=[{"token": "yes", "logprob": math.log(0.7), "bytes": None,
                                                  "top_logprobs": [{"token": "yes", "logprob": math.log(0.7)},
                                                                   {"token": "no", "logprob": math.log(0.3)}]}])

    server.responder = respond
    found = _bench().run(server.base_url, "scripted-model", log, sources=1, answers=2)
    chosen = items("ragtruth", "dev", groups=1)[:2]
    sentences = sum(len(sentence_spans(i.answer)) for i in chosen)
    assert set(found) == {"passages_first", "sentence_first", "g_eval"}
    assert found["passages_first"]["requests"] == found["sentence_first"]["requests"] == sentences
    assert found["g_eval"]["requests"] == len(chosen) + 1                # the steps once, then one score an answer
    for row in found.values():
        assert row["answers"] == len(chosen)
        assert row["prompt_tokens_evaluated"] == 40 * row["requests"]   # read from the log lines of that arm only
        assert row["reused_share"] == pytest.approx(1 - 40 / 50)        # the scripted server reports 50 sent


def test_the_arms_can_be_chosen(server, tmp_path):
    log = tmp_path / "server.log"
    log.write_text("", encoding="utf-8")
    server.responder = lambda body: Scripted(content="no", logprobs=[{"token": "no", "logprob": 0.0, "bytes": None,
                                                                      "top_logprobs": [{"token": "no", "logprob": 0.0}]}])
    found = _bench().run(server.base_url, "scripted-model", log, sources=1, answers=1, arms=("passages_first",))
    assert list(found) == ["passages_first"] and found["passages_first"]["prompt_tokens_evaluated"] == 0
