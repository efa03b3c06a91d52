"""What a metric is, in one place: :class:`MetricSpec`, and the registry :data:`SPECS` that holds one per metric and design.

A spec says everything the rest of the library needs to know about a metric, so no other module
keeps a table or an if/elif keyed by metric names:

- ``compute``: its arithmetic, a pure function of verdicts, statements or texts (this package);
- ``ask``: how :func:`ragmetrics_edu.evaluate` scores one case (:class:`Ask`: the judge step it
  calls, or ``compute`` itself when no judge is needed), ``design`` naming what that is, and
  ``steps`` and ``prompts``, the judge steps it sends and their prompt files;
- ``label``, ``component``, ``verdict_column``, ``variants``, ``higher_is_better``;
- how the explorers show it (``view``: a :class:`~ragmetrics_edu.metrics.views.StatementView` or
  :class:`~ragmetrics_edu.metrics.views.RankingView`) and what ``ragmetrics-edu score`` reads for it
  (``reads``: a :class:`~ragmetrics_edu.metrics.inputs.Reads`).

What a course says about a metric (its row in the metric map, its short label, the notebook
that teaches it) is the course's own table, not the spec's.

Adding a metric is one :func:`register` call (docs/architecture.md, "Add a metric"); the built-in
specs are in :mod:`ragmetrics_edu.metrics.builtin_specs`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from ..errors import InputError
from ..validate import choice
from .inputs import Reads, call_with, parameter_names
from .views import RankingView, StatementView

__all__ = ["Ask", "MetricSpec", "Registry", "SPECS", "register", "unregister", "call_with", "COLUMNS"]

#: The case columns evaluate() can pass a metric, and the two things it passes besides them.
COLUMNS = ("question", "answer", "contexts", "ground_truth")
_PASSED = COLUMNS + ("judge", "embedder", "criteria")


@dataclass(frozen=True)
class Ask:
    """How :func:`ragmetrics_edu.evaluate` scores a case: call ``target`` with ``args`` (by position) and
    ``kwargs`` (keyword -> what is passed), each one of :data:`COLUMNS`, ``"judge"``, ``"embedder"`` or
    ``"criteria"`` (the user's criterion, passed only when given).

    ``target`` is a function, or ``"module:function"`` inside :mod:`ragmetrics_edu` (e.g.
    ``"judges.steps:context_precision"``), imported when first asked, so that this low layer names a
    judge step without importing the judges."""

    target: str | Callable[..., Any]
    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not (callable(self.target) or (isinstance(self.target, str) and ":" in self.target)):
            raise InputError("Ask.target", 'a function, or "module:function" inside ragmetrics_edu', self.target)
        _strings("Ask.args", self.args, _PASSED)
        if not isinstance(self.kwargs, tuple) or not all(
                isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and p[0].isidentifier() for p in self.kwargs):
            raise InputError("Ask.kwargs", "a tuple of (keyword, what is passed) pairs", self.kwargs)
        _strings("Ask.kwargs", tuple(v for _, v in self.kwargs), _PASSED)

    @property
    def needs(self) -> tuple[str, ...]:
        """The case columns this call reads, in :data:`COLUMNS` order."""
        used = set(self.args) | {v for _, v in self.kwargs}
        return tuple(c for c in COLUMNS if c in used)

    @property
    def judged(self) -> bool:
        """Whether a judge is passed (and so needed)."""
        return "judge" in self.args or "judge" in {v for _, v in self.kwargs}

    def function(self) -> Callable[..., Any]:
        """The function to call (a ``"module:function"`` target imported now)."""
        if callable(self.target):
            return self.target
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(f"ragmetrics_edu.{module}"), name)

    def __call__(self, passed: Mapping[str, Any]) -> Any:
        """Call the target with the values ``passed`` holds (a case's columns, judge, embedder, criteria)."""
        kwargs = {k: passed[v] for k, v in self.kwargs if not (v == "criteria" and passed.get(v) is None)}
        return self.function()(*(passed.get(a) for a in self.args), **kwargs)


@dataclass(frozen=True)
class MetricSpec:
    """One metric, or one design of a metric (``of`` names the metric it is a design of). See the module."""

    name: str
    label: str
    compute: Callable[..., Any] | None = None
    ask: Ask | None = None
    design: str = ""
    of: str | None = None
    component: str = ""
    steps: tuple[str, ...] = ()  # the judge steps ask() sends (judges.STEPS names)
    verdict_column: str | None = None
    variants: tuple[str | None, ...] = (None,)
    view: StatementView | RankingView | None = None  # how the explorers show it (None: no explorer)
    reads: Reads | None = None  # what `ragmetrics-edu score` reads for it (None: not offered there)
    embedder: bool = False  # compute takes an embedder
    higher_is_better: bool = True  # False for a metric that passes low (DeepEval's hallucination, bias, toxicity)

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name.isidentifier() and self.name.islower()):
            raise InputError("MetricSpec.name", "a lower-case Python identifier (the metric's name)", self.name)
        for name in ("label", "design", "component"):
            if not isinstance(getattr(self, name), str):
                raise InputError(f"MetricSpec.{name}", "a string", getattr(self, name))
        for name in ("of", "verdict_column"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                raise InputError(f"MetricSpec.{name}", "a string or None", getattr(self, name))
        if self.compute is not None and not callable(self.compute):
            raise InputError("MetricSpec.compute", "a function (the metric's arithmetic) or None", self.compute)
        if self.ask is not None and not isinstance(self.ask, Ask):
            raise InputError("MetricSpec.ask", "an Ask or None", self.ask)
        if self.view is not None and not isinstance(self.view, (StatementView, RankingView)):
            raise InputError("MetricSpec.view", "a views.StatementView, a views.RankingView or None", self.view)
        if self.reads is not None and not isinstance(self.reads, Reads):
            raise InputError("MetricSpec.reads", "an inputs.Reads (e.g. inputs.RANKED_VERDICTS) or None", self.reads)
        for name in ("embedder", "higher_is_better"):
            if not isinstance(getattr(self, name), bool):
                raise InputError(f"MetricSpec.{name}", "True or False", getattr(self, name))
        _strings("MetricSpec.steps", self.steps)
        if not isinstance(self.variants, tuple) or not self.variants or not all(
                v is None or isinstance(v, str) for v in self.variants):
            raise InputError("MetricSpec.variants", "a tuple of variant names (or (None,))", self.variants)
        if self.reads is not None and self.compute is None:
            raise InputError("MetricSpec.reads", "None for a spec without arithmetic of its own (compute)", self.reads)
        if isinstance(self.view, RankingView):
            stray = [v for v in self.view.variants if v is not None and v not in self.variants]
            if stray:
                raise InputError("MetricSpec.view", f"choices whose variants are among {self.variants}", stray)

    @property
    def explorer(self) -> str | None:
        """Which explorers show it: "ranking", "statements" or None (from its view)."""
        if isinstance(self.view, RankingView):
            return "ranking"
        return "statements" if isinstance(self.view, StatementView) else None

    @property
    def needs(self) -> tuple[str, ...]:
        """The case columns evaluate() needs for it (none when it is not evaluated)."""
        return self.ask.needs if self.ask else ()

    @property
    def judged(self) -> bool:
        """Whether evaluate() needs a judge for it."""
        return bool(self.ask and self.ask.judged)

    @property
    def in_text(self) -> str:
        """The label inside a sentence or on an axis: its first letter in lower case ("context precision", "nDCG@k")."""
        return self.label[:1].lower() + self.label[1:] if self.label[1:2].islower() else self.label

    @property
    def metric(self) -> str:
        """The metric this is a design of (itself when it is not a design)."""
        return self.of or self.name

    @property
    def named_variants(self) -> tuple[str, ...]:
        """Its variants' names (no None)."""
        return tuple(v for v in self.variants if v is not None)

    def function(self) -> Callable[..., Any]:
        """``compute``, or an InputError naming the metric when it has no arithmetic of its own."""
        if self.compute is None:
            raise InputError("metric", "a metric with arithmetic of its own (spec.compute)", self.name)
        return self.compute

    def parameters(self) -> frozenset[str]:
        """The names ``compute`` takes."""
        return parameter_names(self.compute) if self.compute else frozenset()


def _strings(field: str, value: Any, allowed: tuple[str, ...] | None = None) -> None:
    if not isinstance(value, tuple) or not all(isinstance(v, str) and (allowed is None or v in allowed) for v in value):
        raise InputError(field, "a tuple of " + ("names from " + ", ".join(allowed) if allowed else "names"), value)


class Registry(Mapping[str, MetricSpec]):
    """The specs by name, in the order they were registered; read-only except through :meth:`add`/:meth:`remove`."""

    def __init__(self) -> None:
        self._specs: dict[str, MetricSpec] = {}
        self._fixed: set[str] = set()  # the built-in specs: they cannot be removed

    def __getitem__(self, name: str) -> MetricSpec:
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def add(self, spec: MetricSpec) -> MetricSpec:
        if not isinstance(spec, MetricSpec):
            raise InputError("spec", "a MetricSpec", spec)
        if spec.name in self._specs:
            raise InputError("spec.name", "a name not yet registered", spec.name)
        if spec.of is not None and spec.of not in self._specs:
            raise InputError("spec.of", "a registered metric (register it first)", spec.of)
        self._specs[spec.name] = spec
        return spec

    def remove(self, name: str) -> MetricSpec:
        added = [s for s in self._specs.values() if s.name not in self._fixed]
        if not added:
            raise InputError("name", "a metric added with register() (the built-in ones stay)", name)
        return self._specs.pop(self.name("name", name, added))

    def fix(self) -> None:
        """Mark every spec registered so far as built in: :meth:`remove` refuses them."""
        self._fixed = set(self._specs)

    def where(self, **fields: Any) -> list[MetricSpec]:
        """The specs whose fields equal ``fields`` (``evaluated=True`` selects those with an ``ask``)."""
        wanted = dict(fields)
        evaluated = wanted.pop("evaluated", None)
        return [s for s in self._specs.values()
                if all(getattr(s, k) == v for k, v in wanted.items())
                and (evaluated is None or (s.ask is not None) == evaluated)]

    def name(self, field: str, value: Any, among: list[MetricSpec] | None = None) -> str:
        """``value`` as a registered name (any case, spaces ignored), or an InputError listing the names."""
        names = tuple(s.name for s in among) if among is not None else tuple(self._specs)
        return choice(field, value, names)


#: Every metric and design, by name (filled by :mod:`ragmetrics_edu.metrics.builtin_specs`).
SPECS = Registry()


def register(spec: MetricSpec) -> MetricSpec:
    """Add ``spec`` to :data:`SPECS`; evaluate(), the explorers, the command line and the metric map see it."""
    return SPECS.add(spec)


def unregister(name: str) -> MetricSpec:
    """Take the spec ``name`` out of :data:`SPECS` again (a test's toy metric)."""
    return SPECS.remove(name)
