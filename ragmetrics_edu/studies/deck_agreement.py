"""How far a judge agrees with the decks on their worked examples (lesson 10), from the runs given.

A :class:`DeckRun` holds one deck case put to a judge: the judge's result beside the deck's,
and the items each side judged. Per-item agreement is only defined on items both judged: the
retrieved nodes of context precision always; extracted statements, claims or entities only where
a judge's item matches a deck item by content (:func:`ragmetrics_edu.agreement.match_items`),
never because the counts happen to be equal. :func:`metric_agreement` reports Cohen's kappa with
its bootstrap interval one judging task at a time, beside the word-overlap baseline on the same
items (:func:`baseline_verdicts`), and lists what was left out; :meth:`DeckRun.failures` names each failure
(:mod:`ragmetrics_edu.studies.judge_study.failures`). :meth:`DeckRun.build` makes a run of a judge's result and
the deck's own (``course.deck_cases.run_deck_cases`` runs the judge).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence, TypeVar

from .. import baselines
from ..agreement import cohen_kappa, match_items
from ..errors import InputError
from ..judges.records import tally
from ..metrics.registry import MetricTable
from ..results import MetricResult
from ..stats.inputs import seed as checked_seed
from ..validate import as_list, identifier, instance, mapping, text, text_list
from .judge_study.failures import Failure, classify

__all__ = ["DeckCase", "DeckRun", "agreement", "baseline_verdicts", "metric_agreement", "yes_no"]

Inputs = Callable[[Any], dict[str, Any]]
R = TypeVar("R", bound="DeckRun")


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


def yes_no(values: Iterable[Any]) -> list[str]:
    """Verdicts written as the decks write them (1/0, True/False, yes/no/idk) as yes, no or idk."""
    items = as_list("values", values, "verdicts (1/0, True/False or yes/no/idk)", iterators=True)
    for i, v in enumerate(items):
        if not isinstance(v, (str, int)):
            raise InputError(f"values[{i}]", "a verdict: 1/0, True/False or yes/no/idk", v)
    return ["yes" if v in (1, True, "yes") else ("idk" if v == "idk" else "no") for v in items]


@dataclass
class DeckRun:
    """A judge's result on one deck case, beside the deck's own.

    ``deck_texts``/``judge_texts`` are the items each side judged (nodes, statements, claims,
    entities) and ``deck_items``/``judge_items`` their verdicts, in each side's own order. Items
    are paired by content (:func:`ragmetrics_edu.agreement.match_items`), never by position or
    count: :meth:`matched_verdicts` gives the verdicts of the matched pairs only.
    """

    case: DeckCase
    result: MetricResult | None
    deck: MetricResult
    judge_items: list[str] = field(default_factory=list)
    deck_items: list[str] | None = None
    error: str | None = None
    judge_texts: list[str] = field(default_factory=list)
    deck_texts: list[str] | None = None
    inputs: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    context: list[str] = field(default_factory=list)
    deck_entities: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """(deck item, judge item) index pairs (0-based) that match by content, one to one. A pair whose judge
        item is as similar to another deck item (or whose deck item to another judge item) is left out: which
        of the two it stands for would rest on list order, not content (a merged item often ties so)."""
        if not self.deck_texts or not self.judge_texts or self.result is None:
            return []
        found = match_items(self.deck_texts, self.judge_texts)
        sim = [[row[f"j{j + 1}"] for j in range(len(self.judge_texts))] for row in found.tables["similarity matrix"][1]]
        return [(i, j) for i, j, s in found.values["pairs"]
                if sum(row[j] == s for row in sim) == 1 and sim[i].count(s) == 1]

    @property
    def aligned(self) -> bool:
        """Whether every deck item and every judge item found its counterpart by content (a complete match).

        Equal counts are not enough: two claims the deck never wrote are not the deck's two claims."""
        if self.deck_items is None or not self.deck_texts or self.result is None:
            return False
        return len(self.pairs) == len(self.deck_texts) == len(self.judge_texts)

    def matched_verdicts(self) -> tuple[list[str], list[str]]:
        """The deck's and the judge's verdicts on the items that match by content (deck order)."""
        if self.deck_items is None or not self.judge_items:
            return [], []
        pairs = self.pairs
        return [self.deck_items[i] for i, _ in pairs], [self.judge_items[j] for _, j in pairs]

    @property
    def repairs(self) -> int:
        """Repair requests the judge needed (:func:`ragmetrics_edu.judges.records.tally`)."""
        return tally(self.result.calls if self.result is not None else []).repairs

    @classmethod
    def build(cls: type[R], case: DeckCase, inputs: dict[str, Any], given: dict[str, Any], result: MetricResult | None,
              deck: MetricResult, error: str | None = None, deck_items: list[str] | None = None) -> R:
        """One case's run: the judge's ``result`` (None: it failed with ``error``) on ``inputs``, beside the deck's
        result ``deck`` from the deck's own arguments ``given``; ``deck_items`` are the deck's verdicts where the
        step's items carry none of their own (answer correctness' kinds do)."""
        case = instance("case", case, DeckCase, "a DeckCase (course.deck_cases.DECK_CASES)")
        inputs, given = dict(mapping("inputs", inputs)), dict(mapping("given", given))
        if result is not None:
            instance("result", result, MetricResult, "the judge's MetricResult, or None")
        instance("deck", deck, MetricResult, "the deck's MetricResult")
        if error is not None:
            text("error", error)
        deck_items = None if deck_items is None else text_list("deck_items", deck_items)
        side = _deck_side(case, given, inputs)
        items = side.pop("deck_items", None) or deck_items
        return cls(case=case, result=result, deck=deck, judge_items=_verdict_column(result) if result else [],
                   deck_items=items, error=error, judge_texts=_text_column(result) if result else [], inputs=inputs,
                   **side)

    def failures(self) -> list[Any]:
        """This run's failures against the deck (:func:`ragmetrics_edu.studies.judge_study.failures.classify`)."""
        if self.error is not None:
            return classify([], [], error=self.error)
        if self.case.step == "context_entity_recall":
            ref_d, ctx_d = (list(x) for x in self.deck_entities)
            ref_j, ctx_j = self.judge_entities
            nodes = list(self.inputs["nodes"])
            found = []
            for side, (deck, judged, source, context) in {
                    "reference": (ref_d, ref_j, self.inputs["reference"], nodes),
                    "context": (ctx_d, ctx_j, "\n".join(nodes), [self.inputs["reference"]])}.items():
                for f in classify(deck, judged, source=source, context=context):
                    found.append(Failure(f.category, f.judged, f.reference, f"{side} entities: {f.detail}"))
            return found
        if self.deck_texts is None:
            return classify([], [], repairs=self.repairs) if self.repairs else []
        verdicts = self.deck_items is not None and len(self.deck_items) == len(self.deck_texts)
        return classify(self.deck_texts, self.judge_texts, reference_verdicts=self.deck_items if verdicts else None,
                        judged_verdicts=self.judge_items if verdicts else None, source=self.source,
                        context=self.context, repairs=self.repairs,
                        given=not self.source)  # no source text: the items were given (context precision's nodes)

    @property
    def judge_entities(self) -> tuple[list[str], list[str]]:
        """The judge's reference and context entities, as it extracted them (entity recall only)."""
        parsed = next((c.parsed for c in (self.result.calls if self.result else []) if c.parsed), None) or {}
        return list(parsed.get("reference_entities", [])), list(parsed.get("context_entities", []))


