"""The labelled set for judging the judge: cases, labels, their checks, and the labels as aligned vectors.

A case (:class:`Case`) holds the texts and, fixed per case, the items a judge decides: nodes, reference
statements, answer claims and answer statements. A labelling pass is a separate document, so a second
annotator can label from the cases alone. :func:`parse_labels` checks a pass against the cases (every
item labelled once, nothing extra, allowed values only) and :func:`label_vectors` flattens it into one
list per metric, in a fixed item order, ready for :func:`ragmetrics_edu.agreement.cohen_kappa`.
The course loads the shipped documents (``ragmetrics_edu.course.judge_study.labels``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...agreement import cohen_kappa
from ...errors import InputError
from ...metrics.registry import MetricTable
from ...validate import as_list, instance, integer

__all__ = ["Case", "ItemLabel", "CaseLabels", "PassLabels", "METRICS", "VALUES", "parse_cases", "parse_labels",
           "pairs", "content_key", "unit_of", "unique_items", "label_vectors", "item_keys", "Decision", "disagreements",
           "parse_decisions", "adjudicated", "annotator_agreement", "same_items_kwargs", "on_nodes"]

#: metric -> the case field holding its items and the key naming an item in a label
METRICS: MetricTable[tuple[str, str]] = MetricTable("the labelled set's metrics", {
    "context_precision": ("contexts", "node"),
    "context_recall": ("reference_statements", "statement"),
    "faithfulness": ("answer_claims", "claim"),
    "answer_relevancy": ("answer_statements", "statement"),
})
#: allowed labels per metric (context recall: a 1-based node number or None, checked against the case)
VALUES: MetricTable[tuple[str, ...]] = MetricTable("the labels allowed per metric", {
    "context_precision": ("yes", "no"),
    "faithfulness": ("supported", "contradicted", "not_mentioned"),
    "answer_relevancy": ("relevant", "not_relevant"),
})
ROLES = ("supported", "unsupported")


@dataclass(frozen=True)
class Case:
    """One RAG case and the items a judge decides on it."""

    id: str
    pair: str | None
    role: str | None
    tags: tuple[str, ...]
    question: str
    contexts: tuple[str, ...]
    answer: str
    reference: str
    reference_statements: tuple[str, ...]
    answer_claims: tuple[str, ...]
    answer_statements: tuple[str, ...]

    def items(self, metric: str) -> tuple[str, ...]:
        """The texts a judge decides for ``metric`` (nodes, statements or claims)."""
        field, _ = METRICS[check_metric(metric)]
        return getattr(self, field)


@dataclass(frozen=True)
class ItemLabel:
    """One annotator's label for one item. ``label`` is a node number or None for context recall."""

    item: int
    label: str | int | None
    rationale: str


@dataclass(frozen=True)
class CaseLabels:
    """One pass's labels for one case, one tuple per metric, in item order (item 1 first)."""

    case: str
    context_precision: tuple[ItemLabel, ...]
    context_recall: tuple[ItemLabel, ...]
    faithfulness: tuple[ItemLabel, ...]
    answer_relevancy: tuple[ItemLabel, ...]


@dataclass(frozen=True)
class PassLabels:
    """Every label of one annotation pass, keyed by case id (in the cases' order)."""

    name: str
    annotator: str
    cases: dict[str, CaseLabels]


def check_metric(metric: Any) -> str:
    """``metric`` if it is one of :data:`METRICS`, else an InputError."""
    if not isinstance(metric, str) or metric not in METRICS:
        raise InputError("metric", "one of " + ", ".join(METRICS), metric)
    return metric


def check_case(case: Any, field: str = "case") -> Case:
    """``case`` if it is a labelled :class:`Case` (from :func:`parse_cases`), else an InputError."""
    return instance(field, case, Case, "a labelled case (parse_cases())")


