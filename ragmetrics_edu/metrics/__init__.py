"""Every metric as a pure function of verdicts, statements or texts.

Each returns a :class:`~ragmetrics_edu.results.MetricResult` with the score and every
intermediate value. Importing this module is cheap: no pandas, numpy or matplotlib.
:data:`SPECS` holds one :class:`~ragmetrics_edu.metrics.specs.MetricSpec` per metric and design (its
arithmetic, how evaluate() asks a judge for it, what the explorers and the command line offer);
:data:`REGISTRY` maps each metric's name to its function. :func:`show_code` shows a metric's core: its
formula and the plain lines that compute it (:mod:`ragmetrics_edu.cores`).
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
from .correctness import answer_correctness, f1_counts, f1_from, f_beta
from .embedding import answer_relevancy_embedding, semantic_similarity, semantic_similarity_batch
from .entities import context_entity_recall, normalize_entity
from .overlap import word_overlap, word_overlap_batch
from .quote import quote_score
from .reanswer import score_reanswer
from .reference_free import context_precision_without_reference, context_utilization
from .registry import FUNCTIONS
from .registry import MetricTable as MetricTable
from .rubric import aspect_critic_score, g_eval_score
from .show import Code, show_code
from .specs import SPECS as SPECS
from .specs import Ask, MetricSpec, Step, register, unregister
from .statements import answer_relevancy, context_recall, contextual_relevancy, faithfulness
from .support import support_score
from .views import Chart, RankingChoice, RankingView, Shape, StatementView

__all__ = [
    "Ask", "Chart", "Code", "MetricSpec", "RankingChoice", "RankingView", "Shape", "StatementView", "answer_correctness", "answer_relevancy", "answer_relevancy_embedding", "aspect_critic_score",
    "average_precision",
    "context_entity_recall", "context_precision", "context_precision_batch", "context_precision_without_reference",
    "context_recall", "context_utilization", "quote_score", "support_score",
    "contextual_relevancy", "f1_counts", "f1_from", "f_beta", "faithfulness", "g_eval_score", "hit_at_k", "hit_rate_at_k", "mean_average_precision",
    "mean_reciprocal_rank", "ndcg_at_k", "normalize_entity", "precision_at_k", "r_precision", "recall_at_k",
    "reciprocal_rank", "register", "score_checked", "score_reanswer", "semantic_similarity", "semantic_similarity_batch", "show_code", "Step", "unregister",
    "word_overlap", "word_overlap_batch",
]

#: Every registered metric's name mapped to its function (live: a metric registered later is in it).
REGISTRY = FUNCTIONS
