"""The failure-analysis workflow of notebook 16 on synthetic rows: each rule, edge cases, bad input."""

from __future__ import annotations

import math

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.course.capstone import tables
from ragmetrics_edu.studies.capstone import diagnosis

REF = "Antarctica is the largest desert because its interior gets almost no precipitation."


def row(question="x1", system="bm25", kind="synonym", grades=(2, 0, 0), answer=REF, faith=1.0, cp=None,
        scores=None, errors=None):
    passages = [f"p{i}" for i in range(len(grades))]
    verdicts = {} if cp is None else {"context_precision": list(cp)}
    return {"question": question, "text": "What is the biggest desert?", "kind": kind, "system": system,
            "passages": passages, "grades": list(grades), "contexts": [f"text {p}" for p in passages],
            "answer": answer, "scores": {"faithfulness": faith} if scores is None else scores,
            "verdicts": verdicts, "items": {}, "errors": errors or {}}


def tags(r, reference=REF, is_answerable=True):
    return list(diagnosis.tag_row(r, reference, is_answerable))


def test_a_clean_row_has_no_tag():
    assert tags(row(cp=["yes", "no", "no"])) == []


@pytest.mark.parametrize("grades, fires", [((0, 1, 0), True), ((1, 1, 1), True), ((0, 0, 2), False),
                                           ((2, 2, 2), False)])
def test_retrieval_miss_fires_only_without_a_grade_2_passage(grades, fires):
    assert ("retrieval_miss" in tags(row(grades=grades))) is fires


def test_retrieval_miss_needs_an_answerable_question():
    assert "retrieval_miss" not in tags(row(grades=(0, 0, 0)), reference=None, is_answerable=False)


@pytest.mark.parametrize("grades, fires", [((0, 2, 1), True), ((0, 1, 2), True), ((2, 0, 0), False),
                                           ((1, 2, 0), False), ((2, 0, 2), True), ((0, 0, 0), False)])
def test_bad_ranking_fires_when_a_grade_2_passage_sits_below_a_grade_0_one(grades, fires):
    assert ("bad_ranking" in tags(row(grades=grades))) is fires


def test_bad_ranking_reason_names_the_passages():
    reasons = diagnosis.tag_row(row(grades=(1, 0, 2)), REF)
    assert reasons["bad_ranking"] == "grade-2 p2 at rank 3 below grade-0 p1 at rank 2"


@pytest.mark.parametrize("faith, fires", [(1.0, False), (0.99, True), (0.0, True), (math.nan, False)])
def test_unsupported_claim_fires_below_full_faithfulness(faith, fires):
    assert ("unsupported_claim" in tags(row(faith=faith))) is fires


def test_incomplete_answer_uses_word_coverage_of_the_reference():
    assert "incomplete_answer" in tags(row(answer="It is Antarctica."))
    assert "incomplete_answer" not in tags(row(answer=REF))
    assert "incomplete_answer" not in tags(row(answer="It is Antarctica."), reference=None)


def test_incomplete_answer_cut_is_half_the_reference_words():
    from ragmetrics_edu.baselines import coverage

    half = "Antarctica largest desert interior"   # 4 of the reference's content words
    share = coverage(REF, half)
    assert ("incomplete_answer" in tags(row(answer=half))) is (share < diagnosis.COVERAGE_CUT)


@pytest.mark.parametrize("cp, fires", [(["yes", "no", "no"], False), (["no", "no", "no"], True),
                                       (["yes", "yes", "no"], True), (["YES", "No", "no"], False)])
def test_judge_error_when_context_precision_contradicts_the_grades(cp, fires):
    assert ("judge_error" in tags(row(grades=(2, 0, 0), cp=cp))) is fires


def test_grade_1_passages_never_make_a_judge_error():
    assert "judge_error" not in tags(row(grades=(2, 1, 1), cp=["yes", "no", "yes"]))


@pytest.mark.parametrize("grades, recall, fires", [((0, 0, 0), 1.0, True), ((0, 0, 0), 0.5, False),
                                                   ((0, 1, 0), 1.0, False), ((2, 0, 0), 1.0, False),
                                                   ((0, 0, 0), math.nan, False), ((), 1.0, False)])
def test_judge_error_when_context_recall_is_full_on_grade_0_passages(grades, recall, fires):
    r = row(grades=grades, scores={"faithfulness": 1.0, "context_recall": recall})
    reasons = diagnosis.tag_row(r, REF)
    assert ("judge_error" in reasons) is fires
    if fires:
        assert "context recall 1.00" in reasons["judge_error"]


def test_a_recorded_judge_error_tags_the_row_and_fires_no_score_rule():
    r = row(scores={}, errors={"faithfulness": "the reply did not validate"})
    reasons = diagnosis.tag_row(r, REF)
    assert list(reasons) == ["judge_error"]
    assert "faithfulness failed" in reasons["judge_error"]


