"""Notebook 11's tables from the shipped recordings, and the claims its prose makes about them.

The prose of notebooks 11 and 13 reads the recorded numbers ("the judge beats word overlap on context
precision", "it rarely says contradicted"); these tests fail if a re-recording changes what the prose
may say.
"""

from __future__ import annotations

import json

from ragmetrics_edu.course import judge_agreement, judge_report, judge_study
from ragmetrics_edu.judges import ReplayJudge

SHIPPED = judge_study.available()


def test_the_main_passes_ship_and_name_their_model():
    assert {"qwen_same_items", "qwen_capstone_answers", "qwen_capstone_judged", "smol_same_items",
            "qwen_pipeline_same_items", "qwen_position", "qwen_injection", "qwen_injection_undelimited"} <= set(SHIPPED)
    for name in SHIPPED:
        doc = json.loads(open(judge_study.recording_path(name), encoding="utf-8").read())
        assert len(doc["gguf"]["sha256"]) == 64 and doc["gguf"]["general.name"], name
        assert doc["date"].startswith("20") and "llama-cpp-python" in doc["server"], name
        assert doc["pass"]["name"] == name
        replay = ReplayJudge(judge_study.recording_path(name))
        assert replay.model == doc["model"]
    qwen = json.loads(open(judge_study.recording_path("qwen_same_items"), encoding="utf-8").read())["gguf"]["sha256"]
    assert qwen == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"  # LOCAL_LLM's published sum


def test_every_same_items_row_replays_without_error():
    found = judge_study.rows("qwen_same_items")
    assert len(found) == 44 * 3
    assert [r for r in found if r["error"]] == []


def test_the_prose_of_notebook_11_about_agreement_holds():
    same = judge_study.rows("qwen_same_items")
    cp = judge_agreement.verdict_agreement(same, "context_precision")
    cr = judge_agreement.verdict_agreement(same, "context_recall")
    faith = judge_agreement.verdict_agreement(same, "faithfulness")
    assert cp["judge"].value > cp["baseline"].value          # "the judge clearly beats word overlap"
    assert cp["judge"].ci[0] > cp["baseline"].value
    assert cr["baseline"].value > cr["judge"].value          # "word overlap is better"
    assert abs(faith["judge"].value) < 0.2                   # "kappa sits near zero"
    classes = faith["judge"].values["classes"]
    row = faith["judge"].values["confusion"][classes.index("contradicted")]
    assert row[classes.index("contradicted")] < sum(row) / 3  # "rarely says contradicted"


def test_tables_fit_and_hold_what_they_say():
    for table in (judge_report.agreement_table(), judge_report.binary_table(), judge_report.pipeline_table(),
                  judge_report.size_table(), judge_report.cost_table(), judge_report.recordings_table()):
        assert table
    rows = {r["metric"]: r for r in judge_report.agreement_table()}
    assert rows["context_precision"]["items"] == 122 and rows["faithfulness"]["items"] == 99


def test_show_cuts_lines_to_the_width(capsys):
    judge_report.show([{"a": "x" * 200, "b": "y" * 50}], width=60)
    assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= 60


def test_pipeline_rows_carry_the_checks():
    found = [r for r in judge_study.rows("qwen_pipeline_same_items") if r["pipeline"] == "quotes_checked"]
    assert found and all(len(r["checked"]) == len(r["items"]) for r in found if not r["error"])
    downgraded = [c for r in found if not r["error"] for c in r["checked"]
                  if c["said"] == "supported" and c["final"] == "not_mentioned"]
    assert all(c["quote_found"] is not True for c in downgraded)


def test_the_prose_of_notebook_11_about_flips_position_and_injection_holds():
    flips = {(r["temperature"], r["metric"]): r for r in judge_report.flip_table()}
    assert all(flips[("0", m)]["flipped"] == 0 and flips[("0", m)]["runs"] == 3
               for m in ("context_precision", "faithfulness"))                 # "no verdict flipped" at 0
    hot = flips[("0.7", "faithfulness")]
    assert 0.3 <= hot["flipped"] / hot["items"] <= 0.7                         # "about half" at 0.7
    held = flips[("0.7", "context_precision")]
    assert held["flipped"] / held["items"] < 0.1                                # "the context-precision yes/no held"
    position = judge_report.position_summary()
    assert 0.2 <= position["effect"]["rate"] <= 0.45                            # "about a third of the verdicts"
    assert position["kappa moved"].value < 0.6 * position["kappa in order"].value  # "fell by half"
    injected = {r["prompt"]: r for r in judge_report.injection_table()}
    rates = [injected[p]["obeyed"] / injected[p]["eligible verdicts"] for p in ("with data blocks", "without data blocks")]
    assert all(0.05 <= r <= 0.25 for r in rates)                                # "about one in seven"
    assert abs(rates[0] - rates[1]) <= 0.1                                      # "no measurable difference"


def test_the_prose_of_notebook_11_about_the_judge_extracting_holds():
    table = {r["pipeline (judge extracts)"]: r for r in judge_report.full_pipeline_table()}
    labels = judge_report.PIPELINE_LABELS
    value = {name: float(table[labels[name]]["pairwise"].split()[0]) for name in
             ("library", "quoted", "question_and_answer_claims", "defaults")}
    assert table[labels["quoted"]]["kept"] == "no"                             # "quoted verdicts alone did not help"
    assert table[labels["question_and_answer_claims"]]["kept"] == "yes"        # "claims ... from the question ... did"
    assert table[labels["defaults"]]["kept"] == "yes" and 0.7 <= value["defaults"] <= 0.8  # "about three pairs in four"
    assert all(r["pairs"] == 22 for r in table.values())                        # every pair, not a subset
    low = float(table[labels["defaults"]]["pairwise"].split("[")[1].split(",")[0])
    assert low > 0.5 and value["defaults"] > float(table[labels["defaults"]]["word overlap"]) + 0.15


def test_word_overlap_is_stable_under_the_judges_tests():
    table = judge_report.behaviour_table()
    assert len(table) == 7 and {r["test"].split(",")[0] for r in table} >= {"nodes moved round by one place",
                                                                             "planted instruction"}
    for row in table:
        moved, _, total = row["word overlap"].split()[:3]
        assert int(moved) == 0 and int(total) > 0, row      # "nothing moves"
    assert any(not r["judge"].startswith("0 ") for r in table)  # the judge does move


def test_the_judges_measured_spread_and_what_it_does_to_a_gate():
    from ragmetrics_edu import ci_gate
    from ragmetrics_edu.course.deck_cases import deck_scores

    spread = {(r["temperature"], r["metric"]): r for r in judge_report.repeat_spread()}
    assert len(spread) == 4 and all(r["cases"] == 10 for r in spread.values())
    assert all(spread[("0", m)]["sd of the mean"] == 0 for m in ("context_precision", "faithfulness"))
    assert spread[("0.7", "context_precision")]["sd of the mean"] == 0      # "still never flipped (sd 0)"
    noisy = spread[("0.7", "faithfulness")]["sd of the mean"]
    assert 0.03 <= noisy <= 0.07                                            # "about 0.05"
    means = [float(m) for m in spread[("0.7", "faithfulness")]["run means"].split(", ")]
    assert 0.05 <= max(means) - min(means) <= 0.15                          # notebook 13: "moves by a tenth"
    scores = deck_scores("context_precision")                      # notebook 12: FAIL at 0.89 becomes PASS
    assert not ci_gate.gate(scores, 0.89, metric="context precision").passed
    assert ci_gate.gate(scores, 0.89, metric="context precision", judge_sd=noisy).passed
