"""The state behind the explorers, kept apart from any widget.

Each model holds what a learner can change (the ranking, the verdicts, the metric, the
entity lists), recomputes the :class:`~ragmetrics_edu.results.MetricResult` for the
current state on demand, and tells its observers when something changed. Nothing here
imports ipywidgets or matplotlib, so the models run (and are tested) in plain Python and
can be driven from a notebook cell: ``model.move(0, 2)``, ``model.toggle(1)``,
``model.result``.

Positions (``i``, ``j``) are 0-based ranks in the *current* order; ``order`` lists the
original indices of the items in that order.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Callable, NamedTuple, Sequence

from .. import metrics
from ..errors import InputError
from ..results import MetricResult
from ..validate import IDK, NO, YES, choice, one_verdict, text_list, verdict_list

__all__ = [
    "Change", "EntityModel", "PermutationModel", "PermutationSummary", "RANKING_CHOICES",
    "RANKING_METRICS", "ReorderModel", "STATEMENT_METRICS", "StatementModel", "chip_label", "parse_lines",
]


class Change(NamedTuple):
    """What an observer receives: the model that changed and what changed in it."""

    owner: Any
    name: str


Observer = Callable[[Change], None]


class _Observable(ABC):
    """A minimal observer list: views subscribe with :meth:`observe` and redraw on change."""

    def __init__(self) -> None:
        self._observers: list[Observer] = []
        self._result: MetricResult | None = None

    def observe(self, callback: Observer) -> None:
        """Call ``callback(Change(model, name))`` after every change of this model."""
        if callback not in self._observers:
            self._observers.append(callback)

    def unobserve(self, callback: Observer) -> None:
        """Stop calling ``callback``."""
        if callback in self._observers:
            self._observers.remove(callback)

    def _changed(self, name: str) -> None:
        self._result = None
        change = Change(self, name)
        for callback in list(self._observers):
            callback(change)

    @property
    def result(self) -> MetricResult:
        """The MetricResult of the current state (recomputed only after a change)."""
        if self._result is None:
            self._result = self._compute()
        return self._result

    @property
    def score(self) -> float:
        """Shortcut for ``result.score``."""
        return self.result.score

    @abstractmethod
    def _compute(self) -> MetricResult:
        """Score the current state (each model defines how)."""


def _index(field: str, value: Any, n: int) -> int:
    """A 0-based position in a list of ``n`` items, or an InputError naming the range."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise InputError(field, f"a position from 0 to {n - 1}" if n else "a position, but the list is empty", value)
    return value


def _permutation(field: str, order: Any, n: int) -> list[int]:
    """Check that ``order`` lists each of 0..n-1 exactly once."""
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence):
        raise InputError(field, f"a list holding each of 0..{n - 1} once", order)
    items = list(order)
    if sorted(items) != list(range(n)) or any(isinstance(i, bool) or not isinstance(i, int) for i in items):
        raise InputError(field, f"a permutation of 0..{n - 1} (each original index exactly once)", order)
    return items


def _move(order: list[int], i: int, j: int) -> None:
    """Take the item at position ``i`` out and insert it at position ``j`` (in place)."""
    order.insert(j, order.pop(i))


def chip_label(index: int, text: str | None, width: int = 13) -> str:
    """The short, unique tag shown for node ``index`` (0-based) in the drag-and-drop list.

    ``"N1 Machine Learn…"``: the number keeps chips unique, the start of the text makes
    them recognisable."""
    label = f"N{index + 1}"
    if not text:
        return label
    text = " ".join(text.split())
    short = text if len(text) <= width else text[:width].rstrip() + "…"
    return f"{label} {short}"


def parse_lines(value: Any, field: str = "entities") -> list[str]:
    """A list of strings from a list, or from text with one item per line (blank lines dropped)."""
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    return text_list(field, value)


# -- ranking ---------------------------------------------------------------------------

#: Ranking metrics the reorder and permutation explorers offer, with their variants.
RANKING_METRICS: dict[str, tuple[str | None, ...]] = {
    "context_precision": ("deepeval", "ragas", "average_precision"),
    "precision_at_k": (None,),
    "ndcg_at_k": (None,),
    "reciprocal_rank": (None,),
}

