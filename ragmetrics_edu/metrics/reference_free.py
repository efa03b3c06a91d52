"""Context precision without a reference: each node judged against the system's own answer.

Ragas has two context precisions with the same arithmetic (average precision over the
ranked nodes, divided by the relevant nodes plus 1e-10) but different judging:

- ``LLMContextPrecisionWithReference``: "was this node useful to arrive at the
  *reference* answer?" (needs a reference; judges the retriever against the truth);
- ``LLMContextPrecisionWithoutReference``: "was this node useful to arrive at the
  *response*?" (no reference; judges which nodes the generated answer drew on).

Both live in ``ragas/metrics/_context_precision.py``; ``ContextUtilization`` there is a
subclass of ``LLMContextPrecisionWithoutReference`` that only renames it (and
``ragas/metrics/collections/context_precision/metric.py`` repeats the pair as
``ContextPrecisionWithoutReference`` and ``ContextUtilization``). So "context utilisation"
is this metric under another name, not a different formula.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ..cores import computed_by
from ..results import MetricResult
from ..validate import text
from .context_precision import context_precision

NOTE = ("Each node was judged against the answer, not a reference: a node the answer used counts as "
        "relevant even if the answer is wrong, and a node holding the truth that the answer ignored counts "
        "as irrelevant. Ragas: LLMContextPrecisionWithoutReference, alias ContextUtilization.")


@computed_by("context_precision")
def context_precision_without_reference(
    verdicts: Sequence[Any], *, nodes: Sequence[str] | None = None, question: str | None = None,
    answer: str | None = None, threshold: float | None = None,
) -> MetricResult:
    """Ragas' reference-free context precision (context utilisation) from per-node verdicts.

    ``verdicts``: one per retrieved node, in rank order: was the node useful for the
    *answer*? The score is :func:`~ragmetrics_edu.metrics.context_precision` with
    ``variant="ragas"`` (the same average precision with the 1e-10 in the denominator).
    """
    result = context_precision(verdicts, "ragas", nodes=nodes, threshold=threshold, question=question)
    inputs = dict(result.inputs)
    if answer is not None:
        inputs["answer"] = text("answer", answer)
    narrative = [result.narrative[0].replace("relevant (1)", "used for the answer (1)"), *result.narrative[1:]]
    return replace(result, metric="context_precision_without_reference", narrative=narrative,
                   notes=[NOTE, *result.notes], inputs=inputs)


#: Ragas' ``ContextUtilization`` is the same metric under another name.
context_utilization = context_precision_without_reference
