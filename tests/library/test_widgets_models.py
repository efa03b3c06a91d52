"""The explorers: their models against ragmetrics_edu.metrics, and their views driven without a browser.

Every expected score is computed by calling the metric on the reordered or re-judged
inputs built here by hand, never copied from an explorer's output.
"""

import functools
import itertools
import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics_edu import InputError, examples, metrics
from ragmetrics_edu.results import fmt
from ragmetrics_edu.widgets.models import (
    EntityModel,
    PermutationModel,
    ReorderModel,
    StatementModel,
    chip_label,
    parse_lines,
)

NODES = ["Machine Learning is the study of algorithms which learn with more data.",
         "AI is known as Artificial Intelligence.",
         "Artificial intelligence refers to machines mimicking human intelligence.",
         "NLP is a branch of AI.",
         "Machine learning is a subset of AI."]
VERDICTS = [0, 1, 1, 0, 0]

RANKING = [("context_precision", "deepeval"), ("context_precision", "ragas"),
           ("context_precision", "average_precision"), ("precision_at_k", None), ("ndcg_at_k", None),
           ("reciprocal_rank", None)]


def moved(items, i, j):
    """The list with the item at position i taken out and inserted at j."""
    items = list(items)
    items.insert(j, items.pop(i))
    return items


def ranking_score(metric, variant, flags, *, k=None, total_relevant=None, nodes=None):
    """The score ragmetrics_edu.metrics gives a ranked verdict list."""
    if metric == "context_precision":
        return metrics.context_precision(flags, variant, nodes=nodes, total_relevant=total_relevant).score
    if metric == "precision_at_k":
        return metrics.precision_at_k(flags, k=k).score
    if metric == "ndcg_at_k":
        return metrics.ndcg_at_k(flags, k=k).score
    return metrics.reciprocal_rank(flags).score


# -- ReorderModel ------------------------------------------------------------------------

@pytest.mark.parametrize("metric, variant", RANKING)
@pytest.mark.parametrize("i, j", [(0, 4), (4, 0), (2, 1), (1, 3)])
def test_move_scores_the_reordered_list(metric, variant, i, j):
    model = ReorderModel(NODES, VERDICTS, metric, variant)
    model.move(i, j)
    expected_flags = moved(VERDICTS, i, j)
    assert model.verdicts == expected_flags
    assert model.nodes == moved(NODES, i, j)
    assert model.order == moved(range(5), i, j)
    assert model.result.score == ranking_score(metric, variant, expected_flags)


def test_move_keeps_the_node_texts_in_the_step_table():
    model = ReorderModel(NODES, VERDICTS)
    model.move(2, 0)
    expected = metrics.context_precision(moved(VERDICTS, 2, 0), "deepeval", nodes=moved(NODES, 2, 0))
    assert model.result.rows == expected.rows
    assert model.result.formula == expected.formula


@pytest.mark.parametrize("metric, variant", RANKING)
def test_toggle_scores_the_flipped_verdicts(metric, variant):
    model = ReorderModel(NODES, VERDICTS, metric, variant)
    model.move(1, 4)
    model.toggle(0)
    flags = moved(VERDICTS, 1, 4)
    flags[0] = 1 - flags[0]
    assert model.verdicts == flags
    assert model.result.score == ranking_score(metric, variant, flags)


def test_move_up_on_the_first_row_and_down_on_the_last_are_no_ops():
    model = ReorderModel(NODES, VERDICTS)
    seen = []
    model.observe(seen.append)
    model.move_up(0)
    model.move_down(4)
    model.move(3, 3)
    assert model.order == [0, 1, 2, 3, 4]
    assert seen == []
    model.move_up(1)
    assert model.order == [1, 0, 2, 3, 4]
    assert [c.name for c in seen] == ["order"]


def test_cutoff_k_and_metric_switch():
    model = ReorderModel(NODES, VERDICTS, "precision_at_k", k=2)
    assert model.result.score == metrics.precision_at_k(VERDICTS, k=2).score
    model.set_metric("ndcg")
    assert (model.metric, model.variant) == ("ndcg_at_k", None)
    assert model.result.score == metrics.ndcg_at_k(VERDICTS, k=2).score
    model.set_k(None)
    assert model.k == 5
    model.set_metric("mrr")
    assert model.result.score == metrics.reciprocal_rank(VERDICTS).score


