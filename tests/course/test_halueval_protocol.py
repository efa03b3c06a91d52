"""The HaluEval protocol: a fixed split, the re-answer arithmetic by hand, and a choice log that the
recordings reproduce (chosen on dev, scored once on test, the library's default is the choice)."""

import inspect
import json
import math

import pytest

from ragmetrics_edu import designs, judges
from ragmetrics_edu.course.halueval import study as hs
from ragmetrics_edu.data import halueval
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.metrics import score_reanswer
from ragmetrics_edu.studies.halueval import choosing
from ragmetrics_edu.studies.halueval.designs import DESIGNS


def test_the_split_is_the_rule_written_in_the_data():
    dev, test = halueval.pairs("dev"), halueval.pairs("test")
    assert (len(dev), len(test)) == (160, 100)
    assert not {p.row for p in dev} & {p.row for p in test}
    assert all(p.row % 25 % 2 == 0 for p in dev + test)
    assert all(p.row % 25 >= 16 for p in test) and all(p.row % 25 < 16 for p in dev)
    assert all(halueval.split_of(p.row) == p.split for p in dev + test)


def test_reanswer_arithmetic_worked_by_hand():
    context = ["Saint Motel is an indie pop band with four members. Curve was a duo."]
    # content words: answer {curve, member, more, motel, saint}; judge {saint, motel}
    # precision 2/5, recall 2/2; grounding: curve, member, motel, saint in the context, 'more' not: 4/5
    r = score_reanswer("Curve has more members than Saint Motel.", "Saint Motel", context,
                       compare="precision", grounding_weight=0.5)
    assert r.values["agreement"] == pytest.approx(0.4)
    assert r.values["grounding"] == pytest.approx(0.8)
    assert r.score == pytest.approx(0.5 * 0.8 + 0.5 * 0.4)
    recall = score_reanswer("Curve has more members than Saint Motel.", "Saint Motel", context,
                            compare="recall", grounding_weight=0.0)
    assert recall.score == pytest.approx(1.0)
    f1 = score_reanswer("Curve has more members than Saint Motel.", "Saint Motel", context,
                        compare="f1", grounding_weight=0.0)
    assert f1.score == pytest.approx(2 * 0.4 * 1.0 / 1.4)


def test_reanswer_edge_cases_are_the_documented_ones():
    ctx = ["Paris is the capital of France."]
    assert score_reanswer("the", "Paris", ctx).score == 0.0          # no content words
    alone = score_reanswer("Paris", "not in the context", ctx, grounding_weight=0.9)
    assert alone.score == pytest.approx(1.0) and alone.values["answered"] is False
    assert math.isnan(score_reanswer("Paris", "Not in the context.", ctx, grounding_weight=0.0).score)
    for bad in ({"compare": "bleu"}, {"grounding_weight": 1.5}, {"grounding_weight": True}):
        with pytest.raises(InputError):
            score_reanswer("Paris", "Paris", ctx, **bad)


def test_one_call_per_question_serves_both_answers():
    pair = halueval.pairs("dev")[0]
    judge = judges.GivenJudge({"faithfulness.reanswer": pair.right_answer})
    right = designs.faithfulness_reanswer(judge, pair.right_answer, [pair.knowledge], question=pair.question)
    wrong = designs.faithfulness_reanswer(judge, pair.hallucinated_answer, [pair.knowledge], question=pair.question)
    assert right.score > wrong.score
    assert right.calls[0].key == wrong.calls[0].key      # the same request: a cache answers the second


def test_pairwise_counts_ties_and_nan_as_half():
    rows = [{"outcome": choosing.outcome(1, 0)}, {"outcome": choosing.outcome(0, 1)}, {"outcome": choosing.outcome(0.5, 0.5)},
            {"outcome": choosing.outcome(math.nan, 0.2)}]
    assert choosing.pairwise(rows) == pytest.approx((1 + 0 + 0.5 + 0.5) / 4)


def test_the_library_default_is_the_design_the_log_chose():
    chosen = hs.choice_log()["chosen"]["design"]
    defaults = {k: v.default for k, v in inspect.signature(designs.faithfulness_reanswer).parameters.items()
                if k in ("compare", "grounding_weight")}
    assert defaults == dict(DESIGNS[chosen].options)


def test_evaluate_keeps_the_halueval_choice_and_the_peers_by_name():
    from ragmetrics_edu import evaluate

    case = {"question": "Capital of France?", "answer": "Paris", "contexts": ["Paris is the capital of France."]}
    judge = judges.GivenJudge({"faithfulness.reanswer": "Paris", "faithfulness.claims": ["Paris is the capital."],
                               "faithfulness.verdicts": ["yes"]})
    table = evaluate([case], metrics=["faithfulness_overlap_reanswer", "faithfulness"], judge=judge,
                     progress=False)
    assert table.loc[0, "faithfulness_overlap_reanswer_values"]["judge_answer"] == "Paris"
    assert table.loc[0, "faithfulness_overlap_reanswer"] == pytest.approx(1.0)
    assert table.loc[0, "faithfulness"] == pytest.approx(1.0)
    assert table.loc[0, "calls"] == 3       # one re-answer call, two for the claims design


