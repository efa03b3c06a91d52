"""What a metric is, in one place: :class:`MetricSpec`, and the registry :data:`SPECS` that holds one per metric and design.

A spec says everything the rest of the library needs to know about a metric, so no other module
keeps a table or an if/elif keyed by metric names:

- ``compute``: its arithmetic, a pure function of verdicts, statements or texts (this package);
- ``ask``: how :func:`ragmetrics_edu.evaluate` scores one case (:class:`Ask`: the design's function
  that asks the judge, or ``compute`` itself when no judge is needed), ``design`` naming what that is,
  and ``steps``, the contracts of the judge steps it sends (:class:`Step`);
- ``label``, ``component``, ``verdict_column``, ``variants``, ``higher_is_better``;
- ``example``: keyword arguments its ``compute`` gives a result for, where its parameter names do not say
  what they take (the API walk, tests/library/test_api_walk.py, calls the arithmetic with them);
- how the explorers show it (``view``: a :class:`~ragmetrics_edu.metrics.views.StatementView` or
  :class:`~ragmetrics_edu.metrics.views.RankingView`) and what ``ragmetrics-edu score`` reads for it
  (``reads``: a :class:`~ragmetrics_edu.metrics.inputs.Reads`).

What a course says about a metric (its row in the metric map, its short label, the notebook
that teaches it) is the course's own table, not the spec's.

Adding a metric is one :func:`register` call (docs/architecture.md, "Add a metric"). The built-in
designs register themselves: each is one module of :mod:`ragmetrics_edu.designs` (its spec, its judge
steps, their prompts), and :data:`SPECS` imports that package the first time it is read (see
:class:`Registry`), so this low layer never imports a judge and ``import ragmetrics_edu`` stays fast.
"""

from __future__ import annotations

import importlib
import inspect
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from ..errors import InputError
from ..validate import choice
from .inputs import Reads, call_with, parameter_names
from .variants import VARIANTS
from .views import RankingView, StatementView

__all__ = ["Ask", "MetricSpec", "Registry", "SPECS", "Step", "register", "unregister", "call_with", "COLUMNS",
           "BUILTIN"]

#: The case columns evaluate() can pass a metric, and the two things it passes besides them.
COLUMNS = ("question", "answer", "contexts", "ground_truth")
_PASSED = COLUMNS + ("judge", "embedder", "criteria")
#: What a design's per-run stage (``Ask.once``) may be passed: nothing that differs between cases.
_RUN = ("judge", "embedder", "criteria")

#: The package whose modules are the built-in designs; :data:`SPECS` imports it when first read.
BUILTIN = "ragmetrics_edu.designs"


@dataclass(frozen=True)
class Step:
    """One judge step's contract: its ``name`` (what a request and a recording call it), what a valid reply
    holds in words (``expects``; :class:`~ragmetrics_edu.judges.GivenJudge` lists it), the ``shorthand`` a
    given answer may take (a function turning it into the reply's JSON, e.g. a plain list of verdicts), the
    ``schema`` of a reply of fixed shape (a function returning its reply model, called with the first
    request; None when the step builds one per request, keyed by its item count) and the folder its prompt
    files are in (``prompts``, beside the design's module; None: the judges' own folder)."""

    name: str
    expects: str
    shorthand: Callable[[Any], Any] | None = None
    schema: Callable[[], Any] | None = None
    prompts: Any = None  # a pathlib.Path or importlib.resources Traversable

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name and self.name == self.name.strip()):
            raise InputError("Step.name", "the step's name (a non-empty string, e.g. 'faithfulness.claims')", self.name)
        if not isinstance(self.expects, str) or not self.expects.strip():
            raise InputError("Step.expects", "what a valid reply holds, in words", self.expects)
        for name in ("shorthand", "schema"):
            if getattr(self, name) is not None and not callable(getattr(self, name)):
                raise InputError(f"Step.{name}", "a function or None", getattr(self, name))
        if self.prompts is not None and not hasattr(self.prompts, "joinpath"):
            raise InputError("Step.prompts", "the folder of the step's prompt files (a pathlib.Path) or None",
                             self.prompts)


