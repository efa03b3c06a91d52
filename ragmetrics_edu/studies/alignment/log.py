"""Lesson 15's log, built from what the recordings replay: each part's answers, scores, sentences and costs.

The course replays the recorded passes (``course.alignment.study.build_log``) and hands the results to these
functions, which turn them into the log's parts: per answer its label and source, each design's score, the support
design's sentences, and the calls' cost; then the combinations cross-validated by source (leave one source out).
A part is a dict: ``items`` (one row per answer), ``scores`` and ``signals`` (name -> one value per answer),
``sentences``, ``costs``, ``seconds`` and ``tokens`` (pass -> per answer).
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ...agreement import fit_combination
from ...agreement.combine import Combination
from ...baselines import SIGNALS, answer_overlap, cheap_signals
from ...errors import InputError
from ...results import MetricResult
from ...validate import as_list, text_list
from ..against_people.designs import Item
from .protocol import BASELINE

__all__ = ["JUDGE_SIGNALS", "checked_log", "checked_part", "lesson14_threshold", "new_part", "add_pass",
           "add_timings", "add_combinations", "add_transferred", "add_baseline_cv"]

#: the support design's aggregates the judge combination adds to the cheap signals
JUDGE_SIGNALS = ("support_min", "support_mean")


def checked_log(log: Any) -> dict[str, Any]:
    """``log`` if it is lesson 15's log (a dict with a ``ragtruth-dev`` part), else an InputError."""
    if not isinstance(log, dict) or not isinstance(log.get("parts"), dict) or "ragtruth-dev" not in log["parts"]:
        raise InputError("log", "lesson 15's log (course.alignment.study.load_log() or build_log())", log)
    return log


def checked_part(part: Any, names: tuple[str, ...] = ()) -> dict[str, Any]:
    """``part`` if it is a part of the log (see the module) holding the scores ``names``, else an InputError."""
    if (not isinstance(part, dict) or not isinstance(part.get("items"), list) or not isinstance(part.get("scores"), dict)
            or not isinstance(part.get("signals"), dict)):
        raise InputError("part", "a part of lesson 15's log (new_part(...), or log['parts'][name])", type(part).__name__)
    names = tuple(text_list("names", names))
    for name in names:
        if part["scores"].get(name) is None:
            raise InputError("part", f"a part holding the scores {', '.join(names)}", sorted(part["scores"]))
    return part


def _results(field: str, results: Any, n: int) -> list[MetricResult | None]:
    """``results`` if it is one MetricResult (or None) per answer of a part of ``n`` answers, else an InputError."""
    expected = f"one result (or None) per answer of the part ({n})"
    results = as_list(field, results, expected)
    if len(results) != n or any(r is not None and not isinstance(r, MetricResult) for r in results):
        raise InputError(field, expected, f"{len(results)} values")
    return results


def lesson14_threshold(log14: Any, design: str) -> float:
    """The F1-best RAGTruth dev threshold lesson 14's log holds for ``design`` (the one its test figure used)."""
    designs = log14.get("dev", {}).get("designs") if isinstance(log14, dict) else None
    row = designs.get(design) if isinstance(designs, dict) and isinstance(design, str) else None
    if not isinstance(row, dict) or not row.get("ragtruth"):
        raise InputError("log14", f"lesson 14's log with RAGTruth dev figures for {design!r} "
                         "(course.against_people.study.load_log())", type(log14).__name__)
    return float(row["ragtruth"]["threshold"])


def new_part(chosen: list[Any]) -> dict[str, Any]:
    """A part for these answers (each with ``id``, ``group``, ``hallucinated``, ``model``, ``span_kind``, ``answer``
    and ``context``): their rows, word overlap and the cheap signals, no pass yet."""
    chosen = as_list("chosen", chosen, "a list of Items (course.against_people.items.items())")
    if not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a list of Items (course.against_people.items.items())", chosen)
    signals = [cheap_signals(i.answer, list(i.context)) for i in chosen]
    return {"items": [{"id": i.id, "group": i.group, "failed": i.hallucinated, "model": i.model,
                       "span_kind": i.span_kind} for i in chosen],
            "scores": {BASELINE: [answer_overlap(i.answer, list(i.context)) for i in chosen]},
            "signals": {s: [row[s] for row in signals] for s in SIGNALS}, "sentences": {},
            "costs": {BASELINE: {"calls": 0.0, "seconds": 0.0, "prompt_tokens": 0.0}}, "seconds": {}, "tokens": {}}


def _per_answer(results: list[MetricResult | None], measure: Callable[[Any], float]) -> list[float]:
    """``measure`` summed over each answer's calls (NaN where not recorded); a call an earlier answer already made
    (G-Eval's evaluation steps, shared by every answer) counts once, with the answer that made it."""
    seen: set[tuple[str, int]] = set()
    out = []
    for r in results:
        if r is None:
            out.append(math.nan)
            continue
        fresh = [c for c in r.calls if (c.key, c.attempt) not in seen]
        seen.update((c.key, c.attempt) for c in r.calls)
        out.append(float(sum(measure(c) for c in fresh)))
    return out


