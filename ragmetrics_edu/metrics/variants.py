"""Every metric's variant names, in one place.

A variant is one peer's definition of a metric (DeepEval's, Ragas' legacy or collections API, the paper's).
This table is the only place the names are written: the checks (:mod:`ragmetrics_edu.metrics.checks`) refuse
any other, and a spec's ``variants`` (what the explorers, ``evaluate()`` and ``ragmetrics-edu score --variant``
offer) is read from it (:class:`~ragmetrics_edu.metrics.specs.MetricSpec` fills it in, and refuses a spec
that writes other names). Context precision's names are those of :mod:`ragmetrics_edu.ranking.precision`,
the lower layer that computes them.

A new metric with variants adds one line here (``tests/library/test_add_a_metric.py`` checks that every
function with a ``variant`` parameter has one).
"""

from __future__ import annotations

from ..ranking.precision import VARIANTS as PRECISION

__all__ = ["VARIANTS"]

FAITHFULNESS = ("deepeval", "ragas")

#: metric (or design) name -> its variant names
VARIANTS: dict[str, tuple[str, ...]] = {
    "context_precision": PRECISION,
    "context_recall": ("deepeval", "ragas"),
    "contextual_relevancy": ("deepeval", "ragas_sentences"),
    "context_entity_recall": ("ragas", "ragas_collections", "ragas_legacy"),
    "faithfulness": FAITHFULNESS,
    "faithfulness_checked": FAITHFULNESS,  # scored by faithfulness, so both its variants apply
    "answer_relevancy_embedding": ("ragas", "ragas_legacy", "ragas_collections"),
    "answer_correctness": ("ragas", "ragas_legacy", "ragas_collections"),
    "g_eval": ("paper", "deepeval"),
}
