"""What lessons 13-15 load for the judges-against-people study: each pass's shipped recording (replayed offline),
the parts scored from them, and the learner's relabelling exercise. The study's arithmetic (scores, figures, the
choice and its log) is library code: :mod:`ragmetrics_edu.studies.against_people`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from ... import data
from ...data import ragtruth
from ...errors import InputError
from ...judges.replay import ReplayJudge
from ...studies.against_people import choice
from ...studies.against_people.choice import DEV_SAMPLE_SOURCES, MIN_SOURCES, checked_log, load_log, replayed_or_none
from ...studies.against_people.designs import DESIGNS, ask_pass
from ...studies.against_people.tables import threshold_of
from ...validate import as_list, flag
from .items import DATASETS, items

__all__ = ["MODEL", "recording_name", "recording_path", "scored", "build_log", "check_log", "replay", "recorded_by",
           "answered", "first_with_tail", "test_left_out", "RELABEL", "compare_labels",
           "checked_log", "load_log", "threshold_of"]   # the last three: the library's, read here by lesson 15

#: the model name recordings carry (the server serves whatever GGUF it loaded; its header is recorded too)
MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m"


def recording_name(pass_name: str, dataset: str, split: str) -> str:
    """The shipped recording's name (under ``data/recordings/against_people/``)."""
    return f"{MODEL}_{pass_name}_{dataset}-{split}"


def recording_path(pass_name: str, dataset: str, split: str) -> Path | None:
    """The shipped recording of a pass on a part, or None when it was not recorded."""
    for field, value in (("pass_name", pass_name), ("dataset", dataset), ("split", split)):
        if not isinstance(value, str):
            raise InputError(field, "a name (a string)", value)
    name = (f"halueval/reanswer_{split}" if (pass_name, dataset) == ("reanswer", "halueval")
            else f"against_people/{recording_name(pass_name, dataset, split)}")
    try:
        return data.recording(name)
    except InputError:
        return None


def scored(dataset: str, split: str, groups: int | None = None) -> dict[str, Any]:
    """A part's answers scored by every design whose pass was recorded on it (``choice.score_part``)."""
    passes = {d.recording for d in DESIGNS.values() if d.recording}
    paths = {p: recording_path(p, dataset, split) for p in passes}
    return choice.score_part(items(dataset, split, groups=groups),
                             {p: ReplayJudge(path) for p, path in paths.items() if path is not None})


def build_log(*, test: bool) -> dict[str, Any]:
    """The choice log from the recordings; ``test=True`` also scores RAGTruth test (do it once)."""
    test = flag("test", test)
    parts = {f"{ds}-dev": scored(ds, "dev", DEV_SAMPLE_SOURCES[ds]) for ds in DATASETS}
    parts["ragtruth-dev-all"] = scored("ragtruth", "dev")  # the designs recorded on every dev source
    return choice.build_log(parts, scored("ragtruth", "test") if test else None)


def check_log() -> list[str]:
    """Replay the recordings again and list every score that differs from the shipped log (none: it holds)."""
    problems = []
    for key, part in load_log()["parts"].items():
        dataset, split = key.split("-")[:2]
        fresh = scored(dataset, split, None if split == "test" or key.endswith("-all") else DEV_SAMPLE_SOURCES[dataset])
        for name, values in part["scores"].items():
            again = fresh["scores"].get(name)
            if again is None or len(again) != len(values) or any(
                    not (math.isnan(a) and (b is None or math.isnan(b))) and (b is None or abs(a - b) > 1e-9)
                    for a, b in zip(again, values, strict=True)):
                problems.append(f"{key}: {name} differs from a fresh replay")
    return problems


def replay(pass_name: str, item_id: str, dataset: str = "ragtruth", split: str = "dev") -> Any:
    """One answer's result under a recorded pass, replayed offline (every step and call kept)."""
    path = recording_path(pass_name, dataset, split) if isinstance(pass_name, str) else None
    if path is None:
        raise InputError("pass_name", "a pass recorded on this part (reanswer, g_eval, critic, claims)", pass_name)
    found = [i for i in items(dataset, split) if i.id == item_id]
    if not found:
        raise InputError("item_id", f"the id of an answer of {dataset} {split}", item_id)
    return ask_pass(pass_name, ReplayJudge(path), found[0])


