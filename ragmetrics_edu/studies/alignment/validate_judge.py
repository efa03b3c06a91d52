"""``ragmetrics-edu validate-judge``: the dev protocol of lessons 14 and 16 against any OpenAI-compatible endpoint.

Before you trust a judge (a bigger local model, a paid endpoint), measure it against people on answers whose
labels you know. By default these are RAGTruth's dev sources: one design runs on the first ``--sources`` of
them, and the command prints how far its scores rank people's hallucinated answers below the faithful ones (AUC
with an interval over sources) and the paired difference from counting words (word overlap) on the same answers.
With ``--labels FILE`` they are your own (:mod:`.labelled`: the row schema and the written dev/test rule), and
the report is :mod:`.labels_report`'s: counts, AUC over groups beside word overlap, P/R/F1 at the dev threshold
beside flagging everything, the pass rate three ways and the labels a target width needs.

- Before any request: the arguments are checked, the cache folder too, the server is asked which models it
  serves (an unreachable server stops here; a name it does not serve is refused with the names it does, unless it
  serves one model whose file name matches), and the cost is estimated (requests, prompt and reply tokens, and
  the time at the recorded local judge's speed: :mod:`.cost`); after the first answers the time is estimated
  again from the server's own speed, and after the run the tokens used are printed beside the estimate.
- Every validated reply is cached (``--cache-dir``): an interrupted run (Ctrl-C) saves what it has and a
  re-run of the same command resumes, sending only what is missing.
- A server that returns no token probabilities still works: the support designs then sample votes (said before
  the run continues), G-Eval uses the written digit; the report says which reading each answer used.
- The recording holds every reply, so the run can be replayed with ``ReplayJudge``. It is named per design, data
  and run (``validate-<model>-<design>-<data>-<UTC time>.json``) and never overwrites another: an ``--out`` that
  exists gets a ``-2``, ``-3``... before its suffix.
- ``--scores-out FILE.csv`` writes each answer's score, word overlap, verdict and reading.
"""

from __future__ import annotations

import argparse
import math
import sys
import textwrap
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from ...agreement import auc_difference, validation_report
from ...baselines import answer_overlap
from ...errors import InputError
from ...judges.errors import JudgeAPIError, JudgeError
from ...judges.files import write_recording
from ...judges.openai_judge import OpenAIJudge, redact_url
from ...judges.records import recordable
from ...judges.served import check_served
from ...results import fmt
from ...validate import number
from ...validate import path as checked_path
from ..against_people.designs import Item
from . import cost
from .designs import JUDGED, ask_any_pass
from .labelled import read_labelled
from .labels_report import labels_report, reading_of, write_scores

__all__ = ["add_parser", "report", "validate_judge", "recording_out", "DEV_SOURCES"]

#: RAGTruth's dev part has this many sources
DEV_SOURCES = 50


