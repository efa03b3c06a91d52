"""What ``ragmetrics-edu score METRIC ...`` reads for a metric, and how it calls the metric with it.

A spec's ``reads`` is one of the values below (or a new :class:`Reads`): it parses the command
line's arguments (an ``argparse.Namespace``, read by attribute) into the metric function's
arguments. The command itself branches on nothing metric-specific.

Verdicts typed on a command line are strings: ``1``/``true``/``t`` read as yes and ``0``/``false``/``f``
as no; other words go to the metric as typed, so an unknown one is reported with its position.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from ..errors import InputError
from ..validate import text_list

# call_with and parameter_names are the engine's (specs, the explorers' models), not a user's API
__all__ = ["Reads", "RANKED_VERDICTS", "GAINS", "STATEMENT_VERDICTS", "VERDICTS_PER_NODE", "ENTITY_LISTS",
           "STATEMENT_COUNTS", "TWO_TEXTS", "typed_verdicts"]

_TYPED = {"1": "yes", "1.0": "yes", "true": "yes", "t": "yes", "0": "no", "0.0": "no", "false": "no", "f": "no"}


def typed_verdicts(values: Sequence[str]) -> list[str]:
    """Verdicts typed on a command line, with 1/0 and true/false read as yes/no."""
    return [_TYPED.get(x.strip().lower(), x) for x in text_list("verdicts", values)]


@lru_cache(maxsize=None)
def parameter_names(function: Callable[..., Any]) -> frozenset[str]:
    """The parameter names of ``function``, read once (explorers ask on every event, permutations thousands of times)."""
    return frozenset(inspect.signature(function).parameters)


def call_with(function: Callable[..., Any], first: Any, available: Mapping[str, Any]) -> Any:
    """``function(first, **those of available it takes)``: one call for metrics whose keywords differ."""
    taken = parameter_names(function)
    return function(first, **{k: v for k, v in available.items() if k in taken})


def _gains(values: Sequence[str]) -> list[Any]:
    """Graded gains as numbers (ints where whole); words such as yes/no/true/false pass through."""
    out: list[Any] = []
    for x in values:
        try:
            number = float(x)
        except ValueError:
            out.append(_TYPED.get(x.strip().lower(), x))
            continue
        out.append(int(number) if number.is_integer() and abs(number) < 2**53 else number)
    return out


def _split(value: str) -> list[str]:
    return [e.strip() for e in value.split(";") if e.strip()]


@dataclass(frozen=True)
class Reads:
    """One way the command line gives a metric its inputs.

    ``what`` is the help text ("verdicts", "--tp, --fp and --fn"); ``positional`` says whether the
    inputs are typed after the metric's name (then at least one is required). ``parse`` turns the
    arguments into the metric's call; ``options`` holds the checked ``threshold`` and ``variant``."""

    what: str
    positional: bool
    parse: Callable[[Callable[..., Any], Any, Mapping[str, Any]], Any]
    #: the metric's own options: parameter name -> (type, help); ``ragmetrics-edu score`` offers each as
    #: ``--name`` and passes it to the metric's function (see :meth:`with_options`)
    options: tuple[tuple[str, type, str], ...] = ()

    def with_options(self, **options: tuple[type, str]) -> Reads:
        """The same reader, with options of the metric's own (``beta=(float, "F-beta's beta")``): a new metric
        declares them on its spec's ``reads``, and the command line offers them with no edit of cli.py."""
        return Reads(self.what, self.positional, self.parse,
                     self.options + tuple((name, kind, text) for name, (kind, text) in options.items()))

    @property
    def help(self) -> str:
        """What the command line reads for it, and its own options (printed by ``score --help``)."""
        own = ", ".join(f"--{name.replace('_', '-')}" for name, _, _ in self.options)
        return self.what + (f"; its options {own}" if own else "")

    def score(self, compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
        """Call ``compute`` with what ``args`` holds for it."""
        if self.positional and not args.verdicts:
            raise InputError("verdicts", f"at least one verdict after the metric, e.g. "
                             f"`ragmetrics-edu score {args.metric} yes no`", [])
        return self.parse(compute, args, options)


def _ranked(compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
    extra = {k: x for k, x in (("k", args.k), ("total_relevant", args.total_relevant)) if x is not None}
    return call_with(compute, typed_verdicts(args.verdicts), {**options, **extra})


def _graded(compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
    return call_with(compute, _gains(args.verdicts), {**options, "k": args.k, "gain": args.gain})


def _statements(compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
    verdicts = typed_verdicts(args.verdicts)
    labels = [f"statement {i}" for i in range(1, len(verdicts) + 1)]
    return call_with(compute, labels, {"verdicts": verdicts, **options})


def _per_node(compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
    groups = [typed_verdicts([x for x in g.split(",") if x]) for g in args.verdicts]
    names = [[f"node {n} statement {i}" for i in range(1, len(g) + 1)] for n, g in enumerate(groups, 1)]
    return call_with(compute, names, {"node_verdicts": groups, **options})


def _entities(compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
    if args.reference is None or args.context is None:
        raise InputError("--reference/--context", "both entity lists, separated by ';'", None)
    return call_with(compute, _split(args.reference),
                     {"context_entities": _split(args.context), "normalize": args.normalize, **options})


def _counts(compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
    for name in ("tp", "fp", "fn"):
        if getattr(args, name) < 0:
            raise InputError(f"--{name}", "a number of statements, 0 or more", getattr(args, name))
    tp, fp, fn = ([f"{n.upper()} {i}" for i in range(1, getattr(args, n) + 1)] for n in ("tp", "fp", "fn"))
    return call_with(compute, tp, {"fp": fp, "fn": fn, "similarity": args.similarity, **options})


def _texts(compute: Callable[..., Any], args: Any, options: Mapping[str, Any]) -> Any:
    if args.answer is None or args.ground_truth is None:
        raise InputError("--answer/--ground-truth", "two texts to compare", None)
    return call_with(compute, args.answer, {"ground_truth": args.ground_truth, **options})


#: ranked yes/no verdicts after the metric's name (``--k``, ``--total-relevant`` where the metric takes them)
RANKED_VERDICTS = Reads("verdicts", True, _ranked)
#: graded gains after the metric's name (``--k``, ``--gain``)
GAINS = Reads("gains", True, _graded)
#: one verdict per statement (or claim) after the metric's name
STATEMENT_VERDICTS = Reads("statement verdicts", True, _statements)
#: one comma-separated list of verdicts per node
VERDICTS_PER_NODE = Reads("verdicts per node", True, _per_node)
#: ``--reference`` and ``--context`` entity lists, separated by ';'
ENTITY_LISTS = Reads("--reference and --context", False, _entities)
#: ``--tp``, ``--fp`` and ``--fn`` statement counts (and ``--similarity``)
STATEMENT_COUNTS = Reads("--tp, --fp and --fn", False, _counts)
#: ``--answer`` and ``--ground-truth`` texts
TWO_TEXTS = Reads("--answer and --ground-truth", False, _texts)
