"""The judge study's machinery: baselines, the checked faithfulness pipeline, rows, agreement, behaviour."""

from __future__ import annotations

import json
import math
import struct

import pytest

from ragmetrics_edu import InputError, baselines, data
from ragmetrics_edu.designs.faithfulness_checked import PIPELINES, faithfulness_checked, invented, quote_found
from ragmetrics_edu.judges import GivenJudge
from ragmetrics_edu.studies.judge_study import agreement as judge_agreement
from ragmetrics_edu.studies.judge_study import behaviour as judge_behaviour
from ragmetrics_edu.studies.judge_study import cases as judge_cases
from ragmetrics_edu.studies.judge_study import runs as judge_runs


def _doc(name):
    return json.loads(data.path("judge_eval/" + name).read_text("utf-8"))


CASES = judge_cases.parse_cases(_doc("cases.json"))
FIRST, SECOND = (judge_cases.parse_labels(_doc(f"labels_{p}.json"), CASES, p) for p in ("pass1", "pass2"))
LABELS = judge_cases.adjudicated(FIRST, judge_cases.parse_decisions(_doc("adjudication.json"), FIRST, SECOND))


def keyed(value):
    """A GivenJudge answer giving ``value`` (or value(key)) for every key the request's model has."""
    def answer(request):
        return {k: (value(k) if callable(value) else value) for k in request.model.fields()}
    return answer


# -- baselines ------------------------------------------------------------------------------
def test_coverage_counts_content_words_only():
    assert baselines.coverage("The ferry takes forty minutes", "the crossing takes forty minutes by ferry") == 1.0
    assert baselines.coverage("The ferry takes forty minutes", "a ferry ride of forty minutes") == 0.75
    assert baselines.coverage("The ferry takes forty minutes", "puffins nest on cliffs") == 0.0
    assert baselines.coverage("the of and", "anything") == 0.0  # no content words: nothing to find


def test_baseline_verdicts_per_metric():
    case = CASES[0]
    cp = baselines.case_verdicts(case, "context_precision")
    assert len(cp) == len(case.contexts) and set(cp) <= {"yes", "no"}
    faith = baselines.case_verdicts(case, "faithfulness")
    assert set(faith) <= {"supported", "not_mentioned"}  # word overlap never sees a contradiction
    recall = baselines.verdicts("context_recall", ["forty minutes crossing"], contexts=["puffins", "the crossing lasts forty minutes"])
    assert recall == [2]
    with pytest.raises(InputError, match="threshold"):
        baselines.verdicts("faithfulness", ["x"], contexts=["x"], threshold=True)
    with pytest.raises(InputError, match="metric"):
        baselines.verdicts("bleu", ["x"])


def test_paraphrase_pair_defeats_the_baseline():
    """The labelled set's first pair shares no content words with its context: overlap cannot order it."""
    sup, uns = judge_cases.pairs(CASES)[0]
    assert baselines.answer_overlap(sup.answer, sup.contexts) == baselines.answer_overlap(uns.answer, uns.contexts)


# -- the checked faithfulness pipeline -----------------------------------------------------------
def test_quote_check_ignores_case_and_punctuation_but_not_words():
    context = ["The crossing to Marrow lasts about forty minutes."]
    assert quote_found("crossing to marrow lasts about forty-minutes", context)
    assert not quote_found("lasts about ninety minutes", context)
    assert not quote_found("   ", context)


def test_invented_claims_are_the_ones_with_outside_words():
    source = "Who directed Beowulf?\nRobert Zemeckis"
    assert not invented("Robert Zemeckis directed Beowulf.", source)
    assert invented("Beowulf was released by Paramount in 2007.", source)


def test_unfound_quote_downgrades_and_contradiction_asked_apart():
    judge = GivenJudge({
        "faithfulness.claims_qa": ["Robert Zemeckis directed Beowulf.", "Beowulf was released by Paramount."],
        "faithfulness.supported": keyed({"verdict": "supported", "quote": "directed by Robert Zemeckis"}),
        "faithfulness.contradiction": keyed("no"),
    })
    result = faithfulness_checked(judge, "Robert Zemeckis", ["Beowulf (2007) was directed by Robert Zemeckis."],
                                  question="Who directed Beowulf?")
    assert result.inputs["claims"] == ["Robert Zemeckis directed Beowulf."]  # the invented claim was dropped
    assert result.score == 1.0
    assert any("Dropped as invented" in line for line in result.narrative)

    wrong_quote = GivenJudge({"faithfulness.supported": keyed({"verdict": "supported", "quote": "in 1999"}),
                              "faithfulness.contradiction": keyed("yes")})
    result = faithfulness_checked(wrong_quote, "x", ["It opened in 2001."], claims=["It opened in 1999."],
                                  pipeline="contradiction_apart")
    row = result.values["checked"][0]
    assert row["said"] == "supported" and row["quote_found"] is False and row["final"] == "contradicted"
    assert len(result.calls) == 2


