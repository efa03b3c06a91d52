"""The shipped HaluEval QA rows (public part), with their fixed dev/test split.

Each row is a *pair*: one question over one passage, a right answer and a hallucinated one. A
faithfulness score that works ranks the right answer above the hallucinated one. The labels come
from how HaluEval was built: the right answer is HotpotQA's, the hallucinated one was written by
ChatGPT and kept by ChatGPT's automatic filtering, under a prompt the HaluEval authors wrote. No
person checked these rows, here or in HaluEval, so the labels are mostly right, not clean. See
``data/halueval_qa/README.md`` for the source, the licence, the split rule and a blind relabel.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import InputError
from ..validate import integer, member, optional_integer
from . import path

__all__ = ["HaluPair", "SPLITS", "pairs", "split_of", "SOURCE"]

#: the two parts: choose on ``dev``, report once on ``test``
SPLITS = ("dev", "test")

SOURCE = ("HaluEval QA (RUCAIBox/HaluEval, commit b7253db, MIT licence; Li et al., EMNLP 2023): "
          "rows with row mod 25 even; test = row mod 25 >= 16")


@dataclass(frozen=True)
class HaluPair:
    """One HaluEval row: a question and passage with a right and a hallucinated answer."""

    row: int
    split: str
    knowledge: str
    question: str
    right_answer: str
    hallucinated_answer: str

    @property
    def id(self) -> str:
        return f"halueval-qa-{self.row}"


def split_of(row: int) -> str:
    """The part a HaluEval row number belongs to: ``test`` when ``row mod 25 >= 16``, else ``dev``."""
    row = integer("row", row, low=0, expected="a row number (an integer >= 0)")
    return "test" if row % 25 >= 16 else "dev"


_FIELDS = ("row", "split", "knowledge", "question", "right_answer", "hallucinated_answer")


@lru_cache(maxsize=1)
def _all() -> tuple[HaluPair, ...]:
    file = path("halueval_qa/qa_public_split.jsonl")
    out = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        record: Any = json.loads(line)
        if not isinstance(record, dict) or set(record) != set(_FIELDS):
            raise InputError(f"{file.name} line {number}", "an object with the fields " + ", ".join(_FIELDS), record)
        pair = HaluPair(**record)
        if pair.split != split_of(pair.row):
            raise InputError(f"{file.name} line {number}: split", split_of(pair.row), pair.split)
        out.append(pair)
    return tuple(out)


def pairs(split: str | None = None, *, limit: int | None = None) -> list[HaluPair]:
    """The pairs of one part (``"dev"`` or ``"test"``; None for both), in row order; ``limit`` keeps the first n."""
    if split is not None:
        member("split", split, SPLITS, "'dev', 'test' or None")
    optional_integer("limit", limit, low=0, expected="an integer >= 0 or None")
    chosen = [p for p in _all() if split is None or p.split == split]
    return chosen if limit is None else chosen[:limit]
