"""Recording the HaluEval designs' judge passes with a local model (needs ``make judge-server`` running).

The study itself (:mod:`ragmetrics_edu.course.halueval.study`) only replays what this writes.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Any, Callable

from ...data import halueval
from ...errors import InputError
from ...judges.batch import Outcome, run_tasks
from ...judges.errors import JudgeError
from ...judges.files import write_recording
from ...judges.openai_judge import OpenAIJudge
from ...judges.records import recordable, timings
from ...studies.halueval.designs import DESIGNS, Design, score_answer
from ...validate import identifier
from .study import forget_scores, pairs_for, recording_name

__all__ = ["record", "MAX_TOKENS"]

#: a cap on each reply: a 1.5B model sometimes repeats itself until the context is full (one claims reply ran
#: to 3,786 tokens and 10 minutes); a capped reply that is cut off fails validation and is never kept
MAX_TOKENS = 512


def record(pass_name: str, split: str, *, base_url: str, model: str, provenance: dict[str, Any], out_dir: str,
           cache_dir: str, say: Callable[[str], None] = print) -> Path:
    """Record one pass (``reanswer``, ``library`` or ``checked``) on one part with a local model.

    Every validated reply is cached in ``cache_dir``, so a cut-off run resumes; the recording is
    rewritten after every pair. ``provenance`` must hold ``server`` (name, version, build, threads) and
    ``gguf`` (file name, sha256 and header of the weights the server loaded); the date is added on writing.
    The pairs go through the one case runner (:func:`~ragmetrics_edu.judges.batch.run_tasks`), one at a
    time and in order, so the recording holds the calls in the order they were made.
    """
    pass_name = identifier("pass_name", pass_name, "reanswer, library or checked")
    designs = [d for d in DESIGNS.values() if d.recording == pass_name]
    if not designs:
        raise InputError("pass_name", "reanswer, library or checked", pass_name)
    if not isinstance(provenance, dict) or not {"server", "gguf"} <= set(provenance):
        raise InputError("provenance", "a dict with 'server' and 'gguf' (file, sha256, header)", provenance)
    judge = OpenAIJudge(model, base_url=base_url, api_key="local", mode="json_object_schema", temperature=0.0,
                        seed=7, timeout=600.0, max_retries=1, max_concurrency=1, cache_dir=cache_dir,
                        max_tokens=MAX_TOKENS)
    target = Path(out_dir) / f"{recording_name(pass_name, split)}.json"
    started = time.monotonic()
    pairs = pairs_for(designs[0], split)

    def written(index: int, outcome: Outcome) -> None:
        """After pair ``index``: report its judge errors, then rewrite the recording with every call so far."""
        pair = pairs[index]
        made, errors = outcome.result
        for error in errors:
            say(f"{pair.id}: judge error, answer left unscored: {error[:120]}")
        calls = recordable(judge.calls[:made])
        meta = {"model": model, "base_url": base_url,
                "server": provenance["server"],
                "parameters": {"temperature": 0.0, "seed": 7, "mode": judge.mode, "max_tokens": MAX_TOKENS},
                "gguf": provenance["gguf"],
                "pass": {"name": pass_name, "split": split, "pairs": len(pairs), "source": halueval.SOURCE},
                **timings(calls, started),
                "notes": "Recorded with ragmetrics_edu.course.halueval.record.record; replies validated against "
                         "each step's JSON schema (llama.cpp json_object + schema)."}
        write_recording(target, meta, calls)
        forget_scores()  # the scores of a recording just written must be read anew
        say(f"{pass_name} {split} {index + 1}/{len(pairs)} {pair.id}: {len(calls)} calls, "
            f"{time.monotonic() - started:.0f} s")

    run_tasks([partial(_judge_pair, designs[0], judge, pair) for pair in pairs], judge, max_concurrency=1,
              on_outcome=written, desc=f"{pass_name} {split}", unit="pair")
    return target


def _judge_pair(design: Design, judge: OpenAIJudge, pair: halueval.HaluPair) -> tuple[int, list[str]]:
    """Score both answers of ``pair`` with the live judge (a task of the one runner).

    Returns how many call records the judge holds afterwards (the calls up to this pair, even if the
    next pair has begun when the recording is written) and the text of each judge error: an answer
    the judge gave no usable reply for is kept out of the recording, and replay scores it NaN."""
    errors = []
    for answer in (pair.right_answer, pair.hallucinated_answer):
        try:
            score_answer(design, judge, pair, answer)
        except JudgeError as exc:
            errors.append(str(exc))
    return len(judge.calls), errors
