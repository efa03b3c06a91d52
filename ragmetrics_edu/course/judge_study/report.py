"""Notebook 11's judge study as shipped: the study built from the shipped files, and the recordings described.

:func:`study` is the :class:`~ragmetrics_edu.studies.judge_study.study.JudgeStudy` of the shipped cases, their
adjudicated labels and the recorded passes (each replayed when first read); the tables are library functions of it
(:mod:`ragmetrics_edu.studies.judge_study.tables`), e.g. ``tables.agreement_table(report.study())``. :func:`show`
prints a table in at most 100 characters a line.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Sequence

from ...studies.judge_study import agreement
from ...studies.judge_study.passes import MODEL_NAMES, PASSES
from ...studies.judge_study.study import JudgeStudy
from ...validate import records
from ..capstone.systems import QUESTIONS, SYSTEMS
from ..display import text_table
from .labels import final_labels, load_cases
from .passes import Recorded, available, cases_for, recording_path

__all__ = ["study", "verdicts", "pairwise", "show", "recordings_table", "provenance"]


@lru_cache(maxsize=1)
def study() -> JudgeStudy:
    """The shipped judge study: cases, adjudicated labels, and every shipped pass (replayed when first read)."""
    return JudgeStudy(tuple(load_cases()), final_labels(), Recorded())


def verdicts(name: str, metric: str, **how: Any) -> dict[str, Any]:
    """:meth:`JudgeStudy.verdicts` of the shipped study: a pass's verdict agreement with the adjudicated labels."""
    return study().verdicts(name, metric, **how)


def pairwise(found: Sequence[dict[str, Any]], **how: Any) -> dict[str, Any]:
    """:func:`ragmetrics_edu.studies.judge_study.agreement.pairwise` of ``found`` over the shipped labelled pairs."""
    return agreement.pairwise(found, load_cases(), final_labels(), **how)


def show(table: Sequence[dict[str, Any]], width: int = 100) -> None:
    """Print a list of row dicts as aligned columns under a rule, cut to fit ``width``."""
    table = records("table", table, "a list of row dicts")
    print(text_table(table, width=width, rule=True) if table else "(nothing recorded)")


def _recording(name: str) -> dict[str, Any]:
    with open(recording_path(name), encoding="utf-8") as handle:
        return dict(json.load(handle))


def recordings_table() -> list[dict[str, Any]]:
    """Every shipped pass: its model (short name, the GGUF's sha256), date, cases, replies, machine time, what."""
    out = []
    for name in available():
        doc, spec = _recording(name), PASSES[name]
        cases = len(QUESTIONS) * len(SYSTEMS) if spec.cases.startswith("capstone_") else len(cases_for(spec.cases))
        out.append({"pass": name, "model": MODEL_NAMES[spec.model], "sha256": doc["gguf"]["sha256"][:8] + "…",
                    "date": doc["date"][:10], "cases": cases, "replies": len(doc["replies"]),
                    "machine s": round(doc.get("machine_time_s", 0)), "what": spec.what})
    return out


def provenance(name: str = "qwen_same_items") -> str:
    """One paragraph naming the model, its weights' sha256, the server and the date of a pass."""
    doc = _recording(name)
    g, p = doc["gguf"], doc["parameters"]
    return (f"Recorded from {g.get('general.name')} ({g.get('file_type_name')}, file {g['file']}, sha256 "
            f"{g['sha256']}) served by {doc['server']}; temperature {p['temperature']}, seed {p['seed']}, "
            f"mode {p['mode']}; {doc['date']}.")
