"""Exercise checking: right answers accepted, wrong ones explained, placeholders tolerated."""

import pytest

from ragmetrics_edu import InputError, metrics
from ragmetrics_edu.course import exercises


def test_every_exercise_accepts_its_own_solution_and_rejects_a_wrong_one():
    assert exercises.ids(), "no exercises registered"
    for exercise_id in exercises.ids():
        item = exercises.get(exercise_id)
        correct = item.answer()
        assert exercises.check(exercise_id, correct).correct is True
        # (NaN + 0.37 is still NaN, so a NaN answer gets a plain number as its wrong answer.)
        wrong = {"number": lambda: 0.37 if correct != correct else correct + 0.37,
                 "list": lambda: list(correct)[::-1] + [0],
                 "bool": lambda: not correct, "choice": lambda: "zzz"}[item.kind]()
        feedback = exercises.check(exercise_id, wrong)
        assert feedback.correct is False and feedback.message


def test_no_hint_shows_unless_asked_for():
    for exercise_id in exercises.ids():
        item = exercises.get(exercise_id)
        placeholder = exercises.check(exercise_id, None)
        assert placeholder.correct is None and "Hint" not in placeholder.message
        assert f"exercises.hint({exercise_id!r})" in placeholder.message
        if item.hint:
            assert item.hint not in placeholder.message
            assert exercises.hint(exercise_id) == item.hint
    wrong = exercises.check("cp-1", 0.123)      # no slip recognised: pointed to the hint, not shown it
    assert wrong.correct is False and exercises.hint("cp-1") not in wrong.message
    assert "exercises.hint('cp-1')" in wrong.message


def test_wrong_denominator_is_explained():
    total = metrics.context_precision([0, 1, 0, 1]).values["sum_of_terms"]
    feedback = exercises.check("cp-1", total / 4)
    assert "number of relevant nodes" in feedback.message
    assert exercises.check("cp-1", "1/2").correct is True
    assert "DeepEval score" in exercises.check("cp-4", 5 / 6).message


def test_unknown_exercise_names_the_field():
    with pytest.raises(InputError, match="exercise_id"):
        exercises.check("nope", 1)


def test_a_best_order_counts_however_its_verdicts_are_written():
    for written in ([True, True, False, False, False], ["yes", "yes", "no", "no", "no"], [1, 1, 0, 0, 0]):
        feedback = exercises.check("cp-2", written)
        assert feedback.correct is True, (written, feedback.message)
    worse_order = [True, False, True, False, False]
    worse = exercises.check("cp-2", worse_order)
    assert worse.correct is False
    assert f"{metrics.context_precision(worse_order).score:.4f}" in worse.message


def test_a_true_or_false_written_as_a_string_is_named():
    for written in ("False", "false", "True"):
        feedback = exercises.check("cp-3", written)
        assert feedback.correct is False
        assert "string" in feedback.message and "without quotes" in feedback.message
        assert "denominator" not in feedback.message


def test_an_unknown_exercise_names_the_valid_ids_and_near_matches():
    with pytest.raises(InputError) as info:
        exercises.check("cp-9", 1)
    message = str(info.value)
    assert "exercise_id" in message and "cp-1" in message
    with pytest.raises(InputError) as info:
        exercises.get("judge3")
    assert "judge-3" in str(info.value)
    with pytest.raises(InputError, match="exercise_id"):
        exercises.get(["cp-1"])


def _binomial_coverage(n: int, theta: float, interval) -> float:
    """Exact probability, over k ~ Binomial(n, theta), that interval(k, n) holds theta."""
    from math import comb
    return sum(comb(n, k) * theta ** k * (1 - theta) ** (n - k) for k in range(n + 1)
               if interval(k, n)[0] <= theta <= interval(k, n)[1])


def test_people_2s_solution_says_only_what_holds_of_wilson_against_the_normal_interval():
    from ragmetrics_edu import agreement
    from ragmetrics_edu.course.exercises import people

    def wilson(k: int, n: int) -> tuple[float, float]:
        verdicts = [True] * k + [False] * (n - k)
        return agreement.estimate_pass_rate(verdicts, verdicts, verdicts, method="labels").ci

    def normal(k: int, n: int) -> tuple[float, float]:
        share = k / n
        half = 1.959964 * (share * (1 - share) / n) ** 0.5
        return share - half, share + half

    n, k = people.LABELLED, people.PASSED
    (w_lo, w_hi), (n_lo, n_hi) = wilson(k, n), normal(k, n)
    assert abs((w_hi - w_lo) - (n_hi - n_lo)) < 0.01 * (n_hi - n_lo)       # "about equally wide" here
    assert k / n > (w_lo + w_hi) / 2 > 0.5                                   # Wilson's centre shifted toward 0.5
    assert normal(n, n)[1] - normal(n, n)[0] == 0 < wilson(n, n)[1] - wilson(n, n)[0]   # every label agrees
    # near 1 with few labels on the rarer side the normal interval covers less often than its level, Wilson's not
    assert _binomial_coverage(n, 0.97, normal) < 0.90 < _binomial_coverage(n, 0.97, wilson)
    solution = exercises.get("people-2").explanation
    assert "narrower" not in solution and f"width {w_hi - w_lo:.3f}" in solution and f"width {n_hi - n_lo:.3f}" in solution
    assert "about as wide" in exercises.check("people-2", n_lo).message