def recorded_by(pass_name: str = "g_eval", dataset: str = "ragtruth", split: str = "dev") -> str:
    """Who made a pass's recording: model, server, weights and date, in one line."""
    path = recording_path(pass_name, dataset, split) if isinstance(pass_name, str) else None
    if path is None:
        raise InputError("pass_name", "a pass recorded on this part", pass_name)
    return ReplayJudge(path).describe()


def answered(log: dict[str, Any] | None = None) -> dict[str, bool]:
    """Per source of the RAGTruth dev sample, whether the recorded re-answer judge found its question answered by
    the passages (the input of ``readings.judge_failures``)."""
    log, path = checked_log(log), recording_path("reanswer", "ragtruth", "dev")
    if path is None:
        raise InputError("reanswer", "a recorded re-answer pass", None)
    judge = ReplayJudge(path)
    out: dict[str, bool] = {}
    for item in items("ragtruth", "dev", groups=log["dev_sample_sources"]["ragtruth"]):
        if item.group not in out and (result := replayed_or_none("reanswer", judge, item)) is not None:
            out[item.group] = bool(result.values["answered"])
    return out


def first_with_tail(log: dict[str, Any] | None = None) -> Any:
    """The first answer of the RAGTruth dev sample whose recorded G-Eval distribution has a score under 1 %
    (where DeepEval's rule and the paper's differ), replayed."""
    for row in checked_log(log)["parts"]["ragtruth-dev"]["items"]:
        result = replay("g_eval", row["id"])
        if any(0 < r["probability"] < 0.01 for r in result.rows):
            return result
    raise InputError("log", "a G-Eval recording with a score under 1 %", "none found")


def test_left_out(log: dict[str, Any] | None = None) -> list[str]:
    """The test rows ``tables.test_table`` leaves out, each with its sources and when its recording was made."""
    log = checked_log(log)
    if "test" not in log:
        raise InputError("log", "a choice log with test figures", "a log without them")

    def made(pass_name: str | None) -> str:
        path = recording_path(pass_name or "", "ragtruth", "test")
        return str(json.loads(path.read_text(encoding="utf-8"))["date"]) if path else "unknown"

    scored_with = made("reanswer")
    return [f"{name}: {row['answers']} answers from {row['groups']} sources, recorded {when}, "
            f"{'after' if when > scored_with else 'before'} the re-answer test recording ({scored_with})"
            for name, row in log["test"].items() if row["groups"] < MIN_SOURCES
            for when in [made(DESIGNS[name].recording)]]


#: three RAGTruth dev answers the learner relabels, chosen to hold one the annotators found faithful and two with
#: spans of different kinds (baseless and conflict)
RELABEL = ("ragtruth-14353-gpt-4-0613", "ragtruth-14394-llama-2-70b-chat", "ragtruth-14418-mistral-7B-instruct")


def compare_labels(mine: Any, ids: tuple[str, ...] = RELABEL) -> str:
    """Your labels (True: hallucinated) for the answers ``ids``, set beside the annotators' (spans included)."""
    answers = {a.id: a for a in ragtruth.answers("dev")}
    ids = tuple(as_list("ids", ids, "answer ids of the RAGTruth dev part"))
    if not all(isinstance(i, str) and i in answers for i in ids):
        raise InputError("ids", "answer ids of the RAGTruth dev part", ids)
    if mine is None:
        return f"Write one True/False per answer ({len(ids)}) in `mine` and run the cell again."
    expected = f"a list of {len(ids)} True/False labels (True: hallucinated)"
    labels = as_list("mine", mine, expected)
    if len(labels) != len(ids) or not all(isinstance(m, bool) for m in labels):
        raise InputError("mine", expected, mine)
    lines = [f"{i}: you {m}, the annotators {answers[i].hallucinated} ("
             + ("; ".join(f"[{s.label_type}] {s.text}" for s in answers[i].spans) or "no span") + ")"
             for m, i in zip(labels, ids, strict=True)]
    same = sum(m == answers[i].hallucinated for m, i in zip(labels, ids, strict=True))
    return "\n".join(lines + [f"You agree with the annotators on {same} of {len(ids)}."])