#: The metric selector's entries: label -> (metric, variant).
RANKING_CHOICES: tuple[tuple[str, tuple[str, str | None]], ...] = (
    ("Context precision (DeepEval)", ("context_precision", "deepeval")),
    ("Context precision (Ragas)", ("context_precision", "ragas")),
    ("Context precision (average precision)", ("context_precision", "average_precision")),
    ("Precision@k", ("precision_at_k", None)),
    ("nDCG@k", ("ndcg_at_k", None)),
    ("MRR (reciprocal rank of this query)", ("reciprocal_rank", None)),
)

_RANKING_ALIASES = {"ndcg": "ndcg_at_k", "mrr": "reciprocal_rank", "precision": "precision_at_k",
                    "average_precision": "context_precision"}


def _ranking_metric(metric: Any, variant: Any) -> tuple[str, str | None]:
    """Validate a (metric, variant) pair; ``average_precision`` is context precision's AP variant."""
    if isinstance(metric, str) and metric.strip().lower() == "average_precision" and variant is None:
        variant = "average_precision"
    name = choice("metric", _RANKING_ALIASES.get(metric, metric) if isinstance(metric, str) else metric,
                  tuple(RANKING_METRICS))
    allowed = RANKING_METRICS[name]
    if allowed == (None,):
        if variant is not None:
            raise InputError("variant", f"None for {name} (it has no variants)", variant)
        return name, None
    return name, choice("variant", "deepeval" if variant is None else variant, allowed)  # type: ignore[arg-type]


