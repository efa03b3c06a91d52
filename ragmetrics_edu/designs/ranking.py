"""The ranking measures (P@k, R@k, AP, MAP, RR, MRR, nDCG@k, hit@k, hit rate@k, R-precision): arithmetic only,
from relevance verdicts or gains (:mod:`ragmetrics_edu.ranking`); evaluate() does not ask for them."""

from __future__ import annotations

from .. import metrics
from ..metrics import Chart, MetricSpec, RankingChoice, RankingView, inputs
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

__all__ = ["SPECS"]

_R = "retriever"

SPECS: tuple[MetricSpec, ...] = tuple(metrics.register(spec) for spec in (
    MetricSpec("precision_at_k", "Precision@k", precision_at_k, component=_R,
               view=RankingView((RankingChoice("Precision@k", None, "Precision@k"),), cutoff=True,
                                aliases=("precision",)),
               reads=inputs.RANKED_VERDICTS),
    MetricSpec("recall_at_k", "Recall@k", recall_at_k, component=_R, reads=inputs.RANKED_VERDICTS),
    MetricSpec("average_precision", "Average precision", average_precision, component=_R, reads=inputs.RANKED_VERDICTS),
    MetricSpec("mean_average_precision", "Mean average precision", mean_average_precision, component=_R),
    MetricSpec("reciprocal_rank", "Reciprocal rank", reciprocal_rank, component=_R,
               view=RankingView((RankingChoice("MRR (reciprocal rank of this query)", None, "Reciprocal rank"),),
                                Chart.RECIPROCAL,
                                aliases=("mrr",)),
               reads=inputs.RANKED_VERDICTS),
    MetricSpec("mean_reciprocal_rank", "Mean reciprocal rank", mean_reciprocal_rank, component=_R),
    MetricSpec("ndcg_at_k", "nDCG@k", ndcg_at_k, component=_R,
               view=RankingView((RankingChoice("nDCG@k", None, "nDCG@k"),), Chart.DISCOUNT, cutoff=True,
                                aliases=("ndcg",)),
               reads=inputs.GAINS),
    MetricSpec("hit_at_k", "Hit@k", hit_at_k, component=_R, reads=inputs.RANKED_VERDICTS),
    MetricSpec("hit_rate_at_k", "Hit rate@k", hit_rate_at_k, component=_R),
    MetricSpec("r_precision", "R-precision", r_precision, component=_R, reads=inputs.RANKED_VERDICTS),
))
