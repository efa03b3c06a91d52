"""ragmetrics_edu.evaluation.failures: one blame per tagged row, the partial-recall line, and bad input (hand-checkable rows)."""

from __future__ import annotations

import pytest

from ragmetrics_edu.errors import InputError
from ragmetrics_edu.evaluation import failures


@pytest.mark.parametrize("tags, recall, blame", [
    (["retrieval_miss", "unsupported_claim", "incomplete_answer", "judge_error"], 0.0, "retriever"),
    (["retrieval_miss"], None, "retriever"),
    # an incomplete answer from passages that held under half of the reference's sources: the retriever's
    (["bad_ranking", "incomplete_answer"], 0.25, "retriever (partial recall)"),
    (["incomplete_answer", "judge_error"], 0.49, "retriever (partial recall)"),
    # ... from passages that held them: the generator's (a word count, whatever the judge did on the row)
    (["bad_ranking", "incomplete_answer"], 0.5, "generator"),
    (["incomplete_answer", "judge_error"], 0.75, "generator"),
    (["unsupported_claim", "incomplete_answer", "judge_error"], 1.0, "generator"),
    # no sources to recall (no reference): the old rule
    (["incomplete_answer"], None, "generator"),
    # an unsupported claim alone is the judge's faithfulness verdict, which no rule checks
    (["unsupported_claim"], None, "generator or judge"),
    (["unsupported_claim", "judge_error"], 0.0, "generator or judge"),
    (["judge_error"], 1.0, "judge"),
    (["bad_ranking"], 1.0, "no failure"),
    ([], None, "no failure"),
])
def test_each_row_is_blamed_once_by_the_first_line_that_holds(tags, recall, blame):
    assert failures.blame({"tags": tags, "source_recall": recall}) == blame
    assert blame in failures.BLAME


def test_the_recall_cut_is_the_line_an_exercise_changes():
    row = {"tags": ["incomplete_answer"], "source_recall": 0.75}
    assert failures.blame(row) == "generator"
    assert failures.blame(row, recall_cut=1.0) == "retriever (partial recall)"
    assert failures.blame(dict(row, source_recall=1.0), recall_cut=1.0) == "generator"
    with pytest.raises(InputError, match="recall_cut"):
        failures.blame(row, recall_cut=1.5)


def test_a_read_row_s_unsupported_claim_is_the_generator_s_and_read_is_a_flag():
    assert failures.blame({"tags": ["unsupported_claim"], "read": True}) == "generator"
    assert failures.blame({"tags": ["unsupported_claim"], "read": False}) == "generator or judge"
    with pytest.raises(InputError, match="read"):
        failures.blame({"tags": ["unsupported_claim"], "read": "yes"})


@pytest.mark.parametrize("row, field", [
    ({"tags": ["retriever_missed"]}, "row['tags']"),
    ({"tags": "retrieval_miss"}, "row['tags']"),
    ({"tags": [], "source_recall": 1.5}, "row['source_recall']"),
    ({"tags": [], "source_recall": True}, "row['source_recall']"),
    ({}, "row"),
])
def test_bad_rows_name_the_field(row, field):
    with pytest.raises(InputError) as err:
        failures.blame(row)
    assert err.value.field == field


def test_source_recall_is_the_share_of_the_sources_retrieved():
    assert failures.source_recall(["exe-08", "exe-01"], ["exe-01", "exe-02", "exe-04", "exe-07"]) == 0.25
    assert failures.source_recall([], ["a"]) == 0.0
    assert failures.source_recall(["a"], []) is None
    with pytest.raises(InputError, match="sources"):
        failures.source_recall(["a"], "a")
