"""The permutation explorer's model: a :class:`ReorderModel` that also scores every ordering.

Its view is :mod:`ragmetrics_edu.widgets.permutations`; this module imports no widget library.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Sequence

from ..errors import InputError
from ..validate import integer, plain
from .reorder_model import ReorderModel

__all__ = ["PermutationModel", "PermutationSummary"]


@dataclass(frozen=True)
class PermutationSummary:
    """The scores of every ordering of one verdict list (or of a seeded sample of them).

    ``values``/``weights``: each distinct score and how many orderings (or samples) give
    it. ``share_better``/``share_tied``/``share_worse``: fractions of orderings scoring
    above, equal to and below the current order. ``best``/``worst`` are exact in both
    modes (all ranking metrics here are largest with every relevant node first and
    smallest with every relevant node last; those two orders are always scored).
    """

    n: int
    relevant: int
    exact: bool
    orderings: int
    evaluated: int
    values: tuple[float, ...]
    weights: tuple[int, ...]
    best: float
    worst: float
    expected: float
    current: float
    share_better: float
    share_tied: float
    share_worse: float
    best_order: tuple[int, ...]
    worst_order: tuple[int, ...]

    @property
    def total(self) -> int:
        """Orderings (exact) or samples (sampled) behind the shares."""
        return sum(self.weights)

    def histogram(self, bins: int = 20) -> list[float]:
        """Share of orderings per equal-width bin of [0, 1] (a score of 1 falls in the last bin)."""
        bins = integer("bins", bins, low=1, high=10_000, expected="a whole number of bins from 1 to 10000")
        shares = [0.0] * bins
        total = self.total
        for value, weight in zip(self.values, self.weights, strict=True):
            shares[min(bins - 1, max(0, int(value * bins)))] += weight / total
        return shares


class PermutationModel(ReorderModel):
    """A :class:`ReorderModel` that also scores every ordering of its current verdicts.

    Up to ``exact_limit`` nodes the distribution is exact: orderings that only swap nodes
    with the same verdict score the same, so each distinct pattern of relevant positions
    (``C(n, r)`` of them) is scored once and counts ``r! (n - r)!`` orderings, which together
    are all ``n!`` orderings. Above it, ``samples`` random orderings drawn with
    ``random.Random(seed)`` stand for them (the same state always gives the same sample).

    So that every click answers within a second or two, the work is capped: at most
    :data:`MAX_NODES` nodes, ``exact_limit`` at most :data:`MAX_EXACT_LIMIT` (C(14, 7) = 3,432
    patterns) and ``samples`` at most :data:`MAX_SAMPLES`; beyond them an InputError says so
    (score a longer list with the metric itself, e.g. ``metrics.context_precision``).
    """

    #: The most nodes the explorer scores every ordering (or a sample of orderings) of.
    MAX_NODES = 30
    #: The largest ``exact_limit`` (exact enumeration of C(n, r) patterns up to this many nodes).
    MAX_EXACT_LIMIT = 14
    #: The largest ``samples`` (random orderings standing for all of them above ``exact_limit``).
    MAX_SAMPLES = 4000

    def __init__(
        self,
        nodes: Sequence[str] | None = None,
        verdicts: Sequence[Any] | None = None,
        metric: str = "context_precision",
        variant: str | None = None,
        *,
        exact_limit: int = 8,
        samples: int = 2000,
        seed: int = 0,
        **options: Any,
    ) -> None:
        checked = []
        for field, value, minimum, maximum in (("exact_limit", exact_limit, 1, self.MAX_EXACT_LIMIT),
                                               ("samples", samples, 1, self.MAX_SAMPLES),
                                               ("seed", seed, 0, 2**63 - 1)):
            value = plain(value)
            if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
                raise InputError(field, f"an integer from {minimum} to {maximum}", value)
            checked.append(value)
        self.exact_limit, self.samples, self.seed = checked
        self._cache: dict[tuple[Any, ...], tuple[list[float], list[int], float, float]] = {}
        super().__init__(nodes, verdicts, metric, variant, **options)
        if self.n > self.MAX_NODES:
            raise InputError("verdicts", f"at most {self.MAX_NODES} verdicts: the explorer scores every ordering "
                             "(or a sample of them) on each change", f"{self.n} verdicts",
                             hint="score a longer list with the metric itself, e.g. metrics.context_precision")

    @property
    def best_order(self) -> list[int]:
        """The current order with every relevant node moved ahead (stable)."""
        return [i for i in self._order if self._flags[i]] + [i for i in self._order if not self._flags[i]]

    @property
    def worst_order(self) -> list[int]:
        """The current order with every relevant node moved to the end (stable)."""
        return [i for i in self._order if not self._flags[i]] + [i for i in self._order if self._flags[i]]

    def sort_best(self) -> None:
        """Reorder to a best ordering (relevant nodes first)."""
        self.set_order(self.best_order)

    def sort_worst(self) -> None:
        """Reorder to a worst ordering (relevant nodes last)."""
        self.set_order(self.worst_order)

    @property
    def summary(self) -> PermutationSummary:
        """The distribution over orderings and where the current order stands in it."""
        values, weights, best, worst = self._distribution()
        n, relevant = self.n, sum(self._flags)
        total = sum(weights)
        current = self.result.score
        tol = 1e-12
        better = sum(w for v, w in zip(values, weights, strict=True) if v > current + tol)
        worse = sum(w for v, w in zip(values, weights, strict=True) if v < current - tol)
        exact = n <= self.exact_limit
        return PermutationSummary(
            n=n, relevant=relevant, exact=exact, orderings=math.factorial(n),
            evaluated=math.comb(n, relevant) if exact else self.samples,
            values=tuple(values), weights=tuple(weights), best=best, worst=worst,
            expected=math.fsum(v * w for v, w in zip(values, weights, strict=True)) / total,
            current=current, share_better=better / total, share_tied=(total - better - worse) / total,
            share_worse=worse / total, best_order=tuple(self.best_order), worst_order=tuple(self.worst_order),
        )

    def _distribution(self) -> tuple[list[float], list[int], float, float]:
        """(distinct scores, weights, best, worst); cached, as it depends only on n, r and the metric."""
        n, relevant = self.n, sum(self._flags)
        key = (n, relevant, self.metric, self.variant, self.k, self._unretrieved,
               self.exact_limit, self.samples, self.seed)
        if key in self._cache:
            return self._cache[key]
        scored: dict[tuple[int, ...], float] = {}

        def score(pattern: tuple[int, ...]) -> float:
            if pattern not in scored:
                scored[pattern] = self._call(list(pattern), with_texts=False).score
            return scored[pattern]

        counts: dict[float, int] = {}
        if n <= self.exact_limit:
            weight = math.factorial(relevant) * math.factorial(n - relevant)
            for positions in combinations(range(n), relevant):
                pattern = [0] * n
                for p in positions:
                    pattern[p] = 1
                value = score(tuple(pattern))
                counts[value] = counts.get(value, 0) + weight
        else:
            rng = random.Random(self.seed)
            pattern = [1] * relevant + [0] * (n - relevant)
            for _ in range(self.samples):
                rng.shuffle(pattern)
                value = score(tuple(pattern))
                counts[value] = counts.get(value, 0) + 1
        extremes = [score(tuple([1] * relevant + [0] * (n - relevant))),
                    score(tuple([0] * (n - relevant) + [1] * relevant))]
        values = sorted(counts)
        result = (values, [counts[v] for v in values], max(values + extremes), min(values + extremes))
        if len(self._cache) >= 64:
            self._cache.clear()
        self._cache[key] = result
        return result
