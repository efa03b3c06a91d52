"""The HaluEval study's recordings and choice log (notebook 11): the designs' scores replayed, the log written once.

The data: the shipped HaluEval QA rows (:mod:`ragmetrics_edu.data.halueval`), each a *pair* (a right and a
hallucinated answer to one question over one passage), split once by row number into **dev** (choose here) and
**test** (score once, after the choice is frozen). The designs and the measuring are library code
(:mod:`ragmetrics_edu.studies.halueval`); this module replays the recordings of the real model
(``data/recordings/halueval/``, made by :func:`ragmetrics_edu.course.halueval.record.record`) into scored pairs and
keeps the choice log (``data/halueval_choice_log.json``): every design's dev figure, the one chosen and why, and
then the single test figure.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from ...data import halueval, path
from ...designs.faithfulness_reanswer import reanswer_reply
from ...errors import InputError
from ...judges.batch import run_tasks
from ...judges.errors import JudgeError
from ...judges.replay import ReplayJudge
from ...metrics.reanswer import score_reanswer
from ...studies.halueval import choosing
from ...studies.halueval.designs import BASELINE, DESIGNS, Design, design_of, score_answer
from ...studies.halueval.detection import plot_distributions as plot_rows
from ...validate import path as checked_path
from ...validate import text, text_list

__all__ = ["recording_name", "pair_scores", "scored_pairs", "choice_log", "design_calls", "compare", "design_table",
           "detection", "best_threshold", "freeze_choice", "score_test", "rescore_comparator", "LOG", "checked_split",
           "plot_distributions", "curse_rows"]

#: the choice log, shipped with the package
LOG = "halueval_choice_log.json"


def recording_name(pass_name: str, split: str) -> str:
    """The shipped recording of one pass on one part, e.g. ``halueval/reanswer_dev``."""
    return f"halueval/{pass_name}_{split}"


def checked_split(split: Any) -> str:
    """``split`` if it is ``"dev"`` or ``"test"``, else an InputError."""
    if not isinstance(split, str) or split not in halueval.SPLITS:
        raise InputError("split", "'dev' or 'test'", split)
    return split


def pairs_for(design: Design, split: str) -> list[halueval.HaluPair]:
    """The pairs of ``split`` the design is scored on (an expensive design: the first few only)."""
    limit = design.dev_limit if split == "dev" else design.test_limit
    return halueval.pairs(split, limit=limit)


def _replayed(design: Design, judge: Any, split: str, pair: halueval.HaluPair, answer: str) -> float:
    """The design's score of one answer from its recording (a task of the one runner); a re-answer design
    scores the recorded judge's own answer for the pair (NaN when there is none), the others ask ``judge``."""
    if design.pipeline == "reanswer" and design.recording is not None:
        reply = _judge_answer(design.recording, split, pair)
        if reply is None:
            return math.nan
        return score_reanswer(answer, reply, [pair.knowledge], **dict(design.options)).score
    return score_answer(design, judge, pair, answer)


def pair_scores(design: str, split: str) -> list[dict[str, Any]]:
    """One row per pair: the design's score of the right and of the hallucinated answer, from the recording.

    A NaN score (e.g. no claims under Ragas' rule) is kept as NaN; :func:`ragmetrics_edu.studies.halueval.choosing.outcome` counts such a pair as a tie.
    The shipped recordings do not change while the course runs, so each design and split is scored once per
    process (:func:`forget_scores` forgets them, as the recorder does after writing one); the rows are copies."""
    return [dict(row) for row in _scored(design_of(design).name, checked_split(split))]


def scored_pairs(design: str, split: str) -> list[dict[str, Any]]:
    """The design's rows on a part where both answers have a score (a NaN on either side is left out)."""
    return choosing.scored(pair_scores(design, split))


@lru_cache(maxsize=None)
def _scored(design: str, split: str) -> tuple[dict[str, Any], ...]:
    """Every answer of the design's pairs, right then hallucinated, pair by pair, one task each through the
    one case runner (:func:`~ragmetrics_edu.judges.batch.run_tasks`), one at a time in that order; an answer
    the recorded judge gave no usable reply for (a kept :class:`JudgeError`) scores NaN."""
    chosen = design_of(design)
    judge = None if chosen.recording is None else _replay_judge(chosen.recording, split)
    pairs = pairs_for(chosen, split)
    tasks = [partial(_replayed, chosen, judge, split, pair, answer)
             for pair in pairs for answer in (pair.right_answer, pair.hallucinated_answer)]
    run = run_tasks(tasks, judge, max_concurrency=1, keep=(JudgeError,), desc=chosen.name, unit="answer")
    scores = [outcome.result if outcome.ok else math.nan for outcome in run]
    return tuple({"pair": pair.id, "right": right, "hallucinated": wrong, "outcome": choosing.outcome(right, wrong)}
                 for pair, right, wrong in zip(pairs, scores[0::2], scores[1::2], strict=True))


@lru_cache(maxsize=None)
def _replay_judge(recording: str, split: str) -> ReplayJudge:
    return ReplayJudge(path(f"recordings/{recording_name(recording, split)}.json"))


