"""Lesson 14's choice log: every design's score on each answer of a part, the dev figures, the choice by a rule
written before any figure was seen, and the test figures scored once, all from the replies it is given.

:func:`score_part` scores a part's answers from the judges that replay each pass (the course loads both);
:func:`build_log` turns the scored parts into the log. The log ships with the package
(``data/against_people_choice_log.json``, :func:`load_log`), so a notebook computes every AUC, interval and
breakdown from it in well under a second.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ... import data
from ...agreement import auc_difference, validation_report
from ...errors import InputError
from ...judges.base import Judge
from ...judges.errors import JudgeError
from ...validate import as_list
from .designs import BASELINE, DESIGNS, Item, ask_pass

__all__ = ["LOG_NAME", "MIN_SOURCES", "DEV_SAMPLE_SOURCES", "RULE", "load_log", "checked_log", "score_part",
           "replayed_or_none", "complete", "part_figures", "paired_figures", "candidates",
           "best_candidate", "choose", "build_log"]

LOG_NAME = "against_people_choice_log.json"

#: under this many sources no AUC or interval is printed: too few independent units to tell
MIN_SOURCES = 10

#: the rubric passes were recorded on the first 20 RAGTruth dev sources (116 answers; the claims pass on the first 2)
#: and the first 40
#: HaluEval dev pairs; every design is compared on those same answers
DEV_SAMPLE_SOURCES = {"ragtruth": 20, "halueval": 40}

#: written before any dev figure was computed (see the notebook's choice log)
RULE = ("Candidates: the designs of at most 3 calls an answer with dev figures on both RAGTruth and HaluEval. "
        "A candidate whose HaluEval dev AUC is significantly below word overlap's (the paired 95 % interval of "
        "the difference lies wholly below 0) is excluded. Among the rest, the highest RAGTruth dev AUC wins, but "
        "it replaces word overlap only if its paired 95 % interval against word overlap on RAGTruth dev lies "
        "wholly above 0; otherwise counting words stays the choice. The threshold (flag below it) is the F1-best "
        "on RAGTruth dev.")


def _cost(results: list[Any]) -> dict[str, float]:
    """Calls, tokens and recorded seconds per answer; a call two answers share (one question's) counts once."""
    done = [r for r in results if r is not None]
    unique = {(c.key, c.attempt): c for r in done for c in r.calls}.values()
    n = max(len(done), 1)
    return {"calls": len(unique) / n,
            "tokens": sum((c.prompt_tokens or 0) + (c.completion_tokens or 0) for c in unique) / n,
            "seconds": sum(c.latency_s or 0.0 for c in unique) / n}


def score_part(chosen: Sequence[Item], judges: Mapping[str, Judge]) -> dict[str, Any]:
    """Every design's score on each of the ``chosen`` answers (NaN where its pass failed), and its costs. ``judges``
    maps a pass name to the judge that answers it (a replay of its recording); a design whose pass has no judge, or
    whose every answer failed, is left out."""
    chosen = as_list("chosen", chosen, "a list of Items (course.against_people.items.items())")
    if not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a list of Items (course.against_people.items.items())", chosen)
    if not isinstance(judges, Mapping) or not all(isinstance(j, Judge) for j in judges.values()):
        raise InputError("judges", "a dict pass name -> judge", judges)
    scores: dict[str, list[float]] = {}
    costs: dict[str, dict[str, float]] = {}
    results: dict[str, list[Any]] = {}
    for design in DESIGNS.values():
        if design.recording is None:
            scores[design.name] = [design.score(None, item) for item in chosen]
            costs[design.name] = {"calls": 0.0, "tokens": 0.0, "seconds": 0.0}
            continue
        if design.recording not in judges:
            continue
        if design.recording not in results:
            judge = judges[design.recording]
            results[design.recording] = [replayed_or_none(design.recording, judge, item) for item in chosen]
        found = results[design.recording]
        if all(r is None for r in found):
            continue
        scores[design.name] = [math.nan if r is None else float(design.score(r, item))
                               for r, item in zip(found, chosen, strict=True)]
        costs[design.name] = _cost(found)
    return {"items": [_item_row(i) for i in chosen], "scores": scores, "costs": costs}


def replayed_or_none(pass_name: str, judge: Judge, item: Item) -> Any:
    """``judge``'s result for ``item`` under pass ``pass_name``, or None when the judge failed on it."""
    try:
        return ask_pass(pass_name, judge, item)
    except JudgeError:
        return None


def _item_row(item: Item) -> dict[str, Any]:
    return {"id": item.id, "group": item.group, "failed": item.hallucinated, "model": item.model,
            "span_kind": item.span_kind}


def _checked_part(part: Any, designs: Sequence[tuple[str, Any]] = (), idx: Any = None) -> list[int]:
    """Check ``part`` is a scored part (:func:`score_part`) holding each of ``designs`` ((field, name) pairs);
    return ``idx`` as a list of positions of its answers (none when None)."""
    if not isinstance(part, dict) or not isinstance(part.get("items"), list) or not isinstance(part.get("scores"), dict):
        raise InputError("part", "a scored part (score_part(...), or a choice log's log['parts'][name])", part)
    for field, name in designs:
        if not isinstance(name, str) or name not in part["scores"]:
            raise InputError(field, "a design scored on this part: " + ", ".join(part["scores"]), name)
    positions = [] if idx is None else as_list("idx", idx, "a list of positions of the part's answers")
    if not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(part["items"]) for i in positions):
        raise InputError("idx", "a list of positions of the part's answers (complete(part, names))", idx)
    return positions


