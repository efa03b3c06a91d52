"""The per-k precision terms behind average precision and context precision.

For a ranked list with relevance r_k (1 relevant, 0 not), walk down the ranking: at each k the
precision of the first k items times r_k is a term; the score is the sum of the terms over a
denominator D. Classic average precision divides by every relevant document in the corpus
(``total_relevant``); context precision's variants (:mod:`ragmetrics_edu.metrics.context_precision`)
divide by the relevant items retrieved (DeepEval) or that plus 1e-10 (Ragas). One walk, three
denominators: :func:`per_k_precision` builds the result for each.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import computed_by
from ..cores import context_precision as context_precision_core
from ..results import MetricResult
from .checks import precision_total, relevance_flags
from .precision_explained import GENERAL, precision_result

VARIANTS = ("deepeval", "ragas", "average_precision")
RAGAS_EPSILON = context_precision_core.RAGAS_EPSILON


@computed_by("context_precision")
def per_k_precision(flags: list[int], variant: str, *, texts: list[str] | None = None,
                    total_relevant: int | None = None, threshold: float | None = None,
                    question: str | None = None) -> MetricResult:
    """The per-k terms of ``flags`` (checked 1/0) summed over the ``variant``'s denominator, as a
    ``context_precision`` result with every step (``variant`` one of :data:`VARIANTS`; ``total_relevant``
    checked here)."""
    total_relevant = precision_total(variant, total_relevant, flags)
    score, rows, values = context_precision_core.context_precision(flags, variant, total_relevant)
    return precision_result(score, rows, values, variant, flags, texts, total_relevant, threshold, question)


@computed_by("context_precision")
def average_precision(relevance: Sequence[Any], total_relevant: int | None = None) -> MetricResult:
    """Classic average precision: the per-k terms of context precision over ``total_relevant``."""
    result = per_k_precision(relevance_flags(relevance), "average_precision", total_relevant=total_relevant)
    result.metric, result.variant = "average_precision", None
    return result


__all__ = ["GENERAL", "RAGAS_EPSILON", "VARIANTS", "average_precision", "per_k_precision", "relevance_flags"]
