"""Deck cases through a judge: given verdicts reproduce the decks; agreement and kappa by hand."""

import math

import pytest

from ragmetrics_edu import InputError, examples
from ragmetrics_edu.judges import GivenJudge
from ragmetrics_edu.judges.deck_cases import DECK_CASES, agreement, cohen_kappa, run_deck_cases


def test_kappa_by_hand():
    a = ["yes", "yes", "no", "no"]
    b = ["yes", "no", "no", "no"]
    # p_o = 3/4; p_e = (2/4)(1/4) + (2/4)(3/4) = 1/2; kappa = (3/4 - 1/2) / (1/2) = 1/2
    assert cohen_kappa(a, b) == pytest.approx(0.5)
    assert cohen_kappa(a, a) == 1.0
    assert math.isnan(cohen_kappa(["yes"], ["yes"]))
    with pytest.raises(InputError):
        cohen_kappa(["yes"], [])


def test_every_deck_case_builds_inputs_from_the_catalogue():
    for case in DECK_CASES:
        kwargs = case.inputs(examples.load(case.example_id))
        assert all(v is not None for k, v in kwargs.items() if k != "question"), case.label


def test_a_judge_that_answers_like_the_deck_agrees_fully():
    ex = examples.load("A-cp-what-is-ai")
    deck = ex.case().kwargs["verdicts"]
    judge = GivenJudge({"context_precision": ["yes" if v else "no" for v in deck]})
    runs = run_deck_cases(judge, ids=["A-cp-what-is-ai"])
    assert runs[0].result.score == pytest.approx(runs[0].deck.score)
    summary = agreement(runs)
    assert summary == {"cases": 1, "items": 5, "agree": 5, "percent": 100.0, "kappa": 1.0}


def test_disagreement_and_failures_are_counted_not_hidden():
    judge = GivenJudge({"context_precision": ["yes", "yes", "yes", "no", "no"]})   # node 1 differs from deck A
    runs = run_deck_cases(judge, ids=["A-cp-what-is-ai", "C-cp-sun-high"])
    assert agreement(runs)["agree"] == 4 and agreement(runs)["items"] == 5
    assert runs[1].result is None and "JudgeError" in runs[1].error   # the given verdicts do not fit 2 nodes
    with pytest.raises(InputError, match="ids"):
        run_deck_cases(judge, ids=["D-cp-order-table"])


def test_record_judge_writes_a_recording_that_replays_offline(tmp_path, monkeypatch, capsys):
    from ragmetrics_edu import evaluate
    from ragmetrics_edu.cli import main
    from ragmetrics_edu.judges import ReplayJudge
    from scripted_server import ScriptedServer, schema_responder

    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    dataset = tmp_path / "rows.jsonl"
    dataset.write_text('{"question": "q?", "answer": "a.", "contexts": ["c1", "c2"], "ground_truth": "g."}\n')
    out = tmp_path / "rec.json"
    server = ScriptedServer().start()
    server.responder = schema_responder()
    try:
        code = main(["record-judge", "--base-url", server.base_url, "--model", "scripted", "--server", "scripted test server",
                     "--out", str(out), "--ids", "A-cp-what-is-ai", "E-faith-einstein", "--mode", "json_schema",
                     "--dataset", str(dataset), "--metrics", "context_precision", "faithfulness"])
        hits = server.hits
    finally:
        server.stop()
    assert code == 0 and hits >= 3
    printed = capsys.readouterr().out
    assert "A-cp-what-is-ai" in printed and "agreement with the decks" in printed
    replay = ReplayJudge(out)
    assert replay.model == "scripted" and replay.server == "scripted test server" and replay.date
    runs = run_deck_cases(replay, ids=["A-cp-what-is-ai", "E-faith-einstein"])
    assert all(run.error is None for run in runs)
    frame = evaluate(str(dataset), metrics=["context_precision", "faithfulness"], judge=replay, progress=False)
    assert frame["error"].isna().all() and frame["calls"].sum() == 0 and frame["cached_calls"].sum() >= 3
