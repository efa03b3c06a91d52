"""Issue 49: ``show_code`` shows every line that sets a seed path's number.

For each of the 13 seed paths (``benchmarks/path_table.py``'s ``SEEDS``), the public function is called
under ``sys.settrace`` on inputs that take its variants' branches; every line of a ``ragmetrics_edu``
module it runs must be in what ``metrics.show_code`` lists (``Code.shown()``), except the lines that
cannot change the score. That exclusion is exactly:

- ``ragmetrics_edu/errors.py``: the error classes (raised only for bad input);
- ``ragmetrics_edu/validate.py``, ``metrics/checks.py`` and ``ranking/checks.py``: the input checks, each
  returning its input checked (a default that changes a score lives in a core instead: the G-Eval scales,
  nDCG's ideal and the verdict words are each asserted below to be in a core);
- ``ragmetrics_edu/results.py`` and the ``*_explained.py`` modules, and what they call (the embedder's name
  for the notes): they build the result from the core's numbers; that the returned score IS the core's
  number is asserted below with a spy on the core.

Nothing else is left out: no line of a public function, a core, the tokenizer, the embedder or any other
helper the call runs.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from ragmetrics_edu import metrics
from ragmetrics_edu.cores import g_eval as g_eval_core
from ragmetrics_edu.cores import ratio as ratio_core
from ragmetrics_edu.metrics.show import CORES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from path_table import SEEDS  # noqa: E402

PACKAGE = Path(metrics.__file__).resolve().parents[1]
#: files (from the package's folder) whose lines cannot change a score (see the module docstring)
EXCLUDED = ("errors.py", "validate.py", "metrics/checks.py", "ranking/checks.py", "results.py")

m = metrics
#: each seed's calls: the variants and the defaults that take their own branches
CALLS: dict[str, list[Callable[[], Any]]] = {
    "context_precision": [lambda: m.context_precision(["yes", "no", "yes"]),
                          lambda: m.context_precision([0, 1, 1], "ragas"),
                          lambda: m.context_precision([1, 0, 1], "average_precision", total_relevant=4)],
    "context_recall": [lambda: m.context_recall(["a", "b"], ["yes", "no"]),
                       lambda: m.context_recall(["a", "b"], ["yes", "no"], variant="ragas", nodes=[1, None])],
    "contextual_relevancy": [lambda: m.contextual_relevancy([["a", "b"], ["c"]], [["yes", "no"], ["yes"]]),
                             lambda: m.contextual_relevancy([["a"], ["c"]], [["no"], ["yes"]],
                                                            variant="ragas_sentences")],
    "context_entity_recall": [lambda: m.context_entity_recall(["Brasília", "Rio", "Rio"], ["brasilia"], normalize=True),
                              lambda: m.context_entity_recall(["A", "A", "B"], ["A"], variant="ragas_legacy")],
    "faithfulness": [lambda: m.faithfulness(["a", "b", "c"], ["yes", "borderline", "no"]),
                     lambda: m.faithfulness(["a", "b"], ["yes", "idk"], variant="ragas"),
                     lambda: m.faithfulness(["a", "b"], ["idk", "yes"], penalize_ambiguous=True),
                     lambda: m.faithfulness([], [])],
    "answer_relevancy": [lambda: m.answer_relevancy(["a", "b"], ["yes", "no"]),
                         lambda: m.answer_relevancy(["a", "b"], ["yes", "idk"]), lambda: m.answer_relevancy([], [])],
    "answer_relevancy_embedding": [
        lambda: m.answer_relevancy_embedding("What is Paris?", ["What city is Paris?", "Where is Paris?"]),
        lambda: m.answer_relevancy_embedding("What is Paris?", ["What is it?"], noncommittal=True),
        lambda: m.answer_relevancy_embedding("What is Paris?", [], variant="ragas_collections")],
    "answer_correctness": [
        lambda: m.answer_correctness(["a"], ["b"], ["c"], answer="Paris is in France",
                                     ground_truth="Paris is the capital of France"),
        lambda: m.answer_correctness([], ["b"], [], 0.5, variant="ragas_collections", beta=2.0)],
    "semantic_similarity": [lambda: m.semantic_similarity("Paris is in France", "Paris is the capital of France"),
                            lambda: m.semantic_similarity("cats sit", "cats sit", threshold=0.9)],
    "ndcg_at_k": [lambda: m.ndcg_at_k([3, 2, 0, 1], 3), lambda: m.ndcg_at_k([1, 0], ideal=[1, 1, 1]),
                  lambda: m.ndcg_at_k([2, 1], gain="exponential")],
    "mean_reciprocal_rank": [lambda: m.mean_reciprocal_rank([[0, 1], [1, 0], [0, 0]]),
                             lambda: m.mean_reciprocal_rank([])],
    "word_overlap": [lambda: m.word_overlap("The cats' bodies sat on mats", ["A cat's body sat on the mat"]),
                     lambda: m.word_overlap("the of", ["x"])],
    "g_eval_score": [lambda: m.g_eval_score({1: 0.1, 2: 0.2, 3: 0.7}),
                     lambda: m.g_eval_score({0: 0.005, 7: 0.5, 8: 0.495}, variant="deepeval"),
                     lambda: m.g_eval_score(samples=[3, 4, 4]), lambda: m.g_eval_score(reply_score=2)],
}


def _excluded(relative: str) -> bool:
    return relative in EXCLUDED or relative.endswith("_explained.py")


def executed(call: Callable[[], Any]) -> dict[str, set[int]]:
    """{file: the line numbers} of the package's functions that ``call`` runs (module-level code not counted)."""
    from ragmetrics_edu import text

    text._tokens.cache_clear()  # a cached tokenizer would hide the lines it runs
    from ragmetrics_edu.embeddings import embedders

    embedders._DEFAULT = None  # so is the shared default embedder, built once
    hits: dict[str, set[int]] = {}

    def local(frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            hits.setdefault(frame.f_code.co_filename, set()).add(frame.f_lineno)
        return local

    def builds_the_result(frame: Any) -> bool:
        while frame is not None:
            file = frame.f_code.co_filename
            if file.startswith(str(PACKAGE)) and (file.endswith("_explained.py") or file == str(PACKAGE / "results.py")):
                return True
            frame = frame.f_back
        return False

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        code = frame.f_code
        if code.co_name == "<module>" or not code.co_filename.startswith(str(PACKAGE)) or builds_the_result(frame):
            return None
        return local

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(old)
    return hits


def test_the_seeds_are_the_path_tables():
    assert set(CALLS) == set(SEEDS) and len(SEEDS) == 13


@pytest.mark.parametrize("seed", SEEDS)
def test_show_code_holds_every_line_that_sets_the_number(seed):
    shown = metrics.show_code(seed).shown()
    missing = []
    for call in CALLS[seed]:
        for file, lines in executed(call).items():
            relative = Path(file).resolve().relative_to(PACKAGE).as_posix()
            if _excluded(relative):
                continue
            source = Path(file).read_text(encoding="utf-8").splitlines()
            missing += [f"{relative}:{n}: {source[n - 1].strip()}" for n in sorted(lines - shown.get(file, set()))]
    assert not missing, f"show_code({seed!r}) leaves out lines its call runs:\n" + "\n".join(missing)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_score_is_the_cores_number(seed, monkeypatch):
    """What the excluded result and explanation modules return is the core's own score (a spy on the core)."""
    function = getattr(metrics, seed)
    core = importlib.import_module(f"{CORES}.{function.__core__}")
    entry = getattr(core, function.__core__)
    seen: list[float] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        out = entry(*args, **kwargs)
        seen.append(out[0])
        return out

    monkeypatch.setattr(core, function.__core__, spy)
    for call in CALLS[seed]:
        seen.clear()
        score = call().score
        assert seen and (score == seen[0] or (score != score and seen[0] != seen[0])), (seen, score)  # the first call


def test_the_defaults_that_change_a_score_live_in_the_cores():
    """The three the checks and validate used to hold: shown, because the cores are."""
    assert g_eval_core.SCALES == {"paper": (1, 5), "deepeval": (0, 10)}
    assert metrics.g_eval_score(reply_score=10, variant="deepeval").score == 1.0  # the 0-10 default scale
    assert ratio_core.VERDICT_WORDS["borderline"] == "idk"
    assert "SCALES" in metrics.show_code("g_eval_score").source
    assert '"borderline": "idk"' in str(metrics.show_code("faithfulness"))
    assert "ideal_grades is None" in metrics.show_code("ndcg_at_k").source
    assert metrics.ndcg_at_k([1, 0, 1]).score == metrics.ndcg_at_k([1, 0, 1], ideal=[1, 0, 1]).score


def test_show_code_takes_a_public_name_or_the_function():
    assert metrics.show_code("g_eval_score").path == metrics.show_code("g_eval").path == "ragmetrics_edu/cores/g_eval.py"
    assert metrics.show_code(metrics.g_eval_score).path == "ragmetrics_edu/cores/g_eval.py"
    assert metrics.show_code(metrics.word_overlap).metric == "word_overlap"
    assert "def tokenize" in str(metrics.show_code("word_overlap"))


def test_each_formula_once_no_reexport_puzzle_and_long_lines_scroll():
    for name in metrics.SPECS:
        code = metrics.show_code(name)
        html, markdown = code._repr_html_(), code._repr_markdown_()
        assert "Formula:" not in markdown and "Formula:" not in html, name
        if code.formula:
            first = code.formula.splitlines()[0]
            assert markdown.count(first) == 1, (name, first)
        assert " as " not in "\n".join(line for line in str(code).splitlines() if line.startswith("from ")), name
        boxes = re.findall(r'<pre style="([^"]*)"', html)
        assert len(boxes) == html.count("<pre") and all("white-space: pre;" in b and "overflow-x: auto" in b
                                                         for b in boxes), name