def test_average_precision_keeps_unretrieved_relevant_documents_when_toggling():
    model = ReorderModel(NODES, VERDICTS, "context_precision", "average_precision", total_relevant=4)
    assert model.total_relevant == 4  # 2 retrieved + 2 never retrieved
    model.toggle(0)
    flags = [1, 1, 1, 0, 0]
    assert model.total_relevant == 5
    assert model.result.score == metrics.context_precision(flags, "average_precision", total_relevant=5).score
    model.set_total_relevant(None)
    assert model.result.score == metrics.context_precision(flags, "average_precision").score


@pytest.mark.parametrize("call, field", [
    (lambda: ReorderModel(NODES, None), "verdicts"),
    (lambda: ReorderModel(NODES, [0, 1]), "nodes"),
    (lambda: ReorderModel(None, [0, "maybe"]), "verdicts[1]"),
    (lambda: ReorderModel(None, []), "verdicts"),
    (lambda: ReorderModel(None, [0, 1], metric="bleu"), "metric"),
    (lambda: ReorderModel(None, [0, 1], metric="ndcg_at_k", variant="ragas"), "variant"),
    (lambda: ReorderModel(None, [0, 1], metric="precision_at_k", k=3), "k"),
    (lambda: ReorderModel(None, [1, 1], variant="average_precision", total_relevant=1), "total_relevant"),
    (lambda: ReorderModel(None, [0, 1]).move(0, 2), "j"),
    (lambda: ReorderModel(None, [0, 1]).toggle(-1), "i"),
    (lambda: ReorderModel(None, [0, 1]).set_order([0, 0]), "order"),
    (lambda: ReorderModel(None, [0, 1]).set_order([1]), "order"),
    (lambda: ReorderModel.from_example("B-cr-deforestation"), "example_id"),
])
def test_bad_input_raises_input_error_naming_the_field(call, field):
    with pytest.raises(InputError) as info:
        call()
    assert info.value.field == field


def test_chips_are_short_and_unique():
    model = ReorderModel(NODES, VERDICTS)
    assert model.labels[0] == "N1 Machine Learn…"
    assert len(set(model.labels)) == 5
    assert all(len(label) <= 18 for label in model.labels)
    assert chip_label(11, None) == "N12"
    assert ReorderModel(None, [1, 0]).labels == ["N1", "N2"]


@pytest.mark.parametrize("example_id", [e.id for e in examples.all_examples() if e.metric == "context_precision"])
def test_reorder_model_from_example_matches_the_catalogue(example_id):
    example = examples.load(example_id)
    model = ReorderModel.from_example(example_id)
    assert model.result.score == example.compute().score
    assert model.verdicts == [1 if v in (1, "yes") else 0 for v in example.cases[0].kwargs["verdicts"]]


@settings(max_examples=60, deadline=None)
@given(flags=st.lists(st.integers(0, 1), min_size=1, max_size=10),
       steps=st.lists(st.tuples(st.sampled_from(["move", "toggle"]), st.integers(0, 99), st.integers(0, 99)),
                      max_size=12),
       choice=st.sampled_from(RANKING))
def test_any_sequence_of_moves_and_toggles_matches_the_metric(flags, steps, choice):
    metric, variant = choice
    model = ReorderModel(None, flags, metric, variant)
    mirror = list(flags)
    for action, a, b in steps:
        i, j = a % len(flags), b % len(flags)
        if action == "move":
            model.move(i, j)
            mirror = moved(mirror, i, j)
        else:
            model.toggle(i)
            mirror[i] = 1 - mirror[i]
    assert model.verdicts == mirror
    assert model.result.score == ranking_score(metric, variant, mirror)


# -- PermutationModel --------------------------------------------------------------------

def brute_force(flags, metric, variant, k=None):
    """Score every ordering with itertools.permutations (the library scores each distinct sequence of
    flags once: 56 of the 40,320 orderings of eight flags, the rest repeat one of them)."""
    @functools.lru_cache(maxsize=None)
    def score(order: tuple[int, ...]) -> float:
        return ranking_score(metric, variant, list(order), k=k)

    return [score(tuple(flags[i] for i in perm)) for perm in itertools.permutations(range(len(flags)))]