@lru_cache(maxsize=None)
def _judge_answer(recording: str, split: str, pair: halueval.HaluPair) -> str | None:
    """The recorded judge's own answer for ``pair`` (None: no usable reply, the design scores NaN). It depends
    on neither the answer scored nor the design's options, so the re-answer designs replay it once."""
    try:
        return reanswer_reply(_replay_judge(recording, split), [pair.knowledge], question=pair.question)
    except JudgeError:
        return None


def forget_scores() -> None:
    """Forget every score and replay judge: a recording was just written."""
    for cached in (_scored, _replay_judge, _judge_answer):
        cached.cache_clear()


def compare(design: str, split: str, *, baseline: str = BASELINE, seed: int = 0) -> dict[str, Any]:
    """``design`` against ``baseline`` on the same pairs (:func:`ragmetrics_edu.studies.halueval.choosing.compare`)."""
    return choosing.compare(pair_scores(design, split), pair_scores(baseline, split), design, baseline, split,
                            seed=seed)


def design_table(split: str, designs: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per design: its comparison with word overlap on the same pairs, and its cost per answer."""
    split = checked_split(split)
    names = (text_list("designs", designs) if designs is not None else []) or list(DESIGNS)
    return [{**compare(name, split), **design_calls(name, split)} for name in names]


def best_threshold(design: str) -> float:
    """The design's threshold chosen on dev (:func:`ragmetrics_edu.studies.halueval.choosing.best_threshold`)."""
    return choosing.best_threshold(pair_scores(design, "dev"))


def detection(design: str, split: str, threshold: float | None) -> dict[str, Any]:
    """Detection at ``threshold`` on a part (:func:`ragmetrics_edu.studies.halueval.choosing.detection`)."""
    return {"design": design, "split": split, **choosing.detection(pair_scores(design, split), threshold)}


def plot_distributions(designs: list[str], split: str, thresholds: dict[str, float] | None = None) -> Any:
    """The designs' score distributions on a part (:func:`ragmetrics_edu.studies.halueval.detection.plot_distributions`)."""
    return plot_rows({name: pair_scores(name, split) for name in text_list("designs", designs)}, split, thresholds)


def design_calls(design: str, split: str) -> dict[str, float]:
    """Calls, tokens and seconds the design's recording holds, per answer scored (0 for word overlap)."""
    chosen, split = design_of(design), checked_split(split)
    n_answers = 2 * len(pairs_for(chosen, split))
    if chosen.recording is None:
        return {"calls_per_answer": 0.0, "tokens_per_answer": 0.0, "seconds_per_answer": 0.0}
    data = json.loads(path(f"recordings/{recording_name(chosen.recording, split)}.json").read_text("utf-8"))
    return choosing.recorded_cost(data["replies"], n_answers)


def choice_log() -> dict[str, Any]:
    """The written choice log: every design's dev figure, the choice and why, then the one test run."""
    return json.loads(path(LOG).read_text("utf-8"))


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, 6)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def freeze_choice(target: str | Path) -> dict[str, Any]:
    """Write the dev half of the choice log: every design's dev row, the rule, the choice and its threshold.

    Run once, before :func:`score_test`; it refuses to overwrite a log that already holds test figures.
    A threshold that is NaN (no scored dev pair, see :func:`best_threshold`) is written as ``null``."""
    target = checked_path("target", target, exists=False, expected="a path for the choice log (a .json file)")
    if target.exists() and _log(target).get("test"):
        raise InputError("target", "a choice log without test figures (the test part is scored once)", str(target))
    table = design_table("dev")
    chosen = choosing.choose(table, list(DESIGNS))
    log = {"data": halueval.SOURCE, "unit": "pair (a right and a hallucinated answer to one question)",
           "measure": "pairwise accuracy: share of pairs whose right answer scores higher (tie = 0.5)",
           "rule": choosing.RULE, "dev": [{"what": DESIGNS[r["design"]].what, **r} for r in table],
           "chosen": {"design": chosen, "threshold": best_threshold(chosen),
                      "word_overlap_threshold": best_threshold("word_overlap"),
                      "frozen_at": datetime.now(timezone.utc).isoformat(timespec="seconds")},
           "test": None}
    _write_log(target, log)
    return log


def score_test(target: str | Path, designs: tuple[str, ...] = ("library",)) -> dict[str, Any]:
    """Score the frozen choice once on the test part, with word overlap and ``designs`` beside it, and
    write the test half of the log. Refuses when the log has no choice, or already has test figures.
    A ``null`` threshold in the log is read as NaN: :func:`detection` then flags nothing."""
    target = checked_path("target", target, expected="the frozen choice log (freeze_choice())")
    others = [design_of(d).name for d in text_list("designs", designs)]
    log = _log(target)
    if not log.get("chosen") or log.get("test"):
        raise InputError("target", "a frozen choice log whose test part is still empty", str(target))
    chosen = log["chosen"]["design"]
    names = [chosen, BASELINE, *[d for d in others if d not in (chosen, BASELINE)]]
    table = [{**compare(name, "test"), **design_calls(name, "test")} for name in names]
    found = [detection(chosen, "test", log["chosen"]["threshold"]),
             detection("word_overlap", "test", log["chosen"]["word_overlap_threshold"])]
    log["test"] = {"scored_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "table": table,
                   "detection": found}
    _write_log(target, log)
    return log


