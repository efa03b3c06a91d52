"""Notebook 07's answer-correctness panel keeps the exact values it was given (issue 9, §5)."""

import pytest

from ragmetrics_edu import InputError, metrics
from ragmetrics_edu.widgets import correctness
from ragmetrics_edu.widgets.correctness import CorrectnessPanel

START = {"tp": 1, "fp": 1, "fn": 1, "similarity": 4 / 7, "beta": 1.0, "w_factual": 0.75, "w_semantic": 0.25}


def test_the_panel_keeps_the_exact_similarity_it_was_given():
    panel = CorrectnessPanel(START)
    expected = metrics.answer_correctness(["t"], ["f"], ["n"], similarity=4 / 7).score
    assert panel.result.score == expected
    similarity = panel.sliders["similarity"]
    # A plain FloatSlider(step=0.01) is snapped by the browser to 0.57 and written back (0.5175 shown,
    # 0.5179 computed); with no step there is nothing to snap, and an echo of the value changes nothing.
    assert similarity.step is None and similarity.value == 4 / 7
    similarity.set_state({"value": 4 / 7})
    assert panel.result.score == expected
    similarity.value = 0.9            # a real move still goes through
    assert panel.result.score == metrics.answer_correctness(["t"], ["f"], ["n"], similarity=0.9).score


def test_the_panel_shows_a_one_line_hint_before_its_cell_runs():
    panel = CorrectnessPanel(START)
    bundle = panel._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("CorrectnessPanel: run this cell") and "\n" not in bundle["text/plain"]


def test_the_sliders_and_the_start_check_read_one_table_of_ranges(monkeypatch):
    panel = CorrectnessPanel(START)
    for name, (low, high, _step, label) in correctness.SLIDERS.items():
        slider = panel.sliders[name]
        assert (slider.min, slider.max, slider.description) == (low, high, label), name
        with pytest.raises(InputError, match=name):       # a start value beyond the slider is refused
            CorrectnessPanel({**START, name: high + 1})
    narrower = {**correctness.SLIDERS, "tp": (0, 3, 1, "TP")}
    monkeypatch.setattr(correctness, "SLIDERS", narrower)
    assert CorrectnessPanel(START).sliders["tp"].max == 3    # the panel is built from the table
    with pytest.raises(InputError, match="tp"):
        CorrectnessPanel({**START, "tp": 4})
