"""The decks' worked examples put to a judge, and how far the judge agrees with the decks.

Each :class:`DeckCase` says which judge step an example goes through and with which of
its texts; the judge's verdicts are then compared with the verdicts the deck assigned by
hand. Per-item agreement is only defined where the judge judged the same items as the
deck (the retrieved nodes of context precision always; extracted statements or claims
only when the judge extracted as many as the deck wrote), so :func:`agreement` reports
percent agreement and Cohen's kappa on those aligned verdicts, and every case's score
beside the deck's.

Two examples give the judge an expected answer the deck shows elsewhere: deck A's and
deck C's context-precision slides give no expected output, so the case borrows the one
the same deck uses for the same question on its context-recall slides (DeepEval's
contextual precision needs one). Deck E's answer-correctness slide gives no question, so
the case borrows the question of deck E's Einstein faithfulness example.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from ..errors import InputError
from ..results import MetricResult

Inputs = Callable[[Any], dict[str, Any]]


@dataclass(frozen=True)
class DeckCase:
    """One deck example (and case) as a judge step: its inputs and the deck's verdicts."""

    example_id: str
    case: str | None
    step: str
    inputs: Inputs
    deck_items: Callable[[Any], list[str] | None] = lambda ex: None
    borrowed: str = ""

    @property
    def label(self) -> str:
        return self.example_id if self.case in (None, "as given") else f"{self.example_id} [{self.case}]"


def _yes_no(values: Iterable[Any]) -> list[str]:
    return ["yes" if v in (1, True, "yes") else ("idk" if v == "idk" else "no") for v in values]


def _kw(case: str | None = None, key: str = "verdicts") -> Callable[[Any], list[str]]:
    def items(ex: Any) -> list[str]:
        value = ex.case(case).kwargs[key]
        if key == "node_verdicts":
            value = [v for node in value for v in node]
        return _yes_no(value)
    return items


def _first(*keys: str) -> Callable[[Any], Any]:
    return lambda ex: next(ex.inputs[k] for k in keys if k in ex.inputs)


def _as_list(value: Any) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _borrow(example_id: str, key: str) -> Callable[[Any], str]:
    def value(_: Any) -> str:
        from .. import examples

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


@dataclass
class DeckRun:
    """A judge's result on one deck case, beside the deck's own."""

    case: DeckCase
    result: MetricResult | None
    deck: MetricResult
    judge_items: list[str] = field(default_factory=list)
    deck_items: list[str] | None = None
    error: str | None = None

    @property
    def aligned(self) -> bool:
        """Whether judge and deck judged the same number of items (so they can be compared one by one)."""
        return self.deck_items is not None and self.result is not None and len(self.judge_items) == len(self.deck_items)


def _verdict_column(result: MetricResult) -> list[str]:
    if "verdict" in result.columns:
        return [str(r["verdict"]) for r in result.rows]
    if "relevant" in result.columns:
        return _yes_no(r["relevant"] for r in result.rows)
    return []


def run_deck_cases(judge: Any, ids: Sequence[str] | None = None, *, embedder: Any = None) -> list[DeckRun]:
    """Put each deck case (or those of ``ids``) to ``judge``; a failing case keeps its error."""
    from .. import examples
    from . import steps

    chosen = [c for c in DECK_CASES if ids is None or c.example_id in ids]
    if ids is not None:
        unknown = sorted(set(ids) - {c.example_id for c in DECK_CASES})
        if unknown:
            raise InputError("ids", "ids of examples that go through a judge step", unknown)
    runs = []
    for case in chosen:
        ex = examples.load(case.example_id)
        kwargs = case.inputs(ex)
        if case.step in ("answer_relevancy_embedding", "answer_correctness"):
            kwargs["embedder"] = embedder
        try:
            result, error = getattr(steps, case.step)(judge, **kwargs), None
        except Exception as exc:  # keep going: the table shows which case failed and why
            result, error = None, f"{type(exc).__name__}: {exc}"
        runs.append(DeckRun(case=case, result=result, deck=ex.compute(case.case, embedder=embedder),
                            judge_items=_verdict_column(result) if result else [],
                            deck_items=case.deck_items(ex), error=error))
    return runs


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float:
    """Cohen's kappa of two raters over the same items: (p_o - p_e) / (1 - p_e).

    1 is perfect agreement, 0 what chance alone gives; NaN when chance agreement is 1
    (both raters used a single, identical label throughout)."""
    if len(a) != len(b):
        raise InputError("b", f"as many labels as a ({len(a)})", len(b))
    if not a:
        return float("nan")
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    labels = set(a) | set(b)
    expected = sum((list(a).count(label) / n) * (list(b).count(label) / n) for label in labels)
    return float("nan") if expected == 1 else (observed - expected) / (1 - expected)


def agreement(runs: Sequence[DeckRun], steps: Iterable[str] | None = None) -> dict[str, Any]:
    """Percent agreement and Cohen's kappa over the aligned verdicts of ``runs``."""
    wanted = set(steps) if steps is not None else None
    judge_all: list[str] = []
    deck_all: list[str] = []
    used = 0
    for run in runs:
        if run.aligned and (wanted is None or run.case.step in wanted):
            judge_all += run.judge_items
            deck_all += run.deck_items or []
            used += 1
    n = len(judge_all)
    agree = sum(x == y for x, y in zip(judge_all, deck_all, strict=True))
    return {"cases": used, "items": n, "agree": agree, "percent": 100 * agree / n if n else float("nan"),
            "kappa": cohen_kappa(judge_all, deck_all) if n else float("nan")}
