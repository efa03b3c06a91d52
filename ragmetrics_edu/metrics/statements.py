"""Metrics that count judged statements: context recall, contextual relevancy,
faithfulness and answer relevancy (statement form).

Each takes the statements (or claims) and one verdict per statement, as a judge or a
person gave them, and returns the share that counts. Where DeepEval and Ragas disagree
(what ``idk`` is worth, what an empty list scores) both are offered as named variants.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import InputError
from ..results import MetricResult
from ..validate import IDK, NO, YES, as_list, choice, flag, plain, probability, same_length, text_list, verdict_list
from ._counting import NAN, ratio_result


def context_recall(
    statements: Sequence[str],
    verdicts: Sequence[Any],
    *,
    nodes: Sequence[int | None] | None = None,
    variant: str = "deepeval",
    threshold: float | None = None,
    question: str | None = None,
) -> MetricResult:
    """Share of the expected output's statements that the retrieved context supports.

    ``nodes`` optionally names, per statement, the 1-based index of the node it is
    attributed to (None where unsupported). No statements: DeepEval 0, Ragas NaN.
    """
    variant = choice("variant", variant, ("deepeval", "ragas"))
    items = text_list("statements", statements)
    marks = verdict_list("verdicts", verdicts)
    same_length("statements", items, "verdicts", marks)
    attribution = _attribution(nodes, marks)
    rows: list[dict[str, Any]] = [
        {"i": i, "statement": s, "verdict": v, "attributable": int(v == YES), "node": n}
        for i, (s, v, n) in enumerate(zip(items, marks, attribution, strict=True), start=1)
    ]
    counted = sum(r["attributable"] for r in rows)
    notes = []
    if variant == "ragas" and nodes is not None:
        notes.append("Ragas joins the retrieved chunks into one text and returns 1 or 0 per statement; "
                     "the node column here is the attribution given with the verdicts (as DeepEval reports it).")
    narrative = [f"Split the expected output into {len(items)} statements.",
                 "For each statement ask: can it be attributed to a node of the retrieved context?"]
    if nodes is not None and counted:
        used = sorted({n for n in attribution if n is not None})
        narrative.append("Supporting nodes: " + ", ".join(f"node {n}" for n in used) + ".")
    return ratio_result(
        metric="context_recall", variant=variant, rows=rows,
        columns=("i", "statement", "verdict", "attributable", "node"),
        counted=counted, total=len(items), numerator_name="attributable",
        numerator_label="attributable statements", item_word="statement",
        count_rule="the context supports",
        empty_score=0.0 if variant == "deepeval" else NAN,
        empty_note=("No statements: DeepEval defines the score as 0." if variant == "deepeval"
                    else "No statements: Ragas returns NaN (0/0), on purpose: there is nothing to recall."),
        narrative=narrative, notes=notes, threshold=probability("threshold", threshold),
        inputs={"statements": items, "verdicts": marks, "nodes": attribution, "question": question},
    )


def _attribution(nodes: Any, marks: list[str]) -> list[int | None]:
    if nodes is None:
        return [None] * len(marks)
    nodes = as_list("nodes", nodes, "a list with, per statement, a 1-based node index or None")
    same_length("verdicts", marks, "nodes", nodes)
    out: list[int | None] = []
    for i, (n, v) in enumerate(zip(nodes, marks, strict=True)):
        n = plain(n)
        if n is None:
            out.append(None)
        elif isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InputError(f"nodes[{i}]", "a 1-based node index (1, 2, ...) or None", n)
        elif v != YES:
            raise InputError(f"nodes[{i}]", "None for a statement judged not attributable", n)
        else:
            out.append(n)
    return out


def contextual_relevancy(
    node_statements: Sequence[Sequence[str]],
    node_verdicts: Sequence[Sequence[Any]],
    *,
    nodes: Sequence[str] | None = None,
    variant: str = "deepeval",
    threshold: float | None = None,
    question: str | None = None,
) -> MetricResult:
    """Share of all statements, extracted node by node, that are relevant to the question.

    ``variant="ragas_sentences"`` reads the items as sentences of the context, as the
    pre-0.2 Ragas ``context_relevancy`` did (|relevant sentences| / |sentences|); the
    arithmetic is the same. No statements at all gives 0 in both.
    """
    variant = choice("variant", variant, ("deepeval", "ragas_sentences"))
    node_statements = as_list("node_statements", node_statements, "a list with one list of statements per node")
    node_verdicts = as_list("node_verdicts", node_verdicts, "a list with one list of verdicts per node")
    same_length("node_statements", node_statements, "node_verdicts", node_verdicts)
    if nodes is not None:
        nodes = text_list("nodes", nodes)
        same_length("node_statements", node_statements, "nodes", nodes)
    word = "sentence" if variant == "ragas_sentences" else "statement"
    rows: list[dict[str, Any]] = []
    per_node: list[str] = []
    for n, (stmts, verdicts) in enumerate(zip(node_statements, node_verdicts, strict=True), start=1):
        items = text_list(f"node_statements[{n - 1}]", stmts)
        marks = verdict_list(f"node_verdicts[{n - 1}]", verdicts)
        same_length(f"node_statements[{n - 1}]", items, f"node_verdicts[{n - 1}]", marks)
        for s, v in zip(items, marks, strict=True):
            rows.append({"node": n, "statement": s, "verdict": v, "relevant": int(v == YES)})
        per_node.append(f"node {n}: {sum(v == YES for v in marks)} of {len(marks)}")
    counted = sum(r["relevant"] for r in rows)
    where = "the node" if len(node_statements) == 1 else f"each of the {len(node_statements)} nodes"
    narrative = [f"Extract the {word}s of {where} and judge each one relevant to the question or not.",
                 "Per node: " + "; ".join(per_node) + "."]
    notes = []
    if variant == "ragas_sentences":
        notes.append("Ragas (before 0.2) counted relevant sentences of the context, |S| / |T|; "
                     "Ragas 0.4 removed this metric.")
    return ratio_result(
        metric="contextual_relevancy", variant=variant, rows=rows,
        columns=("node", "statement", "verdict", "relevant"),
        counted=counted, total=len(rows), numerator_name="relevant",
        numerator_label=f"relevant {word}s", item_word=word, count_rule="are relevant",
        empty_score=0.0, empty_note=f"No {word}s in any node: the score is defined as 0.",
        narrative=narrative, notes=notes, threshold=probability("threshold", threshold),
        inputs={"node_statements": [list(s) for s in node_statements], "nodes": nodes, "question": question},
    )


def faithfulness(
    claims: Sequence[str],
    verdicts: Sequence[Any],
    variant: str = "deepeval",
    *,
    penalize_ambiguous: bool = False,
    context: Sequence[str] | None = None,
    threshold: float | None = None,
) -> MetricResult:
    """Share of the answer's claims that the retrieved context backs.

    Verdicts are yes (supported), no (contradicted) or idk (the context does not say;
    ``borderline`` is read as idk). DeepEval's rule is in
    ``deepeval/metrics/faithfulness/faithfulness.py``, ``FaithfulnessMetric._calculate_score``.
    ``deepeval`` counts everything but ``no`` (idk counts for the answer unless
    ``penalize_ambiguous``); ``ragas`` counts supported claims only. No claims:
    DeepEval 1.0, Ragas NaN.
    """
    variant = choice("variant", variant, ("deepeval", "ragas"))
    penalize_ambiguous = flag("penalize_ambiguous", penalize_ambiguous)
    items = text_list("claims", claims)
    marks = verdict_list("verdicts", verdicts, allow_idk=True)
    same_length("claims", items, "verdicts", marks)
    if context is not None:
        context = text_list("context", context)
    if variant == "deepeval":
        counts = {YES: 1, IDK: 0 if penalize_ambiguous else 1, NO: 0}
        rule = "the context does not contradict" if not penalize_ambiguous else "the context supports"
    else:
        counts = {YES: 1, IDK: 0, NO: 0}
        rule = "the context supports"
    rows: list[dict[str, Any]] = [{"i": i, "claim": c, "verdict": v, "counts": counts[v]} for i, (c, v) in enumerate(zip(items, marks, strict=True), 1)]
    notes = []
    if IDK in marks:
        notes.append("DeepEval counts an 'idk' claim (not in the context) as faithful"
                     + (" unless penalize_ambiguous is set; it is set here." if penalize_ambiguous else ".")
                     if variant == "deepeval" else
                     "Ragas judges each claim 1 or 0: an 'idk' claim is not supported, so it counts 0.")
    return ratio_result(
        metric="faithfulness", variant=variant, rows=rows, columns=("i", "claim", "verdict", "counts"),
        counted=sum(r["counts"] for r in rows), total=len(items), numerator_name="faithful",
        numerator_label="faithful claims", item_word="claim", count_rule=rule,
        empty_score=1.0 if variant == "deepeval" else NAN,
        empty_note=("No claims: DeepEval scores an answer with nothing to check as fully faithful (1.0)."
                    if variant == "deepeval" else "No claims: Ragas returns NaN (0/0)."),
        narrative=[f"Split the answer into {len(items)} claims.",
                   "Judge each claim against the retrieved context: yes, no, or idk."],
        notes=notes, threshold=probability("threshold", threshold),
        inputs={"claims": items, "verdicts": marks, "context": context},
    )


def answer_relevancy(
    statements: Sequence[str],
    verdicts: Sequence[Any],
    *,
    question: str | None = None,
    threshold: float | None = None,
) -> MetricResult:
    """DeepEval's statement form: share of the answer's statements relevant to the question.

    ``idk`` (ambiguous) counts as relevant, as in DeepEval; no statements gives 1.0. For
    Ragas' embedding form see :func:`answer_relevancy_embedding`.
    """
    items = text_list("statements", statements)
    marks = verdict_list("verdicts", verdicts, allow_idk=True)
    same_length("statements", items, "verdicts", marks)
    rows: list[dict[str, Any]] = [{"i": i, "statement": s, "verdict": v, "relevant": int(v != NO)} for i, (s, v) in enumerate(zip(items, marks, strict=True), 1)]
    notes = ["DeepEval counts an 'idk' statement as relevant."] if IDK in marks else []
    return ratio_result(
        metric="answer_relevancy", variant="deepeval", rows=rows, columns=("i", "statement", "verdict", "relevant"),
        counted=sum(r["relevant"] for r in rows), total=len(items), numerator_name="relevant",
        numerator_label="relevant statements", item_word="statement", count_rule="address the question",
        empty_score=1.0, empty_note="No statements: DeepEval defines the score as 1.0.",
        narrative=[f"Split the answer into {len(items)} statements.",
                   "Judge each statement: does it address the question (yes, no, idk)?"],
        notes=notes, threshold=probability("threshold", threshold),
        inputs={"statements": items, "verdicts": marks, "question": question},
    )
