"""Semantic similarity (Ragas): the cosine of the answer's and the ground truth's embeddings (no judge).

The arithmetic is :func:`ragmetrics_edu.metrics.semantic_similarity`.
"""

from __future__ import annotations

from .. import metrics
from ..metrics import Ask, MetricSpec, inputs

__all__ = ["SPEC"]

SPEC = metrics.register(MetricSpec(
    "semantic_similarity", "Semantic similarity", metrics.semantic_similarity, component="end to end", embedder=True,
    ask=Ask(metrics.semantic_similarity, ("answer", "ground_truth", "embedder"),
            batch=metrics.semantic_similarity_batch),
    design="cosine of two embeddings (no judge)", reads=inputs.TWO_TEXTS,
    cannot_see="With the default offline hashing embedder it counts shared words and word pairs: a correct answer "
               "in other words scores low, and a wrong answer that reuses the reference's words scores high. It "
               "never reads the contexts."))
