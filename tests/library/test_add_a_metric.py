"""The recipe in docs/architecture.md ("Add a metric"), followed to the letter with a toy metric.

The toy, "top_relevant", is 1 when the first retrieved node is relevant and 0 otherwise: a ranking
metric whose judge step is context precision's (a relevance verdict per node). One ``register``
call must make it appear in evaluate(), the metric map, the ranking explorer's selector (and
score there), the command line's ``score`` and ``metrics.REGISTRY``; unregistering takes it out.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

import pytest

from ragmetrics_edu import evaluate, judges, metrics
from ragmetrics_edu.course import metric_map
from ragmetrics_edu.results import MetricResult
from ragmetrics_edu.widgets import offered
from ragmetrics_edu.widgets.reorder_model import ReorderModel

DOCS = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def top_relevant(verdicts: Sequence[Any], *, nodes: Sequence[str] | None = None) -> MetricResult:
    """1 when the first node is relevant, else 0 (the toy's arithmetic: a pure function of verdicts)."""
    flags = [1 if v in (1, "yes", True) else 0 for v in verdicts]
    first = flags[0] if flags else 0
    return MetricResult(metric="top_relevant", score=float(first), values={"first": first},
                        formula="first node relevant ? 1 : 0", columns=("rank", "relevant"),
                        rows=[{"rank": i, "relevant": f} for i, f in enumerate(flags, 1)])


def ask_top_relevant(judge: Any, question: str, contexts: list[str], ground_truth: str) -> MetricResult:
    """The toy's judge step: context precision's verdicts, scored by the toy's arithmetic."""
    verdicts = judges.context_precision(judge, question, contexts, ground_truth).inputs["verdicts"]
    return top_relevant(verdicts, nodes=contexts)


SPEC = metrics.MetricSpec(
    "top_relevant", "Top relevant", top_relevant, component="retriever",
    ask=metrics.Ask(ask_top_relevant, ("judge", "question", "contexts", "ground_truth")),
    design="context precision's verdicts, first node only", steps=("context_precision",),
    prompts=("context_precision",), explorer="ranking", choices=(("Top relevant (toy)", None, "Top relevant"),),
    score_input="verdicts",
    map_row=metrics.MapRow(125, "top relevant (a toy)", ("question", "contexts", "reference"),
                           "judge: is the first node relevant?", "none", "-", "context_precision"))


@pytest.fixture
def toy():
    metrics.register(SPEC)
    yield SPEC
    metrics.unregister("top_relevant")


def test_the_docs_give_the_recipe_this_test_follows() -> None:
    text = DOCS.read_text(encoding="utf-8")
    recipe = text[text.index("### Add a metric"):]
    for step in ("metrics.register(", "MetricSpec(", "Ask(", "map_row", "explorer=", "score_input"):
        assert step in recipe, step


def test_a_registered_metric_appears_everywhere_and_leaves_with_unregister(toy) -> None:
    case = {"question": "Who wrote Hamlet?", "answer": "Shakespeare.", "ground_truth": "William Shakespeare",
            "contexts": ["Macbeth is a play.", "Hamlet was written by Shakespeare."]}
    judge = judges.GivenJudge({"context_precision": ["no", "yes"]})
    table = evaluate([case], metrics=["top_relevant", "context_precision"], judge=judge, progress=False)
    assert table.loc[0, "top_relevant"] == 0.0                  # the first node was judged irrelevant
    assert table.loc[0, "top_relevant_design"] == "top_relevant"
    assert table.loc[0, "context_precision"] == pytest.approx(0.5)  # 1/2 at rank 2, one relevant node
    assert "top relevant (a toy)" in [m.name for m in metric_map.METRICS]
    assert "top relevant (a toy)" in metric_map.table()
    assert ("Top relevant (toy)", ("top_relevant", None)) in offered.ranking_choices()
    model = ReorderModel(["a", "b"], ["no", "yes"], metric="top_relevant")
    assert model.result.score == 0.0
    model.move(1, 0)                                               # the relevant node to the top
    assert model.result.score == 1.0
    assert metrics.REGISTRY["top_relevant"] is top_relevant
    from ragmetrics_edu import cli
    assert "top_relevant" in cli.score_metrics()
    metrics.unregister("top_relevant")
    try:
        assert "top_relevant" not in [c[1][0] for c in offered.ranking_choices()]
        assert "top relevant (a toy)" not in metric_map.table()
        with pytest.raises(ValueError, match="metrics"):
            evaluate([case], metrics=["top_relevant"], judge=judge, progress=False)
    finally:
        metrics.register(SPEC)                                     # the fixture unregisters it


def test_a_spec_is_checked_when_registered(toy) -> None:
    with pytest.raises(ValueError, match="not yet registered"):
        metrics.register(SPEC)
    with pytest.raises(ValueError, match="register it first"):
        metrics.register(metrics.MetricSpec("toy_design", "Toy design", top_relevant, of="no_such_metric"))
    with pytest.raises(ValueError, match="Ask.args"):
        metrics.Ask(ask_top_relevant, ("judge", "reference"))       # a column evaluate() does not pass
    with pytest.raises(ValueError, match="identifier"):
        metrics.MetricSpec("top relevant", "Top relevant")


def test_every_builtin_spec_names_steps_and_prompts_that_exist() -> None:
    from ragmetrics_edu.judges.base import STEPS

    prompts = Path(judges.__file__).parent / "prompts"
    for spec in metrics.SPECS.values():
        assert set(spec.steps) <= set(STEPS), spec.name
        for prompt in spec.prompts:
            assert (prompts / f"{prompt}.txt").exists(), (spec.name, prompt)
        if spec.ask is not None:
            assert callable(spec.ask.function()), spec.name   # a "module:function" target resolves
            assert (spec.judged == bool(spec.steps)), spec.name  # a judged metric names its steps
        assert re.fullmatch(r"[a-z_]+", spec.name)