def test_quoted_without_check_keeps_the_judges_word():
    judge = GivenJudge({"faithfulness.quoted": keyed({"verdict": "supported", "quote": "not there"})})
    kept = faithfulness_checked(judge, "a", ["ctx"], claims=["c"], pipeline="quoted")
    checked = faithfulness_checked(judge, "a", ["ctx"], claims=["c"], pipeline="quotes_checked")
    assert kept.score == 1.0 and checked.score == 0.0


def test_checked_pipeline_bad_inputs():
    judge = GivenJudge({})
    with pytest.raises(InputError, match="pipeline"):
        faithfulness_checked(judge, "a", ["b"], claims=["c"], pipeline="best")
    with pytest.raises(InputError, match="quotes_checked"):
        faithfulness_checked(judge, "a", ["b"], claims=["c"], quotes_checked="yes")
    with pytest.raises(InputError, match="question"):
        faithfulness_checked(judge, "a", ["b"], claims_from="question_and_answer")
    assert set(PIPELINES) >= {"library", "quoted", "quotes_checked", "contradiction_apart",
                              "question_and_answer_claims"}


# -- rows ----------------------------------------------------------------------------------------
def rule_judge():
    return GivenJudge({"context_precision": keyed("yes"), "context_recall.attribution": keyed(1),
                       "faithfulness.verdicts": keyed("yes"), "answer_relevancy.verdicts": keyed("yes")})


def test_run_case_same_items_gives_one_verdict_per_labelled_item():
    case = CASES[0]
    for metric in judge_cases.METRICS:
        row = judge_runs.run_case(rule_judge(), case, metric)
        assert row["error"] is None and len(row["verdicts"]) == len(case.items(metric)), metric
    assert judge_runs.run_case(rule_judge(), case, "faithfulness")["verdicts"][0] == "supported"


def test_rotation_is_undone_before_comparing():
    case = next(c for c in CASES if len(c.contexts) >= 3)
    first_yes = GivenJudge({"context_precision": lambda r: {k: ("yes" if k == "node_1" else "no")
                                                            for k in r.model.fields()}})
    row = judge_runs.run_case(first_yes, case, "context_precision", rotate=1)
    # the node shown first was the original node 2
    assert row["verdicts"] == ["no", "yes"] + ["no"] * (len(case.contexts) - 2)


def test_judge_error_is_a_row_not_an_exception():
    row = judge_runs.run_case(GivenJudge({}), CASES[0], "faithfulness")
    assert row["verdicts"] is None and "no answer" in row["error"]


def test_injection_plants_one_irrelevant_node_and_labels_it_no():
    case = CASES[1]
    planted = judge_runs.inject(case)
    assert len(planted.contexts) == len(case.contexts) + 1 and planted.contexts[1] == judge_runs.INJECTION
    labels = judge_agreement.labels_for(planted.id, "context_precision", LABELS)
    assert labels[1] == "no" and len(labels) == len(planted.contexts)


def test_undelimited_judge_sends_the_version_one_prompt():
    seen = []

    def capture(request):
        seen.append(request.messages[-1]["content"])
        return {k: "yes" for k in request.model.fields()}

    judge = judge_runs.UndelimitedJudge(GivenJudge({"context_precision": capture}))
    judge_runs.run_case(judge, CASES[0], "context_precision")
    assert "<data-" not in seen[0] and CASES[0].contexts[0] in seen[0]
    judge_runs.run_case(GivenJudge({"context_precision": capture}), CASES[0], "context_precision")
    assert "<data-" in seen[1]


# -- agreement and behaviour ---------------------------------------------------------------------
def human_judge(case, metric):
    """A judge that gives exactly the adjudicated labels (agreement must then be perfect)."""
    labels = judge_agreement.labels_for(case.id, metric, LABELS)
    words = {"supported": "yes", "contradicted": "no", "not_mentioned": "idk", "relevant": "yes", "not_relevant": "no"}
    vals = [words.get(v, v) for v in labels]
    return GivenJudge({"context_precision": vals, "context_recall.attribution": vals,
                       "faithfulness.verdicts": vals, "answer_relevancy.verdicts": vals})


