"""What lesson 16 loads: the capstone's recorded answers and verdicts, replayed (no model needed), and the
project annotator's reading. The systems themselves are library code (:mod:`ragmetrics_edu.studies.capstone.systems`,
whose names are kept here for the judge study's passes and the decks)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ... import data
from ...judges.replay import ReplayJudge
from ...studies.capstone.systems import QUESTIONS, SYSTEMS, K, answer_rows, references, retrievers, score_rows

__all__ = ["K", "QUESTIONS", "SYSTEMS", "retrievers", "answer_rows", "score_rows", "references", "answers", "scored",
           "annotator_diagnosis"]


def _replay(name: str) -> Any:
    """The judge-study pass ``name`` (``data/recordings/judge_study/<name>.json``) as a replaying judge."""
    return ReplayJudge(data.recording(f"judge_study/{name}"))


@lru_cache(maxsize=1)
def _answers() -> tuple[dict[str, Any], ...]:
    return tuple(answer_rows(_replay("qwen_capstone_answers")))


def answers() -> list[dict[str, Any]]:
    """The recorded answers, replayed (no model needed)."""
    return [dict(r) for r in _answers()]


@lru_cache(maxsize=1)
def _scored() -> tuple[dict[str, Any], ...]:
    return tuple(score_rows(_replay("qwen_capstone_judged"), answers()))


def scored() -> list[dict[str, Any]]:
    """The recorded answers with the recorded judge's scores, replayed."""
    return [dict(r) for r in _scored()]


def annotator_diagnosis() -> dict[tuple[str, str], dict[str, Any]]:
    """The tags and notes of the project's annotator, a language model that read every row
    (``data/capstone_diagnosis.json``), keyed by (question, system). A second reading, not ground truth."""
    with open(data.path("capstone_diagnosis.json"), encoding="utf-8") as handle:
        doc = json.load(handle)
    return {(r["question"], r["system"]): {"tags": list(r["tags"]), "note": r["note"]} for r in doc["rows"]}
