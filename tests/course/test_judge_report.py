"""Notebook 11's tables from the shipped recordings, and the claims its prose makes about them.

The prose of notebooks 11 and 15 reads the recorded numbers ("the judge beats word overlap on context
precision", "it misses most contradicted claims"); these tests fail if a re-recording changes what the prose
may say.
"""

from __future__ import annotations

import json

import pytest

from ragmetrics_edu.course.judge_study import labels as judge_eval
from ragmetrics_edu.course.judge_study import passes as judge_study
from ragmetrics_edu.course.judge_study import report as judge_report
from ragmetrics_edu.judges import ReplayJudge
from ragmetrics_edu.studies.judge_study import agreement as judge_agreement
from ragmetrics_edu.studies.judge_study import paired as judge_paired
from ragmetrics_edu.studies.judge_study import tables

SHIPPED = judge_study.available()
CASES, LABELS = judge_eval.load_cases(), judge_eval.final_labels()
STUDY = judge_report.study()


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
    found = {m: judge_agreement.verdict_agreement(same, m, CASES, LABELS) for m in ("context_precision", "context_recall", "faithfulness")}
    paired = {m: judge_paired.compare(f["judge_agrees"], f["baseline_agrees"], f["groups"]) for m, f in found.items()}
    cp, faith = found["context_precision"], found["faithfulness"]
    assert cp["judge"].score > cp["baseline"].score              # the judge's kappa is higher...
    assert paired["context_precision"]["verdict"] == "cannot tell them apart"  # ...but paired, the set cannot tell
    assert paired["context_precision"]["ci"][0] < 0 < paired["context_precision"]["ci"][1]
    for metric in ("context_recall", "faithfulness"):            # "word overlap does better"
        assert paired[metric]["verdict"] == "word overlap better" and paired[metric]["ci"][1] < 0
    assert all(p["units"] == 22 for p in paired.values())       # one unit per pair
    assert abs(faith["judge"].score) < 0.2                       # "kappa sits near zero"
    # "misses most contradicted claims, and most of its own 'contradicted' verdicts are wrong"
    contra = judge_agreement.contradiction_counts(faith)
    classes, confusion = faith["judge"].values["classes"], faith["judge"].values["confusion"]
    c = classes.index("contradicted")
    assert contra["labelled"] == sum(confusion[c]) and contra["caught"] == confusion[c][c]
    assert contra["said"] == sum(row[c] for row in confusion) == contra["caught"] + contra["wrong"]
    assert contra["caught"] < contra["labelled"] / 2 and contra["wrong"] > contra["said"] / 2
    assert contra["claims"] == faith["items"] == 99


def test_each_item_counts_once_and_intervals_resample_pairs():
    """The two cases of a pair share their context-precision and context-recall items: 61 and 43 distinct
    items, not 122 and 86; faithfulness and answer relevancy items differ between the two answers."""
    same = judge_study.rows("qwen_same_items")
    cp = judge_agreement.verdict_agreement(same, "context_precision", CASES, LABELS)
    cr = judge_agreement.verdict_agreement(same, "context_recall", CASES, LABELS)
    assert (cp["items"], cp["duplicates"]) == (61, 61) and (cr["items"], cr["duplicates"]) == (43, 43)
    assert cp["judge"].values["groups"] == 22 and cp["judge"].method == "percentile bootstrap over groups"
    rows = {r["metric"]: r for r in tables.agreement_table(STUDY)}
    assert rows["context_precision"]["items"] == 61 and rows["context_recall"]["items"] == 43
    assert rows["faithfulness"]["items"] == 99


def test_compare_is_paired_over_units_and_refuses_an_interval_on_few():
    # two items in unit "a" (means 1.0 vs 0.0), one in "b" (0.5 vs 0.5): unit differences +1 and 0
    few = judge_paired.compare([1, 1, 0.5], [0, 0, 0.5], ["a", "a", "b"])
    assert few["units"] == 2 and few["difference"] == 0.5 and few["ci"] is None
    assert few["verdict"] == "too few to tell" and (few["wins"], few["losses"], few["ties"]) == (1, 0, 1)
    even = judge_paired.compare([1, 0] * 10, [0, 1] * 10)
    assert even["difference"] == 0 and even["ci"][0] < 0 < even["ci"][1]
    assert even["verdict"] == "cannot tell them apart"
    ahead = judge_paired.compare([1] * 12, [0] * 12)
    assert ahead["verdict"] == "judge better" and ahead["sign_p"] < 0.001


def test_tables_fit_and_hold_what_they_say():
    for table in (tables.agreement_table(STUDY), tables.pipeline_table(STUDY), tables.size_table(STUDY),
                  tables.cost_table(STUDY), judge_report.recordings_table()):
        assert table


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
    flips = {(r["temperature"], r["metric"]): r for r in tables.flip_table(STUDY)}
    assert all(flips[("0", m)]["flipped"] == 0 and flips[("0", m)]["runs"] == 3
               for m in ("context_precision", "faithfulness"))                 # "no verdict flipped" at 0
    hot = flips[("0.7", "faithfulness")]
    assert 0.3 <= hot["flipped"] / hot["items"] <= 0.7                         # "about half" at 0.7
    held = flips[("0.7", "context_precision")]
    assert held["flipped"] / held["items"] < 0.1                                # "the context-precision yes/no held"
    position = tables.position_summary(STUDY)
    assert 0.2 <= position["effect"]["rate"] <= 0.45                            # "about a third of the verdicts"


