"""The recipe in docs/architecture.md ("Add a metric"), followed to the letter with a toy metric.

The toy, "top_relevant", is 1 when the first retrieved node is relevant and 0 otherwise: a ranking
metric whose judge step is context precision's (a relevance verdict per node). One ``register``
call must make it appear in evaluate(), the ranking explorer's selector (and score there), the
command line's ``score`` and ``metrics.REGISTRY``, and leave the course's metric map alone (a course
fact: the course adds its row); unregistering takes it out.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any, Sequence

import pytest

from ragmetrics_edu import cli, designs, evaluate, judges, metrics
from ragmetrics_edu.course import metric_map
from ragmetrics_edu.designs.context_precision import STEP as CP_STEP
from ragmetrics_edu.metrics import inputs
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
    verdicts = designs.context_precision(judge, question, contexts, ground_truth).inputs["verdicts"]
    return top_relevant(verdicts, nodes=contexts)


SPEC = metrics.MetricSpec(
    "top_relevant", "Top relevant", top_relevant, component="retriever",
    ask=metrics.Ask(ask_top_relevant, ("judge", "question", "contexts", "ground_truth")),
    design="context precision's verdicts, first node only", steps=(CP_STEP,),
    view=metrics.RankingView((("Top relevant (toy)", None, "Top relevant"),)), reads=inputs.RANKED_VERDICTS)


@pytest.fixture
def toy():
    metrics.register(SPEC)
    yield SPEC
    metrics.unregister("top_relevant")


def test_the_docs_give_the_recipe_this_test_follows() -> None:
    text = DOCS.read_text(encoding="utf-8")
    recipe = text[text.index("### Add a metric"):]
    for step in ("metrics.register(", "MetricSpec(", "Ask(", "view=", "RankingView(", "reads=", "metric_map.py",
                 "metrics/variants.py", "with_options", "GivenJudge.in_turn", 'rule="ragas_factual_correctness"'):
        assert step in recipe, step
    assert recipe.startswith("### Add a metric\n\n| you have | do | where |")  # the decision table opens it
    readme = (DOCS.parents[1] / "README.md").read_text(encoding="utf-8")
    counts = re.compile(r"\b(?:one|two|three|four|five|six|seven|\d+) (?:files|modules)\b")
    stated = [m.group() for m in counts.finditer(text + readme)]
    assert stated == ["four files"] and "one prompt per judge step" in recipe, stated  # the file count, once


def test_a_registered_metric_appears_everywhere_and_leaves_with_unregister(toy) -> None:
    case = {"question": "Who wrote Hamlet?", "answer": "Shakespeare.", "ground_truth": "William Shakespeare",
            "contexts": ["Macbeth is a play.", "Hamlet was written by Shakespeare."]}
    judge = judges.GivenJudge({"context_precision": ["no", "yes"]})
    table = evaluate([case], metrics=["top_relevant", "context_precision"], judge=judge, progress=False)
    assert table.loc[0, "top_relevant"] == 0.0                  # the first node was judged irrelevant
    assert table.loc[0, "top_relevant_design"] == "top_relevant"
    assert table.loc[0, "context_precision"] == pytest.approx(0.5)  # 1/2 at rank 2, one relevant node
    assert "top_relevant" not in metric_map.MAP                    # the map is the course's: no row until it adds one
    assert len(metric_map.entries()) == len(metric_map.MAP)
    assert ("Top relevant (toy)", ("top_relevant", None)) in offered.ranking_choices()
    model = ReorderModel(["a", "b"], ["no", "yes"], metric="top_relevant")
    assert model.result.score == 0.0
    model.move(1, 0)                                               # the relevant node to the top
    assert model.result.score == 1.0
    assert metrics.REGISTRY["top_relevant"] is top_relevant
    assert "top_relevant" in cli.score_metrics()
    metrics.unregister("top_relevant")
    try:
        assert "top_relevant" not in [c[1][0] for c in offered.ranking_choices()]
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


def test_every_builtin_spec_names_steps_that_exist() -> None:
    from ragmetrics_edu.judges.base import STEPS

    for spec in metrics.SPECS.values():
        assert {step.name for step in spec.steps} <= set(STEPS), spec.name
        if spec.ask is not None:
            assert callable(spec.ask.target), spec.name
            assert (spec.judged == bool(spec.steps)), spec.name  # a judged metric names its steps
        assert re.fullmatch(r"[a-z_]+", spec.name)


@pytest.mark.parametrize("build, field", [
    (lambda: metrics.StatementView("claimz", ("counts", "faithful"), hint="?"), "StatementView.shape"),
    (lambda: metrics.StatementView(metrics.Shape.CLAIMS, ("counts",), hint="?"), "StatementView.counted"),
    (lambda: metrics.StatementView(metrics.Shape.CLAIMS, ("a", "b"), hint="?", idk=1), "StatementView.idk"),
    (lambda: metrics.RankingView((("T", None, "T"),), chart=123), "RankingView.chart"),
    (lambda: metrics.RankingView((("T", None, "T"),), chart="discount"), "RankingView.chart"),
    (lambda: metrics.RankingView(()), "RankingView.choices"),
    (lambda: metrics.MetricSpec("x", "X", top_relevant, reads="verdictz"), "MetricSpec.reads"),
    (lambda: metrics.MetricSpec("x", "X", top_relevant, view="ranking"), "MetricSpec.view"),
    (lambda: metrics.MetricSpec("x", "X", top_relevant, view=metrics.RankingView((("T", "ragas", "T"),))),
     "MetricSpec.view"),
])
def test_a_wrong_closed_value_is_refused_when_the_spec_is_built(build, field) -> None:
    with pytest.raises(ValueError, match=field):
        build()


@pytest.mark.parametrize("argv", [
    ["score", "ndcg_at_k", "3", "0", "1", "--variant", "hamming"],      # no variants at all
    ["score", "answer_relevancy", "yes", "no", "--variant", "deepeval"],  # one definition: nothing to choose
    ["score", "context_precision", "yes", "no", "--variant", "hamming"],  # not one of its variants
    ["score", "answer_correctness", "--tp", "1", "--variant", "deepeval"],  # not one of its variants
])
def test_a_variant_the_command_does_not_honour_is_refused(argv, capsys) -> None:
    assert cli.main(argv) == 2
    assert "--variant" in capsys.readouterr().err


def test_variant_names_have_one_home() -> None:
    """metrics/variants.py: every function that takes a ``variant`` has its names there, its spec reads them,
    its check refuses any other, and the command line honours each."""
    import inspect

    from ragmetrics_edu.metrics import checks
    from ragmetrics_edu.metrics.variants import VARIANTS

    for name, spec in metrics.SPECS.items():
        if spec.compute is not None and "variant" in inspect.signature(spec.compute).parameters:
            assert spec.named_variants == VARIANTS[name], name
            default = inspect.signature(spec.compute).parameters["variant"].default
            assert default in VARIANTS[name], name
    assert 'choice("variant", variant, ("' not in inspect.getsource(checks)  # no second copy of the names
    with pytest.raises(ValueError, match="variants.py"):
        metrics.MetricSpec("answer_correctness", "X", top_relevant, variants=("ragas", "other"))


@pytest.mark.parametrize(("argv", "variant", "expected"), [
    (["score", "answer_correctness", "--fp", "1", "--similarity", "0.5"], "ragas_collections",
     lambda: metrics.answer_correctness([], ["FP 1"], [], 0.5, variant="ragas_collections").score),
    (["score", "context_entity_recall", "--reference", "a;a;b", "--context", "a"], "ragas_legacy",
     lambda: metrics.context_entity_recall(["a", "a", "b"], ["a"], variant="ragas_legacy").score),
    (["score", "answer_relevancy_embedding"], None, None),
])
def test_each_variant_the_function_takes_is_honoured_by_score(argv, variant, expected, capsys) -> None:
    if variant is None:  # not offered by score: nothing to honour
        assert "answer_relevancy_embedding" not in cli.score_metrics()
        return
    assert cli.main(argv + ["--variant", variant]) == 0
    out = capsys.readouterr().out
    default = cli.main(argv)
    assert default == 0 and capsys.readouterr().out != out  # the variant changed the result
    from ragmetrics_edu.results import fmt

    assert any(line.split("  (")[0] == f"score: {fmt(expected())}" for line in out.splitlines())


def test_a_variant_is_honoured_for_statements_per_node(capsys) -> None:
    cli.main(["score", "contextual_relevancy", "no", "yes,yes"])
    deepeval = capsys.readouterr().out
    cli.main(["score", "contextual_relevancy", "no", "yes,yes", "--variant", "ragas_sentences"])
    assert capsys.readouterr().out != deepeval  # the variant reaches the arithmetic (it used to be dropped)


def test_one_name_is_one_computation() -> None:
    """"faithfulness" is the claims design in evaluate(), REGISTRY, score and the explorers; word overlap is
    "word_overlap" everywhere, and evaluate()'s default asks for it by that name."""
    spec = metrics.SPECS["faithfulness"]
    assert metrics.REGISTRY["faithfulness"] is spec.compute is metrics.faithfulness
    assert offered.statement_spec("metric", "faithfulness") is spec
    assert "faithfulness.claims" in [step.name for step in spec.steps] and spec.ask is not None and spec.ask.judged
    case = {"question": "When?", "answer": "In 1967. In Los Angeles.", "contexts": ["It was held in 1967."],
            "ground_truth": "1967"}
    judge = judges.GivenJudge({"faithfulness.claims": ["It was in 1967.", "It was in Los Angeles."],
                               "faithfulness.verdicts": ["yes", "idk"]})
    row = evaluate([case], metrics=["faithfulness", "word_overlap"], judge=judge, progress=False).loc[0]
    by_hand = metrics.faithfulness(["It was in 1967.", "It was in Los Angeles."], ["yes", "idk"])
    assert row["faithfulness"] == pytest.approx(by_hand.score)
    assert row["word_overlap"] == pytest.approx(metrics.word_overlap(case["answer"], case["contexts"]).score)
    assert row["word_overlap"] != pytest.approx(row["faithfulness"])
    from ragmetrics_edu.evaluation import default_metrics
    assert "word_overlap" in default_metrics(judged=False) and "word_overlap" in default_metrics(judged=True)
    assert metrics.SPECS["word_overlap"].of == "faithfulness"
    assert metrics.REGISTRY["word_overlap"] is metrics.word_overlap


