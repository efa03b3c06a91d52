"""The judges-against-people study: replay every design's recording, measure it against the labels, choose on
dev by a rule written before any figure was seen, and score test once.

The figures live in a choice log shipped with the package (``data/against_people_choice_log.json``): each
answer's score under each design, so a notebook computes every AUC, interval and breakdown in well under a
second, and :func:`check_log` (run by the tests) replays the recordings again and finds the same scores.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from ... import data
from ...agreement import auc_difference, validation_report
from ...data import ragtruth
from ...errors import InputError
from ...judges.errors import JudgeError
from ...judges.replay import ReplayJudge
from ...validate import as_list, flag, number
from .designs import BASELINE, DESIGNS, ask_pass, recording_name
from .items import Item, items

__all__ = ["RULE", "DEV_SAMPLE_SOURCES", "build_log", "load_log", "check_log", "dev_table", "test_table",
           "breakdown", "flag_rule", "candidates", "best_candidate", "choose", "LOG_NAME", "scored", "threshold_of", "by_model", "replay", "recorded_by", "compare_labels", "RELABEL", "recording_path", "replayed_or_none", "first_with_tail", "test_difference",
           "MIN_SOURCES", "test_left_out"]

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


def recording_path(pass_name: str, dataset: str, split: str) -> Path | None:
    """The shipped recording of a pass on a part, or None when it was not recorded."""
    for field, value in (("pass_name", pass_name), ("dataset", dataset), ("split", split)):
        if not isinstance(value, str):
            raise InputError(field, "a name (a string)", value)
    if pass_name == "reanswer" and dataset == "halueval":
        name = f"halueval/reanswer_{split}"
    else:
        name = f"against_people/{recording_name(pass_name, dataset, split)}"
    try:
        return data.recording(name)
    except InputError:
        return None


def _cost(results: list[Any]) -> dict[str, float]:
    """Calls, tokens and recorded seconds per answer; a call two answers share (one question's) counts once."""
    done = [r for r in results if r is not None]
    unique = {(c.key, c.attempt): c for r in done for c in r.calls}.values()
    n = max(len(done), 1)
    return {"calls": len(unique) / n,
            "tokens": sum((c.prompt_tokens or 0) + (c.completion_tokens or 0) for c in unique) / n,
            "seconds": sum(c.latency_s or 0.0 for c in unique) / n}


def scored(dataset: str, split: str, groups: int | None = None) -> dict[str, Any]:
    """Every design's score on each answer of a part (NaN where its pass was not recorded or failed), and costs."""
    chosen = items(dataset, split, groups=groups)
    scores: dict[str, list[float]] = {}
    costs: dict[str, dict[str, float]] = {}
    results: dict[str, list[Any]] = {}
    for design in DESIGNS.values():
        if design.recording is None:
            scores[design.name] = [design.score(None, item) for item in chosen]
            costs[design.name] = {"calls": 0.0, "tokens": 0.0, "seconds": 0.0}
            continue
        path = recording_path(design.recording, dataset, split)
        if path is None:
            continue
        if design.recording not in results:
            judge = ReplayJudge(path)
            results[design.recording] = [replayed_or_none(design.recording, judge, item) for item in chosen]
        found = results[design.recording]
        if all(r is None for r in found):
            continue
        scores[design.name] = [math.nan if r is None else float(design.score(r, item))
                               for r, item in zip(found, chosen, strict=True)]
        costs[design.name] = _cost(found)
    return {"items": [_item_row(i) for i in chosen], "scores": scores, "costs": costs}


def replayed_or_none(pass_name: str, judge: ReplayJudge, item: Item) -> Any:
    try:
        return ask_pass(pass_name, judge, item)
    except JudgeError:
        return None


def _item_row(item: Item) -> dict[str, Any]:
    return {"id": item.id, "group": item.group, "failed": item.hallucinated, "model": item.model,
            "span_kind": item.span_kind}


def complete(part: dict[str, Any], names: list[str]) -> list[int]:
    """The answers every named design scored."""
    n = len(part["items"])
    return [i for i in range(n) if all(not math.isnan(part["scores"][d][i]) for d in names)]


def _figures(part: dict[str, Any], design: str, idx: list[int], threshold: float | None) -> dict[str, Any]:
    failed = [part["items"][i]["failed"] for i in idx]
    values = [part["scores"][design][i] for i in idx]
    groups = [part["items"][i]["group"] for i in idx]
    report = validation_report(failed, values, groups=groups, threshold=threshold)
    return {"auc": report.score, "ci": report.ci, "threshold": report.values["threshold"],
            "precision": report.values["precision"], "recall": report.values["recall"], "f1": report.values["f1"],
            "base_rate": report.values["base_rate"], "answers": len(idx), "groups": report.values["groups"]}


def _paired(part: dict[str, Any], a: str, b: str, idx: list[int]) -> dict[str, Any]:
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


def build_log(*, test: bool) -> dict[str, Any]:
    """Compute the whole log from the recordings; ``test=True`` also scores the test parts (do it once)."""
    test = flag("test", test)
    parts = {f"{ds}-dev": scored(ds, "dev", DEV_SAMPLE_SOURCES[ds]) for ds in ("ragtruth", "halueval")}
    parts["ragtruth-dev-all"] = scored("ragtruth", "dev")  # the designs recorded on every dev source
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
            row[key] = _figures(part, name, idx, None)
            row[key]["cost"] = part["costs"][name]
            row[f"{key}_vs_overlap"] = _paired(part, name, "word_overlap", idx)
        designs[name] = row
    dev = {"designs": designs}
    chosen, reasons = choose(dev)
    log: dict[str, Any] = {"rule": RULE, "dev_sample_sources": DEV_SAMPLE_SOURCES, "dev": dev, "chosen": chosen,
                           "reasons": reasons, "parts": parts}
    if test:
        threshold = designs[chosen]["ragtruth"]["threshold"]
        part = scored("ragtruth", "test")
        log["parts"]["ragtruth-test"] = part
        log["test"] = {name: _figures(part, name, complete(part, [name]), designs[name]["ragtruth"]["threshold"])
                       for name in part["scores"] if designs.get(name, {}).get("ragtruth")}
        log["test_threshold"] = threshold
    return log


def checked_log(log: Any) -> dict[str, Any]:
    """``log`` as a choice log (None: the shipped one), or an InputError."""
    if log is None:
        return load_log()
    if not isinstance(log, dict) or not {"dev", "parts", "chosen"} <= set(log):
        raise InputError("log", "a choice log (study.load_log() or study.build_log(...)), or None", log)
    return log


@lru_cache(maxsize=1)
def load_log() -> dict[str, Any]:
    """The shipped choice log (see the module)."""
    return json.loads(data.path(LOG_NAME).read_text(encoding="utf-8"))


def check_log() -> list[str]:
    """Replay the recordings again and list every score that differs from the shipped log (none: it holds)."""
    log = load_log()
    problems = []
    for key, part in log["parts"].items():
        dataset, split = key.split("-")[:2]
        groups = None if split == "test" or key.endswith("-all") else log["dev_sample_sources"][dataset]
        fresh = scored(dataset, split, groups)
        for name, values in part["scores"].items():
            again = fresh["scores"].get(name)
            if again is None or len(again) != len(values) or any(
                    not (math.isnan(a) and (b is None or math.isnan(b))) and (b is None or abs(a - b) > 1e-9)
                    for a, b in zip(again, values, strict=True)):
                problems.append(f"{key}: {name} differs from a fresh replay")
    return problems


def dev_table(log: dict[str, Any] | None = None) -> Any:
    """Every design's dev figures on the answers it shares with word overlap: how many answers, sources and
    hallucinated answers it rests on; RAGTruth and HaluEval AUC with intervals (no AUC under :data:`MIN_SOURCES`
    sources); F1 at the threshold best on these answers beside the F1 of flagging every answer; and its cost per
    answer (calls, tokens, seconds the recorded model took; a call two answers share counts once; NaN for a design
    that reads one call of a pass recorded with more, see :func:`_own_cost`)."""
    import pandas as pd  # lazy

    log = checked_log(log)
    rows = []
    for name, row in log["dev"]["designs"].items():
        rt, he = row.get("ragtruth"), row.get("halueval")
        enough = bool(rt) and rt["groups"] >= MIN_SOURCES
        rows.append({"design": name, "calls": row["calls"],
                     "answers": rt["answers"] if rt else 0, "sources": rt["groups"] if rt else 0,
                     "hallucinated": round(rt["base_rate"] * rt["answers"]) if rt else 0,
                     "ragtruth_auc": rt["auc"] if enough else math.nan,
                     "ragtruth_ci": _ci(rt["ci"]) if enough else f"(under {MIN_SOURCES} sources)",
                     "vs_overlap": _ci(row["ragtruth_vs_overlap"]["ci"], row["ragtruth_vs_overlap"]["difference"])
                     if enough else f"(under {MIN_SOURCES} sources)",
                     "f1": rt["f1"] if rt else math.nan,
                     "f1_flag_all": 2 * rt["base_rate"] / (1 + rt["base_rate"]) if rt else math.nan,
                     "halueval_auc": he["auc"] if he else math.nan,
                     "tokens_per_answer": rt["cost"]["tokens"] if rt and _own_cost(row) else math.nan,
                     "sec_per_answer": rt["cost"]["seconds"] if rt and _own_cost(row) else math.nan})
    return pd.DataFrame(rows)


def _own_cost(row: dict[str, Any]) -> bool:
    """False for a design that reads one call of a pass recorded with more (the critic's p(yes) reads the first of
    three votes): the recorded tokens and seconds are the whole pass's, not its own, so none is shown."""
    return not (row["calls"] == "1" and row["calls_max"] > 1.5)


def _ci(ci: Any, value: float | None = None) -> str:
    if ci is None:
        return "(too few groups)"
    head = "" if value is None else f"{value:+.3f} "
    return f"{head}[{ci[0]:.3f}, {ci[1]:.3f}]"


def flag_rule(threshold: float) -> str:
    """The answers a dev threshold flags, in words: "scored below 0.708", or "scored 0" for a threshold just above 0
    (a 3-decimal print would show 0.000, which reads as flagging nothing: scores are never below 0)."""
    threshold = number("threshold", threshold, "a threshold (flag when score < threshold)")
    return "scored 0" if 0 < threshold < 5e-4 else f"scored below {threshold:.3f}"


def test_table(log: dict[str, Any] | None = None) -> Any:
    """The test figures, scored once after the choice: AUC with interval, P/R/F1 at the dev threshold, with the
    answers, sources and hallucinated answers of each row. Rows on under :data:`MIN_SOURCES` sources are left out
    (see :func:`test_left_out`)."""
    import pandas as pd  # lazy

    log = checked_log(log)
    if "test" not in log:
        raise InputError("log", "a choice log with test figures", "a log without them")
    return pd.DataFrame([{"design": name, "answers": row["answers"], "sources": row["groups"],
                          "hallucinated": round(row["base_rate"] * row["answers"]), "auc": row["auc"],
                          "ci": _ci(row["ci"]), "threshold": row["threshold"], "flags": flag_rule(row["threshold"]),
                          "precision": row["precision"],
                          "recall": row["recall"], "f1": row["f1"], "base_rate": row["base_rate"]}
                         for name, row in log["test"].items() if row["groups"] >= MIN_SOURCES])


def test_left_out(log: dict[str, Any] | None = None) -> list[str]:
    """The test rows :func:`test_table` leaves out, each with its sources and when its recording was made."""
    log = checked_log(log)
    if "test" not in log:
        raise InputError("log", "a choice log with test figures", "a log without them")
    def made(pass_name: str | None) -> str:
        path = recording_path(pass_name or "", "ragtruth", "test")
        return str(json.loads(path.read_text(encoding="utf-8"))["date"]) if path else "unknown"

    scored_with = made("reanswer")
    out = []
    for name, row in log["test"].items():
        if row["groups"] < MIN_SOURCES:
            when = made(DESIGNS[name].recording)
            order = "after" if when > scored_with else "before"
            out.append(f"{name}: {row['answers']} answers from {row['groups']} sources, recorded {when}, {order} "
                       f"the re-answer test recording ({scored_with})")
    return out


def _scored_part(log: dict[str, Any], part: Any, design: Any) -> dict[str, Any]:
    """The log's ``part``, checked to hold scores of ``design``."""
    if not isinstance(part, str) or part not in log["parts"]:
        raise InputError("part", "one of " + ", ".join(log["parts"]), part)
    p = log["parts"][part]
    if not isinstance(design, str) or design not in p["scores"]:
        raise InputError("design", "one of " + ", ".join(p["scores"]), design)
    return p


def breakdown(design: str, by: str, part: str = "ragtruth-dev", log: dict[str, Any] | None = None) -> Any:
    """AUC of ``design`` per generating model (``by="model"``) or span kind (``"span_kind"``), with intervals."""
    p = _scored_part(checked_log(log), part, design)
    if by not in ("model", "span_kind"):
        raise InputError("by", "'model' or 'span_kind'", by)
    import pandas as pd  # lazy

    idx = complete(p, [design])
    if by == "model":
        report = validation_report([p["items"][i]["failed"] for i in idx], [p["scores"][design][i] for i in idx],
                                   groups=[p["items"][i]["group"] for i in idx], by=[p["items"][i][by] for i in idx],
                                   threshold=0.5)
        return report.table("breakdown")
    # a span kind holds failing answers only: each kind is ranked against every passing answer of the part
    passing = [i for i in idx if not p["items"][i]["failed"]]
    rows = []
    for kind in dict.fromkeys(p["items"][i]["span_kind"] for i in idx if p["items"][i]["failed"]):
        chosen = passing + [i for i in idx if p["items"][i]["span_kind"] == kind]
        r = validation_report([p["items"][i]["failed"] for i in chosen], [p["scores"][design][i] for i in chosen],
                              groups=[p["items"][i]["group"] for i in chosen], threshold=0.5)
        rows.append({"group": kind, "hallucinated": len(chosen) - len(passing), "faithful": len(passing),
                     "auc": r.score, "auc_low": r.ci[0] if r.ci else math.nan,
                     "auc_high": r.ci[1] if r.ci else math.nan})
    return pd.DataFrame(rows, columns=["group", "hallucinated", "faithful", "auc", "auc_low", "auc_high"])


def by_model(design: str, part: str = "ragtruth-dev-all", log: dict[str, Any] | None = None) -> Any:
    """Per generating model: answers, share labelled hallucinated and the design's mean score (the confound)."""
    import pandas as pd  # lazy

    p = _scored_part(checked_log(log), part, design)
    idx = complete(p, [design])
    rows = []
    for model in dict.fromkeys(p["items"][i]["model"] for i in idx):
        mine = [i for i in idx if p["items"][i]["model"] == model]
        rows.append({"model": model, "answers": len(mine),
                     "share_hallucinated": sum(p["items"][i]["failed"] for i in mine) / len(mine),
                     f"mean_{design}": sum(p["scores"][design][i] for i in mine) / len(mine)})
    return pd.DataFrame(rows).sort_values("share_hallucinated").reset_index(drop=True)


def threshold_of(log: dict[str, Any], design: str) -> float:
    """The F1-best threshold of ``design`` on RAGTruth dev (as the log holds it)."""
    log = checked_log(log)
    row = log["dev"]["designs"].get(design) if isinstance(design, str) else None
    if not row or not row.get("ragtruth"):
        raise InputError("design", "a design with RAGTruth dev figures: " + ", ".join(log["dev"]["designs"]), design)
    return float(row["ragtruth"]["threshold"])


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
    lines, same = [], 0
    for label, answer_id in zip(labels, ids, strict=True):
        theirs = answers[answer_id].hallucinated
        same += label == theirs
        spans = "; ".join(f"[{s.label_type}] {s.text}" for s in answers[answer_id].spans) or "no span"
        lines.append(f"{answer_id}: you {label}, the annotators {theirs} ({spans})")
    return "\n".join(lines + [f"You agree with the annotators on {same} of {len(ids)}."])


def first_with_tail(log: dict[str, Any] | None = None) -> Any:
    """The first answer of the RAGTruth dev sample whose recorded G-Eval distribution has a score under 1 %
    (where DeepEval's rule and the paper's differ), replayed."""
    log = checked_log(log)
    for row in log["parts"]["ragtruth-dev"]["items"]:
        result = replay("g_eval", row["id"])
        if any(0 < r["probability"] < 0.01 for r in result.rows):
            return result
    raise InputError("log", "a G-Eval recording with a score under 1 %", "none found")


def test_difference(a: str, b: str, log: dict[str, Any] | None = None) -> Any:
    """AUC(a) − AUC(b) on the same RAGTruth test answers, with its paired interval resampling sources."""
    log = checked_log(log)
    if "ragtruth-test" not in log["parts"]:
        raise InputError("log", "a choice log with test scores", "a log without them")
    p = log["parts"]["ragtruth-test"]
    for field, name in (("a", a), ("b", b)):
        if not isinstance(name, str) or name not in p["scores"]:
            raise InputError(field, "a design scored on test: " + ", ".join(p["scores"]), name)
    idx = complete(p, [a, b])
    return auc_difference([p["items"][i]["failed"] for i in idx], [p["scores"][a][i] for i in idx],
                          [p["scores"][b][i] for i in idx], groups=[p["items"][i]["group"] for i in idx], names=(a, b))