def validate_judge(judge: OpenAIJudge, design: str, chosen: list[Item], *, data: str, calibration: cost.Calibration,
                   out: Path, labelled: bool = False, say: Any = print, scores_out: Path | None = None,
                   half_width: float = 0.05) -> dict[str, Any]:
    """Run ``design`` with ``judge`` on ``chosen`` (RAGTruth dev answers, or your labelled file's rows: ``labelled``),
    described as ``data``, its cost estimated by ``calibration`` (its pass's, :func:`.cost.calibration`); write the
    recording (and the per-answer CSV ``scores_out``); return the figures."""
    if not isinstance(judge, OpenAIJudge):
        raise InputError("judge", "an OpenAIJudge (the endpoint to validate)", judge)
    if not isinstance(out, Path):
        raise InputError("out", "a Path for the recording", out)
    if scores_out is not None and not isinstance(scores_out, Path):
        raise InputError("scores_out", "a Path for the CSV, or None", scores_out)
    if not callable(say):
        raise InputError("say", "a function that prints a line", say)
    if not isinstance(design, str) or design not in JUDGED:
        raise InputError("--design", "one of " + ", ".join(sorted(JUDGED)), design)
    half_width = number("--half-width", half_width, "a half-width above 0 and below 1, e.g. 0.05", low=0.0, high=1.0,
                        low_open=True, high_open=True)
    if not isinstance(chosen, list) or not chosen or not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a non-empty list of Items (the answers to judge)", chosen)
    if not isinstance(data, str):
        raise InputError("data", "a text naming the answers", data)
    check_served(judge)  # the library's check (judges.served): an unreachable server or an unserved name stops here
    pass_name = str(JUDGED[design].recording)
    if not isinstance(calibration, cost.Calibration) or calibration.pass_name != pass_name:
        raise InputError("calibration", f"the Calibration of pass {pass_name!r} (cost.calibration)", calibration)
    planned = cost.estimate(calibration, chosen)
    say(f"{design} on {int(planned['answers'])} answers of {data}: {cost.describe(planned)}. Replies already in "
        f"{judge.cache_dir} are not sent again.")
    results: list[Any] = []
    started = time.monotonic()
    done = False
    try:
        from tqdm.auto import tqdm  # lazy: tqdm is part of the llm extra

        for n, item in enumerate(tqdm(chosen, desc=design, unit="answer"), start=1):
            try:
                results.append(ask_any_pass(pass_name, judge, item))
            except JudgeAPIError:
                raise  # the server failed (not one reply): stop, keeping what was paid for
            except JudgeError as exc:
                results.append(None)
                say(f"{item.id}: the judge gave no usable reply, left unscored ({str(exc)[:100]})")
            if n == 1 and pass_name.startswith("support") and results[0] is not None:
                if results[0].rows and results[0].rows[0]["from"] != "logprobs":
                    say("The server returned no token probabilities: each sentence's support is the share of yes "
                        "among its reply and 3 sampled votes (4 requests a sentence).")
            if n == min(3, len(chosen)) and judge.usage.calls and n < len(chosen):
                _say_time(judge, chosen, n, planned, time.monotonic() - started, say)
        done = True
    finally:
        _save(judge, out, design, data, started, interrupted=not done)
        if not done:
            say(f"Stopped after {len(results)} of {len(chosen)} answers; the replies that validated are cached in "
                f"{judge.cache_dir} and written to {out}: run the same command again to resume.")
    _say_readings(design, results, say)
    if not labelled:
        found = report(design, chosen, results, say)
        scores, overlap, threshold = found["scores"], found["overlap"], None
    else:
        found = labels_report(design, chosen, results, say, half_width=half_width)
        scores, overlap, threshold = found["scores"], found["overlap"], found["threshold"]
    used = judge.usage.prompt_tokens + judge.usage.completion_tokens
    say(f"Tokens used: {used:,} ({judge.usage.prompt_tokens:,} prompt + {judge.usage.completion_tokens:,} reply) in "
        f"{judge.usage.calls} requests, {judge.usage.cache_hits} answered from the cache; estimated "
        f"{int(planned['tokens']):,} for {int(planned['calls'])} requests"
        + (f" ({100 * (used / planned['tokens'] - 1):+.0f} %)." if not judge.usage.cache_hits and used else "."))
    if scores_out is not None:
        write_scores(scores_out, chosen, results, scores, overlap, threshold)
        say(f"Per-answer scores: {scores_out}")
        found["scores_out"] = str(scores_out)
    found["recording"] = str(out)
    found["estimate"] = planned
    return found


def _say_time(judge: OpenAIJudge, chosen: list[Item], n: int, planned: dict[str, float], elapsed: float,
              say: Any) -> None:
    """The time left, from the first answers' requests (the server's own speed)."""
    per_call = elapsed / judge.usage.calls
    left = max(planned["calls"] - judge.usage.calls - judge.usage.cache_hits, 0) * per_call
    say(f"The first {n} answers took {elapsed:.0f} s ({per_call:.1f} s a request at this server): about "
        f"{cost.minutes(left)} left for the other {len(chosen) - n} answers.")


def _say_readings(design: str, results: list[Any], say: Any) -> None:
    """Which reading the answers used (G-Eval: token probabilities or the written digit; support: votes)."""
    readings = [reading_of(r) for r in results if r is not None]
    counted = {k: readings.count(k) for k in dict.fromkeys(readings) if k}
    if counted:
        say(f"{design} read its score from " + "; ".join(f"{k} for {v} answers" for k, v in counted.items()) + ".")