class ReorderModel(_Observable):
    """A ranked list of retrieved nodes with a relevance verdict each, and a ranking metric.

    ``move``/``move_up``/``move_down``/``set_order`` change the ranking, ``toggle``/
    ``set_verdict`` a verdict, ``set_metric``/``set_k``/``set_total_relevant`` the metric;
    ``result`` is the metric's MetricResult for the current state.

    For average precision the model remembers how many relevant documents were *not*
    retrieved (``total_relevant`` minus the relevant nodes at the start), so toggling a
    node keeps R_total consistent: R_total = relevant nodes now + those never retrieved.
    """

    def __init__(
        self,
        nodes: Sequence[str] | None = None,
        verdicts: Sequence[Any] | None = None,
        metric: str = "context_precision",
        variant: str | None = None,
        *,
        k: int | None = None,
        total_relevant: int | None = None,
        question: str | None = None,
        threshold: float | None = None,
    ) -> None:
        super().__init__()
        if verdicts is None:
            raise InputError("verdicts", "a list with one relevance verdict (yes/no, 0/1) per node", verdicts)
        flags = [1 if v == YES else 0 for v in verdict_list("verdicts", verdicts)]
        if not flags:
            raise InputError("verdicts", "at least one verdict (a ranking needs nodes)", verdicts)
        if nodes is None:
            texts: list[str] | None = None
        else:
            texts = text_list("nodes", nodes)
            if len(texts) != len(flags):
                raise InputError("nodes", f"one node text per verdict ({len(flags)})", texts,
                                 hint=f"nodes has {len(texts)} entries")
        self._texts = texts
        self._flags = flags  # by original index
        self._order = list(range(len(flags)))
        self._initial = (list(self._order), list(flags))
        self.metric, self.variant = _ranking_metric(metric, variant)
        self._k = self._check_k(k)
        self._unretrieved: int | None = None
        if total_relevant is not None:
            self._unretrieved = self._check_total(total_relevant) - sum(flags)
        self.question = question
        self.threshold = threshold
        self._result = self._compute()  # fail now, at construction, on any input the metric rejects

    # -- construction --------------------------------------------------------------
    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "ReorderModel":
        """The model of a worked example of the catalogue (``ragmetrics_edu.examples``)."""
        from .. import examples

        chosen = examples.load(example_id).case(case)
        if chosen.metric not in RANKING_METRICS and chosen.metric != "average_precision":
            raise InputError("example_id", "an example of a ranking metric (context_precision, ...)",
                             f"{example_id} ({chosen.metric})")
        kwargs = dict(chosen.kwargs)
        verdicts = kwargs.pop("verdicts", kwargs.pop("relevance", None))
        options = {"nodes": kwargs.pop("nodes", None), "verdicts": verdicts, "metric": chosen.metric,
                   "variant": kwargs.pop("variant", None), "k": kwargs.pop("k", None),
                   "total_relevant": kwargs.pop("total_relevant", None), "question": kwargs.pop("question", None),
                   "threshold": kwargs.pop("threshold", None)}
        options.update(overrides)
        return cls(**options)

    # -- state ---------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of nodes."""
        return len(self._flags)

    @property
    def order(self) -> list[int]:
        """Original (0-based) indices of the nodes, in rank order."""
        return list(self._order)

    @property
    def verdicts(self) -> list[int]:
        """Relevance (1/0) of the nodes, in rank order."""
        return [self._flags[i] for i in self._order]

    @property
    def has_texts(self) -> bool:
        """Whether the nodes were given with their texts."""
        return self._texts is not None

    @property
    def nodes(self) -> list[str]:
        """Node texts in rank order (``"Node 3"`` where no text was given)."""
        return [self.text(i) for i in self._order]

    def text(self, index: int) -> str:
        """The text of node ``index`` (original, 0-based)."""
        return self._texts[index] if self._texts is not None else f"Node {index + 1}"

    @property
    def labels(self) -> list[str]:
        """Short unique chip labels in rank order (see :func:`chip_label`)."""
        return [self.chip(i) for i in self._order]

    def chip(self, index: int) -> str:
        """The chip label of node ``index`` (original, 0-based)."""
        return chip_label(index, self._texts[index] if self._texts is not None else None)

    @property
    def k(self) -> int:
        """The cut-off of precision@k and nDCG@k (defaults to the number of nodes)."""
        return self.n if self._k is None else self._k

    @property
    def total_relevant(self) -> int | None:
        """R_total for average precision: relevant nodes now plus those never retrieved."""
        if self._unretrieved is None:
            return None
        return sum(self._flags) + self._unretrieved

    @property
    def choice_label(self) -> str:
        """The selector label of the current (metric, variant)."""
        for label, pair in RANKING_CHOICES:
            if pair == (self.metric, self.variant):
                return label
        raise InputError("metric", "a metric of RANKING_CHOICES", (self.metric, self.variant))

    # -- changes -------------------------------------------------------------------
    def move(self, i: int, j: int) -> None:
        """Move the node at rank position ``i`` to position ``j`` (both 0-based)."""
        i, j = _index("i", i, self.n), _index("j", j, self.n)
        if i != j:
            _move(self._order, i, j)
            self._changed("order")

    def move_up(self, i: int) -> None:
        """Move the node at position ``i`` one rank up; nothing happens at the top."""
        if _index("i", i, self.n) > 0:
            self.move(i, i - 1)

    def move_down(self, i: int) -> None:
        """Move the node at position ``i`` one rank down; nothing happens at the bottom."""
        if _index("i", i, self.n) < self.n - 1:
            self.move(i, i + 1)

    def set_order(self, order: Sequence[int]) -> None:
        """Put the nodes in this order: ``order[rank]`` is a node's original index."""
        order = _permutation("order", order, self.n)
        if order != self._order:
            self._order = order
            self._changed("order")

    def toggle(self, i: int) -> None:
        """Flip the verdict of the node at position ``i`` (relevant <-> not relevant)."""
        node = self._order[_index("i", i, self.n)]
        self._flags[node] = 1 - self._flags[node]
        self._changed("verdicts")

    def set_verdict(self, i: int, verdict: Any) -> None:
        """Set the verdict of the node at position ``i`` (yes/no, 0/1, True/False)."""
        node = self._order[_index("i", i, self.n)]
        flag = 1 if one_verdict("verdict", verdict) == YES else 0
        if flag != self._flags[node]:
            self._flags[node] = flag
            self._changed("verdicts")

    def set_metric(self, metric: str, variant: str | None = None) -> None:
        """Choose the metric (and variant) the score is computed with."""
        pair = _ranking_metric(metric, variant)
        if pair != (self.metric, self.variant):
            self.metric, self.variant = pair
            self._changed("metric")

    def set_k(self, k: int | None) -> None:
        """Set the cut-off k of precision@k and nDCG@k (None: all nodes)."""
        k = self._check_k(k)
        if k != self._k:
            self._k = k
            self._changed("k")

    def set_total_relevant(self, total_relevant: int | None) -> None:
        """Set R_total for average precision (None: only the retrieved relevant nodes)."""
        unretrieved = None if total_relevant is None else self._check_total(total_relevant) - sum(self._flags)
        if unretrieved != self._unretrieved:
            self._unretrieved = unretrieved
            self._changed("total_relevant")

    def reset(self) -> None:
        """Back to the order and verdicts the model started with."""
        order, flags = self._initial
        if (order, flags) != (self._order, self._flags):
            self._order, self._flags = list(order), list(flags)
            self._changed("reset")

    # -- scoring -------------------------------------------------------------------
    def score_of(self, verdicts: Sequence[int]) -> float:
        """The current metric's score for another verdict list (same settings, no texts)."""
        return self._call(list(verdicts), with_texts=False).score

    def _compute(self) -> MetricResult:
        return self._call(self.verdicts, with_texts=True)

    def _call(self, flags: list[int], *, with_texts: bool) -> MetricResult:
        if self.metric == "context_precision":
            total = None
            if self.variant == "average_precision" and self._unretrieved is not None:
                total = sum(flags) + self._unretrieved
            return metrics.context_precision(
                flags, self.variant or "deepeval", nodes=self.nodes if with_texts and self.has_texts else None,
                total_relevant=total, threshold=self.threshold, question=self.question)
        if self.metric == "precision_at_k":
            return metrics.precision_at_k(flags, k=self.k)
        if self.metric == "ndcg_at_k":
            return metrics.ndcg_at_k(flags, k=self.k)
        return metrics.reciprocal_rank(flags)

    def _check_k(self, k: Any) -> int | None:
        if k is None:
            return None
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.n:
            raise InputError("k", f"a cut-off from 1 to {self.n} (the number of nodes), or None", k)
        return k

    def _check_total(self, total: Any) -> int:
        relevant = sum(self._flags)
        if isinstance(total, bool) or not isinstance(total, int) or total < relevant:
            raise InputError("total_relevant", f"an integer of at least the {relevant} relevant nodes retrieved", total)
        return total


