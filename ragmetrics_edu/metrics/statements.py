"""Metrics that count judged statements: context recall, contextual relevancy, faithfulness and answer
relevancy (statement form).

Each takes the statements (or claims) and one verdict per statement, as a judge or a person gave them,
and returns the share that counts. Each function checks its input, calls its core (the arithmetic, in
:mod:`ragmetrics_edu.cores`: ``metrics.show_code(name)`` shows it) and builds the result, explained by
:mod:`.ratio_explained`. Where DeepEval and Ragas disagree (what ``idk`` is worth, what an empty list
scores) both are offered as named variants.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import answer_relevancy as answer_relevancy_core
from ..cores import computed_by
from ..cores import context_recall as context_recall_core
from ..cores import contextual_relevancy as contextual_relevancy_core
from ..cores import faithfulness as faithfulness_core
from ..results import MetricResult
from ..validate import as_list, choice, flag, probability, same_length, text_list, verdict_list
from .checks import attribution
from .ratio_explained import (
    answer_relevancy_text,
    context_recall_text,
    contextual_relevancy_text,
    faithfulness_text,
    ratio_result,
)


@computed_by("context_recall")
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
    attributed = attribution(nodes, marks)
    threshold = probability("threshold", threshold)

    score, rows, values = context_recall_core.context_recall(items, marks, variant)

    for row, node in zip(rows, attributed, strict=True):
        row["node"] = node
    words, narrative, notes = context_recall_text(variant, len(items), attributed, nodes is not None,
                                                  values["attributable"])
    return ratio_result("context_recall", variant, (score, rows, values), (*context_recall_core.COLUMNS, "node"),
                        words, narrative, notes, threshold,
                        {"statements": items, "verdicts": marks, "nodes": attributed, "question": question})


@computed_by("contextual_relevancy")
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
    items, marks = [], []
    for n, (stmts, verdicts) in enumerate(zip(node_statements, node_verdicts, strict=True)):
        items.append(text_list(f"node_statements[{n}]", stmts))
        marks.append(verdict_list(f"node_verdicts[{n}]", verdicts))
        same_length(f"node_statements[{n}]", items[-1], f"node_verdicts[{n}]", marks[-1])
    threshold = probability("threshold", threshold)

    core = contextual_relevancy_core.contextual_relevancy(items, marks)

    words, narrative, notes = contextual_relevancy_text(variant, marks)
    return ratio_result("contextual_relevancy", variant, core, contextual_relevancy_core.COLUMNS, words, narrative,
                        notes, threshold,
                        {"node_statements": [list(s) for s in node_statements], "nodes": nodes, "question": question})


@computed_by("faithfulness")
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
    threshold = probability("threshold", threshold)

    core = faithfulness_core.faithfulness(items, marks, variant, penalize_ambiguous)

    words, narrative, notes = faithfulness_text(variant, penalize_ambiguous, marks)
    return ratio_result("faithfulness", variant, core, faithfulness_core.COLUMNS, words, narrative, notes, threshold,
                        {"claims": items, "verdicts": marks, "context": context})


@computed_by("answer_relevancy")
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
    threshold = probability("threshold", threshold)

    core = answer_relevancy_core.answer_relevancy(items, marks)

    words, narrative, notes = answer_relevancy_text(marks)
    return ratio_result("answer_relevancy", "deepeval", core, answer_relevancy_core.COLUMNS, words, narrative, notes,
                        threshold, {"statements": items, "verdicts": marks, "question": question})
