"""``ragmetrics-edu validate-judge``: the dev protocol of lessons 14 and 16 against any OpenAI-compatible endpoint.

Before you trust a judge (a bigger local model, a paid endpoint), measure it against people on answers whose
labels you know: RAGTruth's dev sources. This runs one design on the first ``--sources`` dev sources, prints
how far its scores rank people's hallucinated answers below the faithful ones (AUC with an interval over
sources), and the paired difference from counting words (word overlap) on the same answers.

- Before any request: the arguments are checked, the cache folder too, the server is asked which models it
  serves (an unreachable server or an unknown model stops here), and the cost is estimated (requests and
  prompt tokens); ``--yes`` is not needed: nothing is asked before the estimate is printed.
- Every validated reply is cached (``--cache-dir``): an interrupted run (Ctrl-C) saves what it has and a
  re-run of the same command resumes, sending only what is missing.
- A server that returns no token probabilities still works: the support designs then sample votes (said before
  the run continues), G-Eval uses the reply's own score (said in its result).
- The recording (``--out``) holds every reply, so the run can be replayed with ``ReplayJudge``.
"""

from __future__ import annotations

import argparse
import math
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from ...agreement import auc_difference, validation_report
from ...baselines import answer_overlap
from ...errors import InputError
from ...judges.errors import JudgeAPIError, JudgeError
from ...judges.files import write_recording
from ...judges.openai_judge import OpenAIJudge, redact_url
from ...judges.records import recordable
from ...results import fmt
from ...text import sentence_spans
from ...validate import integer
from ..against_people.items import Item, items
from .designs import JUDGED, ask_any_pass, replayed_pass

__all__ = ["add_parser", "estimate", "report", "replayed", "validate_judge", "DEV_SOURCES"]

#: RAGTruth's dev part has this many sources
DEV_SOURCES = 50


def estimate(design: str, chosen: list[Item]) -> dict[str, float]:
    """Requests and prompt tokens a design will send for ``chosen`` (about 4 characters a token), before caching."""
    if not isinstance(design, str) or design not in JUDGED:
        raise InputError("design", "one of " + ", ".join(sorted(JUDGED)), design)
    if not isinstance(chosen, list) or not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a list of Items (against_people.items.items)", chosen)
    pass_name = JUDGED[design].recording
    questions = len({i.group for i in chosen})
    sentences = sum(len(sentence_spans(i.answer)) for i in chosen)
    reads = sum(len(i.question) + sum(len(c) for c in i.context) for i in chosen) / 4
    per_pass = {"support": sentences, "support_fewshot": sentences, "g_eval": len(chosen) + 1,
                "critic": 3 * len(chosen), "reanswer": questions, "claims": 2 * len(chosen),
                "checked": 2.5 * len(chosen)}
    calls = float(per_pass.get(str(pass_name), len(chosen)))
    return {"answers": float(len(chosen)), "sources": float(questions), "calls": calls,
            "prompt_tokens": calls * (reads / max(len(chosen), 1) + 150)}


def _served(judge: OpenAIJudge) -> list[str] | None:
    """The models the server lists (None when it lists none); an unreachable server raises JudgeError."""
    import openai  # lazy: openai is an optional extra (llm)

    try:
        listed = judge.client.models.list()
    except openai.APIConnectionError as exc:
        raise JudgeError(f"Could not connect to {judge.server}: {exc.__class__.__name__}. Is the server running, "
                         "and does --base-url end in /v1?") from None
    except openai.APIStatusError:
        return None  # a server without /models: the first request will say whether the model exists
    names = [getattr(m, "id", None) for m in getattr(listed, "data", []) or []]
    return [n for n in names if isinstance(n, str)] or None


def validate_judge(judge: OpenAIJudge, design: str, sources: int, *, out: Path, say: Any = print) -> dict[str, Any]:
    """Run ``design`` with ``judge`` on the first ``sources`` dev sources; write the recording; return the figures."""
    if not isinstance(judge, OpenAIJudge):
        raise InputError("judge", "an OpenAIJudge (the endpoint to validate)", judge)
    if not isinstance(out, Path):
        raise InputError("out", "a Path for the recording", out)
    if not callable(say):
        raise InputError("say", "a function that prints a line", say)
    if not isinstance(design, str) or design not in JUDGED:
        raise InputError("--design", "one of " + ", ".join(sorted(JUDGED)), design)
    sources = integer("--sources", sources, low=1, high=DEV_SOURCES,
                      expected=f"a whole number of RAGTruth dev sources from 1 to {DEV_SOURCES}")
    chosen = items("ragtruth", "dev", groups=sources)
    served = _served(judge)
    if served is not None and judge.model not in served:
        raise InputError("--model", "a model the server serves: " + ", ".join(served), judge.model)
    cost = estimate(design, chosen)
    say(f"{design} on {int(cost['answers'])} answers of {sources} RAGTruth dev sources: about {int(cost['calls'])} "
        f"requests and {int(cost['prompt_tokens']):,} prompt tokens before caching (replies already in "
        f"{judge.cache_dir} are not sent again).")
    pass_name = str(JUDGED[design].recording)
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
        done = True
    finally:
        _save(judge, out, design, sources, started, interrupted=not done)
        if not done:
            say(f"Stopped after {len(results)} of {len(chosen)} answers; the replies that validated are cached in "
                f"{judge.cache_dir} and written to {out}: run the same command again to resume.")
    found = report(design, chosen, results, say)
    found["recording"] = str(out)
    return found


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
    return {"report": validation, "paired": paired, "answers": len(keep), "unscored": len(chosen) - len(keep)}