@pytest.mark.parametrize("metric, variant", RANKING)
@pytest.mark.parametrize("flags", [[0, 1, 1, 0, 0], [1, 0, 0, 1, 0, 1], [0, 0, 0, 1], [1, 1, 1], [0, 0, 0],
                                   [1, 0, 1, 0, 0, 1, 0, 0]])
def test_permutation_summary_agrees_with_brute_force(metric, variant, flags):
    model = PermutationModel(None, flags, metric, variant)
    summary = model.summary
    scores = brute_force(flags, metric, variant)
    current = ranking_score(metric, variant, flags)
    assert summary.exact
    assert summary.orderings == len(scores) == math.factorial(len(flags))
    assert summary.total == len(scores)
    assert summary.best == pytest.approx(max(scores), abs=1e-12)
    assert summary.worst == pytest.approx(min(scores), abs=1e-12)
    assert summary.expected == pytest.approx(math.fsum(scores) / len(scores), abs=1e-12)
    assert summary.current == current
    assert summary.share_better == pytest.approx(sum(s > current + 1e-12 for s in scores) / len(scores))
    assert summary.share_worse == pytest.approx(sum(s < current - 1e-12 for s in scores) / len(scores))
    assert sum(summary.histogram()) == pytest.approx(1.0)


def test_permutation_summary_with_cutoff_agrees_with_brute_force():
    flags = [0, 1, 0, 1, 1, 0, 0]
    model = PermutationModel(None, flags, "precision_at_k", k=3)
    scores = brute_force(flags, "precision_at_k", None, k=3)
    assert model.summary.best == max(scores)
    assert model.summary.worst == min(scores)
    assert model.summary.expected == pytest.approx(sum(scores) / len(scores))


def test_permutation_summary_follows_moves_and_toggles():
    model = PermutationModel(NODES, VERDICTS)
    model.move(1, 0)  # relevant node to the top
    assert model.summary.current == metrics.context_precision(moved(VERDICTS, 1, 0)).score
    model.toggle(4)
    flags = moved(VERDICTS, 1, 0)
    flags[4] = 1
    scores = brute_force(flags, "context_precision", "deepeval")
    assert model.summary.current == metrics.context_precision(flags).score
    assert model.summary.expected == pytest.approx(sum(scores) / len(scores), abs=1e-12)
    model.sort_best()
    assert model.result.score == max(scores)
    model.sort_worst()
    assert model.result.score == min(scores)


def test_sampled_permutations_are_seeded_and_close_to_the_exact_distribution():
    flags = [1, 0, 1, 0, 0, 1, 0, 0, 1, 0]
    a = PermutationModel(None, flags, samples=3000, seed=7).summary
    b = PermutationModel(None, flags, samples=3000, seed=7).summary
    exact = PermutationModel(None, flags, exact_limit=10).summary
    assert not a.exact and exact.exact
    assert a == b
    assert a.total == 3000 and a.orderings == math.factorial(10)
    assert (a.best, a.worst) == (exact.best, exact.worst)
    assert a.best == metrics.context_precision([1, 1, 1, 1, 0, 0, 0, 0, 0, 0]).score
    assert a.worst == metrics.context_precision([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]).score
    assert a.expected == pytest.approx(exact.expected, abs=0.02)
    assert exact.total == math.factorial(10)


# -- StatementModel ----------------------------------------------------------------------

def test_context_recall_toggle_drops_and_restores_the_attribution():
    statements = ["Logging causes deforestation", "Agriculture does", "Urbanization does", "Wildfires do"]
    model = StatementModel("context_recall", statements=statements, verdicts=[1, 1, 1, 0], nodes=[1, 2, 2, None],
                           variant="ragas")
    model.toggle(1)
    assert model.verdicts == ["yes", "no", "yes", "no"]
    assert model.attribution == [1, None, 2, None]
    expected = metrics.context_recall(statements, ["yes", "no", "yes", "no"], nodes=[1, None, 2, None], variant="ragas")
    assert model.result.score == expected.score
    model.toggle(1)
    assert model.attribution == [1, 2, 2, None]
    model.set_verdict(3, "yes")
    model.attribute(3, 1)
    assert model.result.score == metrics.context_recall(statements, [1, 1, 1, 1], nodes=[1, 2, 2, 1],
                                                        variant="ragas").score
    with pytest.raises(InputError):
        model.set_verdict(0, "idk")  # context recall has no idk


