"""Contextual relevancy (DeepEval): each node's statements, each judged relevant to the question or not.

One call for all nodes (step ``contextual_relevancy``, prompt ``prompts/contextual_relevancy.txt``); the
arithmetic is :func:`ragmetrics_edu.metrics.contextual_relevancy`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, key_names, make_request, sized
from ..judges.schemas import keyed
from ..metrics import Ask, MetricSpec, Shape, StatementView, Step, inputs
from ..results import MetricResult
from ..validate import flag, text, text_list
from .common import PROMPTS, models

__all__ = ["STEP", "SPEC", "contextual_relevancy"]


def _per_node(answer: Any) -> Any:
    if isinstance(answer, (list, tuple)):
        return {k: [dict(s) if isinstance(s, Mapping) else {"statement": s[0], "verdict": s[1]} for s in items]
                for k, items in zip(key_names("node", len(answer)), answer, strict=True)}
    return answer


STEP = Step("contextual_relevancy", '{"node_1": [{"statement": str, "verdict": "yes"|"no"}], ...}; '
            "short form: per node a list of (statement, verdict)", shorthand=_per_node, prompts=PROMPTS)


def contextual_relevancy(
    judge: Judge, question: str, nodes: Sequence[str], *, variant: str = "deepeval",
    threshold: float | None = None, reason: bool = False,
) -> MetricResult:
    """Extract every node's statements and judge each against the question (1 call for
    all nodes), then score with :func:`ragmetrics_edu.metrics.contextual_relevancy`."""
    judge, reason = check_judge(judge), flag("reason", reason)
    question = text("question", question)
    nodes = sized("nodes", text_list("nodes", nodes))
    calls = CallList()
    node_statements: list[list[str]] = []
    node_verdicts: list[list[str]] = []
    if nodes:

        keys = key_names("node", len(nodes))
        model = keyed(f"contextual_relevancy_{len(nodes)}", keys, models().JudgedStatements)
        request = make_request(STEP, "contextual_relevancy", model,
                               f"a JSON object with exactly the {len(nodes)} keys {', '.join(keys)}, each a list of "
                               '{"statement": "...", "verdict": "yes" or "no"}',
                               data={"question": question, "nodes": Texts("node", nodes)}, keys=", ".join(keys))
        answer = ask(judge, request, calls)
        node_statements = [[s["statement"] for s in answer.data[k]] for k in keys]
        node_verdicts = [[s["verdict"] for s in answer.data[k]] for k in keys]
    result = metrics.contextual_relevancy(node_statements, node_verdicts, nodes=nodes, variant=variant,
                                          threshold=threshold, question=question)
    return finish(result, judge, calls, reason)


SPEC = metrics.register(MetricSpec(
    "contextual_relevancy", "Contextual relevancy", metrics.contextual_relevancy, component="retriever",
    ask=Ask(contextual_relevancy, ("judge", "question", "contexts")), design="relevant statements per node",
    steps=(STEP,), verdict_column="verdict",
    view=StatementView(Shape.PER_NODE, ("relevant", "relevant"),
                       hint="is each statement extracted from the retrieved nodes relevant to the question?"),
    reads=inputs.VERDICTS_PER_NODE))
