"""Semantic similarity (Ragas): the cosine of the answer's and the ground truth's embeddings (no judge).

The arithmetic is :func:`ragmetrics_edu.metrics.semantic_similarity`.
"""

from __future__ import annotations

from .. import metrics
from ..metrics import Ask, MetricSpec, inputs

__all__ = ["SPEC"]

SPEC = metrics.register(MetricSpec(
    "semantic_similarity", "Semantic similarity", metrics.semantic_similarity, component="end to end", embedder=True,
    ask=Ask(metrics.semantic_similarity, ("answer", "ground_truth", "embedder")),
    design="cosine of two embeddings (no judge)", reads=inputs.TWO_TEXTS))