def test_faithfulness_toggle_cycles_through_idk():
    claims = ["Einstein was born in Germany.", "He was born on 20 March 1879.", "He liked violins."]
    model = StatementModel("faithfulness", claims=claims, verdicts=["yes", "no", "yes"])
    model.toggle(2)
    assert model.verdicts[2] == "no"
    model.toggle(2)
    assert model.verdicts[2] == "idk"
    assert model.result.score == metrics.faithfulness(claims, ["yes", "no", "idk"]).score
    model.set_penalize_ambiguous(True)
    assert model.result.score == metrics.faithfulness(claims, ["yes", "no", "idk"], penalize_ambiguous=True).score
    model.set_variant("ragas")
    assert model.result.score == metrics.faithfulness(claims, ["yes", "no", "idk"], "ragas").score
    model.toggle(2)
    assert model.verdicts[2] == "yes"


def test_answer_relevancy_toggle():
    statements = ["The Sun is the centre of our universe", "it rises in the East."]
    model = StatementModel("answer_relevancy", statements=statements, verdicts=["no", "yes"])
    model.toggle(0)
    assert model.result.score == metrics.answer_relevancy(statements, ["yes", "yes"]).score


def test_contextual_relevancy_keeps_each_statement_with_its_node():
    node_statements = [["NVIDIA makes chips."], ["AI is intelligence.", "AI powers assistants.", "AI is a word."]]
    model = StatementModel("contextual_relevancy", node_statements=node_statements,
                           node_verdicts=[["no"], ["yes", "yes", "no"]], nodes=["N one", "N two"])
    assert model.groups == [1, 2, 2, 2]
    model.toggle(3)
    model.move(3, 0)
    assert model.groups == [2, 1, 2, 2]
    expected = metrics.contextual_relevancy(
        [["NVIDIA makes chips."], ["AI is a word.", "AI is intelligence.", "AI powers assistants."]],
        [["no"], ["yes", "yes", "yes"]], nodes=["N one", "N two"])
    assert model.result.score == expected.score
    assert model.result.rows == expected.rows


def test_statement_move_reorders_without_changing_the_score():
    statements = ["a", "b", "c"]
    model = StatementModel("context_recall", statements=statements, verdicts=["yes", "no", "no"])
    before = model.result.score
    model.move(0, 2)
    assert model.statements == ["b", "c", "a"] and model.order == [1, 2, 0]
    assert model.result.score == before == metrics.context_recall(["b", "c", "a"], ["no", "no", "yes"]).score


@pytest.mark.parametrize("call, field", [
    (lambda: StatementModel("bleu", statements=["a"], verdicts=["yes"]), "metric"),
    (lambda: StatementModel("context_recall", statements=["a"], verdicts=["yes", "no"]), "verdicts"),
    (lambda: StatementModel("context_recall", statements=["a"], verdicts=["yes"], claims=["a"]), "claims"),
    (lambda: StatementModel("context_recall", statements=["a", "b"], verdicts=["yes", "no"], nodes=[1, 1]), "nodes[1]"),
    (lambda: StatementModel("answer_relevancy", statements=["a"], verdicts=["maybe"]), "verdicts[0]"),
    (lambda: StatementModel("context_recall", statements=["a"], verdicts=["no"]).attribute(0, 1), "attribute"),
])
def test_statement_model_bad_input(call, field):
    with pytest.raises(InputError) as info:
        call()
    assert info.value.field == field


@pytest.mark.parametrize("example_id", [e.id for e in examples.all_examples()
                                        if e.metric in {s.name for s in metrics.SPECS.where(explorer="statements")}])
def test_statement_model_from_example_matches_the_catalogue(example_id):
    assert StatementModel.from_example(example_id).result.score == examples.load(example_id).compute().score


# -- EntityModel -------------------------------------------------------------------------