def test_a_spec_has_at_most_fifteen_fields() -> None:
    import dataclasses
    assert len(dataclasses.fields(metrics.MetricSpec)) <= 16  # 14, `example` (what the API walk calls compute with) and `cannot_see` (what the evaluate report says a number cannot see)


# -- the recipe's expensive path: a design with a new judge step, a new prompt and a new reply shape, in files of
# its own (docs/architecture.md, "Add a metric"): its module, its arithmetic, its prompt; this test is the fourth.
ARITHMETIC = '''"""The toy's arithmetic: 1 when the first ranked node is relevant, else 0 (pure: verdicts in, a result out)."""
from ragmetrics_edu.results import MetricResult


def first_relevant(ranked, *, nodes=None):
    flags = [1 if v in (1, "yes", True) else 0 for v in ranked]
    first = flags[0] if flags else 0
    return MetricResult(metric="first_relevant", score=float(first), values={"first": first},
                        formula="first node relevant ? 1 : 0", columns=("rank", "relevant"),
                        rows=[{"rank": i, "relevant": f} for i, f in enumerate(flags, 1)])
'''
DESIGN = '''"""The toy design: its step's contract, the function that asks a judge, its spec (registered on import)."""
from pathlib import Path

from ragmetrics_edu import metrics
from ragmetrics_edu.judges.prompting import Texts
from ragmetrics_edu.judges.requests import check_judge, finish, key_names, verdict_request
from ragmetrics_edu.metrics import inputs

from toy_first_relevant_math import first_relevant

STEP = metrics.Step("first_relevant.ranks", '{"rank_1": "yes"|"no", ...}; short form: a list of verdicts',
                    prompts=Path(__file__).parent)


def ask_first_relevant(judge, question, retrieved):
    judge = check_judge(judge)
    request = verdict_request(STEP, "toy_first_relevant", "rank", len(retrieved), idk=False, legacy=False,
                              data={"question": question, "nodes": Texts("rank", retrieved)})
    answer = judge.ask(request)
    result = first_relevant([answer.data[k] for k in key_names("rank", len(retrieved))], nodes=retrieved)
    return finish(result, judge, answer.calls, False)


SPEC = metrics.register(metrics.MetricSpec(
    "first_relevant", "First relevant", first_relevant, component="retriever",
    ask=metrics.Ask(ask_first_relevant, ("judge", "question", "contexts")),
    design="a relevance verdict per rank, first rank only", steps=(STEP,),
    view=metrics.RankingView((("First relevant (toy)", None, "First relevant"),)), reads=inputs.RANKED_VERDICTS,
    example=dict(ranked=["no", "yes"], nodes=["Macbeth is a play.", "Hamlet was written by Shakespeare."])))
'''
PROMPT = '''Question:
$question

The retrieved nodes, by rank:
$nodes

Is each ranked node relevant to the question? Reply with a JSON object with exactly the keys $keys, each "yes" or "no".
'''
PACKAGE = Path(__file__).resolve().parents[2] / "ragmetrics_edu"


