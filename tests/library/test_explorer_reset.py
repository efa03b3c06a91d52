"""Every explorer goes back to its starting example with Reset, and its chart shows the metric chosen.

Plain Python (ipywidgets, no browser): each explorer is changed in every way a learner can change it
(order, verdicts, metric, k, variant, switches, lists, the case menu), then its Reset button is
clicked; the explorer must then be at its start (``at_start``) and show what a fresh explorer of the
same example shows (score, formula, table, chart).
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from ragmetrics_edu.widgets import (
    DecomposeExplorer,
    EntityExplorer,
    PermutationExplorer,
    ReorderExplorer,
    ReorderModel,
    StatementExplorer,
)
from ragmetrics_edu.widgets.plots import IRRELEVANT, IRRELEVANT_OUTSIDE, RELEVANT, RELEVANT_OUTSIDE
from ragmetrics_edu.widgets.reorder import ranking_series


def _shown(explorer: Any) -> tuple[Any, ...]:
    """What the explorer shows: score, formula, table and chart (where it has them)."""
    parts = [explorer.score.value]
    for name in ("formula", "table", "summary"):
        if hasattr(explorer, name):
            parts.append(getattr(explorer, name).value)
    if hasattr(explorer, "image"):
        parts.append(bytes(explorer.image.value))
    return tuple(parts)


def _change_ranking(explorer: Any) -> None:
    explorer.down_buttons[0].click()
    explorer.toggles[0].value = not explorer.toggles[0].value
    explorer.controls.metric.value = "Precision@k"
    explorer.controls.k.value = 2


def _change_statements(explorer: Any) -> None:
    explorer.toggles[0].value = [v for v in explorer.model.allowed if v != explorer.toggles[0].value][0]
    others = [v for v in explorer.model.variants if v != explorer.variant.value]
    if others:
        explorer.variant.value = others[0]
    if explorer.penalize.layout.display != "none":
        explorer.penalize.value = not explorer.penalize.value


def _change_entities(explorer: Any) -> None:
    explorer.reference.value += "\nSomewhere else"
    explorer.context.value = explorer.context.value.splitlines()[0]
    explorer.normalize.value = not explorer.normalize.value


def _change_decompose(explorer: Any) -> None:
    explorer.cut_buttons[0].value = not explorer.cut_buttons[0].value
    explorer.lenient.value = not explorer.lenient.value
    explorer.case.value = "B-cr-deforestation"
    explorer.merge_all.click()


CASES: list[tuple[str, Callable[[], Any], Callable[[Any], None]]] = [
    ("reorder", lambda: ReorderExplorer.from_example("A-cp-what-is-ai"), _change_ranking),
    ("permutations", lambda: PermutationExplorer.from_example("A-cp-what-is-ai"), _change_ranking),
    ("context recall", lambda: StatementExplorer.from_example("B-cr-deforestation"), _change_statements),
    ("contextual relevancy", lambda: StatementExplorer.from_example("A-crel-what-is-ai"), _change_statements),
    ("faithfulness", lambda: StatementExplorer.from_example("E-faith-einstein"), _change_statements),
    ("answer relevancy", lambda: StatementExplorer.from_example("C-ar-sun-low"), _change_statements),
    ("entities", lambda: EntityExplorer.from_example("E-cer-taj-mahal"), _change_entities),
    ("decompose", lambda: DecomposeExplorer("A-cr-what-is-ai"), _change_decompose),
]


@pytest.mark.parametrize("build, change", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_reset_goes_back_to_the_starting_example(build, change) -> None:
    explorer, fresh = build(), build()
    assert explorer.at_start
    start = _shown(explorer)
    assert start == _shown(fresh)
    change(explorer)
    assert not explorer.at_start, "the changes did not change the explorer"
    assert _shown(explorer) != start
    explorer.reset_button.click()
    assert explorer.message.value == ""
    assert explorer.at_start
    assert _shown(explorer) == start


def test_every_explorer_has_a_reset_button() -> None:
    for _name, build, _change in CASES:
        explorer = build()
        assert explorer.reset_button.description == "Reset"
        assert "rme-reset" in explorer.reset_button._dom_classes


def test_the_chart_fades_ranks_only_for_a_metric_with_a_cut_off() -> None:
    # Deck A's order; precision@k with k=1 fades ranks 2-5; back to context precision, no rank is faded.
    explorer = ReorderExplorer.from_example("A-cp-what-is-ai")
    faded = {RELEVANT_OUTSIDE, IRRELEVANT_OUTSIDE}
    start = bytes(explorer.image.value)
    explorer.controls.metric.value = "Precision@k"
    explorer.controls.k.value = 1
    colours = ranking_series(explorer.model, explorer.result)["colours"]
    assert colours[0] not in faded and set(colours[1:]) <= faded
    for label in ("Context precision (DeepEval)", "Context precision (Ragas)", "MRR (reciprocal rank of this query)",
                  "Context precision (average precision)"):
        explorer.controls.metric.value = label
        series = ranking_series(explorer.model, explorer.result)
        assert explorer.model.k == 1, "the cut-off stays set for when precision@k comes back"
        assert not set(series["colours"]) & faded, f"{label}: ranks faded past a cut-off it does not have"
        assert series["cutoff"] is None
    explorer.controls.metric.value = "Context precision (DeepEval)"
    assert bytes(explorer.image.value) == start, "context precision's chart differs once k was set for precision@k"


def test_the_chart_colours_follow_the_verdicts_within_the_cut_off() -> None:
    model = ReorderModel(None, [1, 0, 1, 0], "precision_at_k", k=2)
    assert ranking_series(model, model.result)["colours"] == [RELEVANT, IRRELEVANT, RELEVANT_OUTSIDE, IRRELEVANT_OUTSIDE]
    model.set_metric("ndcg_at_k")
    assert ranking_series(model, model.result)["colours"] == [RELEVANT, IRRELEVANT, RELEVANT_OUTSIDE, IRRELEVANT_OUTSIDE]
    model.set_metric("reciprocal_rank")
    assert not set(ranking_series(model, model.result)["colours"]) & {RELEVANT_OUTSIDE, IRRELEVANT_OUTSIDE}


def test_the_k_slider_has_room_for_each_position() -> None:
    explorer = ReorderExplorer.from_example("A-cp-what-is-ai")
    width = float(explorer.controls.k.layout.width.removesuffix("em"))
    assert width >= 6 + 3 * explorer.model.n, explorer.controls.k.layout.width
    assert explorer.controls.k.style.description_width == "1.2em"


def test_the_legend_names_the_cut_off_only_while_the_chart_draws_it() -> None:
    # Context precision has no cut-off: its chart's legend has no "cut-off k" entry; precision@k's has one.
    from ragmetrics_edu.widgets.plots import BarChart

    chart = BarChart([1, 2, 3], legend=[("relevant", RELEVANT)],
                     lines={"score": ("h", "red", "--", "score"), "cutoff": ("v", "blue", ":", "cut-off k")})

    def labels() -> list[str]:
        return [text.get_text() for text in chart.ax.get_legend().get_texts()]

    chart.set_bars([0.2, 0.5, 0.9])
    chart.set_line("score", 0.5)
    without = chart.png()
    assert labels() == ["relevant", "score"]
    chart.set_line("cutoff", 2.5)
    with_cutoff = chart.png()
    assert labels() == ["relevant", "score", "cut-off k"]
    chart.set_line("cutoff", None)
    chart._pngs.clear()                      # drawn again over the kept background of the state without a cut-off
    assert chart.png() == without != with_cutoff
