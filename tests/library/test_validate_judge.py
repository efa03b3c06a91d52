"""`ragmetrics-edu validate-judge` against a real HTTP server on 127.0.0.1 that the test starts and stops."""

import json
import math

from ragmetrics_edu.cli import main
from scripted_server import Scripted


def _yes_no(p_yes):
    word = "yes" if p_yes >= 0.5 else "no"
    alts = {"yes": p_yes, "no": 1 - p_yes}
    return [{"token": word, "logprob": math.log(alts[word]), "bytes": None,
             "top_logprobs": [{"token": t, "logprob": math.log(p), "bytes": None} for t, p in alts.items()]}]


def _served(server, respond):
    """The scripted server also answers GET /v1/models with one model, 'judge-m'."""
    server.responder = respond
    server.models = ["judge-m"]
    return server


def _args(server, tmp_path, *extra):
    return ["validate-judge", "--base-url", server.base_url, "--model", "judge-m", "--design", "support_min",
            "--sources", "1", "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "rec.json"), *extra]


def test_it_runs_the_dev_protocol_reports_and_resumes_from_the_cache(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _served(server, lambda body: Scripted(content="yes", logprobs=_yes_no(0.7)))
    assert main(_args(server, tmp_path)) == 0
    out = capsys.readouterr().out
    assert "requests" in out and "prompt tokens" in out            # the estimate, before the run
    assert "AUC" in out and "word overlap" in out
    sent = server.hits
    assert sent > 5
    recording = json.loads((tmp_path / "rec.json").read_text())
    assert recording["model"] == "judge-m" and recording["pass"]["design"] == "support_min"
    assert len(recording["replies"]) == sent                          # every paid reply is in the recording
    assert main(_args(server, tmp_path)) == 0                       # a re-run sends nothing new
    assert server.hits == sent


def test_bad_arguments_are_refused_before_any_request(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _served(server, lambda body: Scripted(content="yes"))
    assert main(_args(server, tmp_path)[:-6] + ["--sources", "0", "--cache-dir", str(tmp_path / "c")]) == 2
    assert "--sources" in capsys.readouterr().err
    args = _args(server, tmp_path)
    args[args.index("--design") + 1] = "nonsense"
    assert main(args) == 2 and "--design" in capsys.readouterr().err
    args = _args(server, tmp_path)
    args[args.index("--model") + 1] = "other-model"
    assert main(args) == 2
    assert "judge-m" in capsys.readouterr().err                     # says what the server serves
    assert server.hits == 0


def test_an_unreachable_endpoint_is_one_clear_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    code = main(["validate-judge", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--design", "support_min",
                 "--sources", "1", "--cache-dir", str(tmp_path / "c"), "--out", str(tmp_path / "r.json"),
                 "--timeout", "2"])
    assert code == 2
    assert "Could not connect" in capsys.readouterr().err


def test_without_probabilities_it_says_which_fallback_it_uses(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    _served(server, lambda body: Scripted(content="no"))
    assert main(_args(server, tmp_path)) == 0
    assert "no token probabilities" in capsys.readouterr().out
    assert any(b.get("temperature", 0) > 0 for b in server.requests)   # the sampled votes
