"""agreement.validation_report, auc_difference and corrected_pass_rate, checked against hand-worked cases."""

import math
import random

import pytest

from ragmetrics_edu import InputError, agreement


def test_corrected_pass_rate_matches_the_hand_worked_case():
    # Labelled set: 10 passing answers (the judge passes 9: TPR 0.9), 10 failing (it flags 8: TNR 0.8).
    # The system: the judge passes 7 of 10 answers. By hand: (0.7 + 0.8 - 1) / (0.9 + 0.8 - 1) = 0.5 / 0.7.
    labelled_failed = [False] * 10 + [True] * 10
    labelled_passes = [True] * 9 + [False] + [False] * 8 + [True] * 2
    r = agreement.corrected_pass_rate([True] * 7 + [False] * 3, labelled_failed, labelled_passes)
    assert (r.values["tpr"], r.values["tnr"], r.values["p_obs"]) == (0.9, 0.8, 0.7)
    assert r.score == pytest.approx(5 / 7)
    assert r.ci is not None and r.ci[0] <= r.score <= r.ci[1]


def test_corrected_pass_rate_of_a_chance_judge_is_undefined_and_said():
    r = agreement.corrected_pass_rate([True, False] * 10, [False, True] * 10, [True] * 20)  # TPR 1, TNR 0
    assert math.isnan(r.score)
    assert any("no better than chance" in n for n in r.notes)


def test_auc_equals_the_mann_whitney_statistic_ties_included():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = random.Random(3)
    failed = [rng.random() < 0.3 for _ in range(150)]
    scores = [round(rng.random() + (0.0 if f else 0.3), 1) for f in failed]  # rounding makes ties
    passing = [s for s, f in zip(scores, failed, strict=True) if not f]
    failing = [s for s, f in zip(scores, failed, strict=True) if f]
    u = scipy_stats.mannwhitneyu(passing, failing).statistic
    assert agreement.roc_auc(failed, scores) == pytest.approx(u / (len(passing) * len(failing)))


def test_report_counts_the_confusion_at_a_given_threshold_by_hand():
    failed = [True, True, True, False, False, False, False, False]
    scores = [0.1, 0.4, 0.9, 0.2, 0.6, 0.7, 0.8, 0.95]
    r = agreement.validation_report(failed, scores, threshold=0.5)
    # flagged (score < 0.5): 0.1, 0.4 (failing) and 0.2 (passing) -> tp 2, fp 1, fn 1, tn 4
    assert (r.values["tp"], r.values["fp"], r.values["fn"], r.values["tn"]) == (2, 1, 1, 4)
    assert r.values["precision"] == pytest.approx(2 / 3) and r.values["recall"] == pytest.approx(2 / 3)
    assert r.values["base_rate"] == pytest.approx(3 / 8)
    assert r.ci is None and any("too few" in n for n in r.notes)  # 8 groups: no interval
    misses = r.table("worst misses")
    assert misses.iloc[0]["score"] == 0.9   # the failing answer the judge liked most comes first


def test_intervals_resample_groups_and_widen_when_answers_share_a_group():
    rng = random.Random(5)
    failed = [rng.random() < 0.4 for _ in range(240)]
    scores = [rng.random() + (0.0 if f else 0.25) for f in failed]
    alone = agreement.validation_report(failed, scores, threshold=0.5)
    clustered = agreement.validation_report(failed, scores, threshold=0.5, groups=[i // 12 for i in range(240)])
    assert alone.score == clustered.score
    assert alone.ci[0] <= alone.score <= alone.ci[1] and clustered.ci[0] <= clustered.score <= clustered.ci[1]
    assert alone.values["groups"] == 240 and clustered.values["groups"] == 20


def test_a_judge_compared_with_itself_differs_by_exactly_zero():
    rng = random.Random(7)
    failed = [rng.random() < 0.4 for _ in range(100)]
    scores = [rng.random() for _ in failed]
    d = agreement.auc_difference(failed, scores, scores, groups=[i // 4 for i in range(100)])
    assert d.score == 0 and d.ci == (0.0, 0.0)


def test_best_threshold_maximises_f1_of_the_failing_class():
    failed = [True, True, False, False]
    scores = [0.1, 0.3, 0.5, 0.9]
    cut = agreement.best_threshold(failed, scores)
    assert 0.3 <= cut < 0.5   # flags exactly the two failing answers: F1 = 1


def test_bad_inputs_name_the_field():
    with pytest.raises(InputError, match="scores"):
        agreement.validation_report([True, False], [0.1])
    with pytest.raises(InputError, match=r"failed\[1\]"):
        agreement.validation_report([True, "no"], [0.1, 0.2])
    with pytest.raises(InputError, match="labelled_failed"):
        agreement.corrected_pass_rate([True], [False, False], [True, True])
