"""Classic ranking measures, to set beside context precision: P@k, R@k, AP, MAP, RR, MRR, nDCG,
hit@k, hit rate@k, R-precision.

- :mod:`.precision` - the per-k precision terms: average precision and the engine behind
  :func:`ragmetrics_edu.metrics.context_precision`'s three variants;
- :mod:`.measures` - every other measure, with trec_eval's cut-off and empty-list conventions.

Each returns a :class:`~ragmetrics_edu.results.MetricResult`; :mod:`ragmetrics_edu.metrics`
re-exports them all.
"""

from __future__ import annotations

from .measures import (
    hit_at_k,
    hit_rate_at_k,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)
from .precision import average_precision

__all__ = ["average_precision", "hit_at_k", "hit_rate_at_k", "mean_average_precision", "mean_reciprocal_rank",
           "ndcg_at_k", "precision_at_k", "r_precision", "recall_at_k", "reciprocal_rank"]
