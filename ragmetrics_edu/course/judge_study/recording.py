"""Record the judge study's passes with a real local model (``ragmetrics-edu record-judge-study``).

Run it against a running ``make judge-server``; every validated reply is cached on disk, so an
interrupted run resumes where it stopped. Each pass is written as a recording that names the
model, the GGUF file's sha256 and header, the server and its version, the settings and the
date, and is rewritten after every case, so a cut-off run keeps what it paid for.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...evaluation.judge_identity import local_judge_identity
from ...judges.files import write_recording
from ...judges.openai_judge import OpenAIJudge
from ...judges.records import recordable, tally, timings
from ...studies.judge_study.passes import PASSES
from .passes import run_pass

__all__ = ["record_passes", "add_parser"]


def record_passes(names: list[str], *, base_url: str, model: str, gguf: str, out_dir: str, cache_dir: str,
                  threads: int = 2, timeout: float = 600.0) -> None:
    """Record each named pass; print one line per row and the machine time per pass."""
    server, weights = local_judge_identity(gguf, threads)
    for name in names:
        spec = PASSES[name]
        judge = OpenAIJudge(model, base_url=base_url, api_key="local", mode="json_object_schema",
                            temperature=spec.temperature, seed=spec.seed, timeout=timeout, max_retries=1,
                            max_concurrency=1, cache_dir=cache_dir)
        target = Path(out_dir) / f"{name}.json"
        started = time.monotonic()

        def save(row: dict[str, Any] | None = None, judge: Any = judge, spec: Any = spec, target: Path = target,
                 started: float = started) -> None:
            if row is not None:
                state = "ERROR " + str(row["error"])[:80] if row["error"] else f"score {row['score']}"
                print(f"{spec.name} {row['case']} {row['metric']} {row['pipeline'] or ''} calls={row['calls']} "
                      f"{row['latency_s']:.1f}s {state}", flush=True)
            calls = recordable(judge.calls)
            meta = {"model": model, "server": server, "base_url": base_url,
                    "parameters": {"temperature": spec.temperature, "seed": spec.seed, "mode": judge.mode,
                                   "max_tokens": None},
                    "gguf": weights,
                    "pass": {"name": spec.name, "what": spec.what, "cases": spec.cases, "metrics": list(spec.metrics),
                             "mode": spec.mode, "pipelines": list(spec.pipelines), "rotate": spec.rotate,
                             "undelimited": spec.undelimited},
                    **timings(calls, started),
                    "notes": "Recorded with ragmetrics-edu record-judge-study; replies validated against each "
                             "step's JSON schema (llama.cpp json_object + schema)."}
            write_recording(target, meta, calls)

        run_pass(judge, spec, on_row=save)
        save()
        print(f"== {name}: {tally(judge.calls).calls} calls, {time.monotonic() - started:.0f} s wall", flush=True)


def add_parser(sub: Any) -> None:
    """The ``record-judge-study`` subcommand (``sub``: what argparse's ``add_subparsers()`` returns)."""
    if not callable(getattr(sub, "add_parser", None)):
        raise InputError("sub", "argparse subparsers (parser.add_subparsers())", sub)
    parser = sub.add_parser("record-judge-study", help="record the judge study's passes with a local model")
    parser.add_argument("passes", nargs="+", help="pass names (see ragmetrics_edu.course.judge_study.passes.PASSES)")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True, help="the model's name, written into the recording")
    parser.add_argument("--gguf", required=True, help="the GGUF file the server loaded (hashed into the recording)")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--cache-dir", required=True)
    parser.add_argument("--threads", type=int, default=2,
                        help="the CPU threads the server was started with (written into the recording)")


def main(args: argparse.Namespace) -> int:
    unknown = [n for n in args.passes if n not in PASSES]
    if unknown:
        print(f"unknown pass {unknown[0]!r}; choose from: {', '.join(PASSES)}", file=sys.stderr)
        return 2
    record_passes(args.passes, base_url=args.base_url, model=args.model, gguf=args.gguf, out_dir=args.out_dir,
                  cache_dir=args.cache_dir, threads=args.threads)
    return 0
