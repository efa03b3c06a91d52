"""The decks' worked examples put to a judge: which judge step each goes through, with which texts.

Each :class:`~ragmetrics_edu.studies.deck_agreement.DeckCase` of :data:`DECK_CASES` says which
judge step an example goes through and with which of its texts; :func:`run_deck_cases` puts them
to a judge and returns the runs, whose agreement with the decks
:mod:`ragmetrics_edu.studies.deck_agreement` measures (``metric_agreement``: Cohen's kappa one
judging task at a time, beside the word-overlap baseline); :meth:`~ragmetrics_edu.studies.deck_agreement.DeckRun.failures`
names each failure.

Two examples give the judge an expected answer the deck shows elsewhere: deck A's and
deck C's context-precision slides give no expected output, so the case borrows the one
the same deck uses for the same question on its context-recall slides (DeepEval's
contextual precision needs one). Deck E's answer-correctness slide gives no question, so
the case borrows the question of deck E's Einstein faithfulness example.
"""

from __future__ import annotations

import re
from functools import partial
from importlib import resources
from typing import Any, Callable, Sequence

from .. import designs, examples
from ..errors import InputError
from ..judges.batch import run_tasks
from ..judges.requests import check_judge
from ..metrics.specs import parameter_names
from ..studies.deck_agreement import DeckCase, DeckRun, Inputs, yes_no
from ..validate import text_list

__all__ = ["DECK_CASES", "example_source", "recording_source", "run_deck_cases"]


def _kw(case: str | None = None, key: str = "verdicts") -> Callable[[Any], list[str]]:
    def items(ex: Any) -> list[str]:
        value = ex.case(case).kwargs[key]
        if key == "node_verdicts":
            value = [v for node in value for v in node]
        return yes_no(value)
    return items


def _first(*keys: str) -> Callable[[Any], Any]:
    return lambda ex: next(ex.inputs[k] for k in keys if k in ex.inputs)


def _as_list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _borrow(example_id: str, key: str) -> Callable[[Any], str]:
    def value(_: Any) -> str:
        return examples.load(example_id).inputs[key]
    return value


def _cp(nodes_key: str = "nodes", expected: Callable[[Any], str] = _first("expected_output", "ground_truth"),
        variant: str = "deepeval") -> Inputs:
    return lambda ex: {"question": ex.inputs["question"], "nodes": ex.inputs[nodes_key],
                       "expected_output": expected(ex), "variant": variant}


def _cr(context: Callable[[Any], Any] = _first("nodes"), variant: str = "deepeval") -> Inputs:
    return lambda ex: {"expected_output": _first("expected_output", "ground_truth")(ex), "nodes": _as_list(context(ex)),
                       "question": ex.inputs.get("question"), "variant": variant}


def _crel(context: Callable[[Any], Any] = _first("nodes")) -> Inputs:
    return lambda ex: {"question": ex.inputs["question"], "nodes": _as_list(context(ex))}


def _faith(answer_key: str, variant: str) -> Inputs:
    return lambda ex: {"answer": ex.inputs[answer_key], "context": _as_list(ex.inputs["context"]),
                       "question": ex.inputs.get("question"), "variant": variant}


_A_EXPECTED = _borrow("A-cr-what-is-ai", "expected_output")
_C_EXPECTED = _borrow("C-cr-sun-high", "expected_output")