def _package_files() -> dict[str, float]:
    return {str(p.relative_to(PACKAGE)): p.stat().st_mtime for p in PACKAGE.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture
def toy_design(tmp_path, monkeypatch):
    before = _package_files()
    files = {"toy_first_relevant_math.py": ARITHMETIC, "toy_first_relevant.py": DESIGN,
             "toy_first_relevant.txt": PROMPT}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("toy_first_relevant")               # importing it registers the design
    yield module, tmp_path, before
    if "first_relevant" in metrics.SPECS:
        metrics.unregister("first_relevant")
    for name in ("toy_first_relevant", "toy_first_relevant_math"):
        sys.modules.pop(name, None)


def test_a_design_with_a_new_step_prompt_and_shape_needs_only_its_own_files(toy_design, capsys) -> None:
    module, folder, before = toy_design
    case = {"question": "Who wrote Hamlet?", "answer": "Shakespeare.", "ground_truth": "William Shakespeare",
            "contexts": ["Macbeth is a play.", "Hamlet was written by Shakespeare."]}
    judge = judges.GivenJudge({"first_relevant.ranks": ["no", "yes"]})      # GivenJudge knows the new step
    table = evaluate([case], metrics=["first_relevant"], judge=judge, progress=False)
    assert table.loc[0, "first_relevant"] == 0.0 and table.loc[0, "calls"] == 1
    sent = judge.calls[0].messages[-1]["content"]
    assert "The retrieved nodes, by rank:" in sent and 'name="rank_2"' in sent   # its own prompt, its own keys
    assert metrics.REGISTRY["first_relevant"] is module.first_relevant
    assert "first_relevant" in cli.score_metrics()
    assert cli.main(["score", "first_relevant", "yes", "no"]) == 0 and "1" in capsys.readouterr().out
    assert ("First relevant (toy)", ("first_relevant", None)) in offered.ranking_choices()
    model = ReorderModel(["a", "b"], ["no", "yes"], metric="first_relevant")
    model.move(1, 0)
    assert model.result.score == 1.0
    assert sorted(p.name for p in folder.iterdir() if p.is_file()) == [
        "toy_first_relevant.py", "toy_first_relevant.txt", "toy_first_relevant_math.py"]
    assert _package_files() == before                                        # no library file was touched
    metrics.unregister("first_relevant")
    assert "first_relevant" not in metrics.SPECS and "first_relevant" not in metrics.REGISTRY
    assert "first_relevant" not in cli.score_metrics()
    assert "first_relevant" not in [c[1][0] for c in offered.ranking_choices()]
    with pytest.raises(ValueError, match="metrics"):
        evaluate([case], metrics=["first_relevant"], judge=judge, progress=False)
    with pytest.raises(ValueError, match="step names"):
        judges.GivenJudge({"first_relevant.ranks": ["no", "yes"]})


def test_the_api_walk_needs_no_line_for_a_new_design(toy_design) -> None:
    """The API walk (tests/library/test_api_walk.py) reads what it needs of a registered design from the registry:
    the toy's arithmetic takes ``ranked`` and its ask function ``retrieved``, names the walk cannot guess, and both give
    a result, from the spec's ``example`` and from its ``Ask`` (which passes the case's contexts). No table of the
    walk names the toy; without its example the walk says what to add."""
    import dataclasses

    import test_api_walk as walk

    module, _, _ = toy_design
    spec = metrics.SPECS["first_relevant"]
    assert walk.spec_problems(spec) == []
    assert walk.registered_kwargs(module.first_relevant) == dict(spec.example)
    assert set(walk.registered_kwargs(module.ask_first_relevant)) == {"judge", "question", "retrieved"}
    assert "ranked" not in walk.BY_NAME and "retrieved" not in walk.BY_NAME  # names the walk cannot guess
    tables = (walk.VALID, walk.INSTANCES, walk.SKIPPED, walk.NO_RESULT, walk.KNOWN)
    assert not [key for table in tables for key in table if "first_relevant" in key]  # no line for the toy
    metrics.unregister("first_relevant")
    metrics.register(dataclasses.replace(spec, example=None))
    problems = walk.spec_problems(metrics.SPECS["first_relevant"])
    assert len(problems) == 1 and problems[0].startswith("first_relevant: compute") and "example=" in problems[0]


def test_score_honours_a_lower_is_better_spec(capsys) -> None:
    """The spec's direction decides success on the command line too, as in evaluate()."""
    def share_no(verdicts, *, threshold=None):
        flags = [v == "no" for v in verdicts]
        return MetricResult(metric="share_no", score=sum(flags) / len(flags), threshold=threshold)

    metrics.register(metrics.MetricSpec("share_no", "Share of no", share_no, higher_is_better=False,
                                        reads=inputs.RANKED_VERDICTS))
    try:
        assert cli.main(["score", "share_no", "no", "yes", "yes", "yes", "--threshold", "0.5"]) == 0
        assert "success = True" in capsys.readouterr().out          # 0.25 <= 0.5 passes a lower-is-better metric
        assert cli.main(["score", "share_no", "no", "no", "no", "yes", "--threshold", "0.5"]) == 0
        assert "success = False" in capsys.readouterr().out
    finally:
        metrics.unregister("share_no")


def test_a_design_module_in_the_designs_folder_registers_without_an_edit(tmp_path, monkeypatch) -> None:
    """designs/__init__.py imports every design module it finds after its ordered list: a new
    ``designs/<name>.py`` needs no import line (the folder is extended here, so no library file is written)."""
    before = _package_files()
    for name, text in {"toy_first_relevant_math.py": ARITHMETIC, "toy_first_relevant.txt": PROMPT}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    folder = tmp_path / "more_designs"
    folder.mkdir()
    (folder / "first_relevant.py").write_text(DESIGN, encoding="utf-8")
    (folder / "toy_first_relevant.txt").write_text(PROMPT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(designs, "__path__", [*designs.__path__, str(folder)])
    assert "first_relevant" not in metrics.REGISTRY
    try:
        designs._discover()
        assert "first_relevant" in metrics.REGISTRY and "first_relevant" in cli.score_metrics()
        assert list(metrics.REGISTRY)[-1] == "first_relevant"             # after the built-in designs
        module = sys.modules["ragmetrics_edu.designs.first_relevant"]
        assert designs.first_relevant is module.first_relevant          # its same-named function, as for the built-ins
        assert metrics.REGISTRY["first_relevant"] is sys.modules["toy_first_relevant_math"].first_relevant
        designs._discover()                                                # a second pass imports nothing again
        assert list(metrics.REGISTRY).count("first_relevant") == 1
    finally:
        if "first_relevant" in metrics.SPECS:
            metrics.unregister("first_relevant")
        for name in ("ragmetrics_edu.designs.first_relevant", "toy_first_relevant_math"):
            sys.modules.pop(name, None)
        if hasattr(designs, "first_relevant"):
            delattr(designs, "first_relevant")
    assert _package_files() == before


def test_a_metric_with_two_verdict_lists_names_the_wrong_one() -> None:
    from ragmetrics_edu.metrics import checks

    with pytest.raises(ValueError, match=r"^reference_verdicts\[0\]"):
        checks.statements_and_verdicts("reference_claims", ["a"], ["maybe"], verdicts_field="reference_verdicts")
    with pytest.raises(ValueError, match="^response_verdicts: .*response_claims"):
        checks.statements_and_verdicts("response_claims", ["a", "b"], ["yes"], verdicts_field="response_verdicts")


def test_a_new_family_module_reaches_metrics_with_no_extra_line() -> None:
    """Every module of metrics/ that defines a public function marked with a core is re-exported by
    ``ragmetrics_edu.metrics`` (its ``__all__``): a new ``metrics/<family>.py`` that is not fails here, by name."""
    import importlib
    import pkgutil

    missing = []
    for info in pkgutil.iter_modules(metrics.__path__):
        module = importlib.import_module(f"ragmetrics_edu.metrics.{info.name}")
        for name, value in vars(module).items():
            if callable(value) and getattr(value, "__core__", None) and getattr(value, "__module__", "") == \
                    module.__name__ and not name.startswith("_") and getattr(metrics, name, None) is not value:
                missing.append(f"metrics/{info.name}.py: {name}")
    assert not missing, "not re-exported by ragmetrics_edu.metrics: " + ", ".join(missing)


def test_score_takes_a_metrics_own_options_from_its_spec_and_prints_the_readers_help(capsys) -> None:
    """answer_correctness declares ``beta`` on its reader (inputs.STATEMENT_COUNTS.with_options): score offers
    --beta with no line of cli.py naming it, passes it on, and refuses it for a metric without it."""
    from ragmetrics_edu.results import fmt

    argv = ["score", "answer_correctness", "--tp", "1", "--fn", "2", "--similarity", "0.5"]
    assert cli.main(argv + ["--beta", "2"]) == 0
    expected = metrics.answer_correctness(["TP 1"], [], ["FN 1", "FN 2"], 0.5, beta=2.0).score
    assert any(line.split("  (")[0] == f"score: {fmt(expected)}" for line in capsys.readouterr().out.splitlines())
    assert cli.main(["score", "context_precision", "yes", "--beta", "2"]) == 2
    assert "--beta" in capsys.readouterr().err
    assert "beta" not in Path(cli.__file__).read_text(encoding="utf-8")
    assert cli.main(["score", "--help"]) == 0
    shown = "".join(capsys.readouterr().out.split())  # argparse wraps the help (and breaks at hyphens)
    assert "answer_correctness(--tp,--fpand--fn;itsoptions--beta)" in shown
    assert all("".join(metrics.SPECS[name].reads.help.split()) in shown for name in cli.score_metrics())
