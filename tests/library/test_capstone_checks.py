"""The capstone's judge checks (answer relevancy's idk, context recall's statements) on synthetic rows,
and what notebook 16's prose says about the recorded rows."""

from __future__ import annotations

import math

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.course.capstone import systems as capstone
from ragmetrics_edu.studies.capstone import checks as cc

REF = "Antarctica is the largest desert because its interior gets almost no precipitation."
PASSAGE = "The Sahara stretches across North Africa and is the largest hot desert."


def row(grades=(0, 0), ar=("yes", "idk"), cr_items=("Antarctica is the largest desert.",), recall=1.0):
    scores = {"answer_relevancy": 1.0}
    verdicts = {"answer_relevancy": list(ar)}
    items = {}
    if recall is not None:
        scores["context_recall"] = recall
        items["context_recall"] = list(cr_items)
        verdicts["context_recall"] = ["yes"] * len(cr_items)
    return {"question": "x1", "text": "What is the biggest desert?", "kind": "synonym", "system": "bm25",
            "passages": [f"p{i}" for i in range(len(grades))], "grades": list(grades),
            "contexts": [PASSAGE] * len(grades), "answer": "Antarctica.", "scores": scores,
            "verdicts": verdicts, "items": items, "errors": {}}


@pytest.mark.parametrize("verdicts, share", [(["yes", "idk"], 0.5), (["YES", "yes"], 1.0), (["idk", "no"], 0.0),
                                             ([], math.nan)])
def test_yes_share_reads_idk_as_not_relevant(verdicts, share):
    got = cc.yes_share(verdicts)
    assert (math.isnan(got) and math.isnan(share)) or got == share


def test_a_statement_copied_from_a_passage_is_from_the_wrong_text():
    statements = ["Antarctica is the largest desert.", "The Sahara stretches across North Africa."]
    assert cc.from_wrong_text(statements, REF, [PASSAGE]) == [2]
    assert cc.from_wrong_text(statements, REF, []) == []
    with pytest.raises(InputError, match="reference"):
        cc.from_wrong_text(statements, None, [PASSAGE])


def test_check_rows_counts_idk_wrong_text_and_grade_0():
    found = cc.check_rows([row(cr_items=("The Sahara stretches across North Africa.",))], {"x1": REF})[0]
    assert found["ar idk"] == 1 and found["ar yes share"] == 0.5 and found["ar"] == 1.0
    assert found["cr statements"] == 1 and found["cr from a passage"] == 1 and found["all grade 0"] is True
    clean = cc.check_rows([row(grades=(2, 0))], {"x1": {"reference": REF}})[0]
    assert clean["cr from a passage"] == 0 and clean["all grade 0"] is False


def test_rows_without_recall_or_reference_get_nan_and_zero_counts():
    found = cc.check_rows([row(recall=None)], {})[0]
    assert math.isnan(found["cr"]) and found["cr statements"] == 0 and found["cr from a passage"] == 0
    assert cc.check_rows([], {}) == []


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="references"):
        cc.check_rows([row()], references=["x1"])
    with pytest.raises(InputError, match="rows"):
        cc.check_rows("rows")


def test_the_prose_of_notebook_15_about_the_two_metrics_holds():
    rows = capstone.scored()
    checks = {(c["question"], c["system"]): c for c in cc.check_rows(rows)}
    assert all(c["ar"] == 1.0 for c in checks.values())              # "answer relevancy is 1.0 on every row"
    off_topic = checks[("q22", "minilm")]                              # "the off-topic answer"
    assert off_topic["ar yes share"] == 0.0 and off_topic["ar idk"] >= 1
    assert sum(c["ar idk"] > 0 for c in checks.values()) >= len(checks) // 2
    wrong = [k for k, c in checks.items() if c["cr from a passage"]]
    assert ("q25", "bm25") in wrong and ("q05", "minilm") in wrong     # "statements from the passages"
    full_on_grade_0 = [k for k, c in checks.items() if c["all grade 0"] and c["cr"] == 1.0]
    assert len(full_on_grade_0) >= 3
    recall = {s: [c["cr"] for (q, sys), c in checks.items() if sys == s and not math.isnan(c["cr"])]
              for s in capstone.SYSTEMS}
    assert sum(recall["bm25"]) / len(recall["bm25"]) > sum(recall["minilm"]) / len(recall["minilm"])  # "points the wrong way"


def test_the_prose_of_notebook_15_about_retrieval_misses_holds():
    from ragmetrics_edu.studies.capstone import diagnosis

    tagged = diagnosis.tag_rows(capstone.scored())
    misses = [r["system"] for r in tagged if "retrieval_miss" in r["tags"]]
    assert misses.count("bm25") == 4 and len(misses) == 5              # "four of the five retrieval misses"
