"""Issue 42: every metric reads as its formula, in one small core a notebook can show.

- ``metrics.show_code(name)`` exists for every registered metric and design, and refuses an unknown name;
- each core (``ragmetrics_edu/cores/*.py``) is at most 45 lines of code (docstrings and comments not
  counted) and holds no input check, result class, registry or LaTeX;
- each public function marked with a core calls that core (read from its source, and by a spy);
- ``context_precision_batch``'s fast loop gives the core's numbers on any list (a property test).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragmetrics_edu import InputError, metrics
from ragmetrics_edu.cores import context_precision as context_precision_core
from ragmetrics_edu.metrics.show import code_lines

CORES = Path(__file__).resolve().parents[2] / "ragmetrics_edu" / "cores"
CORE_FILES = sorted(p for p in CORES.glob("*.py") if p.name != "__init__.py")
#: what a core must not hold: the checks, the result classes, the registry and the LaTeX live above it
FORBIDDEN = ("InputError", "validate", "MetricResult", "SPECS", "register", "\\frac", "\\text")


def test_show_code_exists_for_every_registered_metric():
    for name in metrics.SPECS:
        code = metrics.show_code(name)
        assert code.source.strip() and code.metric == name, name
        shown = code._repr_markdown_()
        assert code.source.strip().splitlines()[-1] in shown and code.path in code._repr_html_(), name


def test_every_registered_metric_has_a_real_core(monkeypatch):
    """No fallback: each spec's arithmetic names a core module of ``ragmetrics_edu/cores`` that exists, and
    show_code shows that module (a judged design: the core that scores its verdicts)."""
    files = {p.stem for p in CORE_FILES}
    for name in metrics.SPECS:
        spec = metrics.SPECS[name]
        function = spec.compute if spec.compute is not None else spec.ask.target
        assert getattr(function, "__core__", None) in files, name
        assert metrics.show_code(name).path == f"ragmetrics_edu/cores/{function.__core__}.py", name
    for name in ("precision_at_k", "recall_at_k", "r_precision", "reciprocal_rank", "mean_reciprocal_rank",
                 "mean_average_precision", "ndcg_at_k", "hit_at_k", "hit_rate_at_k", "aspect_critic",
                 "faithfulness_support", "faithfulness_support_batched", "faithfulness_quote",
                 "faithfulness_overlap_reanswer"):  # the twelve that had none, and the two support designs
        assert metrics.show_code(name).source.startswith('"""'), name
    monkeypatch.delattr(metrics.word_overlap, "__core__")
    with pytest.raises(InputError, match="names its core"):
        metrics.show_code("word_overlap")


def test_the_ranking_measures_share_one_walk_and_one_dcg():
    assert [s.path for s in metrics.show_code("precision_at_k").shared] == ["ragmetrics_edu/cores/cumulative.py"]
    assert [s.path for s in metrics.show_code("mean_reciprocal_rank").shared] == [  # every level down
        "ragmetrics_edu/cores/reciprocal_rank.py", "ragmetrics_edu/cores/cumulative.py"]
    assert [s.path for s in metrics.show_code("mean_average_precision").shared] == [
        "ragmetrics_edu/cores/context_precision.py", "ragmetrics_edu/cores/per_k.py"]
    assert metrics.show_code("faithfulness_support_batched").path == "ragmetrics_edu/cores/faithfulness_support.py"
    assert [s.path for s in metrics.show_code("faithfulness_quote").shared] == [
        "ragmetrics_edu/cores/faithfulness_support.py"]


def test_show_code_shows_the_formula_the_columns_and_the_shared_core():
    code = metrics.show_code("context_recall")
    assert code.path == "ragmetrics_edu/cores/context_recall.py"
    assert "attributable statements / all statements" in code.formula
    assert code.columns == ("i", "statement", "verdict", "attributable")
    assert [s.path for s in code.shared] == ["ragmetrics_edu/cores/ratio.py"]
    shown = code._repr_markdown_()
    assert "`attributable`" in shown and "def count_verdicts" in shown and "def context_recall" in str(code)
    # a judged design shows the core that scores its verdicts
    assert metrics.show_code("faithfulness_checked").path == "ragmetrics_edu/cores/faithfulness.py"
    assert metrics.show_code(" G_Eval ").path == "ragmetrics_edu/cores/g_eval.py"


def test_show_code_refuses_an_unknown_name_listing_the_valid_ones():
    with pytest.raises(InputError) as caught:
        metrics.show_code("context_recal")
    assert "'context_recall'" in str(caught.value) and "'g_eval'" in str(caught.value)