def add_pass(part: dict[str, Any], pass_name: str, results: list[MetricResult | None], chosen: list[Any],
             scorers: dict[str, Callable[[MetricResult | None, Any], float]]) -> None:
    """Add one replayed pass to ``part``: its sentences, its mean cost, each answer's seconds and tokens (prompt
    and reply), and the score of each design that reads it (``scorers``: name -> score of a result and its answer)."""
    part = checked_part(part)
    if not isinstance(pass_name, str):
        raise InputError("pass_name", "a pass name (a text)", pass_name)
    results = _results("results", results, len(part["items"]))
    chosen = as_list("chosen", chosen, f"the part's answers ({len(part['items'])})")
    if len(chosen) != len(results):
        raise InputError("chosen", f"the part's answers ({len(part['items'])})", len(chosen))
    if not isinstance(scorers, dict) or not all(isinstance(n, str) and callable(f) for n, f in scorers.items()):
        raise InputError("scorers", "a dict: design name -> its score of a result and its answer", scorers)
    part.setdefault("sentences", {})[pass_name] = [[] if r is None else [
        {"start": s["start"], "end": s["end"], "p_yes": s["p_yes"], "abstains": s["abstains"]} for s in r.rows]
        for r in results]
    done = [r for r in results if r is not None]
    calls = [c for r in done for c in r.calls]
    n = max(len(done), 1)
    part.setdefault("costs", {})[pass_name] = {"calls": len(calls) / n, "seconds": sum(c.latency_s or 0.0 for c in calls) / n,
                                "prompt_tokens": sum(c.prompt_tokens or 0 for c in calls) / n}
    add_timings(part, pass_name, results)
    for name, score in scorers.items():
        part["scores"][name] = [math.nan if r is None else float(score(r, i)) for r, i in zip(results, chosen,
                                                                                              strict=True)]


def add_timings(part: dict[str, Any], pass_name: str, results: list[MetricResult | None]) -> None:
    """Each answer's recorded seconds and tokens (prompt and reply) under ``pass_name``: the tokens do not depend
    on the machine or its load, the seconds do; a call an earlier answer already made counts once."""
    part = checked_part(part)
    if not isinstance(pass_name, str):
        raise InputError("pass_name", "a pass name (a text)", pass_name)
    results = _results("results", results, len(part["items"]))
    part.setdefault("seconds", {})[pass_name] = _per_answer(results, lambda c: c.latency_s or 0.0)
    part.setdefault("tokens", {})[pass_name] = _per_answer(
        results, lambda c: (c.prompt_tokens or 0) + (c.completion_tokens or 0))


def _features(part: dict[str, Any], signals: tuple[str, ...], extra: tuple[str, ...]) -> tuple[list[int], dict]:
    """The answers every signal in ``extra`` scored, and the features on them (cheap ``signals`` and ``extra``)."""
    keep = [k for k in range(len(part["items"])) if all(not math.isnan(part["scores"][s][k]) for s in extra)]
    features = {s: [part["signals"][s][k] for k in keep] for s in signals}
    features.update({s: [part["scores"][s][k] for k in keep] for s in extra})
    return keep, features


def add_combinations(part: dict[str, Any]) -> dict[str, Combination]:
    """Add the cheap and the judge combination's cross-validated scores (on the answers every signal they use was
    measured on) and their fits; return each as fitted on all those answers (what another data set is scored by)."""
    part = checked_part(part)
    fitted: dict[str, Combination] = {}
    for name, extra in (("cheap_combination", ()), ("judge_combination", JUDGE_SIGNALS)):
        if any(s not in part["scores"] for s in extra):
            continue
        keep, features = _features(part, SIGNALS, extra)
        combo = fit_combination(features, [part["items"][k]["failed"] for k in keep],
                                [part["items"][k]["group"] for k in keep])
        values = [math.nan] * len(part["items"])
        for k, v in zip(keep, combo.cross_validated, strict=True):
            values[k] = v
        part["scores"][name] = values
        part.setdefault("combinations", {})[name] = {
            "signals": list(combo.signals), "means": combo.means, "scales": combo.scales, "weights": combo.weights,
            "intercept": combo.intercept, "line": combo.line(), "steps": combo.steps, "answers": len(keep)}
        fitted[name] = combo
    return fitted


def add_transferred(fitted: dict[str, Combination], part: dict[str, Any]) -> None:
    """Score ``part`` (HaluEval dev) with the combinations fitted on RAGTruth dev: none of its answers fits them, so
    its figure says whether what was learned on RAGTruth's labels holds on another data set."""
    part = checked_part(part)
    if not isinstance(fitted, dict) or not all(isinstance(c, Combination) for c in fitted.values()):
        raise InputError("fitted", "what add_combinations returns: name -> Combination", fitted)
    for name, combo in fitted.items():
        extra = tuple(s for s in combo.signals if s not in SIGNALS)
        if any(s not in part["scores"] for s in extra):
            continue
        keep, features = _features(part, tuple(s for s in SIGNALS if s in combo.signals), extra)
        values = [math.nan] * len(part["items"])
        for k, v in zip(keep, combo.score(features), strict=True):
            values[k] = v
        part["scores"][name] = values


def add_baseline_cv(part: dict[str, Any]) -> None:
    """Word overlap alone through the combinations' pipeline (``word_overlap_cv``): compare within one pipeline."""
    part = checked_part(part, (BASELINE,))
    part["scores"][f"{BASELINE}_cv"] = list(fit_combination(
        {BASELINE: part["scores"][BASELINE]}, [r["failed"] for r in part["items"]],
        [r["group"] for r in part["items"]]).cross_validated)
