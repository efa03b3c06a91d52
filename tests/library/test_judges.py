"""The judges against a real HTTP server: the real ``openai`` client, scripted replies.

Every path a learner can meet is exercised on 127.0.0.1: good JSON, a malformed reply
repaired, malformed twice, the wrong number of verdicts, 429 then success, 500, a reply
slower than the timeout, 401/404, no server, the cache (a re-run makes no request),
recordings and replay, token accounting and bounded concurrency.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import subprocess
import sys
import time

import pytest

from ragmetrics_edu import designs
from ragmetrics_edu import judges as J
from ragmetrics_edu.errors import RagMetricsError
from scripted_server import Scripted, ScriptedServer, good, keys_of, schema_responder

QUESTION = "What is AI?"
EXPECTED = "AI is the simulation of human intelligence by machines."
NODES = ["NVIDIA makes AI chips.", "AI is the simulation of human intelligence.",
         "Machines can learn from data.", "Chatbots were released in 2023.", "GPUs are fast."]
DECK = {"node_1": "no", "node_2": "yes", "node_3": "yes", "node_4": "no", "node_5": "no"}  # deck A: 0.58333




def make(server: ScriptedServer, **kwargs) -> J.OpenAIJudge:
    kwargs.setdefault("mode", "json_schema")
    kwargs.setdefault("timeout", 5.0)
    kwargs.setdefault("max_retries", 0)
    return J.OpenAIJudge("scripted-model", base_url=server.base_url, api_key="test-key", seed=7, **kwargs)


def cp(judge: J.Judge, nodes: list[str] = NODES):
    return designs.context_precision(judge, QUESTION, nodes, EXPECTED)


# -- good replies and what is sent ----------------------------------------------------------
def test_good_json_gives_the_deck_score_and_a_full_record(server: ScriptedServer) -> None:
    server.push(good(DECK, prompt_tokens=321, completion_tokens=40))
    judge = make(server)
    r = cp(judge)
    assert r.score == pytest.approx(7 / 12)
    assert [row["relevant"] for row in r.rows] == [0, 1, 1, 0, 0]
    assert server.hits == 1
    body = server.requests[0]
    assert body["model"] == "scripted-model" and body["temperature"] == 0 and body["seed"] == 7
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert keys_of(body) == list(DECK)
    assert fmt["json_schema"]["schema"]["additionalProperties"] is False
    [call] = r.calls
    assert call.step == "context_precision" and call.source == "api" and not call.cached
    assert call.parsed == DECK and call.raw == json.dumps(DECK)
    assert call.messages == body["messages"] and call.model == "scripted-model"
    assert (call.prompt_tokens, call.completion_tokens) == (321, 40) and call.latency_s > 0
    assert '<data-' in call.messages[1]["content"] and 'name="node_5">\nGPUs are fast.\n</data-' in call.messages[1]["content"]
    assert any("scripted-model" in n and "1 calls" in n for n in r.notes)
    html = r.calls._repr_html_()
    assert "context_precision" in html and "&quot;node_1&quot;" in html and "<details>" in html


def test_json_object_schema_mode_is_what_llama_cpp_accepts(server: ScriptedServer) -> None:
    server.push(good(DECK))
    r = cp(make(server, mode="json_object_schema"))
    assert r.score == pytest.approx(7 / 12)
    fmt = server.requests[0]["response_format"]
    assert fmt["type"] == "json_object" and fmt["schema"]["required"] == list(DECK)
    assert "$defs" not in json.dumps(fmt["schema"])


def test_plain_json_mode_strips_fences_and_puts_the_schema_in_the_prompt(server: ScriptedServer) -> None:
    server.push(Scripted(content="Sure! Here it is:\n```json\n" + json.dumps(DECK, indent=2) + "\n```\n"))
    judge = J.OpenAIJudge("scripted-model", base_url=server.base_url)  # auto mode, no key needed locally
    assert judge.mode == "json"
    r = cp(judge)
    assert r.score == pytest.approx(7 / 12)
    body = server.requests[0]
    assert "response_format" not in body
    assert "must match this JSON Schema" in body["messages"][-1]["content"]


def test_auto_mode_uses_json_schema_for_openai() -> None:
    judge = J.OpenAIJudge("gpt-4o-mini", api_key="sk-test")
    assert judge.mode == "json_schema" and judge.server == "https://api.openai.com/v1"


def test_verdict_words_are_read_case_insensitively(server: ScriptedServer) -> None:
    server.push(good({k: v.upper() for k, v in DECK.items()}))
    assert cp(make(server)).score == pytest.approx(7 / 12)


# -- repairs -----------------------------------------------------------------------------------
def test_malformed_json_then_repaired(server: ScriptedServer) -> None:
    server.push(Scripted(content='{"node_1": "no", "node_2": yes'), good(DECK))
    judge = make(server)
    r = cp(judge)
    assert r.score == pytest.approx(7 / 12)
    assert server.hits == 2 and judge.usage.calls == 2 and judge.usage.repairs == 1
    first, second = r.calls
    assert not first.ok and "not valid JSON" in first.error and first.parsed is None
    assert second.ok and second.attempt == 1
    repair = server.requests[1]["messages"]
    assert repair[:2] == server.requests[0]["messages"]
    assert repair[2] == {"role": "assistant", "content": '{"node_1": "no", "node_2": yes'}
    assert repair[3]["role"] == "user" and "could not be used" in repair[3]["content"]


def test_malformed_twice_raises_judge_error_with_the_raw_text(server: ScriptedServer) -> None:
    server.push(Scripted(content="I think nodes 2 and 3 are relevant."), Scripted(content="node_2: yes"))
    judge = make(server)
    with pytest.raises(J.JudgeError) as info:
        cp(judge)
    err = info.value
    assert isinstance(err, RagMetricsError)
    assert err.raw == "node_2: yes" and err.raws == ["I think nodes 2 and 3 are relevant.", "node_2: yes"]
    assert err.step == "context_precision" and len(err.calls) == 2
    assert "node_2: yes" in str(err) and "repair" in str(err)
    assert server.hits == 2 and len(judge.calls) == 2


def test_wrong_number_of_verdicts_is_repaired_never_padded(server: ScriptedServer) -> None:
    four = {k: DECK[k] for k in list(DECK)[:4]}
    server.push(good(four), good(DECK))
    r = cp(make(server))
    assert r.score == pytest.approx(7 / 12) and len(r.rows) == 5
    assert "missing key node_5" in r.calls[0].error
    assert "missing key node_5" in server.requests[1]["messages"][-1]["content"]


def test_wrong_number_of_verdicts_twice_raises(server: ScriptedServer) -> None:
    six = {**DECK, "node_6": "yes"}
    server.push(good(six), good(six))
    with pytest.raises(J.JudgeError, match="unexpected key node_6") as info:
        cp(make(server))
    assert json.loads(info.value.raw) == six


def test_out_of_range_node_number_is_repaired(server: ScriptedServer) -> None:
    server.push(good({"statements": [{"statement": "AI simulates intelligence.", "node": 9}]}),
                good({"statements": [{"statement": "AI simulates intelligence.", "node": 2},
                                     {"statement": "It runs on machines.", "node": None}]}))
    r = designs.context_recall(make(server), EXPECTED, NODES)
    assert r.score == 0.5 and r.inputs["nodes"] == [2, None]
    assert "between 1 and 5" in r.calls[0].error


# -- HTTP errors, retries, timeouts ------------------------------------------------------------
def test_429_is_retried_by_the_client_then_succeeds(server: ScriptedServer) -> None:
    server.push(Scripted(status=429, message="Rate limit reached", headers={"retry-after-ms": "20"}), good(DECK))
    judge = make(server, max_retries=2)
    r = cp(judge)
    assert r.score == pytest.approx(7 / 12)
    assert server.hits == 2                       # one retry on the wire
    assert judge.usage.calls == 1 and len(r.calls) == 1   # one logical call


def test_429_beyond_the_retries_explains_what_to_do(server: ScriptedServer) -> None:
    server.push(*[Scripted(status=429, message="Rate limit reached", headers={"retry-after-ms": "10"})] * 2)
    with pytest.raises(J.JudgeAPIError, match="429.*max_concurrency") as info:
        cp(make(server, max_retries=1))
    assert info.value.status == 429 and server.hits == 2


def test_500_is_retried_then_reported_with_the_llama_cpp_hint(server: ScriptedServer) -> None:
    server.push(*[Scripted(status=500, message="json_schema not supported", headers={"retry-after-ms": "10"})] * 2)
    with pytest.raises(J.JudgeAPIError) as info:
        cp(make(server, max_retries=1))
    err = info.value
    assert err.status == 500 and server.hits == 2
    assert "HTTP 500" in str(err) and "mode='json_object_schema'" in str(err)
    assert isinstance(err, J.JudgeError) and err.step == "context_precision"


def test_a_reply_slower_than_the_timeout(server: ScriptedServer) -> None:
    # The reply would take 30 s; the judge gives up at its 0.3 s timeout, well before (15 s: a bound
    # no busy machine misses; the server abandons the sleeping reply when the test ends).
    server.push(good(DECK, delay=30.0))
    judge = make(server, timeout=0.3)     # built first: the clock times the request, not openai's import
    start = time.perf_counter()
    with pytest.raises(J.JudgeAPIError, match="timeout=0.3") as info:
        cp(judge)
    assert time.perf_counter() - start < 15.0 and server.hits == 1
    assert info.value.status is None and "larger timeout" in str(info.value)


def test_401_and_404_are_explained(server: ScriptedServer) -> None:
    server.push(Scripted(status=401, message="Incorrect API key provided"))
    with pytest.raises(J.JudgeAPIError, match="rejected the API key") as info:
        cp(make(server))
    assert info.value.status == 401
    server.push(Scripted(status=404, message="The model `scripted-model` does not exist"))
    with pytest.raises(J.JudgeAPIError, match="Model 'scripted-model' was not found") as info:
        cp(make(server))
    assert info.value.status == 404 and "/v1" in str(info.value)


def test_no_server_listening() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    judge = J.OpenAIJudge("m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0, timeout=2)
    with pytest.raises(J.JudgeAPIError, match="Could not connect"):
        cp(judge)


def test_no_key_and_no_base_url_says_how_to_start() -> None:
    with pytest.raises(J.JudgeSetupError) as info:
        J.OpenAIJudge("gpt-4o-mini")
    text = str(info.value)
    assert "OPENAI_API_KEY" in text and "base_url" in text and "ReplayJudge" in text


# -- cache and usage -----------------------------------------------------------------------------
def test_cache_rerun_makes_zero_requests(server: ScriptedServer, tmp_path) -> None:
    server.push(good({"claims": ["AI simulates intelligence.", "AI was invented in 2020."]}),
                Scripted(content="claim_1 yes"),                       # malformed: one repair
                good({"claim_1": "yes", "claim_2": "idk"}))
    first = designs.faithfulness(make(server, cache_dir=tmp_path), "AI simulates ... 2020.", NODES)
    assert server.hits == 3 and first.score == 1.0
    # only the two replies that validated are kept; the malformed one is never answered from the cache
    assert len(list(tmp_path.glob("*.json"))) == 2 and not list(tmp_path.glob(".tmp-*"))
    assert "claim_1 yes" not in "".join(p.read_text() for p in tmp_path.glob("*.json"))

    server.push(good({"claim_1": "yes", "claim_2": "idk"}))  # asked again, the server now answers well
    again = make(server, cache_dir=tmp_path)
    second = designs.faithfulness(again, "AI simulates ... 2020.", NODES)
    assert server.hits == 4
    assert again.usage.calls == 1 and again.usage.cache_hits == 1
    assert second.score == first.score and second.rows == first.rows

    third = make(server, cache_dir=tmp_path)
    assert designs.faithfulness(third, "AI simulates ... 2020.", NODES).score == first.score
    assert server.hits == 4 and third.usage.calls == 0 and third.usage.cache_hits == 2   # no request at all
    assert all(c.cached and c.source == "cache" for c in third.calls)

    other = make(server, cache_dir=tmp_path, temperature=0.5)  # other parameters: a new key
    server.push(good({"claims": []}))
    assert designs.faithfulness(other, "AI simulates ... 2020.", NODES).score == 1.0
    assert server.hits == 5


def test_usage_and_token_accounting(server: ScriptedServer) -> None:
    server.push(good({"statements": ["AI simulates intelligence.", "I like cats."]}, prompt_tokens=100, completion_tokens=20),
                Scripted(content="oops", prompt_tokens=150, completion_tokens=3),
                good({"statement_1": "yes", "statement_2": "no"}, prompt_tokens=170, completion_tokens=15))
    judge = make(server)
    r = designs.answer_relevancy(judge, QUESTION, "AI simulates intelligence. I like cats.")
    assert r.score == 0.5
    assert judge.usage.to_dict() == {"calls": 3, "prompt_tokens": 420, "completion_tokens": 38,
                                     "cache_hits": 0, "repairs": 1}
    assert judge.usage.total_tokens == 458
    assert (r.calls.prompt_tokens, r.calls.completion_tokens) == (420, 38)
    assert "3 calls (0 from cache, 1 repairs)" in r.calls.summary()
    assert len(judge.calls) == 3 and "3 calls" in repr(judge)


# -- replay and given ------------------------------------------------------------------------------
def test_recording_then_replay_offline(server: ScriptedServer, tmp_path) -> None:
    server.push(Scripted(content="```json\n" + json.dumps(DECK) + "\n```"))
    server.push(good({"claims": ["AI simulates intelligence."]}), Scripted(content="{}"),
                good({"claim_1": "yes"}))
    live = make(server, mode="json")
    live_cp = cp(live)
    live_f = designs.faithfulness(live, "AI simulates intelligence.", NODES, question=QUESTION)
    path = live.save_recording(tmp_path / "rec.json", server="scripted test server", notes="unit test")
    doc = json.loads(path.read_text())
    assert doc["model"] == "scripted-model" and doc["server"] == "scripted test server" and doc["date"]
    assert len(doc["replies"]) == 4

    hits = server.hits
    replay = J.ReplayJudge(path)
    assert "scripted-model" in replay.describe() and replay.steps == ["context_precision", "faithfulness.claims",
                                                                       "faithfulness.verdicts"]
    again_cp = cp(replay)
    again_f = designs.faithfulness(replay, "AI simulates intelligence.", NODES, question=QUESTION)
    assert server.hits == hits
    assert again_cp.score == live_cp.score and again_f.rows == live_f.rows
    assert [c.messages for c in again_f.calls] == [c.messages for c in live_f.calls]
    assert [c.source for c in again_f.calls] == ["replay"] * 3 and replay.usage.repairs == 1
    with pytest.raises(J.JudgeError, match="holds no reply"):
        cp(replay, NODES[:3])
    with pytest.raises(J.JudgeSetupError, match="No recording"):
        J.ReplayJudge(tmp_path / "missing.json")
    with pytest.raises(J.JudgeSetupError, match="names its model, server and date"):
        J.ReplayJudge({"replies": []})


def test_given_judge_checks_a_person_like_a_model() -> None:
    judge = J.GivenJudge({"context_precision": ["no", "yes", "yes", "no", "no"],
                          "faithfulness.claims": ["c1", "c2"], "faithfulness.verdicts": [1, "IDK"]})
    assert cp(judge).score == pytest.approx(7 / 12)
    f = designs.faithfulness(judge, "answer", NODES, variant="ragas")
    assert f.score == 0.5 and [c.source for c in f.calls] == ["given", "given"]
    with pytest.raises(J.JudgeError, match="does not fit: missing key node_6"):
        cp(judge, NODES + ["sixth"])  # 5 verdicts for 6 nodes: no repair, no padding
    assert judge.usage.repairs == 0
    with pytest.raises(J.JudgeError, match="no answer for step 'context_recall'"):
        designs.context_recall(judge, EXPECTED, NODES)


def test_given_judge_answers_one_step_in_turn() -> None:
    """A design that asks one step twice per case gets each answer in the order it asks (GivenJudge.in_turn)."""
    judge = J.GivenJudge({"faithfulness.claims": J.GivenJudge.in_turn(["c1", "c2"], ["c1"]),
                          "faithfulness.verdicts": J.GivenJudge.in_turn([1, 0], [1])})
    first = designs.faithfulness(judge, "first answer", NODES)
    second = designs.faithfulness(judge, "second answer", NODES)
    assert (first.score, second.score) == (0.5, 1.0)
    assert designs.faithfulness(judge, "third answer", NODES).score == 0.5  # the turn starts again
    with pytest.raises(TypeError):
        J.GivenJudge.in_turn()  # at least one answer


# -- every metric, calls per case --------------------------------------------------------------
#: The cheaper peer's calls per case at default settings, counted from their source: DeepEval's
#: ``measure`` (deepeval/metrics/<metric>/<metric>.py: one ``_generate_*`` call per step, per node in
#: ContextualRelevancyMetric._generate_verdicts, plus ``_generate_reason``) and Ragas'
#: ``_single_turn_ascore`` (src/ragas/metrics/_context_precision.py: one call per node;
#: _faithfulness.py: statements then verdicts). Ours must not exceed it.
PEER_CALLS = {"context_precision": 2, "context_recall": 1, "contextual_relevancy": 6, "faithfulness": 2,
              "answer_relevancy": 3, "answer_relevancy_embedding": 1, "context_entity_recall": 2,
              "answer_correctness": 3}


def test_every_metric_within_the_cheaper_peers_calls(server: ScriptedServer) -> None:
    server.responder = schema_responder()
    judge = make(server)
    runs = {
        "context_precision": lambda: designs.context_precision(judge, QUESTION, NODES, EXPECTED),
        "context_recall": lambda: designs.context_recall(judge, EXPECTED, NODES[:2]),
        "contextual_relevancy": lambda: designs.contextual_relevancy(judge, QUESTION, NODES),
        "faithfulness": lambda: designs.faithfulness(judge, "AI simulates intelligence.", NODES),
        "answer_relevancy": lambda: designs.answer_relevancy(judge, QUESTION, "AI simulates intelligence."),
        "answer_relevancy_embedding": lambda: designs.answer_relevancy_embedding(judge, QUESTION, "AI simulates intelligence."),
        "context_entity_recall": lambda: designs.context_entity_recall(judge, EXPECTED, NODES),
        "answer_correctness": lambda: designs.answer_correctness(judge, QUESTION, "AI simulates intelligence.", EXPECTED),
    }
    for name, run in runs.items():
        before = server.hits
        result = run()
        used = server.hits - before
        assert used == len(result.calls) <= PEER_CALLS[name], name
        assert result.metric == name and not math.isnan(result.score), name
    assert judge.usage.calls == server.hits == 11


def test_opt_in_reason_costs_one_call(server: ScriptedServer) -> None:
    server.push(good(DECK), good({"reason": "Nodes 2 and 3 are relevant but ranked below node 1."}))
    r = designs.context_precision(make(server), QUESTION, NODES, EXPECTED, reason=True)
    assert server.hits == 2 and [c.step for c in r.calls] == ["context_precision", "reason"]
    assert r.values["reason"].startswith("Nodes 2 and 3")
    assert "precision@k" in server.requests[1]["messages"][1]["content"]


# -- concurrency and notebooks --------------------------------------------------------------------
def test_score_cases_is_bounded_by_max_concurrency(server: ScriptedServer) -> None:
    server.responder = schema_responder(delay=0.15)
    judge = make(server, max_concurrency=2)
    cases = [{"question": f"Q{i}?", "nodes": NODES[: i + 1], "expected_output": EXPECTED} for i in range(5)]
    results = J.score_cases(designs.context_precision, cases, judge, max_concurrency=5, progress=True)
    assert [len(r.rows) for r in results] == [1, 2, 3, 4, 5]          # case order kept
    assert server.max_in_flight == 2 and server.hits == 5              # the judge's semaphore holds


def test_sync_api_runs_inside_a_running_event_loop(server: ScriptedServer) -> None:
    server.push(good(DECK))
    judge = make(server)

    async def notebook_cell() -> float:
        return cp(judge).score                                          # as in Jupyter: a loop is running

    assert asyncio.run(notebook_cell()) == pytest.approx(7 / 12)


def test_importing_metrics_and_judges_stays_light() -> None:
    code = ("import sys, ragmetrics_edu.metrics, ragmetrics_edu.judges; "
            "print(sorted(m for m in ('openai', 'pydantic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.stdout.strip() == "[]"


def test_parse_json_reply_forms() -> None:
    assert J.parse_json_reply('```json\n{"a": 1}\n```') == {"a": 1}
    assert J.parse_json_reply('Answer: {"a": [1, 2]} hope this helps') == {"a": [1, 2]}
    for bad, why in (("", "empty"), ("[1, 2]", "not an object"), ("{'a': 1}", "not valid JSON")):
        with pytest.raises(ValueError, match=why):
            J.parse_json_reply(bad)