def test_g_eval_score_is_exported_where_a_learner_looks():
    assert "g_eval_score" in metrics.__all__ and metrics.g_eval_score is metrics.SPECS["g_eval"].compute


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.name)
def test_each_core_is_small_and_plain(path):
    source = path.read_text(encoding="utf-8")
    assert code_lines(source) <= 45, f"{path.name}: {code_lines(source)} lines of code"
    body = ast.unparse(ast.parse(source))  # docstrings kept: a core's docstring names no check either
    for word in FORBIDDEN:
        assert word not in body, f"{path.name} holds {word!r}"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 1 or node.module in ("math", "operator", "difflib"), f"{path.name}: {node.module}"
        elif isinstance(node, ast.Import):
            assert all(a.name in ("math", "operator") for a in node.names), path.name


def test_code_lines_counts_code_only():
    source = '"""Doc.\n\n    x = 1\n"""\n\n# a comment\nX = 1  # why\n\n\ndef f(a):\n    """Doc."""\n    return a\n'
    assert code_lines(source) == 3


def _marked_functions():
    """Every public function marked with a core (``computed_by``): the registered arithmetic and the
    functions the packages export."""
    found = {}
    for module_name in ("ragmetrics_edu.metrics", "ragmetrics_edu.ranking"):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if getattr(obj, "__core__", None):
                found[f"{obj.__module__}.{obj.__name__}"] = obj
    for spec in metrics.SPECS.values():
        if getattr(spec.compute, "__core__", None):
            found[f"{spec.compute.__module__}.{spec.compute.__name__}"] = spec.compute
    return found


def test_each_public_function_calls_its_core():
    """The source of each marked function (or of the public function it hands its verdicts to) names its core."""
    marked = _marked_functions()
    assert len(marked) >= 14
    for name, function in marked.items():
        core = importlib.import_module(f"ragmetrics_edu.cores.{function.__core__}")
        core_functions = {n for n, f in vars(core).items() if inspect.isfunction(f) and f.__module__ == core.__name__}
        called = _called_names(function)
        handed = {n for n in called  # or a public function marked with the same core, which calls it
                  if getattr(function.__globals__.get(n), "__core__", None) == function.__core__}
        reached = called & core_functions or handed
        assert reached, f"{name} calls none of {sorted(core_functions)} (core {function.__core__})"


def _called_names(function):
    names = set()
    for node in ast.walk(ast.parse(inspect.getsource(function).lstrip())):
        if isinstance(node, ast.Call):
            names.add(node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", ""))
    return names


def test_a_spy_sees_the_ratio_and_precision_cores_called(monkeypatch):
    from ragmetrics_edu.cores import faithfulness as faithfulness_core
    from ragmetrics_edu.cores import ratio

    calls = []
    real = ratio.count_verdicts

    def spy(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(faithfulness_core, "count_verdicts", spy)
    assert metrics.faithfulness(["a", "b"], ["yes", "idk"], "ragas").score == 0.5
    assert len(calls) == 1 and calls[0][:2] == (["yes", "idk"], {"yes": 1, "idk": 0, "no": 0})
    assert math.isnan(calls[0][2])  # ragas: no claims would score NaN

    seen = []
    monkeypatch.setattr(context_precision_core, "per_k_terms",
                        lambda r, real=context_precision_core.per_k_terms: seen.append(r) or real(r))
    metrics.context_precision([1, 0, 1])
    metrics.average_precision([1, 0, 1], total_relevant=3)
    assert seen == [[1, 0, 1], [1, 0, 1]]


@given(st.lists(st.lists(st.sampled_from([0, 1, "yes", "no", True, False]), max_size=12), max_size=6),
       st.sampled_from(["deepeval", "ragas"]))
def test_the_batch_loop_equals_the_core_loop(cases, variant):
    fast = metrics.context_precision_batch(cases, variant)
    flags = [[1 if v in (1, "yes", True) else 0 for v in case] for case in cases]
    assert fast == [context_precision_core.context_precision(f, variant)[0] for f in flags]
    assert fast == [metrics.context_precision(case, variant).score for case in cases]


def test_the_coloured_code_is_the_code_itself():
    """show_code's HTML colours tokens but keeps every character: strip the tags and the source comes back."""
    import html
    import re

    from ragmetrics_edu.metrics.show import highlight

    for name in metrics.SPECS:
        shown = metrics.show_code(name)
        for code in [shown.source] + [s.source for s in shown.shared]:
            coloured = highlight(code.rstrip())
            assert html.unescape(re.sub(r"<[^>]+>", "", coloured)) == code.rstrip(), name
            assert "<span" in coloured, name  # something was coloured


def test_the_batch_calls_the_core(monkeypatch):
    """context_precision_batch has no loop of its own: each list's score is the core's (a spy counts the calls)."""
    calls = []
    real = context_precision_core.context_precision

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(context_precision_core, "context_precision", spy)
    assert metrics.context_precision_batch([[1, 0, 1], ["no", "yes"]], "ragas") == [
        real([1, 0, 1], "ragas")[0], real([0, 1], "ragas")[0]]
    assert len(calls) == 2