@dataclass(frozen=True)
class Ask:
    """How :func:`ragmetrics_edu.evaluate` scores a case: call ``target`` (a function) with ``args`` (by
    position) and ``kwargs`` (keyword -> what is passed), each one of :data:`COLUMNS`, ``"judge"``,
    ``"embedder"`` or ``"criteria"`` (the user's criterion, passed only when given).

    ``once``: the design's per-run stage, ``(keyword, Ask)``: the Ask (passed only ``"judge"``,
    ``"embedder"`` or ``"criteria"``) is called once per evaluate() run and what it returns is passed to
    every case's call as ``keyword`` (G-Eval's evaluation steps: asked once per criterion and run, then
    shared by every case). A caller's option giving ``keyword`` itself skips the stage.

    ``batch``: for a metric with no judge, a function that scores many cases at once with the same numbers
    (evaluate()'s fast path on a large file): called with the same ``args``, each case column as a list with
    one entry per case (``"embedder"`` as it is), it returns one :class:`~ragmetrics_edu.metrics.scored.Scored`
    per case, or None for a case it leaves to ``target``. evaluate() uses it only when the caller gives the
    metric no options; a test checks it against ``target`` (tests/library/test_batch_scores.py)."""

    target: Callable[..., Any]
    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...] = ()
    once: tuple[str, Ask] | None = None
    batch: Callable[..., Any] | None = None

    def __post_init__(self) -> None:
        if not callable(self.target):
            raise InputError("Ask.target", "the function that scores one case", self.target)
        _strings("Ask.args", self.args, _PASSED)
        if not isinstance(self.kwargs, tuple) or not all(
                isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and p[0].isidentifier() for p in self.kwargs):
            raise InputError("Ask.kwargs", "a tuple of (keyword, what is passed) pairs", self.kwargs)
        _strings("Ask.kwargs", tuple(v for _, v in self.kwargs), _PASSED)
        if self.batch is not None and (not callable(self.batch) or self.judged or self.kwargs or self.once):
            raise InputError("Ask.batch", "None, or a function scoring many cases at once for an Ask with no judge, "
                             "no kwargs and no per-run stage", self.batch)
        if self.once is not None:
            if not (isinstance(self.once, tuple) and len(self.once) == 2 and isinstance(self.once[0], str)
                    and self.once[0] in self.options() and isinstance(self.once[1], Ask) and self.once[1].once is None):
                raise InputError("Ask.once", "None, or (a keyword of the target, an Ask without a once of its own)",
                                 self.once)
            stage = self.once[1]
            _strings("Ask.once", stage.args + tuple(v for _, v in stage.kwargs), _RUN)

    @property
    def needs(self) -> tuple[str, ...]:
        """The case columns this call reads, in :data:`COLUMNS` order."""
        used = set(self.args) | {v for _, v in self.kwargs}
        return tuple(c for c in COLUMNS if c in used)

    @property
    def judged(self) -> bool:
        """Whether a judge is passed (and so needed)."""
        return "judge" in self.args or "judge" in {v for _, v in self.kwargs}

    def options(self) -> frozenset[str]:
        """The keywords a caller may add (``evaluate(options=...)``): the target's keyword parameters that
        this Ask does not fill itself (by position or by ``kwargs``)."""
        params = inspect.signature(self.target).parameters
        by_position = set(list(params)[: len(self.args)]) | {k for k, _ in self.kwargs}
        keyword = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        return frozenset(n for n, p in params.items() if p.kind in keyword and n not in by_position)

    def __call__(self, passed: Mapping[str, Any], **extra: Any) -> Any:
        """Call the target with the values ``passed`` holds (a case's columns, judge, embedder, criteria),
        and the keyword arguments ``extra`` (a per-run stage's, the caller's options)."""
        kwargs = {k: passed[v] for k, v in self.kwargs if not (v == "criteria" and passed.get(v) is None)}
        return self.target(*(passed.get(a) for a in self.args), **kwargs, **extra)


@dataclass(frozen=True)
class MetricSpec:
    """One metric, or one design of a metric (``of`` names the metric it is a design of). See the module."""

    name: str
    label: str
    compute: Callable[..., Any] | None = None
    ask: Ask | None = None
    design: str = ""
    #: what its number cannot see, in a sentence or two (the evaluate report's card says it beside the score)
    cannot_see: str = ""
    of: str | None = None
    component: str = ""
    steps: tuple[Step, ...] = ()  # the contracts of the judge steps ask() sends
    verdict_column: str | None = None
    variants: tuple[str | None, ...] = (None,)
    view: StatementView | RankingView | None = None  # how the explorers show it (None: no explorer)
    reads: Reads | None = None  # what `ragmetrics-edu score` reads for it (None: not offered there)
    embedder: bool = False  # compute takes an embedder
    higher_is_better: bool = True  # False for a metric that passes low (DeepEval's hallucination, bias, toxicity)
    #: keyword arguments ``compute`` gives a result for (``dict(claims=["a", "b"], verdicts=["yes", "no"])``): the
    #: API walk's valid call of the arithmetic, given where its parameter names do not say what they take
    example: Mapping[str, Any] | None = field(default=None, compare=False)

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
        if not isinstance(self.steps, tuple) or not all(isinstance(st, Step) for st in self.steps):
            raise InputError("MetricSpec.steps", "a tuple of Step contracts (the judge steps its ask sends)", self.steps)
        if not isinstance(self.variants, tuple) or not self.variants or not all(
                v is None or isinstance(v, str) for v in self.variants):
            raise InputError("MetricSpec.variants", "a tuple of variant names (or (None,))", self.variants)
        home = VARIANTS.get(self.name)  # the variant names' one home (metrics/variants.py)
        if home is not None and self.variants == (None,):
            object.__setattr__(self, "variants", home)
        elif home is not None and self.variants != home:
            raise InputError("MetricSpec.variants", f"the names metrics/variants.py holds for {self.name}, {home} "
                             "(leave variants out to read them)", self.variants)
        if self.example is not None:
            if self.compute is None or not isinstance(self.example, Mapping) or not all(
                    isinstance(k, str) for k in self.example):
                raise InputError("MetricSpec.example", "None, or the keyword arguments (a dict) of its compute",
                                 self.example)
            unknown = sorted(set(self.example) - self.parameters())
            if unknown:
                raise InputError("MetricSpec.example", f"keywords among compute's parameters {sorted(self.parameters())}",
                                 unknown)
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

    def directed(self, result: Any) -> Any:
        """``result`` with the spec's direction: a lower-is-better spec's result passes low, whatever its arithmetic
        assumed (evaluate() and ``ragmetrics-edu score`` both hand their results through here)."""
        if not self.higher_is_better and hasattr(result, "higher_is_better"):
            result.higher_is_better = False
        return result

    def parameters(self) -> frozenset[str]:
        """The names ``compute`` takes."""
        return parameter_names(self.compute) if self.compute else frozenset()