def report(design: str, chosen: list[Item], results: list[Any], say: Any = print) -> dict[str, Any]:
    """The validation report of ``design``'s results on ``chosen`` (None: unscored) and the paired difference from
    word overlap on the same answers, said line by line; returns both."""
    if not isinstance(design, str) or design not in JUDGED:
        raise InputError("design", "one of " + ", ".join(sorted(JUDGED)), design)
    if not isinstance(chosen, list) or not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a list of Items", chosen)
    if not isinstance(results, list) or len(results) != len(chosen):
        raise InputError("results", f"one result (or None) per answer ({len(chosen)})", results)
    scores = [math.nan if r is None else float(JUDGED[design].score(r, i)) for r, i in zip(results, chosen, strict=True)]
    keep = [k for k, s in enumerate(scores) if not math.isnan(s)]
    failed = [chosen[k].hallucinated for k in keep]
    groups = [chosen[k].group for k in keep]
    judged = [scores[k] for k in keep]
    overlap = [answer_overlap(chosen[k].answer, list(chosen[k].context)) for k in keep]
    validation = validation_report(failed, judged, groups=groups, by=[chosen[k].model for k in keep])
    paired = auc_difference(failed, judged, overlap, groups=groups, names=(design, "word overlap"))
    say(validation.headline())
    if paired.ci is None:
        verdict = f"(no interval: {len(set(groups))} sources, under the 10 an interval needs)."
    else:
        low, high = paired.ci
        verdict = (f"(95 % interval over sources {fmt(low)} to {fmt(high)}). "
                   + ("It ranks better than counting words." if low > 0 else
                      "It ranks worse than counting words." if high < 0 else
                      "These sources cannot tell it apart from counting words."))
    say(textwrap.fill(f"Paired with word overlap on the same {len(keep)} answers: AUC difference {fmt(paired.score)} "
                      f"{verdict}", 100))
    return {"report": validation, "paired": paired, "answers": len(keep), "unscored": len(chosen) - len(keep),
            "scores": scores, "overlap": [answer_overlap(i.answer, list(i.context)) for i in chosen]}


def _save(judge: OpenAIJudge, out: Path, design: str, data: str, started: float, *, interrupted: bool) -> None:
    calls = recordable(judge.calls)
    meta = {"model": judge.model, "server": judge.server, "base_url": judge.server,
            "parameters": {"temperature": judge.temperature, "seed": judge.seed, "mode": judge.mode},
            "pass": {"design": design, "data": data, "interrupted": interrupted},
            "wall_time_s": round(time.monotonic() - started, 1),
            "notes": "Recorded with ragmetrics-edu validate-judge."}
    write_recording(out, meta, calls)


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in text)[:80]


def recording_out(model: str, design: str, data: str, out: str | None, *, now: datetime | None = None) -> Path:
    """Where this run's recording goes: ``out``, or ``validate-<model>-<design>-<data>-<UTC time>.json``; a path
    that exists gets ``-2``, ``-3``... before its suffix, so no run overwrites another's recording."""
    for field, value in (("model", model), ("design", design), ("data", data)):
        if not isinstance(value, str):
            raise InputError(field, "a name (a text)", value)
    if now is not None and not isinstance(now, datetime):
        raise InputError("now", "a datetime or None", now)
    if out is None:
        stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
        model_name = _safe(model.replace("\\", "/").rsplit("/", 1)[-1])
        path = Path(f"validate-{model_name}-{_safe(design)}-{_safe(data)}-{stamp}.json")
    else:
        path = checked_path("--out", out, exists=False, expected="a file path for the recording")
    candidate, k = path, 1
    while candidate.exists():
        k += 1
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
    return candidate