def test_every_figure_of_the_choice_log_comes_back_from_the_recordings():
    log = hs.choice_log()
    assert hs.check_log(log) == []
    assert {r["design"] for r in log["dev"]} == set(DESIGNS)
    if log["test"]:
        assert log["test"]["scored_at"] > log["chosen"]["frozen_at"]
        assert log["test"]["table"][0]["design"] == log["chosen"]["design"]
        assert log["test"]["table"][0]["pairs"] >= 80


def test_the_test_part_cannot_be_scored_twice_nor_the_choice_rewritten(tmp_path):
    log = hs.choice_log()
    if not log["test"]:
        pytest.fail("the choice log has no test figures yet")
    copy = tmp_path / "log.json"
    copy.write_text(json.dumps(log), encoding="utf-8")
    with pytest.raises(InputError, match="scored once"):
        hs.freeze_choice(copy)
    with pytest.raises(InputError, match="test part is still empty"):
        hs.score_test(copy)


def test_a_comparator_can_be_rescored_but_never_the_choice_nor_the_baseline(tmp_path):
    log = hs.choice_log()
    copy = tmp_path / "log.json"
    copy.write_text(json.dumps(log), encoding="utf-8")
    for design in (log["chosen"]["design"], "word_overlap"):
        with pytest.raises(InputError, match="scored once"):
            hs.rescore_comparator(copy, design, "more pairs were recorded")
    with pytest.raises(InputError, match="why"):
        hs.rescore_comparator(copy, "library", "  ")
    with pytest.raises(InputError, match="test table"):
        hs.rescore_comparator(copy, "checked_defaults", "more pairs were recorded")
    before = json.loads(copy.read_text(encoding="utf-8"))
    after = hs.rescore_comparator(copy, "library", "more pairs were recorded")
    library = next(r for r in after["test"]["table"] if r["design"] == "library")
    assert library["pairs"] == len(hs.pair_scores("library", "test"))
    assert after["test"]["rescored"][-1]["design"] == "library" and after["test"]["rescored"][-1]["pairs"] == library["pairs"]
    assert after["test"]["table"][:2] == before["test"]["table"][:2]       # the choice and the baseline untouched
    assert after["chosen"] == before["chosen"] and after["test"]["scored_at"] == before["test"]["scored_at"]


def test_the_readme_quotes_the_choice_log():
    from conftest import REPO

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**Faithfulness: which design"):readme.index("No key?")]
    log = hs.choice_log()
    dev = {r["design"]: r for r in log["dev"]}
    test = {r["design"]: r for r in log["test"]["table"]}
    chosen = log["chosen"]["design"]
    for figure in (dev[chosen]["pairwise"], dev["word_overlap"]["pairwise"], test[chosen]["pairwise"],
                   test["word_overlap"]["pairwise"], dev["library"]["pairwise"], test["library"]["pairwise"]):
        assert f"{figure:.3f}" in section, figure
    low, high = test[chosen]["difference_ci"]
    assert f"{low:+.3f}".replace("-", "−") in section and f"{high:+.3f}" in section
    assert f"{len(log['dev'])} configurations" in section
    assert f"{dev['library']['pairwise']:.3f} on {dev['library']['pairs']} dev pairs" in section
    assert f"{test['library']['pairwise']:.3f} on {test['library']['pairs']} test pairs" in section
    assert f"word overlap orders {test['library']['baseline_pairwise']:.3f} of the same pairs" in section
    assert f"{dev[chosen]['tokens_per_answer']:.0f} tokens" in section


@pytest.mark.parametrize("rows", [[], [{"pair": "p1", "right": math.nan, "hallucinated": 0.4, "outcome": 0.5},
                                       {"pair": "p2", "right": 0.7, "hallucinated": math.nan, "outcome": 0.5}]])
def test_a_design_without_scored_dev_pairs_has_a_nan_threshold_that_flags_nothing(monkeypatch, rows):
    monkeypatch.setattr(hs, "pair_scores", lambda design, split: [dict(r) for r in rows])
    assert math.isnan(hs.best_threshold("library"))
    found = hs.detection("library", "dev", hs.best_threshold("library"))
    assert (found["tp"], found["fp"], found["fn"], found["tn"]) == (0, 0, 0, 0)


def test_a_null_threshold_in_the_log_is_scored_as_no_threshold(tmp_path):
    log = hs.choice_log()
    kept = log["chosen"]["word_overlap_threshold"]
    log["test"], log["chosen"]["threshold"] = None, None
    copy = tmp_path / "log.json"
    copy.write_text(json.dumps(log), encoding="utf-8")
    chosen_found, overlap_found = hs.score_test(copy, designs=())["test"]["detection"]
    pairs = len([r for r in hs.pair_scores(log["chosen"]["design"], "test")
                 if not (math.isnan(r["right"]) or math.isnan(r["hallucinated"]))])
    assert math.isnan(chosen_found["threshold"])
    assert (chosen_found["tp"], chosen_found["fp"], chosen_found["fn"], chosen_found["tn"]) == (0, 0, pairs, pairs)
    assert chosen_found["precision"] == chosen_found["recall"] == chosen_found["f1"] == 0.0
    assert overlap_found["threshold"] == kept and overlap_found["tp"] > 0     # the other threshold is used as written
    written = json.loads(copy.read_text(encoding="utf-8"))
    assert written["chosen"]["threshold"] is None and written["test"]["detection"][0]["threshold"] is None
    with pytest.raises(InputError, match="threshold"):
        hs.detection("word_overlap", "test", "0.5")
