"""Exercise checking: right answers accepted, wrong ones explained, placeholders tolerated."""

import pytest

from ragmetrics_edu import InputError, exercises, metrics


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


def test_placeholder_gives_hint_not_error():
    feedback = exercises.check("cp-1", None)
    assert feedback.correct is None and "Hint" in feedback.message


def test_wrong_denominator_is_explained():
    total = metrics.context_precision([0, 1, 0, 1]).values["sum_of_terms"]
    feedback = exercises.check("cp-1", total / 4)
    assert "number of relevant nodes" in feedback.message
    assert exercises.check("cp-1", "1/2").correct is True
    assert "DeepEval score" in exercises.check("cp-4", 5 / 6).message


def test_unknown_exercise_names_the_field():
    with pytest.raises(InputError, match="exercise_id"):
        exercises.check("nope", 1)
