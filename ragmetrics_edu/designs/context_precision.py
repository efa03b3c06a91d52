"""Context precision (DeepEval, Ragas): a relevance verdict per retrieved node, then the ranking's precision.

One call for all nodes: the judge replies ``{"node_1": "yes"|"no", ...}`` (step ``context_precision``,
prompt ``prompts/context_precision.txt``); the arithmetic is :func:`ragmetrics_edu.metrics.context_precision`.
"""

from __future__ import annotations

from typing import Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, key_names, keyed_list, sized, verdict_request
from ..metrics import Ask, MetricSpec, RankingChoice, RankingView, Step, inputs
from ..results import MetricResult
from ..validate import flag, text, text_list
from .common import PROMPTS

__all__ = ["STEP", "SPEC", "context_precision"]

STEP = Step("context_precision", '{"node_1": "yes"|"no", ...}; short form: a list of verdicts',
            shorthand=keyed_list("node"), prompts=PROMPTS)


def context_precision(
    judge: Judge, question: str, nodes: Sequence[str], expected_output: str, *,
    variant: str = "deepeval", total_relevant: int | None = None, threshold: float | None = None,
    reason: bool = False,
) -> MetricResult:
    """Ask whether each retrieved node helps reach the expected output (1 call for all nodes),
    then score the ranking with :func:`ragmetrics_edu.metrics.context_precision`."""
    judge, reason = check_judge(judge), flag("reason", reason)
    question, expected_output = text("question", question), text("expected_output", expected_output)
    nodes = sized("nodes", text_list("nodes", nodes))
    calls = CallList()
    verdicts: list[str] = []
    if nodes:
        request = verdict_request(STEP, "context_precision", "node", len(nodes), idk=False,
                                  data={"question": question, "expected_output": expected_output,
                                        "nodes": Texts("node", nodes)})
        answer = ask(judge, request, calls)
        verdicts = [answer.data[k] for k in key_names("node", len(nodes))]
    result = metrics.context_precision(verdicts, variant, nodes=nodes, total_relevant=total_relevant,
                                       threshold=threshold, question=question)
    return finish(result, judge, calls, reason)


SPEC = metrics.register(MetricSpec(
    "context_precision", "Context precision", metrics.context_precision, component="retriever",
    ask=Ask(context_precision, ("judge", "question", "contexts", "ground_truth")),
    design="a relevance verdict per node", steps=(STEP,), verdict_column="relevant",
    view=RankingView((RankingChoice("Context precision (DeepEval)", "deepeval", "Context precision (DeepEval)"),
                      RankingChoice("Context precision (Ragas)", "ragas", "Context precision (Ragas)"),
                      RankingChoice("Context precision (average precision)", "average_precision", "Average precision"))),
    reads=inputs.RANKED_VERDICTS))
