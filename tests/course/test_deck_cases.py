"""Deck cases through a judge: given verdicts reproduce the decks; agreement and kappa by hand."""

import math

import pytest

from ragmetrics_edu import InputError, examples
from ragmetrics_edu.agreement import cohen_kappa
from ragmetrics_edu.course.deck_cases import DECK_CASES, run_deck_cases
from ragmetrics_edu.judges import GivenJudge
from ragmetrics_edu.studies.deck_agreement import agreement, metric_agreement


def test_kappa_by_hand():
    """The deck agreement's kappa is the library's one (agreement.cohen_kappa), value only."""
    a = ["yes", "yes", "no", "no"]
    b = ["yes", "no", "no", "no"]
    # p_o = 3/4; p_e = (2/4)(1/4) + (2/4)(3/4) = 1/2; kappa = (3/4 - 1/2) / (1/2) = 1/2
    assert cohen_kappa(a, b, level=None).score == pytest.approx(0.5)
    assert cohen_kappa(a, b, level=None).ci is None
    assert cohen_kappa(a, a, level=None).score == 1.0
    assert math.isnan(cohen_kappa(["yes"], ["yes"], level=None).score)
    with pytest.raises(InputError):
        cohen_kappa(["yes"], [], level=None)
    judge = GivenJudge({"context_precision": ["no", "yes", "yes", "no", "no"]})   # deck A's verdicts, node 1 flipped
    runs = run_deck_cases(judge, ids=["A-cp-what-is-ai"])
    deck, said = runs[0].matched_verdicts()
    assert agreement(runs)["kappa"] == cohen_kappa(said, deck, level=None).score


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
                     "--dataset", str(dataset), "--metrics", "context_precision", "faithfulness_overlap_reanswer",
                     "faithfulness"])
        hits = server.hits
    finally:
        server.stop()
    assert code == 0 and hits >= 3
    printed = capsys.readouterr().out
    assert "A-cp-what-is-ai" in printed
    # one agreement figure per judging task, never one pooled over different tasks
    assert "context_precision: kappa" in printed and "faithfulness.verdicts" not in printed.split("cost:")[1]
    assert "agreement with the decks" not in printed
    replay = ReplayJudge(out)
    assert replay.model == "scripted" and replay.server == "scripted test server" and replay.date
    runs = run_deck_cases(replay, ids=["A-cp-what-is-ai", "E-faith-einstein"])
    assert all(run.error is None for run in runs)
    # the re-answer design (1 call), DeepEval's and Ragas' (2 calls); "faithfulness", word overlap, asks nothing
    frame = evaluate(str(dataset), metrics=["context_precision", "faithfulness_overlap_reanswer", "faithfulness"],
                     judge=replay, progress=False)
    # replayed: every call came from the recording (a replayed reply counts as a call, as the recorded
    # request it stands for), none from a server, none from a cache
    records = [c for results in frame.attrs["results"] for r in results.values() for c in r.calls]
    assert frame["error"].isna().all() and frame["calls"].sum() == len(records) == 4
    assert frame["cache_hits"].sum() == 0 and {c.source for c in records} == {"replay"}


def test_equal_counts_with_different_items_are_not_aligned():
    # Deck E's Einstein case has two claims; a judge that extracts two *other* claims has the same count
    # but judged different items: nothing may be compared verdict by verdict.
    judge = GivenJudge({"faithfulness.claims": ["The Moon orbits the Earth.", "Water boils at 100 degrees."],
                        "faithfulness.verdicts": ["yes", "no"]})
    run = run_deck_cases(judge, ids=["E-faith-einstein"])[0]
    assert len(run.judge_items) == len(run.deck_items) == 2
    assert not run.aligned
    assert run.matched_verdicts() == ([], [])
    assert agreement([run])["items"] == 0


def test_content_matched_verdicts_pair_the_same_claims_in_any_order():
    judge = GivenJudge({"faithfulness.claims": ["Einstein was born on 20th March 1879.", "Einstein was born in Germany."],
                        "faithfulness.verdicts": ["no", "no"]})
    run = run_deck_cases(judge, ids=["E-faith-einstein"])[0]
    assert run.aligned
    deck, said = run.matched_verdicts()
    assert deck == ["yes", "no"] and said == ["no", "no"]   # deck order: Germany (yes), then the date (no)


def test_metric_agreement_lists_what_it_left_out_and_stands_beside_the_baseline():
    judge = GivenJudge({"faithfulness.claims": ["The Moon orbits the Earth.", "Einstein was born in Germany."],
                        "faithfulness.verdicts": ["yes", "yes"]})
    runs = run_deck_cases(judge, ids=["E-faith-einstein"])
    m = metric_agreement(runs, "faithfulness")
    assert m["items"] == 1 and m["cases"] == 1
    assert m["judge"].values["percent_agreement"] == 100.0 and m["baseline"] is not None
    assert sorted((row["side"], row["item"]) for row in m["left_out"]) == [
        ("deck", "Einstein was born on 20th March 1879."), ("judge", "The Moon orbits the Earth.")]
    with pytest.raises(InputError):
        metric_agreement(runs, "context_precision")
