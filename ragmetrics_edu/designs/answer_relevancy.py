"""Answer relevancy, DeepEval's statement form: the answer's statements, then a relevance verdict each.

Two calls: step ``answer_relevancy.statements`` (prompt ``prompts/answer_relevancy_statements.txt``), then
``answer_relevancy.verdicts`` (``prompts/answer_relevancy_verdicts.txt``); given statements skip the first.
The arithmetic is :func:`ragmetrics_edu.metrics.answer_relevancy`.
"""

from __future__ import annotations

from typing import Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import (
    MAX_ITEMS,
    ask,
    check_judge,
    extracted,
    finish,
    key_names,
    keyed_list,
    list_field,
    make_request,
    verdict_request,
)
from ..judges.same_items import given_items, mark_given
from ..metrics import Ask, MetricSpec, Shape, StatementView, Step, inputs
from ..results import MetricResult
from ..validate import flag, text
from .common import PROMPTS, models

__all__ = ["STATEMENTS", "VERDICTS", "SPEC", "answer_relevancy"]

STATEMENTS = Step("answer_relevancy.statements", '{"statements": [str]}; short form: a list of statements',
                  shorthand=list_field("statements"), schema=lambda: models().Statements, prompts=PROMPTS)
VERDICTS = Step("answer_relevancy.verdicts", '{"statement_1": "yes"|"no"|"idk", ...}; short form: a list of verdicts',
                shorthand=keyed_list("statement"), prompts=PROMPTS)


def answer_relevancy(
    judge: Judge, question: str, answer: str, *, threshold: float | None = None, reason: bool = False,
    statements: Sequence[str] | None = None,
) -> MetricResult:
    """DeepEval's statement form: extract the answer's statements (call 1), judge each
    against the question (call 2), then score with :func:`ragmetrics_edu.metrics.answer_relevancy`.

    With ``statements`` given, call 1 is skipped and the verdict step judges exactly those."""
    judge, reason = check_judge(judge), flag("reason", reason)
    question, answer_text = text("question", question), text("answer", answer)
    given = None if statements is None else given_items("statements", statements, MAX_ITEMS)
    calls = CallList()
    if given is None:
        first = ask(judge, make_request(STATEMENTS, "answer_relevancy_statements", None,
                                       'a JSON object {"statements": ["...", ...]}', data={"answer": answer_text}), calls)
        statements = first.data["statements"]
    else:
        statements = given
    statements = list(statements)
    verdicts: list[str] = []
    extracted(STATEMENTS.name, "statements", statements)
    if statements:
        second = ask(judge, verdict_request(VERDICTS, "answer_relevancy_verdicts", "statement", len(statements),
                                            idk=True,
                                            data={"question": question, "statements": Texts("statement", statements)}),
                     calls)
        verdicts = [second.data[k] for k in key_names("statement", len(statements))]
    result = metrics.answer_relevancy(statements, verdicts, question=question, threshold=threshold)
    if given is not None:
        mark_given(result, "statements", given, STATEMENTS.name)
    return finish(result, judge, calls, reason)


SPEC = metrics.register(MetricSpec(
    "answer_relevancy", "Answer relevancy", metrics.answer_relevancy, component="generator",
    ask=Ask(answer_relevancy, ("judge", "question", "answer")), design="statements, then a relevance verdict each",
    steps=(STATEMENTS, VERDICTS), verdict_column="verdict", variants=("deepeval",),
    view=StatementView(Shape.STATEMENTS, ("relevant", "relevant"), idk=True,
                       hint="does each statement of the answer address the question (idk: ambiguous)?"),
    reads=inputs.STATEMENT_VERDICTS,
    example=dict(statements=["AI simulates intelligence.", "It is sunny."], verdicts=["yes", "idk"],
                 question="What is AI?")))