def complete(part: dict[str, Any], names: Sequence[str]) -> list[int]:
    """The answers every named design scored."""
    names = as_list("names", names, "a list of design names")
    _checked_part(part, [("names", n) for n in names])
    return [i for i in range(len(part["items"])) if all(not math.isnan(part["scores"][d][i]) for d in names)]


def part_figures(part: dict[str, Any], design: str, idx: list[int], threshold: float | None) -> dict[str, Any]:
    """``design``'s AUC with its interval over sources, and P/R/F1 at ``threshold`` (None: the F1-best), on the
    answers ``idx`` of a scored part."""
    idx = _checked_part(part, [("design", design)], idx)
    failed = [part["items"][i]["failed"] for i in idx]
    values = [part["scores"][design][i] for i in idx]
    groups = [part["items"][i]["group"] for i in idx]
    report = validation_report(failed, values, groups=groups, threshold=threshold)
    return {"auc": report.score, "ci": report.ci, "threshold": report.values["threshold"],
            "precision": report.values["precision"], "recall": report.values["recall"], "f1": report.values["f1"],
            "base_rate": report.values["base_rate"], "answers": len(idx), "groups": report.values["groups"]}


def paired_figures(part: dict[str, Any], a: str, b: str, idx: list[int]) -> dict[str, Any]:
    """AUC(a) - AUC(b) on the answers ``idx`` of a scored part, with its paired interval over sources."""
    idx = _checked_part(part, [("a", a), ("b", b)], idx)
    d = auc_difference([part["items"][i]["failed"] for i in idx], [part["scores"][a][i] for i in idx],
                       [part["scores"][b][i] for i in idx], groups=[part["items"][i]["group"] for i in idx],
                       names=(a, b))
    return {"difference": d.score, "ci": d.ci}


