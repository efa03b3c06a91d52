"""judge_failures.classify on constructed cases: one per category, and the clean case with none."""

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.studies.judge_study.failures import CATEGORIES, classify, count


def categories(failures):
    return [f.category for f in failures]


def test_identical_items_and_verdicts_have_no_failure():
    items = ["The Sun rises in the East.", "The Sun sets in the West."]
    assert classify(items, list(reversed(items)), reference_verdicts=["yes", "no"],
                    judged_verdicts=["no", "yes"]) == []


def test_merged_claims():
    ref = ["Einstein was born in Germany.", "Einstein was born on 20th March 1879."]
    failures = classify(ref, ["Einstein was born in Germany on 20th March 1879."])
    assert categories(failures) == ["merged"]
    assert failures[0].judged == (1,) and failures[0].reference == (1, 2)


def test_split_claim():
    ref = ["The Sun rises in the East and sets in the West."]
    failures = classify(ref, ["The Sun rises in the East.", "The Sun sets in the West."])
    assert categories(failures) == ["split"]
    assert failures[0].judged == (1, 2) and failures[0].reference == (1,)


def test_a_shared_word_alone_is_not_a_merge():
    # "Mumtaz Mahal" shares half its words with "Taj Mahal": not enough to hold it
    failures = classify(["Taj Mahal", "Mumtaz Mahal"], ["Taj Mahal", "Mumtaz Mahal"])
    assert failures == []


def test_items_from_the_context_are_wrong_text():
    reference = "AI, also known as Artificial Intelligence, is used to build virtual assistants."
    nodes = ["NVIDIA makes chips for AI.", "AI is an acronym for Artificial Intelligence."]
    failures = classify(["AI, also known as Artificial Intelligence", "used to build virtual assistants"],
                        ["AI is an acronym for Artificial Intelligence.", "NVIDIA makes chips for AI."],
                        source=reference, context=nodes)
    assert categories(failures) == ["wrong text", "wrong text", "extraction error"]
    assert [f.judged for f in failures[:2]] == [(1,), (2,)]
    assert failures[2].reference == (2,) and "missed" in failures[2].detail


def test_without_a_source_nothing_is_wrong_text():
    failures = classify(["Paris is the capital."], ["NVIDIA makes chips."], context=["NVIDIA makes chips."])
    assert categories(failures) == ["extraction error", "extraction error"]
    assert {f.detail.split(":")[0] for f in failures} == {"invented", "missed"}


def test_wrong_verdict_on_matched_items_only():
    ref = ["The Sun rises in the East.", "The Moon is made of cheese."]
    judged = ["The Moon is made of cheese.", "The Sun rises in the East."]
    failures = classify(ref, judged, reference_verdicts=["yes", "no"], judged_verdicts=["no", "idk"])
    assert categories(failures) == ["wrong verdict"]
    assert failures[0].judged == (2,) and failures[0].reference == (1,)


def test_equal_counts_different_items_are_extraction_errors_not_verdicts():
    failures = classify(["Logging causes deforestation."], ["Wildfires burn forests."],
                        reference_verdicts=["yes"], judged_verdicts=["yes"])
    assert categories(failures) == ["extraction error", "extraction error"]


def test_judge_error_is_malformed_output_and_nothing_else():
    failures = classify(["a claim"], [], error="JudgeError: node numbers must be between 1 and 1")
    assert categories(failures) == ["malformed output"]
    assert "node numbers" in failures[0].detail


def test_a_repair_is_malformed_output_recovered():
    failures = classify(["Paris is the capital."], ["Paris is the capital."], repairs=1)
    assert categories(failures) == ["malformed output"]
    assert "recovered" in failures[0].detail


def test_count_lists_every_category():
    failures = classify(["a b c", "d e f"], ["a b c d e f"], error=None)
    tally = count(failures)
    assert list(tally) == list(CATEGORIES)
    assert tally["merged"] == 1 and sum(tally.values()) == 1


@pytest.mark.parametrize("kwargs, field", [
    ({"reference_items": "a claim", "judged_items": []}, "reference_items"),
    ({"reference_items": ["a"], "judged_items": [1]}, "judged_items[0]"),
    ({"reference_items": ["a"], "judged_items": ["a"], "judged_verdicts": ["yes", "no"]}, "judged_verdicts"),
    ({"reference_items": ["a"], "judged_items": ["a"], "threshold": 0}, "threshold"),
    ({"reference_items": ["a"], "judged_items": ["a"], "cover": True}, "cover"),
    ({"reference_items": ["a"], "judged_items": ["a"], "repairs": -1}, "repairs"),
])
def test_bad_input_names_the_field(kwargs, field):
    with pytest.raises(InputError) as info:
        classify(**kwargs)
    assert info.value.field == field


def test_given_items_pair_by_position_and_are_never_merged():
    nodes = ["AI is known as Artificial Intelligence.", "Artificial Intelligence, known as AI, is everywhere."]
    assert classify(nodes, nodes, reference_verdicts=["yes", "no"], judged_verdicts=["yes", "no"], given=True) == []
    failures = classify(nodes, nodes, reference_verdicts=["yes", "no"], judged_verdicts=["yes", "yes"], given=True)
    assert categories(failures) == ["wrong verdict"] and failures[0].judged == (2,)
    with pytest.raises(InputError):
        classify(nodes, nodes[:1], given=True)