def test_a_row_can_carry_several_tags_in_taxonomy_order():
    r = row(grades=(0, 2, 0), answer="Sahara.", faith=0.0, cp=["yes", "no", "no"])
    assert tags(r) == ["bad_ranking", "unsupported_claim", "incomplete_answer", "judge_error"]


def rows_two_systems():
    return [row("x1", "bm25", "synonym", (0, 0, 0), faith=0.5, scores=None),
            row("x1", "minilm", "synonym", (2, 0, 0), faith=1.0),
            row("x2", "bm25", "lexical", (2, 0, 0), faith=1.0),
            row("x2", "minilm", "lexical", (0, 2, 0), faith=0.0),
            row("x3", "bm25", "none", (0, 0, 0), answer="Not in the passages.", faith=math.nan),
            row("x3", "minilm", "none", (0, 0, 0), answer="Not in the passages.", faith=1.0)]


def tagged_two_systems():
    return diagnosis.tag_rows(rows_two_systems(), references={"x1": REF, "x2": {"reference": REF}},
                              answerable_ids={"x1", "x2"})


def test_tag_rows_adds_tags_reasons_overall_and_coverage():
    out = tagged_two_systems()
    assert [r["tags"] for r in out] == [["retrieval_miss", "unsupported_claim"], [], [],
                                        ["bad_ranking", "unsupported_claim"], [], []]
    assert out[4]["coverage"] is None and out[0]["coverage"] == 1.0
    assert math.isnan(out[4]["overall"]) and out[3]["overall"] == 0.0


def test_tag_rows_adds_the_share_of_the_reference_s_sources_retrieved():
    out = diagnosis.tag_rows(rows_two_systems(), references={"x1": {"reference": REF, "supported_by": ["p0", "p9"]},
                                                             "x2": REF}, answerable_ids={"x1", "x2"})
    assert [r["source_recall"] for r in out[:4]] == [0.5, 0.5, None, None]     # p0 of p0 and p9; x2 has no sources
    assert out[4]["source_recall"] is None                                      # x3: no reference at all


def test_no_rows_give_empty_tables():
    assert diagnosis.tag_rows([], references={}, answerable_ids=set()) == []
    assert diagnosis.sort_rows([]) == []
    assert tables.text_table([], ["a"]) == "(no rows)"


def test_sort_puts_unscored_rows_first_then_lowest():
    order = [(r["question"], r["system"]) for r in diagnosis.sort_rows(rows_two_systems(), by="faithfulness")]
    assert order[:3] == [("x3", "bm25"), ("x2", "minilm"), ("x1", "bm25")]


def test_paired_scores_drop_questions_a_system_did_not_score():
    pairs = diagnosis.paired_scores(rows_two_systems(), "faithfulness")
    assert pairs["ids"] == ["x1", "x2"] and pairs["a"] == [1.0, 0.0] and pairs["b"] == [0.5, 1.0]
    assert list(pairs["dropped"]) == ["x3"] and "bm25" in pairs["dropped"]["x3"]


def test_rules_vs_annotator_lists_the_disagreements():
    reading = {("x1", "bm25"): {"tags": ["retrieval_miss"], "note": "n"},
               ("x2", "bm25"): {"tags": ["incomplete_answer"], "note": "m"}}
    out = diagnosis.rules_vs_annotator(tagged_two_systems(), reading)
    assert out[0]["only_rules"] == ["unsupported_claim"] and not out[0]["agree"]
    assert out[1]["only_annotator"] == ["incomplete_answer"] and out[1]["annotator"] == ["incomplete_answer"]
    assert "hand" not in out[1] and "only_hand" not in out[1]
    with pytest.raises(InputError) as err:
        diagnosis.rules_vs_annotator(tagged_two_systems(), {("nope", "bm25"): {"tags": []}})
    assert err.value.field == "reading"


def test_the_reading_is_named_for_who_made_it_not_by_hand():
    # the capstone's second reading is a language model's: no name may say it was made by hand
    for former in ("rules_vs_hand", "hand_diagnosis", "only_hand"):
        assert not hasattr(diagnosis, former) and former not in diagnosis.__all__
    reading = {("x2", "bm25"): {"tags": ["incomplete_answer"], "note": "m"}}
    assert not any("hand" in key for key in diagnosis.rules_vs_annotator(tagged_two_systems(), reading)[0])


def test_text_table_cuts_lines():
    text = tables.text_table([{"a": "x" * 200, "b": 0.5}], ["a", "b"], width=50)
    assert all(len(line) <= 50 for line in text.splitlines())