def test_entity_model_edits_and_normalisation():
    model = EntityModel.from_example("B-cer-brazil")
    assert model.result.score == examples.load("B-cer-brazil").compute().score
    model.set_context("Brasilia\n  Brazil \n\n1960\n")
    assert model.context == ["Brasilia", "Brazil", "1960"]
    reference = ["Brazil", "Brasília", "April 21, 1960"]
    assert model.result.score == metrics.context_entity_recall(reference, ["Brasilia", "Brazil", "1960"]).score
    assert model.intersection == ["Brazil"]
    model.toggle_normalize()
    assert model.result.score == metrics.context_entity_recall(reference, ["Brasilia", "Brazil", "1960"],
                                                               normalize=True).score
    assert model.intersection == ["Brazil", "Brasília"]
    assert model.only_reference == ["April 21, 1960"] and model.only_context == ["1960"]
    with pytest.raises(InputError):
        model.set_normalize("yes")
    assert parse_lines(["x"]) == ["x"]


def test_entity_model_toggle_adds_or_removes_a_reference_entity():
    reference = ["Taj Mahal", "Agra", "1631"]
    model = EntityModel(reference, ["taj mahal", "Agra", "India"], normalize=True)
    assert model.verdicts == [1, 1, 0]
    model.toggle(2)
    assert model.context == ["taj mahal", "Agra", "India", "1631"]
    assert model.result.score == metrics.context_entity_recall(reference, model.context, normalize=True).score
    model.toggle(0)  # removes the case-folded match too
    assert model.context == ["Agra", "India", "1631"] and model.verdicts == [0, 1, 1]
    assert model.result.score == metrics.context_entity_recall(reference, ["Agra", "India", "1631"],
                                                               normalize=True).score
    with pytest.raises(InputError):
        model.toggle(3)


