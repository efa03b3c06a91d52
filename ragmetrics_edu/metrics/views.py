"""How the explorers show a metric: a typed view description per kind of explorer.

A metric's spec (:class:`~ragmetrics_edu.metrics.specs.MetricSpec`) carries at most one view:

- :class:`StatementView`: the statement (and decompose) explorers: the items are statements or
  claims with a verdict each; ``shape`` (a :class:`Shape`) says how they are laid out, ``idk``
  whether "idk" is a verdict, ``counted`` which step column counts and its total in the result's
  values, ``hint`` the question the learner answers for each item;
- :class:`RankingView`: the reorder and permutation explorers: the selector's ``choices``, the
  per-rank ``chart`` (a :class:`Chart`), whether it draws the cut-off k, and the other names a
  student may type for it.

Every field is checked when the view is built, so a typo fails at registration, not in a
default branch at the first click. The shapes and charts are closed sets of values
(:class:`Shape`, :class:`Chart`) that a new metric reuses.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import InputError

__all__ = ["Chart", "RankingChoice", "RankingView", "Shape", "StatementView"]


class Shape(enum.Enum):
    """How a statement metric's items are laid out, and what else the explorer's model takes for them."""

    ATTRIBUTED = "attributed"  # reference statements, each attributed to a node or none (context recall)
    PER_NODE = "per_node"  # statements grouped by the node they came from (contextual relevancy)
    CLAIMS = "claims"  # the answer's claims, judged against the context (faithfulness)
    STATEMENTS = "statements"  # the answer's statements, judged against the question (answer relevancy)

    @classmethod
    def _missing_(cls, value: object) -> Shape:
        raise InputError("Shape", "one of " + ", ".join(repr(s.value) for s in cls), value)

    @property
    def extras(self) -> frozenset[str]:
        """Keyword arguments the statement model takes for this shape beyond the metric function's own."""
        return {Shape.ATTRIBUTED: frozenset({"node_texts"}),
                Shape.CLAIMS: frozenset({"statements"})}.get(self, frozenset())


class Chart(enum.Enum):
    """The ranking explorer's per-rank chart."""

    PRECISION = "precision"  # precision@k at each rank
    DISCOUNT = "discount"  # the position discount 1/log2(k+1)
    RECIPROCAL = "reciprocal"  # 1/k, the first relevant rank marked

    @classmethod
    def _missing_(cls, value: object) -> Chart:
        raise InputError("Chart", "one of " + ", ".join(repr(c.value) for c in cls), value)


class RankingChoice(NamedTuple):
    """One entry of the ranking selector: its label, the variant it selects (None: the metric has none),
    and the per-rank chart's title."""

    label: str
    variant: str | None
    title: str


def _text(field: str, value: object, *, empty: bool = True) -> None:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise InputError(field, "a string" if empty else "a non-empty string", value)


def _flag(field: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InputError(field, "True or False", value)


@dataclass(frozen=True)
class StatementView:
    """The statement explorer's view of a metric (see the module)."""

    shape: Shape
    counted: tuple[str, str]
    hint: str
    item: str = "statement"
    idk: bool = False
    decompose: bool = False  # the decompose explorer offers it too

    def __post_init__(self) -> None:
        if not isinstance(self.shape, Shape):
            raise InputError("StatementView.shape", "a views.Shape (" + ", ".join(s.name for s in Shape) + ")",
                             self.shape)
        if not (isinstance(self.counted, tuple) and len(self.counted) == 2
                and all(isinstance(c, str) and c for c in self.counted)):
            raise InputError("StatementView.counted", "a (step column, total in values) pair of names", self.counted)
        _text("StatementView.hint", self.hint, empty=False)
        _text("StatementView.item", self.item, empty=False)
        _flag("StatementView.idk", self.idk)
        _flag("StatementView.decompose", self.decompose)


@dataclass(frozen=True)
class RankingView:
    """The ranking explorers' view of a metric (see the module)."""

    choices: tuple[RankingChoice, ...]
    chart: Chart = Chart.PRECISION
    cutoff: bool = False  # the chart draws the cut-off k
    aliases: tuple[str, ...] = ()  # other names a student may type for it ("mrr", "ndcg")

    def __post_init__(self) -> None:
        if not isinstance(self.choices, tuple) or not self.choices or not all(
                isinstance(c, tuple) and len(c) == 3 and isinstance(c[0], str) and isinstance(c[2], str)
                and (c[1] is None or isinstance(c[1], str)) for c in self.choices):
            raise InputError("RankingView.choices", "a non-empty tuple of RankingChoice(label, variant, title)",
                             self.choices)
        object.__setattr__(self, "choices", tuple(RankingChoice(*c) for c in self.choices))
        if not isinstance(self.chart, Chart):
            raise InputError("RankingView.chart", "a views.Chart (" + ", ".join(c.name for c in Chart) + ")", self.chart)
        _flag("RankingView.cutoff", self.cutoff)
        if not isinstance(self.aliases, tuple) or not all(isinstance(a, str) and a for a in self.aliases):
            raise InputError("RankingView.aliases", "a tuple of names", self.aliases)

    @property
    def variants(self) -> tuple[str | None, ...]:
        """The variants its selector offers, in order."""
        return tuple(c.variant for c in self.choices)
