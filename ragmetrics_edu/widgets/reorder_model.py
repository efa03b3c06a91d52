"""The reorder explorer's model: a ranked list of nodes with a verdict each, and a ranking metric.

Its view is :mod:`ragmetrics_edu.widgets.reorder`; this module imports no widget library.
"""

from __future__ import annotations

from typing import Any, Sequence, TypeVar

from .. import examples
from ..errors import InputError
from ..metrics.inputs import call_with
from ..metrics.specs import SPECS
from ..results import MetricResult
from ..validate import YES, choice, integer, one_verdict, plain, text_list, verdict_list
from .model_base import Observable, check_index, check_permutation, chip_label, move_item
from .offered import ranking_choices, ranking_spec, ranking_view

__all__ = ["ReorderModel"]

_Model = TypeVar("_Model", bound="ReorderModel")



def _ranking_metric(metric: Any, variant: Any) -> tuple[str, str | None]:
    """Validate a (metric, variant) pair; a metric that is a variant of another (``average_precision``,
    context precision's AP variant) selects that metric with that variant."""
    if isinstance(metric, str):
        key = metric.strip().lower()
        offered = SPECS.where(explorer="ranking")
        hosts = [s for s in offered if key in s.variants and key != s.name]
        if hosts:
            metric, variant = hosts[0].name, key if variant is None else variant
        metric = next((s.name for s in offered if key in ranking_view(s).aliases), metric)  # "mrr", "ndcg": the view's aliases
    spec = ranking_spec("metric", metric)
    allowed = tuple(v for _, v, _ in ranking_view(spec).choices)
    if allowed == (None,):
        if variant is not None:
            raise InputError("variant", f"None for {spec.name} (it has no variants)", variant)
        return spec.name, None
    return spec.name, choice("variant", allowed[0] if variant is None else variant, allowed)  # type: ignore[arg-type]


class ReorderModel(Observable):
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
        self.metric, self.variant = _ranking_metric(metric, variant)
        self._k = self._check_k(k)
        self._unretrieved: int | None = None
        if total_relevant is not None:
            self._unretrieved = self._check_total(total_relevant) - sum(flags)
        self.question = question
        self.threshold = threshold
        self._result = self._compute()  # fail now, at construction, on any input the metric rejects
        self._remember_start()

    # -- construction --------------------------------------------------------------
    @classmethod
    def from_example(cls: type[_Model], example_id: str, case: str | None = None, **overrides: Any) -> _Model:
        """The model of a worked example of the catalogue (``ragmetrics_edu.examples``)."""
        chosen = examples.load(example_id).case(case)
        if not any(chosen.metric == s.name or chosen.metric in s.variants for s in SPECS.where(explorer="ranking")):
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
        index = check_index("index", index, self.n)
        return self._texts[index] if self._texts is not None else f"Node {index + 1}"

    @property
    def labels(self) -> list[str]:
        """Short unique chip labels in rank order (see :func:`chip_label`)."""
        return [self.chip(i) for i in self._order]

    def chip(self, index: int) -> str:
        """The chip label of node ``index`` (original, 0-based)."""
        index = check_index("index", index, self.n)
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
        for label, pair in ranking_choices():
            if pair == (self.metric, self.variant):
                return label
        raise InputError("metric", "a (metric, variant) of offered.ranking_choices()", (self.metric, self.variant))

    # -- changes -------------------------------------------------------------------
    def move(self, i: int, j: int) -> None:
        """Move the node at rank position ``i`` to position ``j`` (both 0-based)."""
        i, j = check_index("i", i, self.n), check_index("j", j, self.n)
        if i != j:
            move_item(self._order, i, j)
            self._changed("order")

    def move_up(self, i: int) -> None:
        """Move the node at position ``i`` one rank up; nothing happens at the top."""
        if check_index("i", i, self.n) > 0:
            self.move(i, i - 1)

    def move_down(self, i: int) -> None:
        """Move the node at position ``i`` one rank down; nothing happens at the bottom."""
        if check_index("i", i, self.n) < self.n - 1:
            self.move(i, i + 1)

    def set_order(self, order: Sequence[int]) -> None:
        """Put the nodes in this order: ``order[rank]`` is a node's original index."""
        order = check_permutation("order", order, self.n)
        if order != self._order:
            self._order = order
            self._changed("order")

    def toggle(self, i: int) -> None:
        """Flip the verdict of the node at position ``i`` (relevant <-> not relevant)."""
        node = self._order[check_index("i", i, self.n)]
        self._flags[node] = 1 - self._flags[node]
        self._changed("verdicts")

    def set_verdict(self, i: int, verdict: Any) -> None:
        """Set the verdict of the node at position ``i`` (yes/no, 0/1, True/False)."""
        node = self._order[check_index("i", i, self.n)]
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

    def state(self) -> dict[str, Any]:
        """The order, verdicts (by original index), metric, variant, cut-off and R_total's unretrieved part."""
        return {"order": list(self._order), "verdicts": list(self._flags), "metric": self.metric,
                "variant": self.variant, "k": self._k, "unretrieved": self._unretrieved}

    def reset(self) -> None:
        """Back to the order, verdicts, metric, k and R_total the model started with."""
        start = self._start
        if self.state() != start:
            self._order, self._flags = list(start["order"]), list(start["verdicts"])
            self.metric, self.variant, self._k = start["metric"], start["variant"], start["k"]
            self._unretrieved = start["unretrieved"]
            self._changed("reset")

    # -- scoring -------------------------------------------------------------------
    def _compute(self) -> MetricResult:
        return self._call(self.verdicts, with_texts=True)

    def _call(self, flags: list[int], *, with_texts: bool) -> MetricResult:
        """The metric on ``flags``, given the settings it takes (k, variant, total, nodes, threshold, question)."""
        spec = SPECS[self.metric]  # checked when set (_ranking_metric): no search on every score
        total = None
        if self.variant == "average_precision" and self._unretrieved is not None:
            total = sum(flags) + self._unretrieved
        settings = {"k": self.k, "variant": self.variant, "total_relevant": total,
                    "nodes": self.nodes if with_texts and self.has_texts else None,
                    "threshold": self.threshold, "question": self.question}
        return call_with(spec.function(), flags, {k: v for k, v in settings.items() if v is not None or k == "nodes"})

    def _check_k(self, k: Any) -> int | None:
        if k is None:
            return None
        return integer("k", k, low=1, high=self.n, expected=f"a cut-off from 1 to {self.n} (the number of nodes), or None")

    def _check_total(self, total: Any) -> int:
        relevant = sum(self._flags)
        total = plain(total)
        if isinstance(total, bool) or not isinstance(total, int) or total < relevant:
            raise InputError("total_relevant", f"an integer of at least the {relevant} relevant nodes retrieved", total)
        return total