def test_models_import_neither_ipywidgets_nor_matplotlib():
    code = ("import sys; import ragmetrics_edu.widgets.models, ragmetrics_edu.widgets; "
            "print([m for m in ('ipywidgets', 'matplotlib') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"



def test_each_explorer_model_lives_beside_its_view_in_a_short_module():
    # The reorder explorer's model is in reorder_model.py next to reorder.py, and so on; no
    # module of the package is longer than about 500 lines, and no model module imports a widget.
    from pathlib import Path

    import ragmetrics_edu.widgets as package

    folder = Path(package.__file__).parent
    for view, model in [("reorder", ReorderModel), ("permutations", PermutationModel),
                        ("statements", StatementModel), ("entities", EntityModel)]:
        assert model.__module__ == f"ragmetrics_edu.widgets.{view}_model"
        assert (folder / f"{view}.py").exists() and (folder / f"{view}_model.py").exists()
        source = (folder / f"{view}_model.py").read_text()
        assert "ipywidgets" not in source and "matplotlib" not in source
    lengths = {path.name: len(path.read_text().splitlines()) for path in folder.glob("*.py")}
    assert max(lengths.values()) <= 500, lengths


# -- views ---------------------------------------------------------------------------------

widgets = pytest.importorskip("ipywidgets")


def score_text(explorer):
    """The score as the view shows it."""
    value = explorer.score.value
    return value.split("class='rme-score-value'>")[1].split("<")[0]


def test_reorder_view_up_click_moves_the_node_and_refreshes_everything():
    from ragmetrics_edu.widgets import ReorderExplorer

    view = ReorderExplorer(nodes=NODES, verdicts=VERDICTS, metric="context_precision", variant="deepeval")
    png, table, formula = view.image.value, view.table.value, view.formula.value
    view.up_buttons[1].click()  # N2 (relevant) to the top
    flags = moved(VERDICTS, 1, 0)
    expected = metrics.context_precision(flags, nodes=moved(NODES, 1, 0))
    assert view.order == [1, 0, 2, 3, 4]
    assert view.result.score == expected.score
    assert score_text(view) == fmt(expected.score)
    assert view.formula.value == f"$${expected.formula}$$" != formula
    assert view.table.value != table
    assert view.image.value != png and bytes(view.image.value[:8]) == b"\x89PNG\r\n\x1a\n"
    assert view.tags.value == view.model.labels
    assert view.toggles[0].value is True and view.toggles[1].value is False
    view.down_buttons[0].click()
    assert view.order == [0, 1, 2, 3, 4]


def test_reorder_view_up_on_first_row_is_a_no_op():
    from ragmetrics_edu.widgets import ReorderExplorer

    view = ReorderExplorer(nodes=NODES, verdicts=VERDICTS)
    png, score = view.image.value, view.score.value
    view.up_buttons[0].click()
    view.down_buttons[4].click()
    assert view.order == [0, 1, 2, 3, 4]
    assert view.image.value == png and view.score.value == score
    assert view.up_buttons[0].disabled and view.down_buttons[4].disabled


def test_reorder_view_toggle_flips_the_verdict():
    from ragmetrics_edu.widgets import ReorderExplorer

    view = ReorderExplorer(nodes=NODES, verdicts=VERDICTS)
    view.toggles[0].value = True
    assert view.verdicts == [1, 1, 1, 0, 0]
    assert view.result.score == metrics.context_precision([1, 1, 1, 0, 0]).score == 1.0
    assert view.toggles[0].description == "relevant"
    view.toggle(0)  # from code: the widget follows
    assert view.toggles[0].value is False


def test_tags_input_reorders_and_reverts_non_permutations():
    from traitlets import TraitError

    from ragmetrics_edu.widgets import ReorderExplorer

    view = ReorderExplorer(nodes=NODES, verdicts=VERDICTS)
    chips = list(view.tags.value)
    dragged = moved(chips, 2, 0)  # what a drag of chip 3 to the front sends
    view.tags.value = dragged
    assert view.order == [2, 0, 1, 3, 4]
    assert view.result.score == metrics.context_precision(moved(VERDICTS, 2, 0)).score
    assert NODES[2] in view.node_list.texts[0].value
    for bad in (dragged[:-1], dragged[:-1] + [dragged[0]], []):
        view.tags.value = bad
        assert list(view.tags.value) == dragged
        assert view.order == [2, 0, 1, 3, 4]
    with pytest.raises(TraitError):
        view.tags.value = dragged[:-1] + ["typed by hand"]
    assert list(view.tags.value) == dragged


def test_reorder_view_metric_selector_and_k():
    from ragmetrics_edu.widgets import ReorderExplorer

    view = ReorderExplorer(nodes=NODES, verdicts=VERDICTS)
    view.controls.metric.value = "Precision@k"
    assert view.controls.k.layout.display == ""
    view.controls.k.value = 2
    assert view.result.score == metrics.precision_at_k(VERDICTS, k=2).score
    assert score_text(view) == fmt(metrics.precision_at_k(VERDICTS, k=2).score)
    view.controls.metric.value = "MRR (reciprocal rank of this query)"
    assert view.result.score == metrics.reciprocal_rank(VERDICTS).score
    view.controls.metric.value = "Context precision (average precision)"
    view.controls.total.value = 6
    assert view.result.score == metrics.context_precision(VERDICTS, "average_precision", total_relevant=6).score


def test_widgets_carry_css_classes_for_browser_tests():
    from ragmetrics_edu.widgets import ReorderExplorer

    view = ReorderExplorer.from_example("A-cp-what-is-ai")
    assert "rme-score" in view.score._dom_classes
    assert "rme-tags" in view.tags._dom_classes
    assert all("rme-up" in b._dom_classes for b in view.up_buttons)
    assert all("rme-toggle" in t._dom_classes for t in view.toggles)
    assert "rme-up-0" in view.up_buttons[0]._dom_classes


def test_permutation_view_buttons_and_summary():
    from ragmetrics_edu.widgets import PermutationExplorer

    view = PermutationExplorer(nodes=NODES, verdicts=VERDICTS)
    scores = brute_force(VERDICTS, "context_precision", "deepeval")
    assert fmt(sum(scores) / len(scores)) in view.summary.value
    view.best_button.click()
    assert view.result.score == max(scores)
    assert "beats" in view.summary.value and "is beaten by 0%" in view.summary.value
    view.worst_button.click()
    assert view.result.score == min(scores)
    worst = view.verdicts
    view.up_buttons[4].click()
    assert view.verdicts == moved(worst, 4, 3)
    assert view.result.score == metrics.context_precision(moved(worst, 4, 3)).score
    view.toggles[0].value = not view.toggles[0].value
    flags = view.verdicts
    new_scores = brute_force(flags, "context_precision", "deepeval")
    assert view.model.summary.expected == pytest.approx(sum(new_scores) / len(new_scores), abs=1e-12)


def test_statement_view_toggles_and_attribution():
    from ragmetrics_edu.widgets import StatementExplorer

    view = StatementExplorer.from_example("A-cr-what-is-ai")
    statements = examples.load("A-cr-what-is-ai").cases[0].kwargs["statements"]
    assert all("rme-toggle" in t._dom_classes for t in view.toggles)
    assert view.attributions[1].disabled and view.attributions[1].label == "not attributed"  # shown, not blank
    view.toggles[1].value = "yes"
    assert view.result.score == metrics.context_recall(statements, ["yes", "yes"], nodes=[2, None]).score
    assert not view.attributions[1].disabled
    view.attributions[1].value = 1
    assert view.model.attribution == [2, 1]
    assert view.result.rows[1]["node"] == 1
    view.toggles[0].value = "no"
    assert view.attributions[0].label == "not attributed" and view.attributions[0].disabled
    assert "counted <b>1</b> of <b>2</b>" in view.counts.value
    view.attributions[0].value = 2  # not allowed on a 'no' statement: shown, not raised
    assert "judged not attributable" in view.message.value
    assert view.model.attribution == [None, 1]


def test_statement_view_faithfulness_idk_and_variant():
    from ragmetrics_edu.widgets import StatementExplorer

    claims = ["a", "b"]
    view = StatementExplorer("faithfulness", claims=claims, verdicts=["yes", "no"])
    assert view.toggles[0].options == ("yes", "no", "idk")
    view.toggles[1].value = "idk"
    assert view.result.score == metrics.faithfulness(claims, ["yes", "idk"]).score == 1.0
    view.variant.value = "ragas"
    assert view.result.score == metrics.faithfulness(claims, ["yes", "idk"], "ragas").score == 0.5
    assert score_text(view) == "0.5"


def test_entity_view_textareas_and_switch():
    from ragmetrics_edu.widgets import EntityExplorer

    view = EntityExplorer(["Brazil", "Brasília", "April 21, 1960"], ["Brasilia", "Brazil"])
    reference = ["Brazil", "Brasília", "April 21, 1960"]
    assert view.result.score == metrics.context_entity_recall(reference, ["Brasilia", "Brazil"]).score
    view.normalize.value = True
    assert view.result.score == metrics.context_entity_recall(reference, ["Brasilia", "Brazil"], normalize=True).score
    view.context.value = "Brasilia\nBrazil\nApril 21, 1960\n"
    assert view.model.context == ["Brasilia", "Brazil", "April 21, 1960"]
    assert view.result.score == metrics.context_entity_recall(reference, view.model.context, normalize=True).score
    assert "April 21, 1960" in view.intersection.value
    assert view.context.value == "Brasilia\nBrazil\nApril 21, 1960\n"  # the user's text is left alone
    assert "rme-score" in view.score._dom_classes


def test_views_from_examples_show_the_catalogue_score():
    from ragmetrics_edu.widgets import EntityExplorer, PermutationExplorer, ReorderExplorer, StatementExplorer

    for cls, example_id in [(ReorderExplorer, "B-cp-desert"), (PermutationExplorer, "D-cp-nobel"),
                            (StatementExplorer, "B-crel-green-tea"), (StatementExplorer, "E-faith-einstein"),
                            (EntityExplorer, "E-cer-taj-mahal")]:
        view = cls.from_example(example_id)
        assert view.result.score == examples.load(example_id).compute().score
        assert fmt(view.result.score) in view.score.value


def test_explorers_text_plain_is_a_one_line_hint_not_a_repr():
    # A notebook's stored output (before its cell runs) shows the text/plain fallback.
    from ragmetrics_edu.widgets import EntityExplorer, PermutationExplorer, ReorderExplorer, StatementExplorer

    for cls, example_id in [(ReorderExplorer, "B-cp-desert"), (PermutationExplorer, "D-cp-nobel"),
                            (StatementExplorer, "B-crel-green-tea"), (EntityExplorer, "E-cer-taj-mahal")]:
        view = cls.from_example(example_id)
        text = view._repr_mimebundle_()["text/plain"]
        assert text == f"{cls.__name__}: run this cell in Jupyter to get the interactive explorer"
        assert "application/vnd.jupyter.widget-view+json" in view._repr_mimebundle_()
        assert repr(view) == text


def test_exact_slider_keeps_the_value_it_was_given():
    # The browser snaps a value to the slider's step and writes it back (0.5714... -> 0.57);
    # that write-back must not replace the exact value, while a real move by the user does.
    from ragmetrics_edu.widgets import ExactFloatSlider

    exact = 4 / 7
    for step in (0.01, None):
        slider = ExactFloatSlider(value=exact, min=-1.0, max=1.0, step=step, description="similarity")
        seen = []
        slider.observe(lambda change: seen.append(change["new"]), names="value")
        echo = round(exact, 2) if step else exact + 1e-16  # what the front end can show
        slider.set_state({"value": echo})
        assert slider.value == exact and seen == []
        slider.set_state({"value": 0.9})  # the learner drags the handle
        assert slider.value == 0.9 and seen == [0.9]
        slider.value = exact  # set from code
        assert slider.value == exact
    default = ExactFloatSlider(value=exact)
    assert default.step is None and default.readout_format == ".4f"  # no snapping; four decimals shown


def test_plain_float_slider_loses_the_exact_value():
    # Why ExactFloatSlider exists: ipywidgets' own FloatSlider takes the snapped write-back.
    slider = widgets.FloatSlider(value=4 / 7, min=-1.0, max=1.0, step=0.01)
    slider.set_state({"value": 0.57})
    assert slider.value == 0.57


def test_step_tables_never_break_inside_a_number():
    # Notebook 08 showed "0.5" above "833" in a narrow column: numeric cells must not wrap.
    import re

    from ragmetrics_edu.results import steps_html

    result = metrics.ndcg_at_k([0, 1, 1, 0, 1], k=5)
    for table in (result._repr_html_(), steps_html(result)):
        cells = re.findall(r"<td([^>]*)>([^<]*)</td>", table)
        numeric = [(attrs, text) for attrs, text in cells if re.fullmatch(r"-?[\d.]+", text)]
        assert numeric and all("white-space:nowrap" in attrs.replace(" ", "") for attrs, _ in numeric), numeric[:3]


def test_explorers_of_one_layout_share_a_chart_and_each_keeps_its_own_picture():
    """Explorers with the same chart layout draw on one shared chart in turn (widgets.plots.shared_chart):
    each picture is the one its own chart would draw, whatever the other explorers drew in between."""
    from ragmetrics_edu.widgets import PermutationExplorer, ReorderExplorer, plots

    first = ReorderExplorer(nodes=NODES, verdicts=VERDICTS, metric="context_precision")
    alone = bytes(first.image.value)
    other = ReorderExplorer(nodes=NODES, verdicts=[1, 1, 0, 0, 1], metric="ndcg_at_k")  # other bars, title, y label
    assert other._chart is first._chart and bytes(other.image.value) != alone
    first.refresh()
    assert bytes(first.image.value) == alone
    plots._SHARED.clear()                                 # the other explorer's picture on a chart of its own
    assert bytes(ReorderExplorer(nodes=NODES, verdicts=[1, 1, 0, 0, 1], metric="ndcg_at_k").image.value) == \
        bytes(other.image.value)

    wide = PermutationExplorer(nodes=NODES, verdicts=VERDICTS)
    narrow = PermutationExplorer(nodes=NODES, verdicts=[1, 0, 0, 0, 0])  # another y range
    picture = bytes(wide.image.value)
    assert narrow._chart is wide._chart and bytes(narrow.image.value) != picture
    wide.refresh()
    assert bytes(wide.image.value) == picture
    assert len(plots._SHARED) <= plots.SHARED_CHARTS


def test_a_chart_keeps_the_picture_of_each_state_it_drew(monkeypatch):
    """A verdict flipped and flipped back shows the picture drawn before, without drawing it again."""
    from ragmetrics_edu.widgets import ReorderExplorer

    view = ReorderExplorer(nodes=NODES, verdicts=VERDICTS)
    before = bytes(view.image.value)
    view.toggles[0].value = True
    flipped = bytes(view.image.value)
    assert flipped != before

    def no_drawing(*_args):
        raise AssertionError("a kept state was drawn again")

    monkeypatch.setattr(view._chart, "_render", no_drawing)  # undone after the test: the chart is shared
    view.toggles[0].value = False
    assert bytes(view.image.value) == before
    view.toggles[0].value = True
    assert bytes(view.image.value) == flipped