# -- permutations ----------------------------------------------------------------------

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
        shares = [0.0] * bins
        total = self.total
        for value, weight in zip(self.values, self.weights):
            shares[min(bins - 1, max(0, int(value * bins)))] += weight / total
        return shares


class PermutationModel(ReorderModel):
    """A :class:`ReorderModel` that also scores every ordering of its current verdicts.

    Up to ``exact_limit`` nodes the distribution is exact: orderings that only swap nodes
    with the same verdict score the same, so each distinct pattern of relevant positions
    (``C(n, r)`` of them) is scored once and counts ``r! (n - r)!`` orderings, which together
    are all ``n!`` orderings. Above it, ``samples`` random orderings drawn with
    ``random.Random(seed)`` stand for them (the same state always gives the same sample).
    """

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
        for field, value, minimum in (("exact_limit", exact_limit, 1), ("samples", samples, 1), ("seed", seed, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise InputError(field, f"an integer >= {minimum}", value)
        self.exact_limit, self.samples, self.seed = exact_limit, samples, seed
        self._cache: dict[tuple[Any, ...], tuple[list[float], list[int], float, float]] = {}
        super().__init__(nodes, verdicts, metric, variant, **options)

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
        better = sum(w for v, w in zip(values, weights) if v > current + tol)
        worse = sum(w for v, w in zip(values, weights) if v < current - tol)
        exact = n <= self.exact_limit
        return PermutationSummary(
            n=n, relevant=relevant, exact=exact, orderings=math.factorial(n),
            evaluated=math.comb(n, relevant) if exact else self.samples,
            values=tuple(values), weights=tuple(weights), best=best, worst=worst,
            expected=math.fsum(v * w for v, w in zip(values, weights)) / total,
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
                scored[pattern] = self.score_of(pattern)
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


# -- statements ------------------------------------------------------------------------

#: The statement metrics, their variants and whether ``idk`` is a verdict they accept.
STATEMENT_METRICS: dict[str, dict[str, Any]] = {
    "context_recall": {"variants": ("deepeval", "ragas"), "idk": False, "item": "statement"},
    "contextual_relevancy": {"variants": ("deepeval", "ragas_sentences"), "idk": False, "item": "statement"},
    "faithfulness": {"variants": ("deepeval", "ragas"), "idk": True, "item": "claim"},
    "answer_relevancy": {"variants": ("deepeval",), "idk": True, "item": "statement"},
}

_STATEMENT_ARGS = {
    "context_recall": {"statements", "verdicts", "nodes", "node_texts", "variant", "question", "threshold"},
    "contextual_relevancy": {"node_statements", "node_verdicts", "nodes", "variant", "question", "threshold"},
    "faithfulness": {"claims", "statements", "verdicts", "context", "variant", "penalize_ambiguous", "threshold"},
    "answer_relevancy": {"statements", "verdicts", "variant", "question", "threshold"},
}


class StatementModel(_Observable):
    """Statements (or claims) with a verdict each, scored by one of the counting metrics.

    Takes the metric's own keyword arguments, so a catalogue case goes straight in:
    ``StatementModel("context_recall", **case.kwargs)``. Per metric:

    - ``context_recall``: ``statements``, ``verdicts``, ``nodes`` (per statement, the
      1-based node it is attributed to, or None); ``node_texts`` labels those nodes.
    - ``contextual_relevancy``: ``node_statements``, ``node_verdicts``, ``nodes`` (texts).
    - ``faithfulness``: ``claims`` (or ``statements``), ``verdicts`` (yes/no/idk), ``context``,
      ``penalize_ambiguous``.
    - ``answer_relevancy``: ``statements``, ``verdicts`` (yes/no/idk).

    ``toggle(i)`` cycles a verdict yes -> no (-> idk where allowed) -> yes; ``attribute``
    sets a context-recall attribution, remembered while the statement is not a yes.
    """

    def __init__(
        self,
        metric: str = "context_recall",
        *,
        statements: Sequence[str] | None = None,
        claims: Sequence[str] | None = None,
        verdicts: Sequence[Any] | None = None,
        node_statements: Sequence[Sequence[str]] | None = None,
        node_verdicts: Sequence[Sequence[Any]] | None = None,
        nodes: Sequence[Any] | None = None,
        node_texts: Sequence[str] | None = None,
        context: Sequence[str] | None = None,
        variant: str | None = None,
        penalize_ambiguous: bool = False,
        question: str | None = None,
        threshold: float | None = None,
    ) -> None:
        super().__init__()
        self.metric = choice("metric", metric, tuple(STATEMENT_METRICS))
        given = {"statements": statements, "claims": claims, "verdicts": verdicts,
                 "node_statements": node_statements, "node_verdicts": node_verdicts, "nodes": nodes,
                 "node_texts": node_texts, "context": context, "variant": variant, "question": question,
                 "threshold": threshold, "penalize_ambiguous": penalize_ambiguous or None}
        extra = sorted(name for name, value in given.items()
                       if value is not None and name not in _STATEMENT_ARGS[self.metric])
        if extra:
            raise InputError(extra[0], f"no {extra[0]} for {self.metric}; it takes "
                             + ", ".join(sorted(_STATEMENT_ARGS[self.metric])), given[extra[0]])
        spec = STATEMENT_METRICS[self.metric]
        self.variant = choice("variant", "deepeval" if variant is None else variant, spec["variants"])
        self.penalize_ambiguous = bool(penalize_ambiguous)
        self.question, self.threshold = question, threshold
        self._groups: list[int] | None = None
        self._attr: list[int | None] | None = None
        self._node_texts: list[str] | None = None

        if self.metric == "contextual_relevancy":
            self._init_nodes(node_statements, node_verdicts, nodes)
        else:
            items = claims if claims is not None else statements
            word = "claims" if self.metric == "faithfulness" and statements is None else "statements"
            if items is None:
                raise InputError(word, f"a list of {spec['item']}s", items)
            self._texts = text_list(word, items)
            if verdicts is None:
                raise InputError("verdicts", f"one verdict per {spec['item']}", verdicts)
            self._verdicts = verdict_list("verdicts", verdicts, allow_idk=spec["idk"])
            if len(self._verdicts) != len(self._texts):
                raise InputError("verdicts", f"one verdict per {spec['item']} ({len(self._texts)})", list(verdicts),
                                 hint=f"verdicts has {len(self._verdicts)} entries")
            if self.metric == "faithfulness" and context is not None:
                self._node_texts = text_list("context", context)
            if self.metric == "context_recall":
                self._node_texts = None if node_texts is None else text_list("node_texts", node_texts)
                if nodes is not None:
                    self._attr = self._check_attribution(nodes)
                elif self._node_texts is not None:
                    self._attr = [None] * len(self._texts)
        self._order = list(range(len(self._texts)))
        self._initial = (list(self._order), list(self._verdicts), None if self._attr is None else list(self._attr))
        self._result = self._compute()  # fail now, at construction, on any input the metric rejects

    def _check_attribution(self, nodes: Any) -> list[int | None]:
        """Per statement a 1-based node index (within ``node_texts`` when given) or None; None unless yes."""
        if isinstance(nodes, (str, bytes)) or not isinstance(nodes, Sequence):
            raise InputError("nodes", "a list with, per statement, a 1-based node index or None", nodes)
        if len(nodes) != len(self._texts):
            raise InputError("nodes", f"one entry per statement ({len(self._texts)})", list(nodes),
                             hint=f"nodes has {len(nodes)} entries")
        limit = len(self._node_texts) if self._node_texts is not None else None
        for i, (node, verdict) in enumerate(zip(nodes, self._verdicts)):
            if node is None:
                continue
            if isinstance(node, bool) or not isinstance(node, int) or node < 1 or (limit is not None and node > limit):
                raise InputError(f"nodes[{i}]", "a 1-based node index" + (f" from 1 to {limit}" if limit else "")
                                 + " or None", node)
            if verdict != YES:
                raise InputError(f"nodes[{i}]", "None for a statement judged not attributable", node)
        return list(nodes)

    def _init_nodes(self, node_statements: Any, node_verdicts: Any, nodes: Any) -> None:
        for field, value in (("node_statements", node_statements), ("node_verdicts", node_verdicts)):
            if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
                raise InputError(field, "a list with one list per node", value)
        if len(node_statements) != len(node_verdicts):
            raise InputError("node_verdicts", f"one list per node ({len(node_statements)})", node_verdicts)
        self._texts, self._verdicts, self._groups = [], [], []
        for n, (stmts, marks) in enumerate(zip(node_statements, node_verdicts), start=1):
            items = text_list(f"node_statements[{n - 1}]", stmts)
            checked = verdict_list(f"node_verdicts[{n - 1}]", marks)
            if len(items) != len(checked):
                raise InputError(f"node_verdicts[{n - 1}]", f"one verdict per statement of node {n} ({len(items)})",
                                 list(marks))
            self._texts += items
            self._verdicts += checked
            self._groups += [n] * len(items)
        self._node_count = len(node_statements)
        if nodes is not None:
            self._node_texts = text_list("nodes", nodes)
            if len(self._node_texts) != self._node_count:
                raise InputError("nodes", f"one text per node ({self._node_count})", self._node_texts)

    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "StatementModel":
        """The model of a worked example (context recall, contextual relevancy, faithfulness,
        answer relevancy); a context-recall example's node texts label the attribution."""
        from .. import examples

        example = examples.load(example_id)
        chosen = example.case(case)
        if chosen.metric not in STATEMENT_METRICS:
            raise InputError("example_id", "an example of " + ", ".join(STATEMENT_METRICS),
                             f"{example_id} ({chosen.metric})")
        kwargs = dict(chosen.kwargs)
        texts = example.inputs.get("nodes")
        if chosen.metric == "context_recall" and isinstance(texts, list) and all(isinstance(t, str) for t in texts):
            kwargs.setdefault("node_texts", texts)
        kwargs.update(overrides)
        return cls(chosen.metric, **kwargs)

    # -- state ---------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of statements."""
        return len(self._texts)

    @property
    def order(self) -> list[int]:
        """Original (0-based) indices of the statements, in display order."""
        return list(self._order)

    @property
    def statements(self) -> list[str]:
        """Statement (claim) texts in display order."""
        return [self._texts[i] for i in self._order]

    @property
    def verdicts(self) -> list[str]:
        """Verdicts (``"yes"``/``"no"``/``"idk"``) in display order."""
        return [self._verdicts[i] for i in self._order]

    @property
    def allowed(self) -> tuple[str, ...]:
        """The verdicts this metric accepts."""
        return (YES, NO, IDK) if STATEMENT_METRICS[self.metric]["idk"] else (YES, NO)

    @property
    def variants(self) -> tuple[str, ...]:
        """The metric's variants."""
        return STATEMENT_METRICS[self.metric]["variants"]

    @property
    def has_attribution(self) -> bool:
        """Whether statements are attributed to context nodes (context recall with ``nodes``)."""
        return self._attr is not None

    @property
    def attribution(self) -> list[int | None] | None:
        """Per statement in display order, its 1-based node (None unless the verdict is yes)."""
        if self._attr is None:
            return None
        return [self._attr[i] if self._verdicts[i] == YES else None for i in self._order]

    @property
    def groups(self) -> list[int] | None:
        """For contextual relevancy, the 1-based node each statement (display order) comes from."""
        return None if self._groups is None else [self._groups[i] for i in self._order]

    @property
    def node_texts(self) -> list[str] | None:
        """Texts of the context nodes, where known."""
        return None if self._node_texts is None else list(self._node_texts)

    @property
    def node_count(self) -> int:
        """How many context nodes statements can be attributed to (or come from)."""
        if self._groups is not None:
            return self._node_count
        if self._node_texts is not None:
            return len(self._node_texts)
        return max([a for a in (self._attr or []) if a is not None], default=0)

    # -- changes -------------------------------------------------------------------
    def move(self, i: int, j: int) -> None:
        """Move the statement at position ``i`` to position ``j`` (the score does not change)."""
        i, j = _index("i", i, self.n), _index("j", j, self.n)
        if i != j:
            _move(self._order, i, j)
            self._changed("order")

    def set_order(self, order: Sequence[int]) -> None:
        """Show the statements in this order (original indices)."""
        order = _permutation("order", order, self.n)
        if order != self._order:
            self._order = order
            self._changed("order")

    def toggle(self, i: int) -> None:
        """Cycle the verdict at position ``i``: yes -> no (-> idk where allowed) -> yes."""
        cycle = self.allowed
        current = self._verdicts[self._order[_index("i", i, self.n)]]
        self.set_verdict(i, cycle[(cycle.index(current) + 1) % len(cycle)])

    def set_verdict(self, i: int, verdict: Any) -> None:
        """Set the verdict at position ``i`` (yes/no, 0/1, and idk where the metric allows it)."""
        index = self._order[_index("i", i, self.n)]
        value = one_verdict("verdict", verdict, allow_idk=IDK in self.allowed)
        if value != self._verdicts[index]:
            self._verdicts[index] = value
            self._changed("verdicts")

    def attribute(self, i: int, node: int | None) -> None:
        """Attribute the statement at position ``i`` to context node ``node`` (1-based; None: to none)."""
        if self._attr is None:
            raise InputError("attribute", "a context-recall model built with nodes= or node_texts=", self.metric)
        index = self._order[_index("i", i, self.n)]
        if node is not None:
            if isinstance(node, bool) or not isinstance(node, int) or not 1 <= node <= max(1, self.node_count):
                raise InputError("node", f"a node index from 1 to {self.node_count}, or None", node)
            if self._verdicts[index] != YES:
                raise InputError("node", "None for a statement judged not attributable (set its verdict to yes first)",
                                 node)
        if node != self._attr[index]:
            self._attr[index] = node
            self._changed("attribution")

    def set_variant(self, variant: str) -> None:
        """Choose the metric's variant."""
        variant = choice("variant", variant, self.variants)
        if variant != self.variant:
            self.variant = variant
            self._changed("variant")

    def set_penalize_ambiguous(self, value: bool) -> None:
        """Faithfulness (DeepEval): whether an idk claim counts against the answer."""
        if self.metric != "faithfulness":
            raise InputError("penalize_ambiguous", "only for faithfulness", self.metric)
        if bool(value) != self.penalize_ambiguous:
            self.penalize_ambiguous = bool(value)
            self._changed("penalize_ambiguous")

    def reset(self) -> None:
        """Back to the order, verdicts and attribution the model started with."""
        order, verdicts, attr = self._initial
        self._order, self._verdicts = list(order), list(verdicts)
        self._attr = None if attr is None else list(attr)
        self._changed("reset")

    # -- scoring -------------------------------------------------------------------
    def metric_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of the metric call for the current state."""
        statements, verdicts = self.statements, self.verdicts
        if self.metric == "context_recall":
            return {"statements": statements, "verdicts": verdicts, "nodes": self.attribution,
                    "variant": self.variant, "question": self.question, "threshold": self.threshold}
        if self.metric == "contextual_relevancy":
            groups = self.groups or []
            per_node = [[(s, v) for s, v, g in zip(statements, verdicts, groups) if g == n]
                        for n in range(1, self._node_count + 1)]
            return {"node_statements": [[s for s, _ in pairs] for pairs in per_node],
                    "node_verdicts": [[v for _, v in pairs] for pairs in per_node],
                    "nodes": self.node_texts, "variant": self.variant, "question": self.question,
                    "threshold": self.threshold}
        if self.metric == "faithfulness":
            return {"claims": statements, "verdicts": verdicts, "variant": self.variant,
                    "penalize_ambiguous": self.penalize_ambiguous, "context": self.node_texts,
                    "threshold": self.threshold}
        return {"statements": statements, "verdicts": verdicts, "question": self.question, "threshold": self.threshold}

    def _compute(self) -> MetricResult:
        return metrics.REGISTRY[self.metric](**self.metric_kwargs())


# -- entities --------------------------------------------------------------------------

class EntityModel(_Observable):
    """Reference and context entity lists and the normalisation switch of context entity recall.

    The lists may be set as lists or as text with one entity per line (as typed in a
    Textarea); ``intersection`` lists the shared reference entities. ``verdicts`` says, per
    reference entity, whether the context names it, and ``toggle(i)`` flips that by adding
    the entity to the context or removing its matches.
    """

    def __init__(
        self,
        reference_entities: Sequence[str] | str = (),
        context_entities: Sequence[str] | str = (),
        *,
        normalize: bool = False,
        threshold: float | None = None,
    ) -> None:
        super().__init__()
        self._reference = parse_lines(reference_entities, "reference_entities")
        self._context = parse_lines(context_entities, "context_entities")
        if not isinstance(normalize, bool):
            raise InputError("normalize", "True or False", normalize)
        self._normalize = normalize
        self.threshold = threshold
        self._result = self._compute()

    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "EntityModel":
        """The model of a context-entity-recall worked example."""
        from .. import examples

        chosen = examples.load(example_id).case(case)
        if chosen.metric != "context_entity_recall":
            raise InputError("example_id", "an example of context_entity_recall", f"{example_id} ({chosen.metric})")
        kwargs = dict(chosen.kwargs)
        kwargs.update(overrides)
        return cls(**kwargs)

    @property
    def reference(self) -> list[str]:
        """The reference entities (RE)."""
        return list(self._reference)

    @property
    def context(self) -> list[str]:
        """The context entities (CE)."""
        return list(self._context)

    @property
    def normalize(self) -> bool:
        """Whether entities are compared after folding case, accents and spaces."""
        return self._normalize

    def _key(self, entity: str) -> str:
        return metrics.normalize_entity(entity) if self._normalize else entity

    @property
    def verdicts(self) -> list[int]:
        """Per reference entity (in list order): 1 when the context names it, else 0."""
        found = {self._key(e) for e in self._context}
        return [int(self._key(e) in found) for e in self._reference]

    def toggle(self, i: int) -> None:
        """Flip whether reference entity ``i`` is in the context: add it, or remove every match."""
        entity = self._reference[_index("i", i, len(self._reference))]
        key = self._key(entity)
        if self.verdicts[i]:
            self.set_context([e for e in self._context if self._key(e) != key])
        else:
            self.set_context(self._context + [entity])

    @property
    def intersection(self) -> list[str]:
        """Reference entities (their reference form) that the context also names."""
        return [r["entity"] for r in self.result.rows if r["in_reference"] and r["in_context"]]

    @property
    def only_reference(self) -> list[str]:
        """Reference entities the context misses."""
        return [r["entity"] for r in self.result.rows if r["in_reference"] and not r["in_context"]]

    @property
    def only_context(self) -> list[str]:
        """Context entities that are not reference entities."""
        return [r["entity"] for r in self.result.rows if r["in_context"] and not r["in_reference"]]

    def set_reference(self, entities: Sequence[str] | str) -> None:
        """Replace the reference entities (a list, or text with one entity per line)."""
        value = parse_lines(entities, "reference_entities")
        if value != self._reference:
            self._reference = value
            self._changed("reference")

    def set_context(self, entities: Sequence[str] | str) -> None:
        """Replace the context entities (a list, or text with one entity per line)."""
        value = parse_lines(entities, "context_entities")
        if value != self._context:
            self._context = value
            self._changed("context")

    def set_normalize(self, value: bool) -> None:
        """Switch normalisation on or off."""
        if not isinstance(value, bool):
            raise InputError("normalize", "True or False", value)
        if value != self._normalize:
            self._normalize = value
            self._changed("normalize")

    def toggle_normalize(self) -> None:
        """Flip the normalisation switch."""
        self.set_normalize(not self._normalize)

    def _compute(self) -> MetricResult:
        return metrics.context_entity_recall(self._reference, self._context, normalize=self._normalize,
                                             threshold=self.threshold)