def _verdict_column(result: MetricResult) -> list[str]:
    if "kind" in result.columns:
        return [str(r["kind"]) for r in result.rows]
    if "verdict" in result.columns:
        return [str(r["verdict"]) for r in result.rows]
    if "relevant" in result.columns:
        return yes_no(r["relevant"] for r in result.rows)
    return []


def _text_column(result: MetricResult) -> list[str]:
    for name in ("claim", "statement", "node"):
        if name in result.columns:
            return [str(r[name]) for r in result.rows]
    return []


def _answer_correctness_side(given: dict[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    kinds = [(k.upper(), s) for k in ("tp", "fp", "fn") for s in given[k]]
    return {"deck_texts": [s for _, s in kinds], "deck_items": [k for k, _ in kinds],
            "source": kwargs["answer"] + "\n" + kwargs["ground_truth"]}


#: Per judge step: the deck's item texts (and answer-correctness kinds), and the text the items should come from.
_DECK_SIDE: MetricTable[Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]] = MetricTable(
    "the deck side of each deck case's step", {
        "context_precision": lambda given, kw: {"deck_texts": list(kw["nodes"])},
        "context_recall": lambda given, kw: {"deck_texts": list(given["statements"]), "source": kw["expected_output"],
                                             "context": list(kw["nodes"])},
        "contextual_relevancy": lambda given, kw: {"deck_texts": [s for node in given["node_statements"] for s in node],
                                                   "source": "\n".join(kw["nodes"])},
        "faithfulness": lambda given, kw: {"deck_texts": list(given["claims"]), "source": kw["answer"],
                                           "context": list(kw["context"])},
        "answer_relevancy": lambda given, kw: {"deck_texts": list(given["statements"]), "source": kw["answer"],
                                               "context": [kw["question"]]},
        "answer_correctness": _answer_correctness_side,
        "context_entity_recall": lambda given, kw: {
            "deck_entities": (tuple(given["reference_entities"]), tuple(given["context_entities"]))},
    })


def _deck_side(case: DeckCase, given: dict[str, Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The deck's item texts (and answer-correctness kinds), and the text the items should come from."""
    side = _DECK_SIDE.get(case.step)
    return side(given, kwargs) if side else {}



def agreement(runs: Sequence[DeckRun], steps: Iterable[str] | None = None) -> dict[str, Any]:
    """Percent agreement and Cohen's kappa over the verdicts on items that match by content.

    ``cases`` counts the runs that contributed at least one matched item. Pooling several
    steps mixes different judging tasks: prefer :func:`metric_agreement`, one step at a time."""
    runs = _runs(runs)
    wanted = set(text_list("steps", steps, iterators=True)) if steps is not None else None
    deck_all: list[str] = []
    judge_all: list[str] = []
    used = 0
    for run in runs:
        if wanted is None or run.case.step in wanted:
            deck, said = run.matched_verdicts()
            if deck:
                deck_all += deck
                judge_all += said
                used += 1
    n = len(judge_all)
    agree = sum(x == y for x, y in zip(judge_all, deck_all, strict=True))
    return {"cases": used, "items": n, "agree": agree, "percent": 100 * agree / n if n else float("nan"),
            "kappa": cohen_kappa(judge_all, deck_all, level=None).score if n else float("nan")}


def _runs(runs: Any) -> list[DeckRun]:
    """The runs of :func:`run_deck_cases`, checked."""
    return [instance(f"runs[{i}]", run, DeckRun, "a DeckRun (course.deck_cases.run_deck_cases())")
            for i, run in enumerate(as_list("runs", runs, "the runs of course.deck_cases.run_deck_cases()"))]


def _as_verdict(value: Any) -> str:
    if value == "not_mentioned":   # word overlap cannot see a contradiction: "not in the context" is DeepEval's idk
        return "idk"
    return "no" if value in (None, "not_relevant", "no") else "yes"


#: Per judge step: the word-overlap baseline that judges its items, and the deck inputs it compares them with.
_BASELINE: MetricTable[tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = MetricTable(
    "the baseline of each deck case's step", {
        "context_precision": ("context_precision", lambda kw: {"reference": kw["expected_output"]}),
        "context_recall": ("context_recall", lambda kw: {"contexts": list(kw["nodes"])}),
        "faithfulness": ("faithfulness", lambda kw: {"contexts": list(kw["context"])}),
        "answer_relevancy": ("answer_relevancy", lambda kw: {"question": kw["question"]}),
        "contextual_relevancy": ("answer_relevancy", lambda kw: {"question": kw["question"]}),
    })


def baseline_verdicts(run: DeckRun) -> list[str] | None:
    """The word-overlap baseline's yes/no on each of the deck's items (:func:`ragmetrics_edu.baselines.verdicts`).

    Context precision: the node against the expected answer; context recall: the statement
    against the best node; faithfulness: the claim against the context; answer relevancy and
    contextual relevancy: the statement against the question. None for a step with no such rule
    (answer correctness, entity recall, the embedding form of answer relevancy)."""
    run = instance("run", run, DeckRun, "a DeckRun (course.deck_cases.run_deck_cases())")
    texts, kw, step = run.deck_texts or [], run.inputs, run.case.step
    if not texts:
        return None
    rule = _BASELINE.get(step)
    if rule is None:
        return None
    metric, inputs = rule
    out = baselines.verdicts(metric, texts, **inputs(kw))
    return [_as_verdict(v) for v in out]


def metric_agreement(runs: Sequence[DeckRun], step: str, *, seed: int = 0) -> dict[str, Any]:
    """One judging task: kappa (with its bootstrap interval) of deck vs judge and of deck vs the
    word-overlap baseline, on the same items, those that match by content.

    Returns ``{"judge": AgreementResult, "baseline": AgreementResult | None, "items", "cases",
    "left_out": [rows]}``; ``left_out`` names every deck or judge item that found no counterpart
    and every case that failed, with the deck's and the judge's scores."""
    step = identifier("step", step, "a judge step's name, e.g. 'context_precision'")
    checked_seed(seed)
    chosen = [r for r in _runs(runs) if r.case.step == step]
    if not chosen:
        steps = ", ".join(dict.fromkeys(r.case.step for r in _runs(runs)))
        raise InputError("step", f"a step with deck cases: {steps}", step)
    deck: list[str] = []
    said: list[str] = []
    base: list[str] = []
    left_out: list[dict[str, Any]] = []
    cases = 0
    for run in chosen:
        score = float("nan") if run.result is None else run.result.score
        if run.error is not None:
            left_out.append({"case": run.case.label, "side": "both", "item": run.error[:70],
                             "deck": run.deck.score, "judge": score})
            continue
        pairs = run.pairs
        base_all = baseline_verdicts(run)
        if pairs and run.deck_items is not None:
            cases += 1
            deck += [run.deck_items[i] for i, _ in pairs]
            said += [run.judge_items[j] for _, j in pairs]
            if base_all is not None:
                base += [base_all[i] for i, _ in pairs]
        hit_deck, hit_judge = {i for i, _ in pairs}, {j for _, j in pairs}
        left_out += [{"case": run.case.label, "side": "deck", "item": t, "deck": run.deck.score, "judge": score}
                     for i, t in enumerate(run.deck_texts or []) if i not in hit_deck]
        left_out += [{"case": run.case.label, "side": "judge", "item": t, "deck": run.deck.score, "judge": score}
                     for j, t in enumerate(run.judge_texts) if j not in hit_judge]
    if not deck:
        return {"judge": None, "baseline": None, "items": 0, "cases": 0, "left_out": left_out}
    return {"judge": cohen_kappa(deck, said, raters=("deck", "judge"), seed=seed),
            "baseline": cohen_kappa(deck, base, raters=("deck", "word overlap"), seed=seed) if len(base) == len(deck)
            else None, "items": len(deck), "cases": cases, "left_out": left_out}