def add_parser(sub: Any) -> None:
    """The ``validate-judge`` subcommand (``sub``: what argparse's ``add_subparsers()`` returns)."""
    if not callable(getattr(sub, "add_parser", None)):
        raise InputError("sub", "argparse subparsers (parser.add_subparsers())", sub)
    p = sub.add_parser("validate-judge", help="measure a judge against people on RAGTruth dev or your own labelled "
                                              "file (any OpenAI-compatible endpoint), paired with word overlap")
    p.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8080/v1 (a key comes from $OPENAI_API_KEY)")
    p.add_argument("--model", required=True, help="the model's name as the server lists it (judge-server prints it)")
    p.add_argument("--design", required=True, help="one of: " + ", ".join(sorted(JUDGED)))
    p.add_argument("--sources", type=int, default=20, help=f"the first N RAGTruth dev sources (1-{DEV_SOURCES})")
    p.add_argument("--labels", help="your labelled answers instead (JSONL or CSV: question, answer, contexts, label "
                                    "faithful/hallucinated or pass/fail, optional group and split)")
    p.add_argument("--half-width", type=float, default=0.05, help="the pass rate's target half-width for the labels "
                                                                  "plan (--labels)")
    p.add_argument("--mode", default="auto", help="auto | json_schema | json_object_schema | json")
    p.add_argument("--cache-dir", default=".judge-cache", help="validated replies are kept here (resume a run)")
    p.add_argument("--out", help="the recording to write (default: validate-<model>-<design>-<data>-<time>.json; "
                                 "an existing file is never overwritten)")
    p.add_argument("--scores-out", help="write each answer's score, word overlap, verdict and reading to this CSV")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per request")


def main(args: argparse.Namespace, *, dev_items: Callable[[int], list[Item]],
         calibration: Callable[[str], cost.Calibration]) -> int:
    """Run the command; 0 on success, 130 when interrupted (the replies so far are cached). The shipped data it
    reads comes from the caller (``cli.py``: the course's loaders): ``dev_items(n)``, the answers of the first n
    RAGTruth dev sources, and ``calibration(pass_name)``, a pass's cost measured on its shipped recording."""
    if not callable(dev_items) or not callable(calibration):
        raise InputError("dev_items/calibration", "functions loading RAGTruth dev and a pass's calibration",
                         (dev_items, calibration))
    if args.design not in JUDGED:
        raise InputError("--design", "one of " + ", ".join(sorted(JUDGED)), args.design)
    if isinstance(args.sources, bool) or not 1 <= args.sources <= DEV_SOURCES:
        raise InputError("--sources", f"a whole number of RAGTruth dev sources from 1 to {DEV_SOURCES}", args.sources)
    labels = None
    if args.labels is not None:
        labels = Path(args.labels)
        if not labels.is_file():
            raise InputError("--labels", "the path of a JSONL or CSV file of labelled answers", args.labels)
    scores_out = None if args.scores_out is None else Path(args.scores_out)
    if scores_out is not None and (scores_out.is_dir() or not scores_out.parent.is_dir()):
        raise InputError("--scores-out", "a CSV file path in an existing folder", args.scores_out)
    data = f"ragtruth-dev-{args.sources}sources" if labels is None else labels.stem
    out = recording_out(args.model, args.design, data, args.out)
    judge = OpenAIJudge(args.model, base_url=args.base_url, mode=args.mode, temperature=0.0, seed=7,
                        timeout=args.timeout, max_retries=1, max_concurrency=1, cache_dir=args.cache_dir)
    print(f"Validating {args.model} at {redact_url(judge.server)} with design {args.design}.", flush=True)
    if labels is None:
        chosen, what = dev_items(args.sources), f"{args.sources} RAGTruth dev sources"
    else:
        chosen = read_labelled(labels)
        what = f"{labels.name} ({len({i.group for i in chosen})} groups)"
    try:
        found = validate_judge(judge, args.design, chosen, data=what, out=out, labelled=labels is not None,
                               calibration=calibration(str(JUDGED[args.design].recording)), scores_out=scores_out,
                               half_width=args.half_width)
    except KeyboardInterrupt:
        return 130
    if judge.model != args.model:
        print(f"(The server serves {args.model!r} as {judge.model!r}: that name was used.)")
    print(f"Recording: {found['recording']} ({found['answers']} answers scored, {found['unscored']} unscored).",
          file=sys.stdout)
    return 0
