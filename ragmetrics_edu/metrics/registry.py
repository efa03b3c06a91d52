"""Tables keyed by metric names, checked against the one registry (:data:`~ragmetrics_edu.metrics.specs.SPECS`).

What the library knows about a metric is its spec (:mod:`ragmetrics_edu.metrics.specs`). A fact
that belongs to one lesson or study, not to the metric (which pass the judge study recorded for
it, the verdict a planted instruction demands), is a :class:`MetricTable`:

- its keys are checked against the registry when the table is built, so a misspelt metric fails
  at import, not at the first lookup;
- ``table.name(field, value)`` checks a name a caller passed (any case, spaces ignored) and refuses
  one the table does not hold with the same :class:`~ragmetrics_edu.InputError` everywhere,
  listing the table's metrics; ``table.entry(field, value)`` gives its entry.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, TypeVar

from ..validate import choice
from .specs import SPECS

__all__ = ["FUNCTIONS", "MetricTable"]

V = TypeVar("V")


class MetricTable(Mapping[str, V]):
    """A read-only table keyed by registered metric names (see the module).

    ``what`` says what the table holds, for the error a wrong key gives."""

    def __init__(self, what: str, entries: Mapping[str, V]) -> None:
        unknown = [key for key in entries if key not in SPECS]
        if unknown:
            raise ValueError(f"{what}: {unknown} are not registered metric names (ragmetrics_edu.metrics.specs.SPECS)")
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


class Functions(Mapping[str, Any]):
    """Each registered metric's arithmetic (``spec.compute``) by name, read live from the registry."""

    def __getitem__(self, key: str) -> Any:
        compute = SPECS[key].compute
        if compute is None:
            raise KeyError(key)
        return compute

    def __iter__(self) -> Iterator[str]:
        return (name for name, spec in SPECS.items() if spec.compute is not None and spec.of is None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: metric name -> its function (``metrics.REGISTRY``), for every registered metric that has one.
FUNCTIONS = Functions()
