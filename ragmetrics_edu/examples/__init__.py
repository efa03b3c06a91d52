"""The worked examples of the source decks, as data, with their stated numbers.

``catalogue.json`` beside this file holds every worked example of the five source decks
(its ``decks`` entry names each deck's title, author and file): the deck it comes from,
its inputs, the deck's verdicts, every number the deck prints (with the precision it
prints it at) and a note on any slip. :func:`load` gives an
:class:`Example` that recomputes itself with :mod:`ragmetrics_edu.metrics`, and
:func:`catalog` puts stated beside computed for all of them.
"""

from __future__ import annotations

import difflib
import json
import math
import operator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import metrics, validate
from ..embeddings import resolve
from ..errors import InputError
from ..results import MetricResult, fmt

#: The catalogue file: every deck's worked examples, their inputs and the numbers the decks state.
CATALOGUE_PATH = Path(__file__).with_name("catalogue.json")


def embedding_dependent(metric: str) -> bool:
    """Whether the metric's value depends on the embedder (its spec says ``embedder=True``)."""
    return metric in metrics.SPECS and metrics.SPECS[metric].embedder


_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq}


@dataclass(frozen=True)
class Stated:
    """One number as the deck prints it, and the rule to compare a computed value with it."""

    quantity: str
    printed: str
    rule: str = "round"
    decimals: int = 0
    text: str = ""
    value: float | None = None

    @property
    def number(self) -> float:
        """The printed number as a float (fractions like ``1/3`` are evaluated)."""
        if self.value is not None:
            return float(self.value)
        num, _, den = self.printed.partition("/")
        return float(num) / float(den) if den else float(num)

    def shown(self, computed: float) -> str:
        """The computed value written at the deck's precision and by the deck's rule (None or NaN: "NaN")."""
        value = _computed(computed)
        if value is None or math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return fmt(value)
        if self.rule == "truncate":
            scale = 10 ** self.decimals
            return f"{math.floor(value * scale + 1e-12) / scale:.{self.decimals}f}"
        if self.rule == "exact":
            return fmt(value, 6)
        return f"{value:.{self.decimals}f}"

    def matches(self, computed: float) -> bool:
        """Whether ``computed`` prints as the deck's number (None or NaN never does)."""
        value = _computed(computed)
        if value is None or math.isnan(value):
            return False
        if self.rule == "exact":
            return abs(value - self.number) <= 1e-9
        expected = f"{self.number:.{self.decimals}f}"
        return self.shown(value) == expected


def _computed(value: Any) -> float | None:
    """A computed value to compare with a stated one: a real number (numpy's too), None or NaN."""
    value = validate.plain(value)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError("computed", "a number (the computed value), None or NaN", value)
    try:
        return float(value)
    except OverflowError:
        raise InputError("computed", "a number a float can hold", value) from None


@dataclass
class Case:
    """One computation of an example: a metric call and the numbers the deck states for it."""

    label: str
    metric: str
    kwargs: dict[str, Any]
    stated: list[Stated] = field(default_factory=list)

    @property
    def headline(self) -> list[Stated]:
        """The numbers a summary leads with: the stated score(s), else the first stated number, else none."""
        return [s for s in self.stated if s.quantity == "score"] or self.stated[:1]

    def compute(self, embedder: Any = None) -> MetricResult:
        kwargs = dict(self.kwargs)
        if embedder is not None:
            embedder = resolve(embedder)  # checked even where this case needs none
        if embedder is not None and embedding_dependent(self.metric):
            kwargs["embedder"] = embedder
        return metrics.REGISTRY[self.metric](**kwargs)


