"""Your own labelled answers for ``validate-judge --labels FILE``: read, checked and split into dev and test.

A row holds ``question``, ``answer`` and ``contexts`` (a list of passages), people's ``label`` and, optionally,
``group``, ``split``, ``id`` and ``model``. Ragas' names (``user_input``, ``response``, ``retrieved_contexts``) and
DeepEval's (``input``, ``actual_output``, ``retrieval_context``) work too. The file is JSONL (one object a line) or
CSV (``contexts`` as a JSON list in one cell, or ``context_1`` … ``context_k`` columns).

- ``label``: ``faithful`` or ``pass`` (the answer passes), ``hallucinated`` or ``fail`` (it fails), any case. An
  empty label (missing, ``""`` or null) marks an answer nobody labelled: the judge scores it, and it counts among
  "every answer" of the pass-rate estimate, never in the AUC.
- ``group``: the independent unit (the source whose passages several answers share, a conversation). Intervals
  resample groups, and dev and test never share one. Without the column each answer is its own group.
- ``split``: ``dev`` or ``test`` on every labelled row, to use your own split. Without the column, the
  **written rule** splits by group: the groups are ordered by the SHA-256 of their name (as UTF-8 text), the first
  half (rounded up) is dev and the rest test. The rule depends only on the names, so the same file always splits
  the same way, whatever the row order, and adding a group moves no other group across unless it changes the halves.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...validate import as_list
from ...validate import path as checked_path
from ..against_people.designs import Item

__all__ = ["read_labelled", "split_by_group", "labelled", "LABELS", "ALIASES"]

#: the words a label may be, and whether the answer fails (is hallucinated)
LABELS = {"faithful": False, "pass": False, "passed": False, "hallucinated": True, "fail": True, "failed": True}

#: other tools' column names for the fields (Ragas', DeepEval's)
ALIASES = {"user_input": "question", "input": "question", "response": "answer", "actual_output": "answer",
           "retrieved_contexts": "contexts", "retrieval_context": "contexts", "context": "contexts"}


def _rows(path: Path) -> list[dict[str, Any]]:
    """The file's rows as dicts (JSONL or CSV, by the suffix)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".csv":
        rows: list[dict[str, Any]] = []
        for i, row in enumerate(csv.DictReader(text.splitlines()), start=1):
            numbered = sorted((k for k in row if k and k.startswith("context_") and k[8:].isdigit()),
                              key=lambda k: int(k[8:]))
            if numbered and "contexts" not in row:
                row["contexts"] = [row.pop(k) for k in numbered if row.get(k)]
            elif isinstance(row.get("contexts"), str):
                try:
                    row["contexts"] = json.loads(row["contexts"])
                except json.JSONDecodeError:
                    raise InputError(f"{path.name} row {i}: contexts", "a JSON list of passages in one cell, e.g. "
                                     '["first passage", "second"], or context_1..k columns', row["contexts"]) from None
            rows.append(dict(row))
        return rows
    rows = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path.name} line {i}", "one JSON object per line", line[:60], hint=str(exc)) from None
        if not isinstance(row, dict):
            raise InputError(f"{path.name} line {i}", "a JSON object with question, answer, contexts and label", row)
        rows.append(row)
    return rows


def _field(where: str, row: dict[str, Any], name: str) -> str:
    value = row.get(name)
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: {name}", "a non-empty text", value)
    return value


def _label(where: str, value: Any) -> bool | None:
    """True: people say the answer fails; False: it passes; None: not labelled."""
    if value is None or (isinstance(value, str) and not value.strip()) or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str) and value.strip().lower() in LABELS:
        return LABELS[value.strip().lower()]
    raise InputError(f"{where}: label", "faithful/hallucinated or pass/fail (empty: not labelled)", value)


def read_labelled(path: Any) -> list[Item]:
    """The rows of a labelled file as :class:`Item` objects (``split`` "dev", "test" or "" for unlabelled rows;
    ``hallucinated`` False for an unlabelled row, which never enters a figure that needs a label)."""
    path = checked_path("--labels", path, expected="the path of a JSONL or CSV file of labelled answers")
    rows = _rows(path)
    if not rows:
        raise InputError("--labels", "a file with at least one row", str(path))
    items: list[tuple[Item, bool | None, str | None]] = []
    ids: set[str] = set()
    own_split = any("split" in row for row in rows)
    for n, raw in enumerate(rows, start=1):
        where = f"{path.name} row {n}"
        row = {ALIASES.get(k, k): v for k, v in raw.items()}
        question, answer = _field(where, row, "question"), _field(where, row, "answer")
        contexts = row.get("contexts")
        if isinstance(contexts, str):
            contexts = [contexts]
        if not isinstance(contexts, list) or not contexts or not all(isinstance(c, str) and c.strip() for c in contexts):
            raise InputError(f"{where}: contexts", "a non-empty list of non-empty passages (texts)", contexts)
        failed = _label(where, row.get("label"))
        item_id = str(row.get("id") or f"row-{n}")
        if item_id in ids:
            raise InputError(f"{where}: id", "an id no other row has", item_id)
        ids.add(item_id)
        group = row.get("group")
        group = item_id if group is None or (isinstance(group, str) and not group.strip()) else str(group)
        split = row.get("split")
        if own_split and failed is not None:
            if split not in ("dev", "test"):
                raise InputError(f"{where}: split", "'dev' or 'test' on every labelled row (the file has a split "
                                 "column)", split)
        items.append((Item(id=item_id, dataset=path.name, split="", group=group, question=question,
                           context=tuple(contexts), answer=answer, hallucinated=bool(failed),
                           model=str(row.get("model") or ""), span_kind="none" if failed is False else "label"),
                      failed, split if own_split else None))
    labelled_groups = list(dict.fromkeys(item.group for item, failed, _ in items if failed is not None))
    if not any("label" in row for row in rows):
        raise InputError(f"{path.name}: label", "a label column: faithful/hallucinated or pass/fail, people's verdict "
                         "on each answer", sorted({k for row in rows for k in row}))
    if len(labelled_groups) < 2:
        raise InputError("--labels", "labelled answers in at least 2 groups (dev and test need one each)",
                         f"{len(labelled_groups)} group(s)")
    splits = ({item.group: s for item, failed, s in items if failed is not None} if own_split
              else split_by_group(labelled_groups))
    if own_split:
        for item, failed, s in items:
            if failed is not None and splits[item.group] != s:
                raise InputError("--labels", f"each group in one split (group {item.group!r} is in dev and test)",
                                 item.group)
    return [Item(**{**item.__dict__, "split": splits[item.group] if failed is not None else ""})
            for item, failed, _ in items]


def split_by_group(groups: list[str]) -> dict[str, str]:
    """The written rule: groups ordered by SHA-256 of their name; the first half (rounded up) dev, the rest test."""
    groups = as_list("groups", groups, "a list of group names")
    if not all(isinstance(g, str) for g in groups):
        raise InputError("groups", "a list of group names (texts)", groups)
    ordered = sorted(dict.fromkeys(groups), key=lambda g: hashlib.sha256(g.encode("utf-8")).hexdigest())
    dev = math.ceil(len(ordered) / 2)
    return {g: "dev" if k < dev else "test" for k, g in enumerate(ordered)}


def labelled(items: list[Item], split: str) -> list[Item]:
    """The labelled answers of one split ("dev" or "test")."""
    items = as_list("items", items, "a list of Items")
    if not isinstance(split, str) or split not in ("dev", "test"):
        raise InputError("split", "'dev' or 'test'", split)
    return [i for i in items if isinstance(i, Item) and i.split == split]
