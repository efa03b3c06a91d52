"""The statement explorer's model: statements (or claims) with a verdict each, and a counting metric.

Its view is :mod:`ragmetrics_edu.widgets.statements`; this module imports no widget library.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import examples
from ..errors import InputError
from ..metrics.specs import SPECS, MetricSpec
from ..metrics.views import Shape
from ..results import MetricResult
from ..validate import IDK, NO, YES, as_list, choice, flag, one_verdict, plain, text_list, verdict_list
from .model_base import Observable, check_index, check_permutation, move_item
from .offered import statement_spec, statement_view

__all__ = ["StatementModel", "accepted"]


def accepted(spec: MetricSpec) -> frozenset[str]:
    """The keyword arguments a StatementModel of ``spec`` takes: its function's, ``variant`` and its shape's extras."""
    return spec.parameters() | {"variant"} | statement_view(spec).shape.extras


class StatementModel(Observable):
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
        spec = self.spec = statement_spec("metric", metric)
        self.metric = spec.name
        penalize_ambiguous = flag("penalize_ambiguous", penalize_ambiguous)
        given = {"statements": statements, "claims": claims, "verdicts": verdicts,
                 "node_statements": node_statements, "node_verdicts": node_verdicts, "nodes": nodes,
                 "node_texts": node_texts, "context": context, "variant": variant, "question": question,
                 "threshold": threshold, "penalize_ambiguous": penalize_ambiguous or None}
        extra = sorted(name for name, value in given.items()
                       if value is not None and name not in accepted(spec))
        if extra:
            raise InputError(extra[0], f"no {extra[0]} for {self.metric}; it takes "
                             + ", ".join(sorted(accepted(spec))), given[extra[0]])
        self.variant = choice("variant", "deepeval" if variant is None else variant, spec.named_variants)
        self.penalize_ambiguous = penalize_ambiguous
        self.question, self.threshold = question, threshold
        self._groups: list[int] | None = None
        self._attr: list[int | None] | None = None
        self._node_texts: list[str] | None = None

        if statement_view(spec).shape is Shape.PER_NODE:
            self._init_nodes(node_statements, node_verdicts, nodes)
        else:
            items = claims if claims is not None else statements
            word = "claims" if statement_view(spec).shape is Shape.CLAIMS and statements is None else "statements"
            if items is None:
                raise InputError(word, f"a list of {statement_view(spec).item}s", items)
            self._texts = text_list(word, items)
            if verdicts is None:
                raise InputError("verdicts", f"one verdict per {statement_view(spec).item}", verdicts)
            self._verdicts = verdict_list("verdicts", verdicts, allow_idk=statement_view(spec).idk)
            if len(self._verdicts) != len(self._texts):
                raise InputError("verdicts", f"one verdict per {statement_view(spec).item} ({len(self._texts)})", list(verdicts),
                                 hint=f"verdicts has {len(self._verdicts)} entries")
            if statement_view(spec).shape is Shape.CLAIMS and context is not None:
                self._node_texts = text_list("context", context)
            if statement_view(spec).shape is Shape.ATTRIBUTED:
                self._node_texts = None if node_texts is None else text_list("node_texts", node_texts)
                if nodes is not None:
                    self._attr = self._check_attribution(nodes)
                elif self._node_texts is not None:
                    self._attr = [None] * len(self._texts)
        self._order = list(range(len(self._texts)))
        self._result = self._compute()  # fail now, at construction, on any input the metric rejects
        self._remember_start()

    def _check_attribution(self, nodes: Any) -> list[int | None]:
        """Per statement a 1-based node index (within ``node_texts`` when given) or None; None unless yes."""
        nodes = [plain(n) for n in as_list("nodes", nodes, "a list with, per statement, a 1-based node index or None")]
        if len(nodes) != len(self._texts):
            raise InputError("nodes", f"one entry per statement ({len(self._texts)})", list(nodes),
                             hint=f"nodes has {len(nodes)} entries")
        limit = len(self._node_texts) if self._node_texts is not None else None
        for i, (node, verdict) in enumerate(zip(nodes, self._verdicts, strict=True)):
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
        for n, (stmts, marks) in enumerate(zip(node_statements, node_verdicts, strict=True), start=1):
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
        example = examples.load(example_id)
        chosen = example.case(case)
        offered = [spec.name for spec in SPECS.where(explorer="statements")]
        if chosen.metric not in offered:
            raise InputError("example_id", "an example of " + ", ".join(offered), f"{example_id} ({chosen.metric})")
        kwargs = dict(chosen.kwargs)
        texts = example.inputs.get("nodes")
        if statement_view(SPECS[chosen.metric]).shape is Shape.ATTRIBUTED and isinstance(texts, list) and all(isinstance(t, str) for t in texts):
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
        return (YES, NO, IDK) if statement_view(self.spec).idk else (YES, NO)

    @property
    def variants(self) -> tuple[str, ...]:
        """The metric's variants."""
        return self.spec.named_variants

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
        i, j = check_index("i", i, self.n), check_index("j", j, self.n)
        if i != j:
            move_item(self._order, i, j)
            self._changed("order")

    def set_order(self, order: Sequence[int]) -> None:
        """Show the statements in this order (original indices)."""
        order = check_permutation("order", order, self.n)
        if order != self._order:
            self._order = order
            self._changed("order")

    def toggle(self, i: int) -> None:
        """Cycle the verdict at position ``i``: yes -> no (-> idk where allowed) -> yes."""
        cycle = self.allowed
        current = self._verdicts[self._order[check_index("i", i, self.n)]]
        self.set_verdict(i, cycle[(cycle.index(current) + 1) % len(cycle)])

    def set_verdict(self, i: int, verdict: Any) -> None:
        """Set the verdict at position ``i`` (yes/no, 0/1, and idk where the metric allows it)."""
        index = self._order[check_index("i", i, self.n)]
        value = one_verdict("verdict", verdict, allow_idk=IDK in self.allowed)
        if value != self._verdicts[index]:
            self._verdicts[index] = value
            self._changed("verdicts")

    def attribute(self, i: int, node: int | None) -> None:
        """Attribute the statement at position ``i`` to context node ``node`` (1-based; None: to none)."""
        if self._attr is None:
            raise InputError("attribute", "a context-recall model built with nodes= or node_texts=", self.metric)
        index = self._order[check_index("i", i, self.n)]
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
        if "penalize_ambiguous" not in self.spec.parameters():
            raise InputError("penalize_ambiguous", "only for a metric that has it (faithfulness)", self.metric)
        value = flag("penalize_ambiguous", value)
        if value != self.penalize_ambiguous:
            self.penalize_ambiguous = value
            self._changed("penalize_ambiguous")

    def state(self) -> dict[str, Any]:
        """The order, verdicts, attribution, variant and penalize_ambiguous switch."""
        return {"order": list(self._order), "verdicts": list(self._verdicts),
                "attribution": None if self._attr is None else list(self._attr), "variant": self.variant,
                "penalize_ambiguous": self.penalize_ambiguous}

    def reset(self) -> None:
        """Back to the order, verdicts, attribution, variant and penalize_ambiguous the model started with."""
        start = self._start
        self._order, self._verdicts = list(start["order"]), list(start["verdicts"])
        self._attr = None if start["attribution"] is None else list(start["attribution"])
        self.variant, self.penalize_ambiguous = start["variant"], start["penalize_ambiguous"]
        self._changed("reset")

    # -- scoring -------------------------------------------------------------------
    def metric_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of the metric call for the current state."""
        statements, verdicts = self.statements, self.verdicts
        shape = statement_view(self.spec).shape
        if shape is Shape.ATTRIBUTED:
            return {"statements": statements, "verdicts": verdicts, "nodes": self.attribution,
                    "variant": self.variant, "question": self.question, "threshold": self.threshold}
        if shape is Shape.PER_NODE:
            groups = self.groups or []
            per_node = [[(s, v) for s, v, g in zip(statements, verdicts, groups, strict=True) if g == n]
                        for n in range(1, self._node_count + 1)]
            return {"node_statements": [[s for s, _ in pairs] for pairs in per_node],
                    "node_verdicts": [[v for _, v in pairs] for pairs in per_node],
                    "nodes": self.node_texts, "variant": self.variant, "question": self.question,
                    "threshold": self.threshold}
        if shape is Shape.CLAIMS:
            return {"claims": statements, "verdicts": verdicts, "variant": self.variant,
                    "penalize_ambiguous": self.penalize_ambiguous, "context": self.node_texts,
                    "threshold": self.threshold}
        given = {"statements": statements, "verdicts": verdicts, "question": self.question, "threshold": self.threshold,
                 "variant": self.variant}
        return {k: v for k, v in given.items() if k in self.spec.parameters()}

    def _compute(self) -> MetricResult:
        return self.spec.function()(**self.metric_kwargs())