@dataclass
class Example:
    """A worked example of a deck: inputs, cases, stated numbers, and notes."""

    id: str
    deck: str
    metric: str
    title: str
    summary: str
    where: str
    inputs: dict[str, Any]
    cases: list[Case]
    relations: list[dict[str, str]]
    assumed: str | None
    embedding_dependent: bool
    note: str | None
    deck_info: dict[str, str]

    @property
    def citation(self) -> str:
        """How the notebooks cite the example: deck letter, title, author, place."""
        d = self.deck_info
        return f"Deck {self.deck}: \"{d.get('title', '')}\" ({d.get('author', '')}), {self.where}"

    @property
    def case_labels(self) -> list[str]:
        return [c.label for c in self.cases]

    def case(self, label: str | None = None) -> Case:
        """The case with this label (the first when None)."""
        if label is None:
            return self.cases[0]
        validate.identifier("case", label, "one of " + ", ".join(repr(c.label) for c in self.cases))
        for c in self.cases:
            if c.label == label:
                return c
        raise InputError("case", "one of " + ", ".join(repr(c.label) for c in self.cases), label)

    def compute(self, case: str | None = None, *, embedder: Any = None) -> MetricResult:
        """The MetricResult of one case (the first when none is named)."""
        return self.case(case).compute(embedder)

    def compute_all(self, *, embedder: Any = None) -> dict[str, MetricResult]:
        return {c.label: c.compute(embedder) for c in self.cases}

    @property
    def stated(self) -> float | None:
        """The deck's headline number for the first case (None where it states none)."""
        headline = self.cases[0].headline
        return headline[0].number if headline else None

    @property
    def stated_numbers(self) -> list[tuple[str, Stated]]:
        """Every number the deck prints, as (case label, Stated)."""
        return [(c.label, s) for c in self.cases for s in c.stated]

    def checks(self, *, embedder: Any = None) -> list[dict[str, Any]]:
        """Each stated number beside the computed one, with whether they match."""
        results = self.compute_all(embedder=embedder)
        rows = []
        for label, s in self.stated_numbers:
            value = results[label].lookup(s.quantity)
            rows.append({"case": label, "quantity": s.quantity, "deck_text": s.text, "stated": s.printed,
                         "computed": s.shown(value), "exact": value, "rule": s.rule, "matches": s.matches(value)})
        for rel in self.relations:
            left, right = results[rel["left"]].score, results[rel["right"]].score
            rows.append({"case": f"{rel['left']} {rel['op']} {rel['right']}", "quantity": "order",
                         "deck_text": rel.get("text", ""), "stated": f"{rel['left']} {rel['op']} {rel['right']}",
                         "computed": f"{fmt(left)} {rel['op']} {fmt(right)}", "exact": None, "rule": "order",
                         "matches": _OPS[rel["op"]](left, right)})
        return rows

    def matches(self, *, embedder: Any = None) -> bool | None:
        """True when every stated number matches; None when the deck states none."""
        rows = self.checks(embedder=embedder)
        return all(r["matches"] for r in rows) if rows else None

    def _repr_markdown_(self) -> str:
        lines = [f"**{self.id}**: {self.title}", "", self.summary, "", f"*Source:* {self.citation}"]
        if self.assumed:
            lines += ["", f"*Assumed:* {self.assumed}"]
        if self.note:
            lines += ["", f"*Note:* {self.note}"]
        return "\n".join(lines)


@lru_cache(maxsize=1)
def _raw() -> dict[str, Any]:
    return json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))


def _build(entry: dict[str, Any], decks: dict[str, Any]) -> Example:
    cases = [
        Case(label=c["label"], metric=c["call"]["metric"], kwargs=c["call"].get("kwargs", {}),
             stated=[Stated(**{k: v for k, v in s.items() if k in Stated.__dataclass_fields__}) for s in c.get("stated", [])])
        for c in entry["cases"]
    ]
    return Example(
        id=entry["id"], deck=entry["deck"], metric=entry["metric"], title=entry.get("title", ""),
        summary=entry.get("summary", ""), where=entry.get("where", ""), inputs=entry.get("inputs", {}),
        cases=cases, relations=entry.get("relations") or [], assumed=entry.get("assumed"),
        embedding_dependent=bool(entry.get("embedding_dependent")), note=entry.get("note"),
        deck_info=decks.get(entry["deck"], {}),
    )


def ids() -> list[str]:
    """Every example id, in catalogue order (deck by deck, as the decks present them)."""
    return [e["id"] for e in _raw()["examples"]]


def load(example_id: str) -> Example:
    """The example with this id (an InputError suggests near matches otherwise)."""
    validate.identifier("example_id", example_id, "one of ragmetrics_edu.examples.ids() (a string)")
    raw = _raw()
    for entry in raw["examples"]:
        if entry["id"] == example_id:
            return _build(entry, raw["decks"])
    near = difflib.get_close_matches(example_id, ids(), n=3, cutoff=0.6)
    hint = ("Did you mean " + " or ".join(repr(n) for n in near) + "? " if near else "")
    raise InputError("example_id", "one of ragmetrics_edu.examples.ids()", example_id,
                     hint=hint + "List them with `ragmetrics-edu examples` or examples.ids()")


def all_examples() -> list[Example]:
    raw = _raw()
    return [_build(e, raw["decks"]) for e in raw["examples"]]


def decks() -> dict[str, dict[str, str]]:
    """The five source decks: title, author, file and formula style."""
    return dict(_raw()["decks"])


def catalog_rows(*, embedder: Any = None) -> list[dict[str, Any]]:
    """One row per example (stated vs computed), as plain dicts; see :func:`catalog`."""
    rows = []
    for ex in all_examples():
        checks = ex.checks(embedder=embedder)
        main = ex.compute(embedder=embedder)
        # The headline numbers: each case's score (and stated orderings); every other
        # stated number is still checked and counted in "checked".
        head = [c for c in checks if c["quantity"] in ("score", "order")] or checks
        label = (lambda c: f"{c['case']}: " if len(ex.cases) > 1 and c["quantity"] != "order" else "")
        stated = "; ".join(label(c) + c["stated"] for c in head) if checks else "(none stated)"
        computed = "; ".join(label(c) + c["computed"] for c in head) if checks else fmt(main.score)
        rows.append({"id": ex.id, "deck": ex.deck, "metric": ex.metric, "stated": stated, "computed": computed,
                     "matches": all(c["matches"] for c in checks) if checks else None,
                     "checked": len(checks), "note": ex.note or ex.assumed or ""})
    return rows


def catalog(*, embedder: Any = None):
    """A pandas DataFrame: id, deck, metric, stated, computed, matches, checked, note."""
    import pandas as pd  # lazy: pandas loads only when a table is asked for

    return pd.DataFrame(catalog_rows(embedder=embedder))


__all__ = ["Case", "Example", "Stated", "all_examples", "catalog", "catalog_rows", "decks", "ids", "load"]
