"""One way to keep a table per metric: :class:`MetricTable`, a read-only mapping checked against :data:`NAMES`.

Many places need a fact per metric: the function that computes it (``metrics.REGISTRY``), the
columns :func:`ragmetrics_edu.judges.evaluate` needs, the variants an explorer offers, the labels a
figure prints, the passes the judge study recorded. Each such table is a :class:`MetricTable`:

- its keys are checked against :data:`NAMES` when the table is built, so a misspelt metric fails
  at import, not at the first lookup;
- ``table.name(field, value)`` checks a name a caller passed (any case, spaces ignored) and refuses
  one the table does not hold with the same :class:`~ragmetrics_edu.InputError` everywhere,
  listing the table's metrics; ``table.entry(field, value)`` gives its entry.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, TypeVar

from ..validate import choice

__all__ = ["NAMES", "MetricTable"]

#: Every metric the library computes, by the name of its function in :mod:`ragmetrics_edu.metrics`.
NAMES: tuple[str, ...] = (
    "context_precision", "context_recall", "contextual_relevancy", "context_entity_recall", "faithfulness",
    "answer_relevancy", "answer_relevancy_embedding", "semantic_similarity", "answer_correctness",
    "precision_at_k", "recall_at_k", "average_precision", "mean_average_precision", "reciprocal_rank",
    "mean_reciprocal_rank", "ndcg_at_k", "hit_at_k", "hit_rate_at_k", "r_precision",
)

V = TypeVar("V")


class MetricTable(Mapping[str, V]):
    """A read-only table keyed by metric names from :data:`NAMES` (see the module).

    ``what`` says what the table holds, for the error a wrong key gives; ``also`` names keys beyond
    :data:`NAMES` the table may hold (other designs of a metric, e.g. ``faithfulness_claims``)."""

    def __init__(self, what: str, entries: Mapping[str, V], also: tuple[str, ...] = ()) -> None:
        unknown = [key for key in entries if key not in NAMES and key not in also]
        if unknown:
            raise ValueError(f"{what}: {unknown} are not metric names (ragmetrics_edu.metrics.registry.NAMES)")
        self.what = what
        self._entries = dict(entries)

    def __getitem__(self, key: str) -> V:
        return self._entries[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"MetricTable({self.what!r}, {self._entries!r})"

    def name(self, field: str, value: Any) -> str:
        """``value`` as one of this table's metric names (case and surrounding spaces ignored), or an InputError."""
        return choice(field, value, tuple(self._entries))

    def entry(self, field: str, value: Any) -> V:
        """The entry of the metric ``value`` names (checked as :meth:`name` checks it)."""
        return self._entries[self.name(field, value)]