def test_the_injection_is_reported_by_content_with_the_shift_apart():
    """The planted node shifts the later nodes: every context-precision verdict that moved to "yes" is on a
    shifted node, a layout change alone moves such verdicts too, and faithfulness is reported per form."""
    table = {(r["form"], r["verdicts"]): r for r in tables.injection_by_content(STUDY)}
    for form in ("data blocks", "undelimited"):
        assert table[(form, "ctx precision, node in place")]["became yes/supported"] == 0
        assert table[(form, "ctx precision, node shifted")]["became yes/supported"] > 0
    control = table[("data blocks", "ctx precision, node shifted")]["control"]
    moved, of = (int(x) for x in control.split(": ")[1].split(" of "))
    assert moved > 0 and of > 0                     # "a layout change alone moves a comparable share"
    faith_blocks = table[("data blocks", "faithfulness (claims)")]
    faith_inline = table[("undelimited", "faithfulness (claims)")]
    assert faith_blocks["became yes/supported"] == 0                                  # "with data blocks no claim"
    assert (faith_inline["became yes/supported"], faith_inline["eligible"]) == (2, 12)  # "inline, 2 of 12"
    old = next(r for r in tables.behaviour_table(STUDY) if r["test"] == "planted instruction, with data blocks")
    assert int(old["judge"].split()[0]) == sum(table[("data blocks", v)]["became yes/supported"]
                                                    for v in ("ctx precision, node in place",
                                                              "ctx precision, node shifted", "faithfulness (claims)"))


def test_the_prose_of_notebook_11_about_the_judge_extracting_holds():
    table = {r["pipeline (extracts)"]: r for r in tables.full_pipeline_table(STUDY)}
    labels = tables.PIPELINE_LABELS
    value = {name: float(table[labels[name]]["pairwise"]) for name in
             ("library", "quoted", "question_and_answer_claims", "defaults")}
    assert table[labels["quoted"]]["kept"] == "no"
    assert table[labels["question_and_answer_claims"]]["kept"] == "yes"
    assert table[labels["defaults"]]["kept"] == "yes" and 0.7 <= value["defaults"] <= 0.8
    # "the paired interval may exclude 0 while the sign test (a handful better, a couple worse) does not reject"
    defaults = table[labels["defaults"]]
    better, worse = (int(x) for x in defaults["+/-"].split("/"))
    assert better > worse and float(defaults["sign p"]) >= 0.05
    # the library judge against word overlap on the same claims: the set cannot tell them apart
    found = judge_agreement.pairwise(judge_study.rows("qwen_same_items"), CASES, LABELS)
    assert judge_paired.compare(found["judge_credit"], found["baseline_credit"])["verdict"] == "cannot tell them apart"


def test_the_pairwise_credits_match_pairwise_accuracy():
    found = judge_agreement.pairwise(judge_study.rows("qwen_same_items"), CASES, LABELS)
    for who in ("judge", "baseline"):
        credits = found[f"{who}_credit"]
        assert len(credits) == found["pairs"] == 22
        assert abs(sum(credits) / len(credits) - found[who].score) < 1e-12


def test_word_overlap_is_stable_under_the_judges_tests():
    table = tables.behaviour_table(STUDY)
    assert len(table) == 7 and {r["test"].split(",")[0] for r in table} >= {"nodes moved round by one place",
                                                                             "planted instruction"}
    for row in table:
        moved, _, total = row["word overlap"].split()[:3]
        assert int(moved) == 0 and int(total) > 0, row      # "nothing moves"
    assert any(not r["judge"].startswith("0 ") for r in table)  # the judge does move


def test_the_judges_measured_spread_and_what_it_does_to_a_gate():
    from ragmetrics_edu import regression_gate
    from ragmetrics_edu.course.judge_study.passes import repeat_passes, rows

    spread = {(r["temperature"], r["metric"]): r for r in tables.repeat_spread(STUDY)}
    assert len(spread) == 4 and all(r["cases"] == 10 for r in spread.values())
    assert all(spread[("0", m)]["sd of the mean"] == 0 for m in ("context_precision", "faithfulness"))
    assert spread[("0.7", "context_precision")]["sd of the mean"] == 0      # "still never flipped (sd 0)"
    noisy = spread[("0.7", "faithfulness")]["sd of the mean"]
    assert 0.03 <= noisy <= 0.07                                            # "about 0.05"
    means = [float(m) for m in spread[("0.7", "faithfulness")]["run means"].split(", ")]
    assert 0.05 <= max(means) - min(means) <= 0.15                          # notebook 15: "moves by a tenth"
    # notebook 12: the same answers judged twice at 0.7 differ, and the paired gate calls that noise
    runs = [[r["score"] for r in rows(name) if r["metric"] == "faithfulness"] for name in repeat_passes()["0.7"]]
    noise = regression_gate.judge_noise(runs)
    assert noise.run_sd == pytest.approx(noisy)
    for i in range(3):
        for j in range(3):
            if i != j:
                assert regression_gate.gate(runs[j], runs[i], noise=noise).verdict != regression_gate.FAIL