def _strings(field: str, value: Any, allowed: tuple[str, ...] | None = None) -> None:
    if not isinstance(value, tuple) or not all(isinstance(v, str) and (allowed is None or v in allowed) for v in value):
        raise InputError(field, "a tuple of " + ("names from " + ", ".join(allowed) if allowed else "names"), value)


class Registry(Mapping[str, MetricSpec]):
    """The specs by name, in the order they were registered; read-only except through :meth:`add`/:meth:`remove`.

    ``builtin``: the package whose modules register the built-in designs. It is imported the first time the
    registry is read or added to (once, under a lock), so every reader sees every built-in design, a spec
    registered later comes after them, and this module imports nothing above it. None: an empty registry."""

    def __init__(self, builtin: str | None = None) -> None:
        self._specs: dict[str, MetricSpec] = {}
        self._fixed: set[str] = set()  # the built-in specs: they cannot be removed
        self._builtin = builtin
        self._lock = threading.RLock()
        self._ready = builtin is None
        self._loading = False

    def _load(self) -> None:
        if self._ready:
            return
        with self._lock:  # another thread waits here until the built-in designs are all in
            if self._ready or self._loading:  # loading: the built-in package's own register() calls
                return
            self._loading = True
            try:
                importlib.import_module(str(self._builtin))
            finally:
                self._loading = False
                self._ready = True

    def __getitem__(self, name: str) -> MetricSpec:
        self._load()
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        self._load()
        return iter(self._specs)

    def __len__(self) -> int:
        self._load()
        return len(self._specs)

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._specs

    def add(self, spec: MetricSpec) -> MetricSpec:
        if not isinstance(spec, MetricSpec):
            raise InputError("spec", "a MetricSpec", spec)
        self._load()
        if spec.name in self._specs:
            raise InputError("spec.name", "a name not yet registered", spec.name)
        if spec.of is not None and spec.of not in self._specs:
            raise InputError("spec.of", "a registered metric (register it first)", spec.of)
        self._specs[spec.name] = spec
        return spec

    def remove(self, name: str) -> MetricSpec:
        self._load()
        added = [s for s in self._specs.values() if s.name not in self._fixed]
        if not added:
            raise InputError("name", "a metric added with register() (the built-in ones stay)", name)
        return self._specs.pop(self.name("name", name, added))

    def fix(self) -> None:
        """Mark every spec registered so far as built in: :meth:`remove` refuses them."""
        self._fixed = set(self._specs)

    def where(self, **fields: Any) -> list[MetricSpec]:
        """The specs whose fields equal ``fields`` (``evaluated=True`` selects those with an ``ask``)."""
        self._load()
        wanted = dict(fields)
        evaluated = wanted.pop("evaluated", None)
        return [s for s in self._specs.values()
                if all(getattr(s, k) == v for k, v in wanted.items())
                and (evaluated is None or (s.ask is not None) == evaluated)]

    def name(self, field: str, value: Any, among: list[MetricSpec] | None = None) -> str:
        """``value`` as a registered name (any case, spaces ignored), or an InputError listing the names."""
        names = tuple(s.name for s in among) if among is not None else tuple(self)
        return choice(field, value, names)


#: Every metric and design, by name (the built-in ones registered by :mod:`ragmetrics_edu.designs`, imported
#: when the registry is first read).
SPECS = Registry(BUILTIN)


def register(spec: MetricSpec) -> MetricSpec:
    """Add ``spec`` to :data:`SPECS`; evaluate(), the explorers, the command line and the metric map see it."""
    return SPECS.add(spec)


def unregister(name: str) -> MetricSpec:
    """Take the spec ``name`` out of :data:`SPECS` again (a test's toy metric)."""
    return SPECS.remove(name)
