"""Lesson 15's recorded passes, replayed from the shipped recordings: each answer's result, what validate-judge
prints for the recorded local judge, and each pass's cost calibration (what ``validate-judge`` estimates with)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ...errors import InputError
from ...judges.errors import JudgeError
from ...judges.replay import ReplayJudge
from ...results import MetricResult
from ...studies.against_people.designs import Item
from ...studies.alignment import cost
from ...studies.alignment.designs import JUDGED, ask_any_pass
from ...studies.alignment.validate_judge import DEV_SOURCES, report
from ...validate import integer
from ..against_people.items import items
from ..against_people.study import recording_path

__all__ = ["replayed_pass", "replayed", "calibration_of"]


def replayed_pass(pass_name: str, chosen: list[Item], dataset: str, split: str) -> list[MetricResult | None] | None:
    """Each item's result replayed from the shipped recording of a pass (None where it holds no reply: an unfinished
    pass), or None when the pass was not recorded on that part."""
    path = recording_path(pass_name, dataset, split)
    if path is None:
        return None
    judge = ReplayJudge(path)
    out: list[MetricResult | None] = []
    for item in chosen:
        try:
            out.append(ask_any_pass(pass_name, judge, item))
        except JudgeError:
            out.append(None)
    return out


def replayed(design: str, sources: int, say: Any = print) -> dict[str, Any]:
    """What validate-judge prints for the recorded local judge on the first ``sources`` RAGTruth dev sources,
    replayed from the shipped recording (no server)."""
    if not isinstance(design, str) or design not in JUDGED:
        raise InputError("design", "one of " + ", ".join(sorted(JUDGED)), design)
    sources = integer("sources", sources, low=1, high=DEV_SOURCES,
                      expected=f"a whole number of RAGTruth dev sources from 1 to {DEV_SOURCES}")
    chosen = items("ragtruth", "dev", groups=sources)
    results = replayed_pass(str(JUDGED[design].recording), chosen, "ragtruth", "dev")
    if results is None:
        raise InputError("design", "a design whose pass was recorded on RAGTruth dev", design)
    return report(design, chosen, results, say)


def calibration_of(pass_name: str) -> cost.Calibration:
    """A pass's cost calibration (:func:`ragmetrics_edu.studies.alignment.cost.calibration`), measured on its shipped
    RAGTruth dev recording and the answers it holds, once a process."""
    if not isinstance(pass_name, str):
        raise InputError("pass_name", "a pass name, e.g. 'support'", pass_name)
    return _calibration_of(pass_name)


@lru_cache(maxsize=16)
def _calibration_of(pass_name: str) -> cost.Calibration:
    path = recording_path(pass_name, "ragtruth", "dev")
    if path is None:
        raise InputError("pass_name", "a pass with a RAGTruth dev recording", pass_name)
    meta = json.loads(path.read_text(encoding="utf-8"))
    done = meta["pass"].get("answers_done") or meta["pass"].get("answers")
    return cost.calibration(pass_name, meta, items("ragtruth", "dev", groups=meta["pass"].get("groups"))[:done])