def check_cases(cases: Any) -> list[Case]:
    """A list of labelled cases (from :func:`parse_cases`), else an InputError."""
    return [check_case(c, f"cases[{i}]") for i, c in enumerate(as_list("cases", cases, "a list of labelled cases (parse_cases())"))]


def _texts(where: str, value: Any, low: int = 1, high: int | None = None) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) and t.strip() for t in value):
        raise InputError(where, "a list of non-empty strings", value)
    if len(value) < low or (high is not None and len(value) > high):
        raise InputError(where, f"between {low} and {high} items" if high else f"at least {low} item(s)", value)
    return tuple(value)


def _text(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(where, "a non-empty string", value)
    return value


def parse_cases(doc: Any) -> list[Case]:
    """Check and convert a cases document (the parsed ``cases.json``) into :class:`Case` objects."""
    if not isinstance(doc, dict) or not isinstance(doc.get("cases"), list) or not doc["cases"]:
        raise InputError("cases", "a document with a non-empty 'cases' list", doc)
    cases, seen = [], set()
    for n, raw in enumerate(doc["cases"]):
        where = f"cases[{n}]"
        if not isinstance(raw, dict):
            raise InputError(where, "an object", raw)
        cid = _text(where + ".id", raw.get("id"))
        if cid in seen:
            raise InputError(where + ".id", "a unique case id", cid)
        seen.add(cid)
        role = raw.get("role")
        if role is not None and role not in ROLES:
            raise InputError(f"{cid}.role", "'supported', 'unsupported' or absent", role)
        cases.append(Case(
            id=cid, pair=raw.get("pair"), role=role,
            tags=_texts(f"{cid}.tags", raw.get("tags", []), low=0),
            question=_text(f"{cid}.question", raw.get("question")),
            contexts=_texts(f"{cid}.contexts", raw.get("contexts"), 2, 6),
            answer=_text(f"{cid}.answer", raw.get("answer")),
            reference=_text(f"{cid}.reference", raw.get("reference")),
            reference_statements=_texts(f"{cid}.reference_statements", raw.get("reference_statements")),
            answer_claims=_texts(f"{cid}.answer_claims", raw.get("answer_claims")),
            answer_statements=_texts(f"{cid}.answer_statements", raw.get("answer_statements")),
        ))
    return cases


def on_nodes(metric: str) -> bool:
    """Whether ``metric``'s items are the case's contexts (:data:`METRICS`), so a node planted or moved is one of them."""
    return METRICS[check_metric(metric)][0] == "contexts"


def _label_value(where: str, metric: str, entry: dict[str, Any], case: Case) -> str | int | None:
    if metric not in VALUES:  # context recall: a node number, not a closed value
        if "node" not in entry:
            raise InputError(where + ".node", "a 1-based node number or null", "missing")
        node = entry["node"]
        if node is not None and (isinstance(node, bool) or not isinstance(node, int)
                                 or not 1 <= node <= len(case.contexts)):
            raise InputError(where + ".node", f"null or a node number 1..{len(case.contexts)}", node)
        return node
    value = entry.get("label")
    if value not in VALUES[metric]:
        raise InputError(where + ".label", "one of " + ", ".join(VALUES[metric]), value)
    return value


def _metric_labels(cid: str, metric: str, raw: Any, case: Case) -> tuple[ItemLabel, ...]:
    _, key = METRICS[metric]
    count = len(case.items(metric))
    where = f"{cid}.{metric}"
    if not isinstance(raw, list):
        raise InputError(where, f"a list of {count} labels (one per {key})", raw)
    found: dict[int, ItemLabel] = {}
    for entry in raw:
        if not isinstance(entry, dict):
            raise InputError(where, "label objects", entry)
        item = entry.get(key)
        if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= count:
            raise InputError(f"{where}.{key}", f"an existing {key} number 1..{count}", item)
        if item in found:
            raise InputError(f"{where}.{key}", f"each {key} labelled once", f"{key} {item} twice")
        at = f"{where}[{key} {item}]"
        value = _label_value(at, metric, entry, case)
        found[item] = ItemLabel(item, value, _text(at + ".rationale", entry.get("rationale")))
    missing = [i for i in range(1, count + 1) if i not in found]
    if missing:
        raise InputError(where, f"a label for every {key} 1..{count}", f"missing {key}(s) {missing}")
    return tuple(found[i] for i in range(1, count + 1))


def parse_labels(doc: Any, cases: list[Case], name: str = "labels") -> PassLabels:
    """Check a labels document against ``cases`` and convert it into :class:`PassLabels`.

    Raises :class:`~ragmetrics_edu.InputError` on a label for an unknown case or item, a case or
    item with no label or two, or a value outside :data:`VALUES` (context recall: a node number
    of that case, or null). Every label needs a non-empty rationale.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("labels"), list):
        raise InputError(name, "a document with a 'labels' list", doc)
    by_id = {c.id: c for c in cases}
    parsed: dict[str, CaseLabels] = {}
    for raw in doc["labels"]:
        cid = raw.get("case") if isinstance(raw, dict) else None
        if cid not in by_id:
            raise InputError(f"{name}.case", "the id of an existing case", cid)
        if cid in parsed:
            raise InputError(f"{name}.case", "each case labelled once", f"{cid} twice")
        case = by_id[cid]
        parsed[cid] = CaseLabels(cid, *(_metric_labels(cid, m, raw.get(m), case) for m in METRICS))
    missing = [c.id for c in cases if c.id not in parsed]
    if missing:
        raise InputError(name, "labels for every case", f"no labels for {missing}")
    annotator = doc.get("annotator", "")
    return PassLabels(str(doc.get("pass", name)), annotator if isinstance(annotator, str) else "",
                      {c.id: parsed[c.id] for c in cases})


def pairs(cases: list[Case]) -> list[tuple[Case, Case]]:
    """The (supported, unsupported) case pairs, in the order of their first case.

    A pair must hold exactly one case of each role with the same question, contexts and
    reference; anything else raises :class:`~ragmetrics_edu.InputError`.
    """
    cases = check_cases(cases)
    groups: dict[str, list[Case]] = {}
    for case in cases:
        if case.pair is not None:
            groups.setdefault(case.pair, []).append(case)
    result = []
    for pid, members in groups.items():
        roles = sorted(str(c.role) for c in members)
        if roles != list(ROLES):
            raise InputError(f"pair {pid}", "one supported and one unsupported case", roles)
        sup, uns = sorted(members, key=lambda c: ROLES.index(str(c.role)))
        if (sup.question, sup.contexts, sup.reference) != (uns.question, uns.contexts, uns.reference):
            raise InputError(f"pair {pid}", "both cases with the same question, contexts and reference",
                             [sup.id, uns.id])
        result.append((sup, uns))
    return result


def item_keys(labels: PassLabels, metric: str) -> list[str]:
    """Names of the items :func:`label_vectors` lists, in the same order, e.g. ``"p01a/claim 2"``."""
    labels = instance("labels", labels, PassLabels, "a pass's labels (parse_labels())")
    _, key = METRICS[check_metric(metric)]
    return [f"{cid}/{key} {lab.item}" for cid, case in labels.cases.items() for lab in getattr(case, metric)]


def label_vectors(labels: PassLabels, metric: str) -> list[str]:
    """One pass's labels for ``metric`` as a flat list, item by item in case order.

    Two passes over the same cases give aligned lists (same length, same item at each position;
    :func:`item_keys` names them), ready for ``cohen_kappa``. Context recall's node numbers become
    strings ("1", "2", ...) and ``None`` becomes ``"none"``, so "which node" is what is compared.
    """
    if not isinstance(labels, PassLabels):
        raise InputError("labels", "PassLabels from parse_labels()", labels)
    metric = check_metric(metric)
    return ["none" if lab.label is None else str(lab.label)
            for case in labels.cases.values() for lab in getattr(case, metric)]


@dataclass(frozen=True)
class Decision:
    """The adjudicated label of one item on which two passes differ."""

    case: str
    metric: str
    item: int
    pass1: str | int | None
    pass2: str | int | None
    final: str | int | None
    reason: str


def disagreements(first: PassLabels, second: PassLabels) -> list[tuple[str, str, int, Any, Any]]:
    """Every item two passes label differently: (case, metric, item, first's label, second's label)."""
    for field, value in (("first", first), ("second", second)):
        if not isinstance(value, PassLabels):
            raise InputError(field, "PassLabels from parse_labels()", value)
    if list(first.cases) != list(second.cases):
        raise InputError("second", f"labels for the same cases as {first.name}", sorted(second.cases))
    out = []
    for cid, case in first.cases.items():
        for metric in METRICS:
            for a, b in zip(getattr(case, metric), getattr(second.cases[cid], metric), strict=True):
                if a.label != b.label:
                    out.append((cid, metric, a.item, a.label, b.label))
    return out


def parse_decisions(doc: Any, first: PassLabels, second: PassLabels) -> list[Decision]:
    """Check an adjudication document: one decision per disagreement of the two passes (no more, no fewer),
    each final label taken from one of the passes, with a reason."""
    if not isinstance(doc, dict) or not isinstance(doc.get("decisions"), list):
        raise InputError("adjudication", "an object with a 'decisions' list", type(doc).__name__)
    decisions = []
    for i, raw in enumerate(doc["decisions"]):
        try:
            decision = Decision(**raw)
        except TypeError:
            raise InputError(f"decisions[{i}]", "case, metric, item, pass1, pass2, final and reason", raw) from None
        if decision.final not in (decision.pass1, decision.pass2) or not str(decision.reason).strip():
            raise InputError(f"decisions[{i}]", "a final label taken from one of the passes, with a reason", raw)
        decisions.append(decision)
    found = {(d.case, d.metric, d.item, d.pass1, d.pass2) for d in decisions}
    wanted = set(disagreements(first, second))
    if found != wanted:
        raise InputError("adjudication", "exactly one decision per disagreement of the two passes",
                         sorted(found ^ wanted, key=str)[:5])
    return decisions


def adjudicated(first: PassLabels, decisions: list[Decision]) -> PassLabels:
    """``first``'s labels with every adjudicated disagreement replaced by its final label."""
    first = instance("first", first, PassLabels, "a pass's labels (parse_labels())")
    found = as_list("decisions", decisions, "decisions (parse_decisions())")
    final = {(d.case, d.metric, d.item): d
             for d in (instance(f"decisions[{i}]", d, Decision, "a Decision") for i, d in enumerate(found))}
    cases = {}
    for cid, case in first.cases.items():
        per_metric = {}
        for metric in METRICS:
            per_metric[metric] = tuple(
                ItemLabel(lab.item, final[(cid, metric, lab.item)].final, final[(cid, metric, lab.item)].reason)
                if (cid, metric, lab.item) in final else lab
                for lab in getattr(case, metric))
        cases[cid] = CaseLabels(cid, **per_metric)
    return PassLabels("adjudicated", f"{first.name} with the adjudicated disagreements", cases)


def content_key(case: Case, metric: str, index: int) -> tuple[Any, ...]:
    """What a verdict on item ``index`` of ``case`` depends on: the metric's inputs and the item's text.

    The two cases of a pair share question, contexts and reference, so their context-precision and
    context-recall items have the same key: one item, judged (and labelled) twice. Count it once.
    """
    case, metric = check_case(case), check_metric(metric)
    items = case.items(metric)
    index = integer("index", index, low=0, high=10**9, expected="an item index of the case (0-based)")
    if index >= len(items):
        raise InputError("index", f"an item index of the case (it has {len(items)} {metric} items)", index)
    return (metric, *_ITEM_INPUTS[metric](case), items[index])


#: Per labelled metric: the case's inputs an item is judged with (an item's content key holds them).
_ITEM_INPUTS: MetricTable[Callable[[Case], tuple[Any, ...]]] = MetricTable("the inputs an item is judged with", {
    "context_precision": lambda case: (case.question, case.reference, tuple(case.contexts)),
    "context_recall": lambda case: (case.question, case.reference, tuple(case.contexts)),
    "faithfulness": lambda case: (case.question, tuple(case.contexts), case.answer),
    "answer_relevancy": lambda case: (case.question, case.answer)})


def unit_of(case: Case) -> str:
    """The independent unit a case belongs to: its pair (both answers share question and context), or itself."""
    case = check_case(case)
    return case.pair or case.id


def unique_items(metric: str, cases: list[Case]) -> list[tuple[str, int, str]]:
    """``(case id, item index, unit)`` of each distinct item of ``metric`` in case order, first occurrence kept
    (:func:`content_key`); the unit is the pair (:func:`unit_of`), the group to resample."""
    metric, cases = check_metric(metric), check_cases(cases)
    seen: set[tuple[Any, ...]] = set()
    out = []
    for case in cases:
        for i in range(len(case.items(metric))):
            key = content_key(case, metric, i)
            if key not in seen:
                seen.add(key)
                out.append((case.id, i, unit_of(case)))
    return out


def annotator_agreement(a: PassLabels, b: PassLabels, cases: list[Case], seed: int = 0) -> dict[str, Any]:
    """Cohen's kappa between two label passes of ``cases``, per metric, on each distinct item once
    (:func:`unique_items`), the interval resampling pairs."""
    for field, value in (("a", a), ("b", b)):
        instance(field, value, PassLabels, "a pass's labels (parse_labels())")
    out = {}
    for metric in METRICS:
        keep = unique_items(metric, cases)
        la, lb = label_vectors(a, metric), label_vectors(b, metric)
        names = [(cid, lab.item) for cid, case in a.cases.items() for lab in getattr(case, metric)]
        chosen = [_position(names, cid, i) for cid, i, _ in keep]
        out[metric] = cohen_kappa([la[j] for j in chosen], [lb[j] for j in chosen], raters=(a.name, b.name), seed=seed,
                                  groups=[unit for _, _, unit in keep])
    return out


def _position(names: list[tuple[str, Any]], case_id: str, index: int) -> int:
    """Where item ``index`` (0-based) of ``case_id`` sits in a pass's flat label list."""
    return [i for i, (cid, _) in enumerate(names) if cid == case_id][index]


def same_items_kwargs(case: Case, metric: str) -> dict[str, Any]:
    """The keyword arguments that put ``case``'s own items to a judge, e.g.
    ``designs.faithfulness(judge, **same_items_kwargs(case, "faithfulness"))``.

    The judge then gives only the verdicts, on exactly the items the labels are about, so
    verdict agreement is measured on identical items (context precision always is: its items
    are the nodes).
    """
    case, metric = check_case(case), check_metric(metric)
    return _SAME_ITEMS[metric](case)


#: Per labelled metric: the judge step's keyword arguments that hold the case's own items.
_SAME_ITEMS: MetricTable[Callable[[Case], dict[str, Any]]] = MetricTable("the same-items arguments", {
    "context_precision": lambda case: {"question": case.question, "nodes": list(case.contexts),
                                       "expected_output": case.reference},
    "context_recall": lambda case: {"expected_output": case.reference, "nodes": list(case.contexts),
                                    "question": case.question, "statements": list(case.reference_statements)},
    "faithfulness": lambda case: {"answer": case.answer, "context": list(case.contexts), "question": case.question,
                                  "claims": list(case.answer_claims)},
    "answer_relevancy": lambda case: {"question": case.question, "answer": case.answer,
                                      "statements": list(case.answer_statements)}})
