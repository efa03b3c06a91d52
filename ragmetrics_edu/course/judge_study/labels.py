"""The shipped labelled set (``data/judge_eval/``): its cases, its two labelling passes and their adjudication.

Loaders only: the checks and everything computed from the labels are in
:mod:`ragmetrics_edu.studies.judge_study.cases`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ... import data
from ...errors import InputError
from ...studies.judge_study.cases import (
    Case,
    Decision,
    PassLabels,
    adjudicated,
    parse_cases,
    parse_decisions,
    parse_labels,
)

__all__ = ["load_cases", "load_labels", "load_adjudication", "final_labels"]


def _read(name: str) -> Any:
    with open(data.path("judge_eval/" + name), encoding="utf-8") as handle:
        return json.load(handle)


def load_cases() -> list[Case]:
    """The shipped cases, in file order."""
    return list(_cases())


@lru_cache(maxsize=1)
def _cases() -> tuple[Case, ...]:
    return tuple(parse_cases(_read("cases.json")))


def load_labels(pass_name: str = "pass1") -> PassLabels:
    """One shipped labelling pass (``"pass1"`` reads ``labels_pass1.json``), checked against the cases."""
    if not isinstance(pass_name, str) or not pass_name.isidentifier():
        raise InputError("pass_name", "a pass name such as 'pass1'", pass_name)
    return parse_labels(_read(f"labels_{pass_name}.json"), load_cases(), pass_name)


def load_adjudication(first: str = "pass1", second: str = "pass2") -> list[Decision]:
    """The shipped adjudication, checked to hold one decision per disagreement of the two passes."""
    return parse_decisions(_read("adjudication.json"), load_labels(first), load_labels(second))


@lru_cache(maxsize=1)
def final_labels() -> PassLabels:
    """Pass 1's labels with every adjudicated disagreement replaced by its final label (read once: the
    files do not change while a notebook runs; the labels are frozen dataclasses)."""
    return adjudicated(load_labels("pass1"), load_adjudication())
