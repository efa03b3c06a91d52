"""Analysis and design exercises of notebooks 01-03 (issue 13, item 5): right answers accepted in any
form that is right, wrong ones explained by the mistake behind them."""

from ragmetrics_edu import metrics
from ragmetrics_edu.course import exercises


def test_cp6_the_variant_that_sees_a_missed_document():
    assert exercises.check("cp-6", "average_precision").correct is True
    assert exercises.check("cp-6", "Average precision").correct is True
    ragas = exercises.check("cp-6", "ragas")
    assert ragas.correct is False and "1e-10" in ragas.message and "retrieved" in ragas.message
    deepeval = exercises.check("cp-6", "deepeval")
    assert deepeval.correct is False and "1.0" in deepeval.message


def test_cr5_any_cut_that_gives_two_thirds_is_right():
    for sizes in ([1, 1, 2], [2, 1, 1], [1, 2, 1]):
        assert exercises.check("cr-5", sizes).correct is True, sizes
    wrong = exercises.check("cr-5", [2, 2])
    assert wrong.correct is False and "0.5" in wrong.message
    assert "4 pieces" in exercises.check("cr-5", [1, 1, 1]).message
    assert exercises.check("cr-5", [1, 1, 2, 0]).correct is False
    assert "list" in exercises.check("cr-5", "1,1,2").message


def test_crel5_a_case_where_micro_and_macro_averages_disagree():
    good = [["yes", "yes", "yes"], ["no"], ["no"]]
    assert exercises.check("crel-5", good).correct is True
    assert metrics.contextual_relevancy([["s"] * 3, ["t"], ["u"]], good).score > 0.5
    both_high = exercises.check("crel-5", [["yes", "yes"], ["yes", "no"]])
    assert both_high.correct is False and "macro" in both_high.message
    reversed_ = exercises.check("crel-5", [["no", "no", "no"], ["yes"], ["yes"]])
    assert reversed_.correct is False and "micro" in reversed_.message
    assert exercises.check("crel-5", [["maybe"]]).correct is False
