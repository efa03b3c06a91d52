"""The decomposition explorer's model: cutting a text into statements moves the score (no browser)."""

import pytest

from ragmetrics_edu import InputError, examples, metrics
from ragmetrics_edu.widgets.decompose_model import CASES, DecomposeModel, combine


@pytest.mark.parametrize("key", sorted(CASES))
def test_the_decks_decomposition_gives_the_catalogues_score(key):
    spec = CASES[key]
    model = DecomposeModel.from_example(key)
    example = examples.load(spec.example_id)
    assert model.text == example.inputs[spec.field]
    assert model.score == example.compute(spec.case).score
    kwargs = example.case(spec.case).kwargs
    assert model.statements == list(kwargs.get("statements", kwargs.get("claims")))


def test_deck_a_expected_output_as_one_statement_or_two():
    model = DecomposeModel.from_example("A-cr-what-is-ai")
    assert (model.n, model.score) == (2, 0.5)
    model.merge(0)
    assert model.n == 1 and model.statements == [model.text] and model.verdicts == ["no"]
    assert model.score == metrics.context_recall([model.text], ["no"]).score == 0.0
    model.split(0)
    assert model.score == 0.5


def test_einstein_low_answer_moves_with_the_cut_and_the_high_answer_does_not():
    low = DecomposeModel.from_example("E-faith-einstein")
    high = DecomposeModel.from_example("E-faith-einstein/high")
    assert low.metric == "faithfulness" and low.variant == "ragas"
    before = low.score
    low.merge_all()
    assert (before, low.score) == (0.5, 0.0)
    assert low.score == metrics.faithfulness(low.statements, low.verdicts, "ragas").score
    high.merge_all()
    assert high.score == 1.0 and high.score_range == (1.0, 1.0)


def test_lenient_judge_and_every_cut():
    model = DecomposeModel.from_example("B-cr-deforestation")
    assert model.score_range == (0.0, 0.75)
    scores = {cuts: score for cuts, score in model.every_cut()}
    assert len(scores) == 8
    assert scores[(True, True, False)] == pytest.approx(2 / 3)  # logging | agriculture | urbanization + wildfires
    model.merge_all()
    model.set_lenient(True)
    assert model.verdicts == ["yes"] and model.score == 1.0


def test_combine_rules():
    assert combine(["yes", "no"]) == "no" and combine(["yes", "idk"]) == "idk" and combine(["yes", "yes"]) == "yes"
    assert combine(["no", "yes"], lenient=True) == "yes" and combine(["no", "idk"], lenient=True) == "idk"
    with pytest.raises(InputError):
        combine([])


def test_observers_toggle_and_reset():
    model = DecomposeModel.from_example("A-cr-what-is-ai")
    seen = []
    model.observe(lambda change: seen.append(change.name))
    model.toggle_cut(0)
    model.toggle(1)
    assert seen == ["cuts", "verdicts"] and model.score == 1.0
    model.reset()
    assert model.cuts == [True] and model.piece_verdicts == ["yes", "no"] and model.score == 0.5


def test_bad_inputs_name_the_field():
    model = DecomposeModel.from_example("A-cr-what-is-ai")
    with pytest.raises(InputError, match="i"):
        model.split(1)
    with pytest.raises(InputError, match="boundary"):
        model.toggle_cut(3)
    with pytest.raises(InputError, match="lenient"):
        model.set_lenient("yes")
    with pytest.raises(InputError, match="key"):
        DecomposeModel.from_example("A-cp-what-is-ai")
    with pytest.raises(InputError, match="verdicts"):
        DecomposeModel(pieces=["a", "b"], verdicts=["yes"])
    with pytest.raises(InputError, match="cuts"):
        DecomposeModel(pieces=["a", "b"], verdicts=["yes", "no"], cuts=[1])
    with pytest.raises(InputError, match="verdict"):
        DecomposeModel(pieces=["a"], verdicts=["idk"])  # context recall has no idk
    merged = DecomposeModel(pieces=["a", "b"], verdicts=["yes", "no"], cuts=[False])
    with pytest.raises(InputError, match="i"):
        merged.merge(0)