def replayed(design: str, sources: int, say: Any = print) -> dict[str, Any]:
    """What validate-judge prints for the recorded local judge, replayed from the shipped recording (no server)."""
    if not isinstance(design, str) or design not in JUDGED:
        raise InputError("design", "one of " + ", ".join(sorted(JUDGED)), design)
    sources = integer("sources", sources, low=1, high=DEV_SOURCES,
                      expected=f"a whole number of RAGTruth dev sources from 1 to {DEV_SOURCES}")
    chosen = items("ragtruth", "dev", groups=sources)
    results = replayed_pass(str(JUDGED[design].recording), chosen, "ragtruth", "dev")
    if results is None:
        raise InputError("design", "a design whose pass was recorded on RAGTruth dev", design)
    return report(design, chosen, results, say)


def _save(judge: OpenAIJudge, out: Path, design: str, sources: int, started: float, *, interrupted: bool) -> None:
    calls = recordable(judge.calls)
    meta = {"model": judge.model, "server": judge.server, "base_url": judge.server,
            "parameters": {"temperature": judge.temperature, "seed": judge.seed, "mode": judge.mode},
            "pass": {"design": design, "dataset": "ragtruth", "split": "dev", "sources": sources,
                     "interrupted": interrupted},
            "wall_time_s": round(time.monotonic() - started, 1),
            "notes": "Recorded with ragmetrics-edu validate-judge."}
    write_recording(out, meta, calls)


def add_parser(sub: Any) -> None:
    """The ``validate-judge`` subcommand (``sub``: what argparse's ``add_subparsers()`` returns)."""
    if not callable(getattr(sub, "add_parser", None)):
        raise InputError("sub", "argparse subparsers (parser.add_subparsers())", sub)
    p = sub.add_parser("validate-judge", help="measure a judge against people on RAGTruth dev (any OpenAI-compatible "
                                              "endpoint), paired with word overlap")
    p.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8080/v1 (a key comes from $OPENAI_API_KEY)")
    p.add_argument("--model", required=True, help="the model's name as the server lists it")
    p.add_argument("--design", required=True, help="one of: " + ", ".join(sorted(JUDGED)))
    p.add_argument("--sources", type=int, default=20, help=f"the first N RAGTruth dev sources (1-{DEV_SOURCES})")
    p.add_argument("--mode", default="auto", help="auto | json_schema | json_object_schema | json")
    p.add_argument("--cache-dir", default=".judge-cache", help="validated replies are kept here (resume a run)")
    p.add_argument("--out", help="the recording to write (default: validate-<model>-<design>.json)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per request")


def main(args: argparse.Namespace) -> int:
    """Run the command; 0 on success, 130 when interrupted (the replies so far are cached)."""
    if args.design not in JUDGED:
        raise InputError("--design", "one of " + ", ".join(sorted(JUDGED)), args.design)
    if isinstance(args.sources, bool) or not 1 <= args.sources <= DEV_SOURCES:
        raise InputError("--sources", f"a whole number of RAGTruth dev sources from 1 to {DEV_SOURCES}", args.sources)
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in args.model)
    out = Path(args.out or f"validate-{safe}-{args.design}.json")
    judge = OpenAIJudge(args.model, base_url=args.base_url, mode=args.mode, temperature=0.0, seed=7,
                        timeout=args.timeout, max_retries=1, max_concurrency=1, cache_dir=args.cache_dir)
    print(f"Validating {args.model} at {redact_url(judge.server)} with design {args.design}.", flush=True)
    try:
        found = validate_judge(judge, args.design, args.sources, out=out)
    except KeyboardInterrupt:
        return 130
    print(f"Recording: {found['recording']} ({found['answers']} answers scored, {found['unscored']} unscored). "
          f"Calls: {judge.usage.calls}, cache hits: {judge.usage.cache_hits}, tokens: "
          f"{judge.usage.prompt_tokens}+{judge.usage.completion_tokens}.", file=sys.stdout)
    return 0
