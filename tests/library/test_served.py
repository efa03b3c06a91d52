"""Issue 43 §5: a command with a judge asks the server which models it serves before its first request
(ragmetrics_edu/judges/served.py): `evaluate`, `compare` and `validate-judge` accept the exact name or a
path-named model's file name, refuse any other name with the served names and how to pick one, and stop at
once when no server answers. Against tests/scripted_server.py, which lists ``server.models`` at /v1/models."""

from __future__ import annotations

import json
import socket

import pytest
from evaluate_cases import CASES

from ragmetrics_edu.cli import main
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.judges import GivenJudge, JudgeError, OpenAIJudge
from ragmetrics_edu.judges.served import check_served, served_models, served_name
from scripted_server import schema_responder


def _judge(base_url: str, model: str) -> OpenAIJudge:
    return OpenAIJudge(model, base_url=base_url, api_key="local", max_retries=0, timeout=5)


def _closed_port() -> int:
    with socket.socket() as s:  # a port nothing listens on once this socket is closed
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cases(tmp_path) -> str:
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    return str(path)


def test_the_server_s_list_decides_the_name_sent(server):
    server.models = ["/models/qwen2.5-1.5b.gguf", "judge-m"]
    assert served_models(_judge(server.base_url, "x")) == ["/models/qwen2.5-1.5b.gguf", "judge-m"]
    judge = _judge(server.base_url, "qwen2.5-1.5b")               # the file name of a path-named model
    assert check_served(judge) == "/models/qwen2.5-1.5b.gguf" == judge.model
    judge = _judge(server.base_url, "judge-m")
    assert check_served(judge) == "judge-m"
    with pytest.raises(InputError, match=r"--model: expected a model the server serves: /models/qwen2.5-1.5b.gguf, "
                                         r"judge-m.*run again with --model '/models/qwen2.5-1.5b.gguf'"):
        check_served(_judge(server.base_url, "qwen"))
    assert server.hits == 0                                         # listing models sends no chat request


def test_a_server_without_a_model_list_leaves_the_name_to_the_first_request(server):
    server.models = None                                            # /v1/models answers 404
    assert served_models(_judge(server.base_url, "m")) is None
    assert check_served(_judge(server.base_url, "anything")) == "anything"


def test_no_server_is_one_clear_error():
    judge = _judge(f"http://127.0.0.1:{_closed_port()}/v1", "m")
    with pytest.raises(JudgeError, match="Could not connect to .* Is the server running"):
        check_served(judge)


def test_served_name_alone():
    assert served_name("qwen", ["/models/qwen.gguf"]) == "/models/qwen.gguf"
    assert served_name("qwen.gguf", ["C:\\models\\qwen.gguf"]) == "C:\\models\\qwen.gguf"
    assert served_name("anything", None) == "anything"
    with pytest.raises(InputError, match="run again with --model 'judge-m'"):
        served_name("model", ["judge-m"])
    with pytest.raises(InputError, match="or another name above"):
        served_name("qwen", ["/a/qwen.gguf", "/b/qwen.gguf"])     # two files of that name: no guess
    with pytest.raises(InputError, match="it lists none"):
        served_name("qwen", [])
    with pytest.raises(InputError, match="an OpenAIJudge"):
        check_served(GivenJudge({}))


def test_evaluate_refuses_a_name_the_server_does_not_serve_before_any_request(server, tmp_path, capsys):
    server.models, server.responder = ["judge-m"], schema_responder()
    argv = ["evaluate", _cases(tmp_path), "--metrics", "context_precision", "--base-url", server.base_url,
            "--model", "judge-x", "--mode", "json_schema", "--cache-dir", str(tmp_path / "cache")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "judge-m" in err and "run again with --model 'judge-m'" in err and "Traceback" not in err
    assert server.hits == 0


def test_evaluate_sends_the_served_path_for_its_file_name(server, tmp_path, capsys):
    server.models, server.responder = ["/models/judge-m.gguf"], schema_responder()
    argv = ["evaluate", _cases(tmp_path), "--metrics", "context_precision", "--base-url", server.base_url,
            "--model", "judge-m", "--mode", "json_schema", "--cache-dir", str(tmp_path / "cache")]
    assert main(argv) == 0
    assert "judge: /models/judge-m.gguf at" in capsys.readouterr().err
    assert server.hits >= len(CASES) and {r["model"] for r in server.requests} == {"/models/judge-m.gguf"}


def test_compare_refuses_an_unserved_name_before_any_request(server, tmp_path, capsys):
    server.models = ["judge-m"]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        path.write_text("".join(json.dumps(dict(c, id=str(i))) + "\n" for i, c in enumerate(CASES)), encoding="utf-8")
    argv = ["compare", str(a), str(b), "--metrics", "context_precision", "--base-url", server.base_url,
            "--model", "nope", "--cache-dir", str(tmp_path / "cache")]
    assert main(argv) == 2
    assert "a model the server serves: judge-m" in capsys.readouterr().err and server.hits == 0


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_no_server_stops_the_command_with_one_line(command, tmp_path, capsys):
    files = [_cases(tmp_path)] * (2 if command == "compare" else 1)
    argv = [command, *files, "--metrics", "context_precision", "--base-url",
            f"http://127.0.0.1:{_closed_port()}/v1", "--model", "m", "--cache-dir", str(tmp_path / "cache"),
            "--timeout", "5"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Could not connect" in err and "Is the server running" in err and "Traceback" not in err