def rescore_comparator(target: str | Path, design: str, why: str) -> dict[str, Any]:
    """Recompute the test row of a design shown beside the choice (``library``, say) after its recording
    was extended to more test pairs, and note when and ``why`` in the log.

    Never the chosen design nor word overlap: their test figures are scored once. A comparator chooses
    nothing, so more pairs only narrow its interval."""
    target = checked_path("target", target, expected="the choice log, with its test part scored")
    log = _log(target)
    name = design_of(design).name
    why = text("why", why)
    if not why.strip():
        raise InputError("why", "a sentence saying why the comparator is rescored", why)
    if not log.get("test") or not log.get("chosen"):
        raise InputError("target", "a choice log whose test part is scored", str(target))
    if name in (log["chosen"]["design"], "word_overlap"):
        raise InputError("design", "a comparator, not the chosen design or word overlap (scored once)", name)
    rows = log["test"]["table"]
    at = next((i for i, r in enumerate(rows) if r["design"] == name), None)
    if at is None:
        raise InputError("design", f"a design in the log's test table ({[r['design'] for r in rows]})", name)
    rows[at] = {**compare(name, "test"), **design_calls(name, "test")}
    log["test"].setdefault("rescored", []).append(
        {"design": name, "pairs": rows[at]["pairs"], "why": why,
         "at": datetime.now(timezone.utc).isoformat(timespec="seconds")})
    _write_log(target, log)
    return log


def _write_log(target: Path, log: dict[str, Any]) -> None:
    """Write the choice log as the package ships it (NaN as ``null``, floats to 6 places)."""
    target.write_text(json.dumps(_plain(log), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _log(target: Path) -> dict[str, Any]:
    """A choice log read from ``target`` (a JSON object), else an InputError."""
    try:
        log = json.loads(target.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError("target", "a choice log (a JSON file)", str(target), hint=f"it cannot be read ({exc})") from None
    if not isinstance(log, dict):
        raise InputError("target", "a choice log (a JSON object)", str(target))
    return log


def table_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of a dev or test table, shortened for a 100-column printout (no interval under 10 pairs)."""
    out = []
    for r in rows:
        few, base = r["pairs"] < 10, r["design"] == BASELINE
        out.append({"design": r["design"], "pairs": r["pairs"], "acc": f"{r['pairwise']:.3f}",
                    "95% CI": "too few" if few else f"[{r['pairwise_ci'][0]:.3f}, {r['pairwise_ci'][1]:.3f}]",
                    "Δ overlap": "–" if base else f"{r['difference']:+.3f}",
                    "Δ 95% CI": "–" if base else "too few" if few else
                    f"[{r['difference_ci'][0]:+.3f}, {r['difference_ci'][1]:+.3f}]",
                    "+/-": "–" if base else f"+{r['better']}/-{r['worse']}",
                    "calls": f"{r['calls_per_answer']:.3f}"})
    return out


def check_log(log: dict[str, Any] | None = None) -> list[str]:
    """Recompute every figure of the choice log from the recordings; the differences found (none when it holds)."""
    log = choice_log() if log is None else log
    problems = []
    for part, rows in (("dev", log["dev"]), ("test", (log.get("test") or {}).get("table", []))):
        for row in rows:
            fresh = _plain({**compare(row["design"], part), **design_calls(row["design"], part)})
            for key, value in fresh.items():
                if key in row and row[key] != value:
                    problems.append(f"{part} {row['design']} {key}: log {row[key]!r}, recordings {value!r}")
    if choosing.choose(log["dev"], list(DESIGNS)) != log["chosen"]["design"]:
        problems.append(f"the rule picks {choosing.choose(log['dev'], list(DESIGNS))}, the log says {log['chosen']['design']}")
    return problems


def curse_rows(found: dict[str, Any]) -> list[dict[str, Any]]:
    """The chosen design's dev and test rows of the choice log (``{"design", "dev", "test"}``, notebook 11 builds
    it in view) for a 100-column printout: one per part."""
    if not isinstance(found, dict) or not {"design", "dev", "test"} <= set(found):
        raise InputError("found", "a dict with design, dev and test (the chosen design's rows)", found)
    return [{"part": part, "pairs": r["pairs"], found["design"]: f"{r['pairwise']:.3f}",
             "word_overlap": f"{r['baseline_pairwise']:.3f}",
             "chosen − overlap [95% CI]": f"{r['difference']:+.3f} [{r['difference_ci'][0]:+.3f}, "
                                          f"{r['difference_ci'][1]:+.3f}]",
             "+/-": f"+{r['better']}/-{r['worse']}"}
            for part, r in (("dev", found["dev"]), ("test", found["test"]))]
