"""The judge study's shipped recordings (notebooks 10, 11 and 16), replayed into rows.

What each pass asked is :data:`ragmetrics_edu.studies.judge_study.passes.PASSES`; each was recorded once from a
real local model (``data/recordings/judge_study/<pass>.json``, ``ragmetrics-edu record-judge-study``, see
:mod:`.recording`). :func:`rows` replays a pass through :class:`~ragmetrics_edu.judges.ReplayJudge`: the same
library code runs on the model's own replies, offline, so every figure in the notebooks is recomputed, never typed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator, Mapping

from ... import data
from ...errors import InputError
from ...judges.replay import ReplayJudge
from ...studies.judge_study.cases import Case
from ...studies.judge_study.passes import FAMILIES, PASSES, Pass, merged_rows, repeat_passes, select
from ...studies.judge_study.runs import UndelimitedJudge, run
from ...validate import identifier
from ..capstone import systems as capstone
from .labels import load_cases

__all__ = ["cases_for", "rows", "family_rows", "recording_path", "available", "Recorded", "repeat_passes"]

FOLDER = "recordings/judge_study/"


def cases_for(selection: str) -> list[Case]:
    """The shipped cases a pass uses (:func:`ragmetrics_edu.studies.judge_study.passes.select`)."""
    return select(load_cases(), selection)


def recording_path(name: str) -> str:
    """The shipped recording of pass ``name``."""
    if not isinstance(name, str) or name not in PASSES:
        raise InputError("name", "one of " + ", ".join(PASSES), name)
    return str(data.path(f"{FOLDER}{name}.json"))


def available() -> list[str]:
    """The passes whose recording ships with the package (looked up one by one: listing every shipped
    file each time cost the course's tables a second of CPU)."""
    folder = data.root()
    return [name for name in PASSES if (folder / f"{FOLDER}{name}.json").is_file()]


def run_pass(judge: Any, spec: Pass, on_row: Any = None) -> list[dict[str, Any]]:
    """Every row of ``spec`` with ``judge`` (a live judge to record, or a ReplayJudge to replay)."""
    if spec.cases.startswith("capstone_"):
        if spec.cases == "capstone_answers":
            return capstone.answer_rows(judge)
        return capstone.score_rows(judge, capstone.answers())
    asker = UndelimitedJudge(judge) if spec.undelimited else judge
    jobs = [(case, metric, pipeline) for case in cases_for(spec.cases) for metric in spec.metrics
            for pipeline in (spec.pipelines if metric == "faithfulness" else (None,))]
    return run(asker, jobs, spec.mode, rotate=spec.rotate, on_row=on_row)


@lru_cache(maxsize=32)
def _rows(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(run_pass(ReplayJudge(recording_path(name)), PASSES[name]))


def rows(name: str) -> list[dict[str, Any]]:
    """Replay pass ``name`` from its recording: one row per case, metric (and pipeline)."""
    if not isinstance(name, str) or name not in PASSES:
        raise InputError("name", "one of " + ", ".join(PASSES), name)
    return [dict(r) for r in _rows(name)]


def family_rows(name: str) -> list[dict[str, Any]]:
    """The rows of every shipped part of a family (:data:`~ragmetrics_edu.studies.judge_study.passes.FAMILIES`),
    or of the one pass ``name``, without duplicates."""
    name = identifier("name", name, "a pass or a family of passes (judge_study.PASSES, FAMILIES)")
    shipped = set(available())
    return merged_rows([rows(part) for part in FAMILIES.get(name, (name,)) if part in shipped])


class Recorded(Mapping[str, list[dict[str, Any]]]):
    """The shipped passes as a mapping, pass name -> its rows (a family's name: every shipped part's), each replayed
    the first time it is read: what :class:`ragmetrics_edu.studies.judge_study.study.JudgeStudy` takes."""

    def __init__(self) -> None:
        self.shipped = available()

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and any(p in self.shipped for p in FAMILIES.get(name, (name,)))

    def __getitem__(self, name: str) -> list[dict[str, Any]]:
        if name not in self:
            raise KeyError(name)
        return family_rows(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self.shipped)

    def __len__(self) -> int:
        return len(self.shipped)
