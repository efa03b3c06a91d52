"""What a metric's batch path gives per case: the score and its values, without the step table.

A judge-free metric that ``evaluate()`` scores on many rows may offer a batch function (``Ask(batch=...)``,
e.g. :func:`~ragmetrics_edu.metrics.word_overlap_batch`): it returns one :class:`Scored` per case, with the
very numbers the per-case function's :class:`~ragmetrics_edu.results.MetricResult` would hold in ``score`` and
``values``, or None for a case it leaves to the per-case function (which then says what is wrong with it).
The full result, step table and narrative, is built again from the case when someone looks at it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Scored"]


class Scored(NamedTuple):
    """One case's ``score`` and ``values`` from a batch path, and the ``metric`` and ``variant`` the per-case
    result would name (evaluate()'s ``<metric>_design`` column)."""

    score: float
    values: dict[str, Any]
    metric: str
    variant: str | None = None

    @property
    def design(self) -> str:
        """The metric and its variant, as evaluate() writes a result's design: ``semantic_similarity (ragas)``."""
        return self.metric + (f" ({self.variant})" if self.variant else "")
