"""One compact table of a notebook's deck examples: stated by the deck, computed, exact value, note.

A concept-first notebook teaches each idea with the one deck example that shows it best; every
other worked example of its metric is still reproduced, number for number, in this table. Each
row is one case of a catalogue example (see :mod:`ragmetrics_edu.examples`): the number the deck
leads with, the library's value written at the deck's precision and by the deck's rule, the
exact value, how many of the deck's numbers for that case match, and a note. The note says where
the deck rounds or truncates, where a number is derived by the project rather than printed by the
deck, and adds the notebook's own remark where the slip is the lesson. Nothing here is typed: every
number comes from :meth:`Example.checks` when the table is built.

    from ragmetrics_edu import deck_table
    deck_table.show(["A-cp-what-is-ai", "C-cp-sun-high"], notes={"A-cp-what-is-ai": "..."})
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

from .. import examples
from ..errors import InputError
from ..results import fmt
from ..validate import mapping, number, plain, text_list
from .display import is_derived

__all__ = ["Row", "exact_text", "rows", "show", "text"]

#: Printed lines stay within the course's 100 columns; notes wrap below their row.
WIDTH = 100


@dataclass(frozen=True)
class Row:
    """One case (or one stated ordering) of a deck example, as the compact table shows it."""

    example: str
    case: str
    stated: str
    computed: str
    exact: str
    matched: int
    checked: int
    note: str

    @property
    def label(self) -> str:
        """``id`` for a single-case example, ``id [case]`` otherwise."""
        return self.example if not self.case else f"{self.example} [{self.case}]"

    @property
    def ok(self) -> bool:
        """Every number the deck states for this case matches the computed one."""
        return self.matched == self.checked


def exact_text(value: Any) -> str:
    """The exact value: a whole number as is, a simple fraction with its float, else the float's repr."""
    value = plain(value)
    if value is None:
        return "-"
    if isinstance(value, bool) or isinstance(value, int):
        return str(int(value))
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    x = number("value", value, "a score: a finite number, NaN or None")
    if x == int(x):
        return str(int(x))
    fraction = Fraction(x).limit_denominator(1000)
    if abs(float(fraction) - x) < 1e-12:
        return f"{fraction} = {x!r}"
    return repr(x)


def _rounding_note(check: Mapping[str, Any]) -> str:
    """``0.666667 to 0.67`` where the deck's printed precision hides part of the exact value, else ""."""
    value, printed = check["exact"], check["stated"]
    if value is None or check["rule"] not in ("round", "truncate"):
        return ""
    places = len(printed.split(".")[1]) if "." in printed else 0
    if abs(float(f"{float(value):.{places}f}") - float(value)) <= 1e-9:
        return ""
    return f"{float(value):.6f} to {printed}"


def _case_row(example: Any, label: str, checks: list[dict[str, Any]], result: Any, multi: bool) -> Row:
    head = [c for c in checks if c["quantity"] == "score"] or checks[:1]
    notes: list[str] = []
    if head:
        first = head[0]
        stated, computed, value = first["stated"], first["computed"], first["exact"]
        if first["quantity"] != "score":
            stated = f"{first['quantity'].split(':')[-1]} {stated}"
        for rule, verb in (("round", "rounds"), ("truncate", "truncates")):
            hidden = [n for n in dict.fromkeys(_rounding_note(c) for c in checks
                                               if c["rule"] == rule and not is_derived(c["deck_text"])) if n]
            if hidden:
                notes.append(f"deck {verb} " + ", ".join(hidden))
        if any(is_derived(c["deck_text"]) for c in checks):
            notes.append("derived by the project: the deck prints no number here")
    else:
        stated, computed, value = "-", fmt(result.score), result.score
        notes.append("the deck states no number; the verdicts are the project's" + (" (see assumed)"
                                                                                    if example.assumed else ""))
    wrong = [c for c in checks if not c["matches"]]
    notes += [f"MISMATCH {c['quantity']}: deck {c['stated']}, computed {c['computed']}" for c in wrong]
    return Row(example.id, label if multi else "", stated, computed, exact_text(value),
               len(checks) - len(wrong), len(checks), "; ".join(notes))


def rows(example_ids: Sequence[str], notes: Mapping[str, str] | None = None) -> list[Row]:
    """The table's rows for these catalogue examples, in the order given, every case and stated ordering.

    ``notes`` adds the notebook's remark to a row, keyed by example id (every row of it) or by
    ``"id [case]"`` (one case).
    """
    example_ids = text_list("example_ids", example_ids)
    extra = dict(mapping("notes", notes, "a dict example id (or 'id [case]') -> note, or None") if notes is not None else {})
    for key, note in extra.items():
        if not isinstance(note, str):
            raise InputError(f"notes[{key!r}]", "a string", note)
    out: list[Row] = []
    for example_id in example_ids:
        example = examples.load(example_id)
        checks = example.checks()
        results = example.compute_all()
        multi = len(example.cases) > 1
        for case in example.cases:
            mine = [c for c in checks if c["case"] == case.label and c["quantity"] != "order"]
            out.append(_case_row(example, case.label, mine, results[case.label], multi))
        for c in (c for c in checks if c["quantity"] == "order"):
            out.append(Row(example.id, "order", "an order", "holds" if c["matches"] else "fails", c["computed"],
                           int(c["matches"]), 1, f"the deck says {c['stated']}"
                           + ("" if c["matches"] else f"; MISMATCH: computed {c['computed']}")))
    known = {r.example for r in out} | {r.label for r in out}
    unknown = sorted(set(extra) - known)
    if unknown:
        raise InputError("notes", "keys that are example ids of this table, or 'id [case]'", unknown[0])
    def noted(r: Row) -> Row:
        parts = dict.fromkeys(n for n in (r.note, extra.get(r.example, ""), extra.get(r.label, "")) if n)
        return Row(**{**r.__dict__, "note": "; ".join(parts)})

    return [noted(r) for r in out]


def text(example_ids: Sequence[str], notes: Mapping[str, str] | None = None) -> str:
    """The table as plain text: one line per row (at most 100 columns), its note wrapped below."""
    table = rows(example_ids, notes)
    width = max([len(r.label) for r in table] + [len("example")])
    exact_width = max([len(r.exact) for r in table] + [len("exact value")])
    header = f"{'example':<{width}}  {'deck states':>11}  {'computed':>9}  {'exact value':<{exact_width}}  numbers"
    lines = [header, "-" * min(len(header) + 4, WIDTH)]
    for r in table:
        lines.append(f"{r.label:<{width}}  {r.stated:>11}  {r.computed:>9}  {r.exact:<{exact_width}}  "
                     f"{r.matched}/{r.checked} {'match' if r.ok else 'MISMATCH'}")
        if r.note:
            lines.append(textwrap.fill(r.note, WIDTH, initial_indent="    note: ", subsequent_indent=" " * 10))
    total = sum(r.checked for r in table)
    matched = sum(r.matched for r in table)
    lines.append(f"{matched} of {total} numbers stated by the decks match the library's "
                 f"({len({r.example for r in table})} examples).")
    return "\n".join(lines)


def show(example_ids: Sequence[str], notes: Mapping[str, str] | None = None) -> None:
    """Print :func:`text` (a notebook cell's output; :func:`rows` gives the same as data)."""
    print(text(example_ids, notes))
