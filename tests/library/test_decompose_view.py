"""The decomposition explorer's view in plain Python (ipywidgets, no browser): it follows its model,
switches cases from its menu, shows bad input in the view, and hides the menu for an own text."""

from ragmetrics_edu.widgets import DecomposeExplorer, DecomposeModel
from ragmetrics_edu.widgets.decompose_model import CASES


def test_buttons_and_menu_drive_the_model_and_the_view_follows():
    explorer = DecomposeExplorer("A-cr-what-is-ai")
    assert "0.5" in explorer.score.value and len(explorer.cut_buttons) == 1
    explorer.cut_buttons[0].value = False           # what clicking the ✂ does
    assert explorer.model.n == 1 and explorer.model.score == 0.0
    assert "rme-score-value'>0<" in explorer.score.value
    explorer.case.value = "B-cr-deforestation"      # what choosing in the menu does
    assert explorer.model.key == "B-cr-deforestation" and len(explorer.cut_buttons) == 3
    assert len(explorer.verdict_toggles) == 4 and explorer.variant.value == "ragas"
    explorer.merge_all.click()
    assert explorer.model.n == 1 and [b.value for b in explorer.cut_buttons] == [False] * 3
    explorer.reset_button.click()                   # back to the starting example: deck A as the deck cuts it
    assert explorer.model.key == "A-cr-what-is-ai" and explorer.case.value == "A-cr-what-is-ai"
    assert explorer.model.cuts == [True] and len(explorer.cut_buttons) == 1 and explorer.at_start
    assert explorer.score.value == DecomposeExplorer("A-cr-what-is-ai").score.value


def test_the_menu_is_hidden_for_an_own_text_and_shown_for_a_deck_case():
    own = DecomposeExplorer(model=DecomposeModel(pieces=["a", "b"], verdicts=["yes", "no"]))
    assert own.case.layout.display == "none" and own.model.score == 0.5
    deck = DecomposeExplorer.from_example("E-faith-einstein")
    assert deck.case.layout.display != "none" and deck.case.value == "E-faith-einstein"
    assert [label for label, _ in deck.case.options] == [c.title for c in CASES.values()]


def test_the_text_plain_fallback_is_a_hint():
    bundle = DecomposeExplorer("A-cr-what-is-ai")._repr_mimebundle_()
    assert bundle["text/plain"] == "DecomposeExplorer: run this cell in Jupyter to get the interactive explorer"


def test_the_cut_button_names_statements_or_claims_after_the_metric():
    recall = DecomposeExplorer("A-cr-what-is-ai")
    assert recall.cut_buttons[0].description == "✂ two statements"
    recall.model.merge(0)
    assert recall.cut_buttons[0].description == "+ one statement"
    faith = DecomposeExplorer.from_example("E-faith-einstein")
    assert faith.cut_buttons[0].description == "✂ two claims"