DECK_CASES: tuple[DeckCase, ...] = (
    DeckCase("A-cp-what-is-ai", None, "context_precision", _cp(expected=_A_EXPECTED), _kw(),
             borrowed="expected output from deck A's context-recall example"),
    DeckCase("B-cp-desert", "as given", "context_precision", _cp(variant="ragas"), _kw("as given")),
    DeckCase("C-cp-sun-high", None, "context_precision", _cp(expected=_C_EXPECTED), _kw(),
             borrowed="expected output from deck C's context-recall example"),
    DeckCase("C-cp-sun-low", None, "context_precision", _cp(expected=_C_EXPECTED), _kw(),
             borrowed="expected output from deck C's context-recall example"),
    DeckCase("D-cp-nobel", None, "context_precision", _cp(), _kw()),
    DeckCase("D-cp-bm25-vs-semantic", "A", "context_precision", _cp("nodes_A"), _kw("A")),
    DeckCase("D-cp-bm25-vs-semantic", "B", "context_precision", _cp("nodes_B"), _kw("B")),
    DeckCase("E-cp-france-low", None, "context_precision", _cp(variant="ragas"), _kw()),
    DeckCase("E-cp-france-high", None, "context_precision", _cp(variant="ragas"), _kw()),
    DeckCase("A-cr-what-is-ai", None, "context_recall", _cr(), _kw()),
    DeckCase("B-cr-deforestation", None, "context_recall", _cr(variant="ragas"), _kw()),
    DeckCase("C-cr-sun-high", None, "context_recall", _cr(), _kw()),
    DeckCase("C-cr-sun-low", None, "context_recall", _cr(), _kw()),
    DeckCase("E-cr-france", "low", "context_recall", _cr(_first("context_low"), "ragas"), _kw("low")),
    DeckCase("A-crel-what-is-ai", None, "contextual_relevancy", _crel(), _kw(key="node_verdicts")),
    DeckCase("B-crel-green-tea", None, "contextual_relevancy", _crel(), _kw(key="node_verdicts")),
    DeckCase("C-crel-sun-high", None, "contextual_relevancy", _crel(), _kw(key="node_verdicts")),
    DeckCase("C-crel-sun-low", None, "contextual_relevancy", _crel(), _kw(key="node_verdicts")),
    DeckCase("B-cer-brazil", None, "context_entity_recall",
             lambda ex: {"reference": ex.inputs["ground_truth"], "nodes": [ex.inputs["context"]]}),
    DeckCase("E-cer-taj-mahal", "CE1", "context_entity_recall",
             lambda ex: {"reference": ex.inputs["ground_truth"], "nodes": [ex.inputs["context_high"]]}),
    DeckCase("C-faith-sun-high", None, "faithfulness", _faith("actual_output", "deepeval"), _kw()),
    DeckCase("C-faith-sun-low-context", None, "faithfulness", _faith("actual_output", "deepeval"), _kw()),
    DeckCase("E-faith-einstein", "low", "faithfulness", _faith("answer_low", "ragas"), _kw("low")),
    DeckCase("C-ar-sun-high", None, "answer_relevancy",
             lambda ex: {"question": ex.inputs["question"], "answer": ex.inputs["actual_output"]}, _kw()),
    DeckCase("C-ar-sun-low", None, "answer_relevancy",
             lambda ex: {"question": ex.inputs["question"], "answer": ex.inputs["actual_output"]}, _kw()),
    DeckCase("E-ar-france", "low", "answer_relevancy_embedding",
             lambda ex: {"question": ex.inputs["question"], "answer": ex.inputs["answer_low"]}),
    DeckCase("E-ac-einstein", "low", "answer_correctness",
             lambda ex: {"question": _borrow("E-faith-einstein", "question")(ex), "answer": ex.inputs["answer_low"],
                         "ground_truth": ex.inputs["ground_truth"]},
             borrowed="question from deck E's Einstein faithfulness example"),
)


def run_deck_cases(judge: Any, ids: Sequence[str] | None = None, *, embedder: Any = None) -> list[DeckRun]:
    """Put each deck case (or those of ``ids``) to ``judge``; a failing case keeps its error."""
    judge = check_judge(judge)
    ids = None if ids is None else text_list("ids", ids)
    chosen = [c for c in DECK_CASES if ids is None or c.example_id in ids]
    if ids is not None:
        unknown = sorted(set(ids) - {c.example_id for c in DECK_CASES})
        if unknown:
            raise InputError("ids", "ids of examples that go through a judge step", unknown)
    inputs = []
    for case in chosen:
        kwargs = case.inputs(examples.load(case.example_id))
        if "embedder" in parameter_names(getattr(designs, case.step)):  # the step says it takes one
            kwargs["embedder"] = embedder
        inputs.append(kwargs)
    # keep going on any error: the table shows which case failed and why
    outcomes = run_tasks([partial(getattr(designs, case.step), judge, **kwargs) for case, kwargs in zip(chosen, inputs,
                                                                                                      strict=True)],
                         judge, max_concurrency=1, keep=(Exception,))
    runs = []
    for case, kwargs, outcome in zip(chosen, inputs, outcomes, strict=True):
        ex = examples.load(case.example_id)
        runs.append(DeckRun.build(case, kwargs, ex.case(case.case).kwargs, outcome.result,
                                  ex.compute(case.case, embedder=embedder), outcome.error_text, case.deck_items(ex)))
    return runs


def recording_source(judge: Any) -> dict[str, str]:
    """Where a replayed judge's numbers come from: model, date and the GGUF's sha256 (from its notes)."""
    notes = str(getattr(judge, "notes", "") or "")
    found = re.search(r"sha256 ([0-9a-f]{64})", notes)
    return {"model": str(getattr(judge, "model", "")), "date": str(getattr(judge, "date", "") or ""),
            "sha256": found.group(1) if found else "not recorded"}


def example_source() -> str:
    """The text of the example gate the course ships (``ragmetrics_edu/course/regression_gate_example.py``)."""
    return (resources.files("ragmetrics_edu") / "course" / "regression_gate_example.py").read_text(encoding="utf-8")
