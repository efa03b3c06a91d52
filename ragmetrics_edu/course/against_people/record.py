"""Recording one pass of the judges-against-people study with a local model (needs ``make judge-server``).

    python -m ragmetrics_edu.course.against_people.record g_eval ragtruth dev --groups 20 \\
        --base-url http://127.0.0.1:8080/v1 --gguf MODEL.gguf --cache-dir .judge-cache

Every validated reply is cached, so a cut-off run resumes where it stopped; the recording is rewritten
after every answer, and names the model, the sha256 and header of its weights, the server and the date.
An answer the existing recording already holds is taken from it, not asked again: a pass cut off in one
session (its cache gone) resumes from its shipped recording in the next.
The study (:mod:`.study`) only replays what this writes.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from ...evaluation.judge_identity import local_judge_identity
from ...judges.errors import JudgeError
from ...judges.files import write_recording
from ...judges.openai_judge import OpenAIJudge
from ...judges.records import recordable, timings
from ...judges.replay import ReplayJudge
from ...studies.against_people.designs import PASSES
from ...studies.alignment.designs import ALIGNMENT_PASSES, ask_any_pass
from .items import DATASETS, items
from .study import MODEL, recording_name

__all__ = ["record", "recording_name", "MODEL", "MAX_TOKENS"]


#: a cap on each reply: a claims list can run on until the context is full; a cut-off reply fails validation
MAX_TOKENS = 512


def record(pass_name: str, dataset: str, split: str, *, groups: int | None, base_url: str, gguf: str,
           out_dir: str, cache_dir: str, threads: int = 2) -> Path:
    """Record pass ``pass_name`` on the first ``groups`` sources (pairs) of a data set's part."""
    server, weights = local_judge_identity(gguf, threads)
    judge = OpenAIJudge(MODEL, base_url=base_url, api_key="local", mode="json_object_schema", temperature=0.0, seed=7,
                        timeout=900.0, max_retries=1, max_concurrency=1, cache_dir=cache_dir, max_tokens=MAX_TOKENS)
    chosen = items(dataset, split, groups=groups)
    target = Path(out_dir) / f"{recording_name(pass_name, dataset, split)}.json"
    started = time.monotonic()
    failed: list[str] = []
    earlier = ReplayJudge(target) if target.exists() else None
    kept: list[Any] = []  # the calls of answers taken from the earlier recording

    for n, item in enumerate(chosen, start=1):
        if earlier is not None:
            try:
                kept.extend(ask_any_pass(pass_name, earlier, item).calls)
                continue
            except JudgeError:
                pass  # not in the earlier recording: ask the server
        try:
            ask_any_pass(pass_name, judge, item)
        except JudgeError as exc:  # kept out of the recording; the study scores this answer NaN and counts it
            failed.append(item.id)
            print(f"{item.id}: judge error, left unscored: {str(exc)[:120]}", flush=True)
        calls = recordable([*kept, *judge.calls], ("api", "cache", "replay"))
        meta: dict[str, Any] = {
            "model": MODEL, "base_url": base_url, "server": server,
            "parameters": {"temperature": 0.0, "seed": 7, "mode": judge.mode, "max_tokens": MAX_TOKENS,
                           "sampled_seed": "judges.openai_judge.sample_seed(seed, request key): each sampled "
                                           "request (a vote) draws its own seed"},
            "gguf": weights,
            "pass": {"name": pass_name, "dataset": dataset, "split": split, "groups": groups,
                     "answers": len(chosen), "answers_done": n, "failed": failed},
            **timings(calls, started),
            "notes": "Recorded with ragmetrics_edu.course.against_people.record; replies validated against each "
                     "step's JSON schema (llama.cpp json_object + schema)."}
        write_recording(target, meta, calls)
        print(f"{pass_name} {dataset} {split} {n}/{len(chosen)} {item.id}: {len(calls)} calls, "
              f"{time.monotonic() - started:.0f} s", flush=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pass_name", choices=sorted({*PASSES, *ALIGNMENT_PASSES}))
    parser.add_argument("dataset", choices=DATASETS)
    parser.add_argument("split", choices=("dev", "test"))
    parser.add_argument("--groups", type=int, default=None, help="only the first n sources (pairs)")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--gguf", required=True, help="the GGUF file the server loaded (hashed into the recording)")
    parser.add_argument("--out-dir", default=str(Path(__file__).resolve().parents[2] / "data" / "recordings"
                                                 / "against_people"))
    parser.add_argument("--cache-dir", required=True)
    args = parser.parse_args(argv)
    record(args.pass_name, args.dataset, args.split, groups=args.groups, base_url=args.base_url, gguf=args.gguf,
           out_dir=args.out_dir, cache_dir=args.cache_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
