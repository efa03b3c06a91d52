"""Which row of one dataset is which row of the other: pairs by id, else by text, never by position.

The rule, written before any comparison is run:

1. When every row of both datasets has an ``id``, rows are paired by id.
2. Otherwise by the question's text (whitespace runs made one space, ends trimmed): two versions of a
   system answer the same questions with different answers.
3. A question that occurs more than once in either dataset is paired by its question and answer text
   together; rows that still share a key on one side cannot be told apart and stay unpaired.

Every row left unpaired is listed with the reason. Two files whose rows are in a different order pair
exactly as they would in the same order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..text import squash_spaces
from .datasets import Dataset

__all__ = ["Pairing", "pair_rows"]


@dataclass(frozen=True)
class Pairing:
    """``pairs``: (row in a, row in b) for each matched case, in a's order; ``labels`` what names each pair (its
    id, or its question); ``key`` what they were matched on; ``only_a``/``only_b`` the rows left unpaired, each
    with why (``(where, why)``: ``a.jsonl line 4``, ``data[3]``)."""

    key: str
    pairs: list[tuple[int, int]]
    labels: list[Any]
    only_a: list[tuple[str, str]] = field(default_factory=list)
    only_b: list[tuple[str, str]] = field(default_factory=list)

    def describe(self, names: tuple[str, str] = ("A", "B")) -> str:
        """A few lines: how many rows paired and on what, and each row left out with why (``(where, why)``: ``a.jsonl line 4``, ``data[3]``)."""
        lines = [f"{_count(len(self.pairs), 'case')} paired by {self.key}; {_count(len(self.only_a), 'row')} only in "
                 f"{names[0]}, {_count(len(self.only_b), 'row')} only in {names[1]}."]
        for name, rows in zip(names, (self.only_a, self.only_b), strict=True):
            lines += [f"  unpaired in {name}: {where}: {why}" for where, why in _shown(rows)]
        return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _shown(rows: list[tuple[str, str]], limit: int = 20) -> list[tuple[str, str]]:
    shown = rows[:limit]
    return shown + ([("…", f"{len(rows) - limit} more")] if len(rows) > limit else [])


def _keys(data: Dataset, repeated: set[str]) -> list[Any]:
    keys = []
    for case in data.cases:
        question = squash_spaces(str(case.get("question") or ""))
        keys.append((question, squash_spaces(str(case.get("answer") or ""))) if question in repeated else question)
    return keys


def pair_rows(a: Dataset, b: Dataset) -> Pairing:
    """Pair the rows of ``a`` and ``b`` (from :func:`~ragmetrics_edu.evaluation.read_cases`) by the module's rule."""
    for name, data in (("a", a), ("b", b)):
        if not isinstance(data, Dataset):
            raise InputError(name, "rows read by evaluation.read_cases()", data)
    if a.has_ids and b.has_ids:
        key, keys_a, keys_b = "id", [str(c["id"]) for c in a.cases], [str(c["id"]) for c in b.cases]
    else:
        for name, data in (("a", a), ("b", b)):
            missing = [w for w, c in zip(data.where, data.cases, strict=True) if not c.get("question")]
            if missing:
                raise InputError(f"{missing[0]}: question", "a question on every row (rows with no id are paired by "
                                 "their question's text)", None, hint=f"in {name} ({data.source})")
        repeated = {q for data in (a, b) for q, n in Counter(squash_spaces(str(c["question"])) for c in data.cases).items()
                    if n > 1}
        key = "question text" + (" (and answer text where a question repeats)" if repeated else "")
        keys_a, keys_b = _keys(a, repeated), _keys(b, repeated)
    count_a, count_b = Counter(keys_a), Counter(keys_b)
    where_b = {k: j for j, k in enumerate(keys_b)}
    pairs, labels, only_a, only_b = [], [], [], []
    for i, k in enumerate(keys_a):
        if count_a[k] > 1 or count_b[k] > 1:
            only_a.append((a.where[i], "its key is shared by several rows, so which is which cannot be told"))
        elif k not in where_b:
            only_a.append((a.where[i], f"the other side has no row with its {'id' if key == 'id' else 'text'}"))
        else:
            pairs.append((i, where_b[k]))
            labels.append(a.cases[i]["id"] if key == "id" else a.cases[i].get("question"))
    paired_b = {j for _, j in pairs}
    for j, k in enumerate(keys_b):
        if j not in paired_b:
            why = ("its key is shared by several rows, so which is which cannot be told" if count_a[k] > 1 or count_b[k] > 1
                   else f"the other side has no row with its {'id' if key == 'id' else 'text'}")
            only_b.append((b.where[j], why))
    return Pairing(key, pairs, labels, only_a, only_b)
