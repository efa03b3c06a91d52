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
from ..validate import probability
from . import checks
from .ratio_explained import (
    answer_relevancy_result,
    context_recall_result,
    contextual_relevancy_result,
    faithfulness_result,
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
    variant, items, marks, attributed, threshold = checks.context_recall(variant, statements, verdicts, nodes,
                                                                         threshold)
    score, rows, values = context_recall_core.context_recall(items, marks, variant)
    return context_recall_result(score, rows, values, variant, items, marks, attributed, nodes is not None, threshold,
                                 question)


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
    variant, given, items, marks, nodes, threshold = checks.contextual_relevancy(variant, node_statements,
                                                                                 node_verdicts, nodes, threshold)
    score, rows, values = contextual_relevancy_core.contextual_relevancy(items, marks)
    return contextual_relevancy_result(score, rows, values, variant, given, marks, nodes, threshold, question)


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
    variant, penalize_ambiguous, items, marks, context, threshold = checks.faithfulness(
        variant, penalize_ambiguous, claims, verdicts, context, threshold)
    score, rows, values = faithfulness_core.faithfulness(items, marks, variant, penalize_ambiguous)
    return faithfulness_result(score, rows, values, variant, penalize_ambiguous, items, marks, context, threshold)


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
    items, marks = checks.statements_and_verdicts("statements", statements, verdicts, allow_idk=True)
    threshold = probability("threshold", threshold)
    score, rows, values = answer_relevancy_core.answer_relevancy(items, marks)
    return answer_relevancy_result(score, rows, values, items, marks, threshold, question)
