"""What the explorers offer, read from the metric registry (:data:`ragmetrics_edu.metrics.SPECS`) each time.

A metric registered with a :class:`~ragmetrics_edu.metrics.views.RankingView` appears in the reorder and
permutation explorers' selector, one entry per choice; with a
:class:`~ragmetrics_edu.metrics.views.StatementView` in the statement explorer (and, with ``decompose=True``,
in the decompose explorer). Nothing here is keyed by metric names.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..metrics.specs import SPECS, MetricSpec
from ..metrics.views import RankingView, StatementView

__all__ = ["decompose_spec", "ranking_choices", "ranking_spec", "ranking_view", "statement_spec", "statement_view",
           "title_of"]


def _spec(field: str, value: Any, among: list[MetricSpec], what: str) -> MetricSpec:
    if not among:
        raise InputError(field, what, value)
    return SPECS[SPECS.name(field, value, among)]


def ranking_spec(field: str, value: Any) -> MetricSpec:
    """The spec of the ranking metric ``value`` names (an InputError listing the offered ones otherwise)."""
    return _spec(field, value, SPECS.where(explorer="ranking"), "a ranking metric")


def statement_spec(field: str, value: Any) -> MetricSpec:
    """The spec of the statement metric ``value`` names."""
    return _spec(field, value, SPECS.where(explorer="statements"), "a statement metric")


def decompose_spec(field: str, value: Any) -> MetricSpec:
    """The spec of a metric the decompose explorer offers (statement metrics with ``decompose=True``)."""
    offered = [s for s in SPECS.where(explorer="statements") if statement_view(s).decompose]
    return _spec(field, value, offered, "a metric the decompose explorer offers")


def _view(spec: MetricSpec, kind: type[Any], what: str) -> Any:
    if not isinstance(spec, MetricSpec):
        raise InputError("spec", "a MetricSpec", spec)
    if not isinstance(spec.view, kind):
        raise InputError("metric", f"a metric with a {what} view (spec.view)", spec.name)
    return spec.view


def statement_view(spec: MetricSpec) -> StatementView:
    """The statement view of ``spec`` (an InputError when it has none)."""
    return _view(spec, StatementView, "statement")


def ranking_view(spec: MetricSpec) -> RankingView:
    """The ranking view of ``spec`` (an InputError when it has none)."""
    return _view(spec, RankingView, "ranking")


def ranking_choices() -> list[tuple[str, tuple[str, str | None]]]:
    """The ranking selector's entries, in registry order: (label, (metric, variant))."""
    return [(label, (spec.name, variant)) for spec in SPECS.where(explorer="ranking")
            for label, variant, _ in ranking_view(spec).choices]


def title_of(metric: str, variant: str | None) -> str:
    """The per-rank chart's title for (metric, variant)."""
    for _, chosen, title in ranking_view(SPECS[metric]).choices:
        if chosen == variant:
            return title
    raise InputError("variant", "one of " + ", ".join(str(v) for _, v, _ in ranking_view(SPECS[metric]).choices), variant)
