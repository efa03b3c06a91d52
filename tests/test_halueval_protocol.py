"""The HaluEval protocol: a fixed split, the re-answer arithmetic by hand, and a choice log that the
recordings reproduce (chosen on dev, scored once on test, the library's default is the choice)."""

import math

import pytest

from ragmetrics_edu import judges
from ragmetrics_edu.course import halueval_study as hs
from ragmetrics_edu.data import halueval
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.judges.reanswer import score_reanswer


def test_the_split_is_the_rule_written_in_the_data():
    dev, test = halueval.pairs("dev"), halueval.pairs("test")
    assert (len(dev), len(test)) == (160, 100)
    assert not {p.row for p in dev} & {p.row for p in test}
    assert all(p.row % 25 % 2 == 0 for p in dev + test)
    assert all(p.row % 25 >= 16 for p in test) and all(p.row % 25 < 16 for p in dev)
    assert all(halueval.split_of(p.row) == p.split for p in dev + test)


def test_reanswer_arithmetic_worked_by_hand():
    context = ["Saint Motel is an indie pop band with four members. Curve was a duo."]
    # content words: answer {curve, member, more, motel, saint}; judge {saint, motel}
    # precision 2/5, recall 2/2; grounding: curve, member, motel, saint in the context, 'more' not: 4/5
    r = score_reanswer("Curve has more members than Saint Motel.", "Saint Motel", context,
                       compare="precision", grounding_weight=0.5)
    assert r.values["agreement"] == pytest.approx(0.4)
    assert r.values["grounding"] == pytest.approx(0.8)
    assert r.score == pytest.approx(0.5 * 0.8 + 0.5 * 0.4)
    recall = score_reanswer("Curve has more members than Saint Motel.", "Saint Motel", context,
                            compare="recall", grounding_weight=0.0)
    assert recall.score == pytest.approx(1.0)
    f1 = score_reanswer("Curve has more members than Saint Motel.", "Saint Motel", context,
                        compare="f1", grounding_weight=0.0)
    assert f1.score == pytest.approx(2 * 0.4 * 1.0 / 1.4)


def test_reanswer_edge_cases_are_the_documented_ones():
    ctx = ["Paris is the capital of France."]
    assert score_reanswer("the", "Paris", ctx).score == 0.0          # no content words
    alone = score_reanswer("Paris", "not in the context", ctx, grounding_weight=0.9)
    assert alone.score == pytest.approx(1.0) and alone.values["answered"] is False
    assert math.isnan(score_reanswer("Paris", "Not in the context.", ctx, grounding_weight=0.0).score)
    for bad in ({"compare": "bleu"}, {"grounding_weight": 1.5}, {"grounding_weight": True}):
        with pytest.raises(InputError):
            score_reanswer("Paris", "Paris", ctx, **bad)


def test_one_call_per_question_serves_both_answers():
    pair = halueval.pairs("dev")[0]
    judge = judges.GivenJudge({"faithfulness.reanswer": pair.right_answer})
    right = judges.faithfulness_reanswer(judge, pair.right_answer, [pair.knowledge], question=pair.question)
    wrong = judges.faithfulness_reanswer(judge, pair.hallucinated_answer, [pair.knowledge], question=pair.question)
    assert right.score > wrong.score
    assert right.calls[0].key == wrong.calls[0].key      # the same request: a cache answers the second


def test_pairwise_counts_ties_and_nan_as_half():
    rows = [{"outcome": hs._outcome(1, 0)}, {"outcome": hs._outcome(0, 1)}, {"outcome": hs._outcome(0.5, 0.5)},
            {"outcome": hs._outcome(math.nan, 0.2)}]
    assert hs.pairwise(rows) == pytest.approx((1 + 0 + 0.5 + 0.5) / 4)
