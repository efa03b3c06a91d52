"""The judges-against-people study as library functions of what they are given (lessons 13-14): a part scored
from the answers and judges handed in, the log's figures, and the readings fed by the course's replays."""

from __future__ import annotations

import math

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.agreement import roc_auc
from ragmetrics_edu.course.against_people import study
from ragmetrics_edu.course.against_people.items import items
from ragmetrics_edu.studies.against_people import choice, readings, tables


def test_a_part_scored_without_judges_holds_word_overlap_alone_and_matches_the_log():
    chosen = items("ragtruth", "dev", groups=choice.DEV_SAMPLE_SOURCES["ragtruth"])
    part = choice.score_part(chosen, {})
    assert list(part["scores"]) == ["word_overlap"]
    shipped = choice.load_log()["parts"]["ragtruth-dev"]
    assert [r["id"] for r in part["items"]] == [r["id"] for r in shipped["items"]]
    assert part["scores"]["word_overlap"] == pytest.approx(shipped["scores"]["word_overlap"])


def test_part_figures_are_the_auc_of_the_answers_named():
    part = choice.load_log()["parts"]["ragtruth-dev"]
    idx = choice.complete(part, ["g_eval", "word_overlap"])
    found = choice.part_figures(part, "g_eval", idx, None)
    failed = [part["items"][i]["failed"] for i in idx]
    assert found["auc"] == pytest.approx(roc_auc(failed, [part["scores"]["g_eval"][i] for i in idx]))
    assert found["answers"] == len(idx)
    paired = choice.paired_figures(part, "g_eval", "word_overlap", idx)
    overlap = roc_auc(failed, [part["scores"]["word_overlap"][i] for i in idx])
    assert paired["difference"] == pytest.approx(found["auc"] - overlap)


@pytest.mark.parametrize("call, field", [
    (lambda p: choice.complete(p, ["bleu"]), "names"),
    (lambda p: choice.complete({}, ["word_overlap"]), "part"),
    (lambda p: choice.part_figures(p, "word_overlap", [10**6], None), "idx"),
    (lambda p: choice.paired_figures(p, "word_overlap", "bleu", [0, 1]), "b"),
    (lambda p: choice.score_part([1, 2], {}), "chosen"),
    (lambda p: choice.build_log({"ragtruth-dev": p}), "parts"),
])
def test_bad_parts_and_names_raise_input_error_naming_the_field(call, field):
    with pytest.raises(InputError) as err:
        call(choice.load_log()["parts"]["ragtruth-dev"])
    assert err.value.field == field


def test_judge_failures_count_the_questions_it_is_told_went_unanswered():
    log = choice.load_log()
    found = readings.judge_failures(log, {"source-1": False, "source-2": True, "source-3": False})
    assert (found["questions"], found["not_in_context"]) == (3, 2)
    assert readings.judge_failures(log, study.answered(log))["questions"] == log["dev_sample_sources"]["ragtruth"]
    with pytest.raises(InputError, match="answered"):
        readings.judge_failures(log, ["source-1"])


def test_ci_text_and_the_threshold_lookup():
    assert tables.ci_text((0.1, 0.25), 0.012) == "+0.012 [0.100, 0.250]"
    assert tables.ci_text(None) == "(too few groups)"
    with pytest.raises(InputError, match="ci"):
        tables.ci_text((0.1,))
    log = choice.load_log()
    assert tables.threshold_of(log, "word_overlap") == log["dev"]["designs"]["word_overlap"]["ragtruth"]["threshold"]
    assert not math.isnan(tables.threshold_of(log, log["chosen"]))