@pytest.mark.parametrize("change, field", [
    (lambda r: r.pop("system"), "rows[0].system"),
    (lambda r: r.update(grades=[2, 0]), "rows[0].grades"),
    (lambda r: r.update(grades=[3, 0, 0]), "rows[0].grades"),
    (lambda r: r.update(passages="p0"), "rows[0].passages"),
    (lambda r: r.update(scores={"faithfulness": "high"}), "rows[0].scores.faithfulness"),
    (lambda r: r.update(scores={"faithfulness": True}), "rows[0].scores.faithfulness"),
    (lambda r: r.update(scores={"faithfulness": 1.5}), "rows[0].scores.faithfulness"),
    (lambda r: r.update(verdicts={"context_precision": ["yes"]}), "rows[0].verdicts.context_precision"),
    (lambda r: r.update(errors=["x"]), "rows[0].errors"),
])
def test_bad_rows_raise_input_error_naming_the_field(change, field):
    r = row()
    change(r)
    with pytest.raises(InputError) as err:
        diagnosis.check_rows([r])
    assert err.value.field == field


@pytest.mark.parametrize("call, field", [
    (lambda: diagnosis.check_rows("rows"), "rows"),
    (lambda: diagnosis.check_rows(["not a row"]), "rows[0]"),
    (lambda: diagnosis.sort_rows([row()], by="recall"), "by"),
    (lambda: diagnosis.tag_row(row(), 5), "reference"),
    (lambda: diagnosis.tag_row(row(), REF, "yes"), "is_answerable"),
    (lambda: diagnosis.tag_rows([row()], references=["r"], answerable_ids=set()), "references"),
    (lambda: diagnosis.tag_rows([row()], references={}, answerable_ids="x1"), "answerable_ids"),
    (lambda: diagnosis.tagged_rows([row()]), "rows[0].tags"),
    (lambda: diagnosis.tagged_rows([dict(row(), tags=["bad"])]), "rows[0].tags"),
    (lambda: diagnosis.tag_rows([row()], references={"x1": {"reference": REF, "supported_by": "p0"}},
                                answerable_ids=set()), "references[...].supported_by"),
    (lambda: diagnosis.paired_scores([row()], "recall"), "metric"),
    (lambda: diagnosis.paired_scores([row()], "faithfulness", a="dense"), "a"),
])
def test_bad_arguments_raise_input_error_naming_the_field(call, field):
    with pytest.raises(InputError) as err:
        call()
    assert err.value.field == field


@pytest.mark.parametrize("cp, fires", [([1, 0, 0], False), ([0, 0, 0], True), ([1, 1, 0], True),
                                       ([True, False, False], False)])
def test_judge_error_reads_the_0_1_verdicts_scored_rows_hold(cp, fires):
    """capstone.scored() keeps context precision's verdicts as the metric normalised them: 1/0."""
    assert ("judge_error" in tags(row(grades=(2, 0, 0), cp=cp))) is fires


def test_capstone_exercises_explain_the_likely_slip():
    from ragmetrics_edu.course import exercises

    assert exercises.check("cap-1", ["unsupported_claim", "bad_ranking"]).correct is True
    assert "rank 2" in exercises.check("cap-1", ["retrieval_miss", "unsupported_claim"]).message
    assert "several tags" in exercises.check("cap-1", ["bad_ranking"]).message
    assert exercises.check("cap-2", "Retriever").correct is True
    assert "passages it is handed" in exercises.check("cap-2", "generator").message
    assert "by chance" in exercises.check("cap-3", True).message
    assert "dropped" in exercises.check("cap-4", 3).message
    assert "RECALL_CUT = 0.5" in exercises.check("cap-5", 6).message
    assert "both retriever lines" in exercises.check("cap-5", 5).message


def test_flat_rows_and_the_full_reading_of_a_row():
    tagged = tagged_two_systems()
    table = tables.flat(tagged)
    assert table[0]["grades"] == "000" and table[0]["tags"] == "miss unsup" and table[1]["tags"] == "-"
    assert math.isnan(table[0]["cp"]) and table[0]["faith"] == 0.5
    text = diagnosis.describe_row(dict(tagged[3], items={"faithfulness": ["It is the Sahara."]},
                                       verdicts={"faithfulness": ["no"]}))
    assert "rank 2: p1 (grade 2)" in text and "claim [no]: It is the Sahara." in text
    assert "tag bad_ranking: grade-2 p1 at rank 2 below grade-0 p0 at rank 1" in text


def test_present_metrics_lists_only_the_scored_ones_in_order():
    assert diagnosis.present_metrics(rows_two_systems()) == ("faithfulness",)
    both = [row(scores={"context_precision": 1.0}), row(scores={"faithfulness": 0.5})]
    assert diagnosis.present_metrics(both) == ("faithfulness", "context_precision")
    assert diagnosis.present_metrics([]) == ()


def test_text_table_narrows_the_widest_column_and_takes_a_rule_flag():
    rows = [{"a": "x" * 80, "b": "y" * 80, "c": 0.25}]
    text = tables.text_table(rows, ["a", "b", "c"], width=60, rule=True)
    lines = text.splitlines()
    assert len(lines) == 3 and set(lines[1]) <= {"-", " "} and lines[2].endswith("0.250")  # the number survives
    with pytest.raises(InputError, match="rule"):
        tables.text_table(rows, ["a"], rule="yes")