def candidates(dev: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The designs :data:`RULE` keeps as candidates on the dev figures, and the reasons for the others."""
    if not isinstance(dev, dict) or not isinstance(dev.get("designs"), dict) or "word_overlap" not in dev["designs"]:
        raise InputError("dev", "the dev figures of a choice log (log['dev'])", dev)
    reasons = []
    kept = []
    for name, row in dev["designs"].items():
        if row["calls_max"] > 3:
            reasons.append(f"{name}: more than 3 calls an answer, not a candidate.")
            continue
        if row.get("halueval") is None or row.get("ragtruth") is None:
            reasons.append(f"{name}: no dev figure on both data sets, not a candidate.")
            continue
        versus = row["halueval_vs_overlap"]
        if name != BASELINE and versus["ci"] is not None and versus["ci"][1] < 0:
            reasons.append(f"{name}: significantly below word overlap on HaluEval dev, excluded.")
            continue
        kept.append(name)
    return kept, reasons


def best_candidate(dev: dict[str, Any]) -> str:
    """The candidate with the highest RAGTruth dev AUC: the one the rule weighs against word overlap."""
    kept, _ = candidates(dev)
    return max(kept, key=lambda n: dev["designs"][n]["ragtruth"]["auc"])


def choose(dev: dict[str, Any]) -> tuple[str, list[str]]:
    """Apply :data:`RULE` to the dev figures: the chosen design and the reasons, line by line."""
    _, reasons = candidates(dev)
    best = best_candidate(dev)
    if best == BASELINE:
        reasons.append("word_overlap has the best RAGTruth dev AUC: it stays the choice.")
        return best, reasons
    versus = dev["designs"][best]["ragtruth_vs_overlap"]
    if versus["ci"] is not None and versus["ci"][0] > 0:
        reasons.append(f"{best}: best RAGTruth dev AUC and significantly above word overlap: chosen.")
        return best, reasons
    reasons.append(f"{best} has the best RAGTruth dev AUC, but its paired interval against word overlap includes 0: "
                   "counting words stays the choice.")
    return "word_overlap", reasons


def build_log(parts: Mapping[str, dict[str, Any]], test: dict[str, Any] | None = None) -> dict[str, Any]:
    """The choice log from the scored parts (:func:`score_part`): ``parts`` holds ``"ragtruth-dev"`` and
    ``"halueval-dev"`` (the dev samples of :data:`DEV_SAMPLE_SOURCES`) and ``"ragtruth-dev-all"`` (every dev source);
    ``test``, the scored RAGTruth test part, is scored with each design's dev threshold (do it once)."""
    needed = ("ragtruth-dev", "halueval-dev", "ragtruth-dev-all")
    if not isinstance(parts, Mapping) or not all(isinstance(parts.get(k), dict) for k in needed):
        raise InputError("parts", "a dict holding the scored parts " + ", ".join(needed), parts)
    if test is not None and not isinstance(test, dict):
        raise InputError("test", "the scored RAGTruth test part (score_part), or None", test)
    parts = dict(parts)
    designs: dict[str, Any] = {}
    rt, he = parts["ragtruth-dev"], parts["halueval-dev"]
    for name, design in DESIGNS.items():
        row: dict[str, Any] = {"label": design.label, "calls": design.calls,
                               "calls_max": max(rt["costs"].get(name, {}).get("calls", 0.0), 0.0)}
        for key, part in (("ragtruth", rt), ("halueval", he)):
            if name not in part["scores"]:
                row[key] = None
                continue
            idx = complete(part, [name, "word_overlap"])
            row[key] = part_figures(part, name, idx, None)
            row[key]["cost"] = part["costs"][name]
            row[f"{key}_vs_overlap"] = paired_figures(part, name, "word_overlap", idx)
        designs[name] = row
    dev = {"designs": designs}
    chosen, reasons = choose(dev)
    log: dict[str, Any] = {"rule": RULE, "dev_sample_sources": DEV_SAMPLE_SOURCES, "dev": dev, "chosen": chosen,
                           "reasons": reasons, "parts": parts}
    if test is not None:
        log["parts"]["ragtruth-test"] = test
        log["test"] = {name: part_figures(test, name, complete(test, [name]), designs[name]["ragtruth"]["threshold"])
                       for name in test["scores"] if designs.get(name, {}).get("ragtruth")}
        log["test_threshold"] = designs[chosen]["ragtruth"]["threshold"]
    return log


def checked_log(log: Any) -> dict[str, Any]:
    """``log`` as a choice log (None: the shipped one), or an InputError."""
    if log is None:
        return load_log()
    if not isinstance(log, dict) or not {"dev", "parts", "chosen"} <= set(log):
        raise InputError("log", "a choice log (load_log() or build_log(...)), or None", log)
    return log


@lru_cache(maxsize=1)
def load_log() -> dict[str, Any]:
    """The shipped choice log (see the module)."""
    return json.loads(data.path(LOG_NAME).read_text(encoding="utf-8"))