def test_a_judge_that_copies_the_labels_agrees_perfectly_and_beats_the_baseline():
    rows = [judge_runs.run_case(human_judge(c, "faithfulness"), c, "faithfulness") for c in CASES[:12]]
    found = judge_agreement.verdict_agreement(rows, "faithfulness", CASES, LABELS)
    assert found["judge"].score == 1.0 and found["items"] == sum(len(c.answer_claims) for c in CASES[:12])
    assert found["baseline"].score < 1.0
    pw = judge_agreement.pairwise(rows, CASES, LABELS)
    assert pw["judge"].score == 1.0 and pw["pairs"] == 6


def test_an_always_yes_judge_is_chance_on_pairs():
    rows = [judge_runs.run_case(rule_judge(), c, "faithfulness") for c in CASES[:12]]
    pw = judge_agreement.pairwise(rows, CASES, LABELS)
    assert pw["judge"].score == 0.5  # every pair tied: half a point each


def test_left_out_rows_are_counted():
    rows = [judge_runs.run_case(GivenJudge({}), c, "faithfulness") for c in CASES[:2]]
    rows += [judge_runs.run_case(rule_judge(), c, "faithfulness") for c in CASES[2:4]]
    found = judge_agreement.verdict_agreement(rows, "faithfulness", CASES, LABELS)
    assert len(found["left_out"]) == 2 and found["rows"] == 4
    with pytest.raises(InputError, match="rows"):
        judge_agreement.verdict_agreement(rows[:2], "faithfulness", CASES, LABELS)


def test_extraction_quality_matches_by_content():
    case = CASES[0]
    judge = GivenJudge({"faithfulness.claims": list(case.answer_claims) + ["Puffins nest on the western cliffs."],
                        "faithfulness.verdicts": keyed("yes")})
    row = judge_runs.run_case(judge, case, "faithfulness", "full")
    quality = judge_agreement.extraction_quality([row], "faithfulness", CASES)
    assert quality["matched"] == len(case.answer_claims) and quality["judged"] == len(case.answer_claims) + 1
    assert quality["recall"] == 1.0 and quality["precision"] < 1.0
    matched = judge_agreement.matched_verdicts([row], "faithfulness", CASES, LABELS)
    assert matched["items"] == len(case.answer_claims)  # the invented claim has no label to compare with


def test_flips_position_and_injection_effects():
    a = [{"case": "c1", "metric": "faithfulness", "verdicts": ["supported", "not_mentioned"]}]
    b = [{"case": "c1", "metric": "faithfulness", "verdicts": ["supported", "supported"]}]
    flips = judge_behaviour.flip_rate([a, a, b])
    assert flips["rate"] == 0.5 and flips["items"] == 2
    with pytest.raises(InputError, match="runs"):
        judge_behaviour.flip_rate([a])
    cp = [{"case": "c1", "metric": "context_precision", "verdicts": ["yes", "no", "no"]}]
    moved = [{"case": "c1", "metric": "context_precision", "verdicts": ["yes", "yes", "no"]}]
    assert judge_behaviour.position_effect(cp, moved)["rate"] == pytest.approx(1 / 3)
    injected = [{"case": "c1+injected", "metric": "context_precision", "verdicts": ["yes", "yes", "yes", "no"]}]
    effect = judge_behaviour.injection_effect(cp, injected)  # planted node (index 1) dropped before comparing
    assert effect["eligible"] == 2 and effect["obeyed"] == 1
    assert math.isnan(judge_behaviour.flip_rate([[], []])["rate"])


# -- recording provenance ------------------------------------------------------------------------
def test_gguf_header_reader(tmp_path):
    from ragmetrics_edu.evaluation.judge_identity import file_sha256 as sha256_of
    from ragmetrics_edu.evaluation.judge_identity import gguf_header

    def kv_string(key, value):
        k, v = key.encode(), value.encode()
        return struct.pack("<Q", len(k)) + k + struct.pack("<I", 8) + struct.pack("<Q", len(v)) + v

    body = (b"GGUF" + struct.pack("<IQQ", 3, 0, 3) + kv_string("general.architecture", "qwen2")
            + kv_string("general.name", "Tiny Test") + b"".join([struct.pack("<Q", 17), b"general.file_type",
                                                                 struct.pack("<I", 4), struct.pack("<I", 15)]))
    path = tmp_path / "tiny.gguf"
    path.write_bytes(body)
    header = gguf_header(path)
    assert header["general.name"] == "Tiny Test" and header["file_type_name"] == "Q4_K - Medium"
    assert len(sha256_of(path)) == 64
    (tmp_path / "not.gguf").write_bytes(b"nope")
    with pytest.raises(ValueError, match="not a GGUF"):
        gguf_header(tmp_path / "not.gguf")
