"""The reply models of the built-in designs' steps (plain annotations on :class:`~ragmetrics_edu.judges.schemas.Strict`).

Each design's :class:`~ragmetrics_edu.metrics.Step` contracts name theirs; the building blocks (the verdict
words, a strict object, a keyed object) are the judges' own (:mod:`ragmetrics_edu.judges.schemas`).
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from ..judges.schemas import Before, Strict, YesNo, rubric_score_model, word

#: a node number or null (context recall's attribution of a given statement)
NodeOrNull = Optional[int]


class Claims(Strict):
    """The claims of an answer (faithfulness, step 1)."""

    claims: list[str]


class GeneratedAnswer(Strict):
    """A RAG system's answer (the capstone's generator, not a judge step)."""

    answer: str


class Statements(Strict):
    """The statements of an answer (answer relevancy, step 1)."""

    statements: list[str]


class AttributedStatement(Strict):
    """A statement of the expected output and the node it comes from (None: no node)."""

    statement: str
    node: Optional[int]


class Attribution(Strict):
    """Context recall: every statement of the expected output, attributed."""

    statements: list[AttributedStatement]


class JudgedStatement(Strict):
    """A statement taken from a node and whether it is relevant to the question."""

    statement: str
    verdict: YesNo


#: a node's statements, each judged (contextual relevancy's value per node)
JudgedStatements = list[JudgedStatement]


class GeneratedQuestion(Strict):
    """A question the answer would answer, and whether the answer is noncommittal."""

    question: str
    noncommittal: bool


class Entities(Strict):
    """Context entity recall: the entities of the reference and of the context."""

    reference_entities: list[str]
    context_entities: list[str]


class CorrectnessStatements(Strict):
    """Answer correctness, step 1: statements of the answer and of the ground truth."""

    answer_statements: list[str]
    ground_truth_statements: list[str]


class QuotedVerdict(Strict):
    """A three-way faithfulness verdict with the context's words that decide it (checked by string matching)."""

    verdict: Annotated[Literal["supported", "contradicted", "not_mentioned"], Before(word)]
    quote: str


class SupportVerdict(Strict):
    """Is the claim supported? With the context's words that support it."""

    verdict: Annotated[Literal["supported", "not_supported"], Before(word)]
    quote: str


class EvaluationSteps(Strict):
    """G-Eval's evaluation steps, written by the judge from the criteria (step 1)."""

    steps: list[str]


class Verdict(Strict):
    """An aspect critic's vote: does the answer meet the aspect?"""

    verdict: YesNo


def rubric_score(low: int, high: int) -> type[Strict]:
    """G-Eval's score reply: one whole number from ``low`` to ``high`` (an enum, so a grammar allows only these)."""
    return rubric_score_model(low, high)
