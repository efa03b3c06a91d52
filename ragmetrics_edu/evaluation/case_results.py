"""Each case's MetricResults (``evaluate(...).attrs["results"]``), with step tables built only when asked for.

A judged metric's result is kept as the run returned it: it holds the judge's calls, and asking again would
cost requests. A judge-free metric (word overlap, semantic similarity) is deterministic and cheap, so only its
score stays in the table; its full result (step table, narrative, notes) is computed again when a case is
looked at (``results[i]``: ``--explain``, the report's lowest cases). A 100,000-row file would otherwise hold
millions of step-table rows that nobody reads.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Sequence

from ..errors import InputError

#: The compare and evaluate pages' own parts: their public way in is `ragmetrics-edu compare --report` (and
#: `evaluate --report`); these names are not a library API.
__all__: list[str] = []


class CaseResults(Sequence[dict[str, Any]]):
    """``results[i]``: case i's results by metric (a new dict each time), for the metrics that scored it.

    ``kept[i]``: the results kept from the run (judged metrics); ``scored[i]``: the judge-free metrics that scored
    case i, recomputed on access by ``recompute(i, metric)``; ``names``: the metric order of each dict."""

    def __init__(self, names: Sequence[str], kept: list[Mapping[str, Any]], scored: list[tuple[str, ...]],
                 recompute: Callable[[int, str], Any], cases: Sequence[Mapping[str, Any]] = ()) -> None:
        if len(kept) != len(scored):
            raise InputError("scored", f"one entry per case ({len(kept)})", f"{len(scored)} entries")
        self.names = tuple(names)
        self._kept = kept
        self._scored = scored
        self._recompute = recompute
        self._cases = cases

    def case(self, i: int) -> Mapping[str, Any]:
        """Case i's fields as read (question, answer, contexts, ground_truth, id): what the report shows."""
        return self._cases[i] if 0 <= i < len(self._cases) else {}

    def __deepcopy__(self, memo: dict[int, Any]) -> CaseResults:
        # pandas deep-copies a frame's attrs with every derived frame (a filter, a column): the results are
        # read-only, so the copy is the object itself (copying them made a 10,000-row table slow and large)
        return self

    def __len__(self) -> int:
        return len(self._kept)

    def has(self, i: int, metric: str) -> bool:
        """Whether ``metric`` scored case ``i`` (without building its result)."""
        return metric in self._kept[i] or metric in self._scored[i]

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if isinstance(i, bool) or not isinstance(i, int) or not -len(self) <= i < len(self):
            raise IndexError(f"case {i!r}: there are {len(self)} cases (0 to {len(self) - 1})")
        i %= len(self)
        kept, scored = self._kept[i], self._scored[i]
        return {name: kept[name] if name in kept else self._recompute(i, name) for name in self.names
                if name in kept or name in scored}

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"CaseResults({len(self)} cases, metrics {', '.join(self.names)})"
