"""Context entity recall (Ragas): how many of the reference's entities the context names.

    score = |set(context entities) ∩ set(reference entities)| / (|set(reference entities)| + 1e-8)

The denominator counts distinct reference entities, as ``ragas.metrics.collections`` does
(``ragas/metrics/collections/context_entity_recall/metric.py``, ``_compute_recall_score``).
The legacy ``ragas.metrics`` API divides by the reference list's length, repeats included
(``ragas/metrics/_context_entities_recall.py``, ``ContextEntityRecall._compute_score``):
``variant="ragas_legacy"`` gives that rule; a note says when repeats decide the score.

Ragas matches entities as exact strings, so "Brasília" and "Brasilia" differ. With
``normalize=True`` both lists are compared after folding case, stripping accents and
collapsing whitespace; the step table shows each entity's key so the effect is visible.
"""

from __future__ import annotations

from typing import Sequence

from ..cores import computed_by
from ..cores import context_entity_recall as core
from ..results import MetricResult
from ..text import normalize_entity
from . import checks
from .entities_explained import entity_result

VARIANTS = checks.ENTITY_VARIANTS

EPSILON = core.EPSILON


def _itself(entity: str) -> str:
    return entity


@computed_by("context_entity_recall")
def context_entity_recall(reference_entities: Sequence[str], context_entities: Sequence[str], *,
                          normalize: bool = False, threshold: float | None = None,
                          variant: str = "ragas") -> MetricResult:
    """Share of the distinct reference entities that also appear among the context's.

    No reference entities gives 0.0 (Ragas: 0 / (0 + 1e-8)). ``variant``: ``"ragas"`` (same as
    ``"ragas_collections"``) divides by the distinct reference entities, ``"ragas_legacy"`` by
    the reference list's length with repeats.
    """
    variant, reference, context, normalize, threshold = checks.context_entity_recall(
        variant, reference_entities, context_entities, normalize, threshold)
    key = normalize_entity if normalize else _itself
    score, rows, values = core.context_entity_recall(reference, context, key, variant)
    return entity_result(score, rows, values, key, variant, normalize, reference, context, threshold)
