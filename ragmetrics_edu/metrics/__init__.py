"""Every metric as a pure function of verdicts, statements or texts.

Each returns a :class:`~ragmetrics_edu.results.MetricResult` with the score and every
intermediate value. Importing this module is cheap: no pandas, numpy or matplotlib.
:data:`REGISTRY` maps each metric's name to its function; a table with one entry per metric
anywhere else is a :class:`~ragmetrics_edu.metrics.registry.MetricTable` keyed the same way.
"""

from ..ranking import (
    average_precision,
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
from .checked import score_checked
from .context_precision import context_precision, context_precision_batch
from .correctness import answer_correctness, f1_from, f_beta
from .embedding import answer_relevancy_embedding, semantic_similarity
from .entities import context_entity_recall, normalize_entity
from .overlap import word_overlap
from .reanswer import score_reanswer
from .registry import NAMES, MetricTable
from .statements import answer_relevancy, context_recall, contextual_relevancy, faithfulness

__all__ = [
    "answer_correctness", "answer_relevancy", "answer_relevancy_embedding", "average_precision",
    "context_entity_recall", "context_precision", "context_precision_batch", "context_recall",
    "contextual_relevancy", "f1_from", "f_beta", "faithfulness", "hit_at_k", "hit_rate_at_k", "mean_average_precision",
    "mean_reciprocal_rank", "ndcg_at_k", "normalize_entity", "precision_at_k", "r_precision", "recall_at_k",
    "reciprocal_rank", "score_checked", "score_reanswer", "semantic_similarity", "word_overlap",
]

#: Every metric name (:data:`~ragmetrics_edu.metrics.registry.NAMES`) mapped to its function.
REGISTRY: MetricTable = MetricTable("the metric functions", {name: globals()[name] for name in NAMES})
