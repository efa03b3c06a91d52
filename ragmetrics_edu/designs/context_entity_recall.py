"""Context entity recall (Ragas): the entities of the reference and of the context, then their overlap.

One call returning both lists (step ``context_entity_recall``, prompt ``prompts/context_entity_recall.txt``);
the arithmetic is :func:`ragmetrics_edu.metrics.context_entity_recall`.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, make_request, sized
from ..metrics import Ask, MetricSpec, Step, inputs
from ..results import MetricResult
from ..validate import flag, text, text_list
from .common import PROMPTS, models

__all__ = ["STEP", "SPEC", "context_entity_recall"]


def _two_lists(answer: Any) -> Any:
    if isinstance(answer, (list, tuple)) and len(answer) == 2:
        return {"reference_entities": list(answer[0]), "context_entities": list(answer[1])}
    return answer


STEP = Step("context_entity_recall",
            '{"reference_entities": [str], "context_entities": [str]}; short form: (reference, context)',
            shorthand=_two_lists, schema=lambda: models().Entities, prompts=PROMPTS)


def context_entity_recall(
    judge: Judge, reference: str, nodes: Sequence[str], *, normalize: bool = False,
    threshold: float | None = None, reason: bool = False,
) -> MetricResult:
    """Extract the entities of the reference and of the context (1 call returning both
    lists), then score with :func:`ragmetrics_edu.metrics.context_entity_recall`."""
    judge, reason = check_judge(judge), flag("reason", reason)
    reference = text("reference", reference)
    nodes = sized("nodes", text_list("nodes", nodes))
    request = make_request(STEP, "context_entity_recall", None,
                           'a JSON object {"reference_entities": [...], "context_entities": [...]}',
                           data={"reference": reference, "nodes": Texts("node", nodes, "(no nodes were retrieved)")})
    calls = CallList()
    answer = ask(judge, request, calls)
    result = metrics.context_entity_recall(answer.data["reference_entities"], answer.data["context_entities"],
                                           normalize=normalize, threshold=threshold)
    return finish(result, judge, calls, reason)


SPEC = metrics.register(MetricSpec(
    "context_entity_recall", "Context entity recall", metrics.context_entity_recall, component="retriever",
    ask=Ask(context_entity_recall, ("judge", "ground_truth", "contexts")), design="entities, then set overlap",
    steps=(STEP,), reads=inputs.ENTITY_LISTS))
