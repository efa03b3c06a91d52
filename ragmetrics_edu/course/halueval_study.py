"""Choosing a faithfulness judge by the rules the course teaches, on public data with known answers.

The data: the shipped HaluEval QA rows (:mod:`ragmetrics_edu.data.halueval`), each a *pair*
(a right and a hallucinated answer to one question over one passage), split once by row number
into **dev** (choose here) and **test** (score once, after the choice is frozen).

The measure: **pairwise accuracy**, the share of pairs whose right answer scores above the
hallucinated one (a tie counts half; 0.5 is chance). Every interval resamples pairs, and every
"A beats B" is a paired difference on the same pairs with its interval and a sign test.

The designs (:data:`DESIGNS`) are the configurations tried on dev; the choice log
(``data/halueval_choice_log.json``) records each one's dev figure, the one chosen and why, and
then the single test figure. Recordings of the real model live in ``data/recordings/halueval/``;
:func:`record` makes them against a running ``make judge-server`` (cached, resumable).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..baselines import answer_overlap
from ..data import halueval, path
from ..errors import InputError

__all__ = ["Design", "DESIGNS", "recording_name", "pair_scores", "pairwise", "choice_log", "record", "design_calls"]


@dataclass(frozen=True)
class Design:
    """One configuration tried on dev: which pipeline, with which options, recorded as which pass."""

    name: str
    what: str
    pipeline: str            # "word_overlap", "reanswer", "library", "checked"
    options: tuple[tuple[str, Any], ...] = ()
    recording: str | None = None   # the recorded pass it replays (several designs share one)
    dev_limit: int | None = None   # expensive designs are tried on the first n dev pairs only


#: every configuration tried on dev, in the order they were tried
DESIGNS: dict[str, Design] = {d.name: d for d in (
    Design("word_overlap", "share of the answer's content words found in the passage (no model)", "word_overlap"),
    Design("library", "judges.faithfulness: claims from the answer, then yes/no/idk per claim (2 calls)",
           "library", (), "library", 40),
    Design("checked_defaults", "judges.faithfulness_checked with its defaults: claims from question and answer, "
           "quoted verdicts, contradiction asked apart (2-3 calls)", "checked", (), "checked", 24),
    Design("reanswer_recall", "the judge answers from the passage; share of its words the answer contains",
           "reanswer", (("compare", "recall"), ("grounding", False)), "reanswer"),
    Design("reanswer_precision", "the judge answers from the passage; share of the answer's words in its answer",
           "reanswer", (("compare", "precision"), ("grounding", False)), "reanswer"),
    Design("reanswer_f1", "the judge answers from the passage; F1 of the two word sets",
           "reanswer", (("compare", "f1"), ("grounding", False)), "reanswer"),
    Design("reanswer_recall_grounded", "mean of re-answer recall and word overlap with the passage",
           "reanswer", (("compare", "recall"), ("grounding", True)), "reanswer"),
    Design("reanswer_precision_grounded", "mean of re-answer precision and word overlap with the passage",
           "reanswer", (("compare", "precision"), ("grounding", True)), "reanswer"),
    Design("reanswer_f1_grounded", "mean of re-answer F1 and word overlap with the passage",
           "reanswer", (("compare", "f1"), ("grounding", True)), "reanswer"),
)}


def recording_name(pass_name: str, split: str) -> str:
    """The shipped recording of one pass on one part, e.g. ``halueval/reanswer_dev``."""
    return f"halueval/{pass_name}_{split}"


def _design(name: Any) -> Design:
    if name not in DESIGNS:
        raise InputError("design", "one of " + ", ".join(DESIGNS), name)
    return DESIGNS[name]


def _score_answer(design: Design, judge: Any, pair: halueval.HaluPair, answer: str) -> float:
    from .. import judges

    context = [pair.knowledge]
    if design.pipeline == "word_overlap":
        return answer_overlap(answer, context)
    options = dict(design.options)
    if design.pipeline == "reanswer":
        return judges.faithfulness_reanswer(judge, answer, context, question=pair.question, **options).score
    if design.pipeline == "library":
        return judges.faithfulness(judge, answer, context, question=pair.question, variant="ragas").score
    from ..judges.checked import faithfulness_checked

    return faithfulness_checked(judge, answer, context, question=pair.question, variant="ragas").score


def _pairs_for(design: Design, split: str) -> list[halueval.HaluPair]:
    limit = design.dev_limit if split == "dev" else None
    return halueval.pairs(split, limit=limit)


def pair_scores(design: str, split: str) -> list[dict[str, Any]]:
    """One row per pair: the design's score of the right and of the hallucinated answer, from the recording.

    A NaN score (e.g. no claims under Ragas' rule) is kept as NaN; :func:`pairwise` counts such a pair as a tie."""
    chosen = _design(design)
    if split not in halueval.SPLITS:
        raise InputError("split", "'dev' or 'test'", split)
    judge = None
    if chosen.recording is not None:
        from ..judges import ReplayJudge

        judge = ReplayJudge(path(f"recordings/{recording_name(chosen.recording, split)}.json"))
    rows = []
    for pair in _pairs_for(chosen, split):
        right = _score_answer(chosen, judge, pair, pair.right_answer)
        wrong = _score_answer(chosen, judge, pair, pair.hallucinated_answer)
        rows.append({"pair": pair.id, "right": right, "hallucinated": wrong, "outcome": _outcome(right, wrong)})
    return rows


def _outcome(right: float, wrong: float) -> float:
    """1 when the right answer scores higher, 0 when lower, 0.5 for a tie (or a NaN on either side)."""
    if math.isnan(right) or math.isnan(wrong) or right == wrong:
        return 0.5
    return 1.0 if right > wrong else 0.0


def pairwise(rows: list[dict[str, Any]]) -> float:
    """Pairwise accuracy: the mean outcome over pairs (0.5 is chance)."""
    if not rows:
        raise InputError("rows", "at least one scored pair", rows)
    return sum(r["outcome"] for r in rows) / len(rows)


def design_calls(design: str, split: str) -> dict[str, float]:
    """Calls and tokens the design's recording holds, per answer scored (0 for word overlap)."""
    chosen = _design(design)
    n_answers = 2 * len(_pairs_for(chosen, split))
    if chosen.recording is None:
        return {"calls_per_answer": 0.0, "tokens_per_answer": 0.0, "seconds_per_answer": 0.0}
    data = json.loads(path(f"recordings/{recording_name(chosen.recording, split)}.json").read_text("utf-8"))
    replies = data["replies"]
    tokens = sum((r.get("prompt_tokens") or 0) + (r.get("completion_tokens") or 0) for r in replies)
    seconds = sum(r.get("latency_s") or 0.0 for r in replies)
    return {"calls_per_answer": len(replies) / n_answers, "tokens_per_answer": tokens / n_answers,
            "seconds_per_answer": seconds / n_answers}


def choice_log() -> dict[str, Any]:
    """The written choice log: every design's dev figure, the choice and why, then the one test run."""
    return json.loads(path("halueval_choice_log.json").read_text("utf-8"))


# -- recording (needs a running local judge server) ------------------------------------------------
def record(pass_name: str, split: str, *, base_url: str, model: str, provenance: dict[str, Any], out_dir: str,
           cache_dir: str, say: Callable[[str], None] = print) -> Path:
    """Record one pass (``reanswer``, ``library`` or ``checked``) on one part with a local model.

    Every validated reply is cached in ``cache_dir``, so a cut-off run resumes; the recording is
    rewritten after every pair. ``provenance`` must hold ``server`` (name, version, build, threads) and
    ``gguf`` (file name, sha256 and header of the weights the server loaded); the date is added on writing.
    """
    from ..judges import OpenAIJudge
    from ..judges.files import write_recording

    designs = [d for d in DESIGNS.values() if d.recording == pass_name]
    if not designs:
        raise InputError("pass_name", "reanswer, library or checked", pass_name)
    if not isinstance(provenance, dict) or not {"server", "gguf"} <= set(provenance):
        raise InputError("provenance", "a dict with 'server' and 'gguf' (file, sha256, header)", provenance)
    judge = OpenAIJudge(model, base_url=base_url, api_key="local", mode="json_object_schema", temperature=0.0,
                        seed=7, timeout=600.0, max_retries=1, max_concurrency=1, cache_dir=cache_dir)
    target = Path(out_dir) / f"{recording_name(pass_name, split)}.json"
    started = time.monotonic()
    pairs = _pairs_for(designs[0], split)
    for i, pair in enumerate(pairs, start=1):
        for answer in (pair.right_answer, pair.hallucinated_answer):
            _score_answer(designs[0], judge, pair, answer)
        seen, calls = set(), []
        for c in judge.calls:
            if c.source in ("api", "cache") and (c.key, c.attempt) not in seen:
                seen.add((c.key, c.attempt))
                calls.append(c)
        meta = {"model": model, "base_url": base_url,
                "server": provenance["server"],
                "parameters": {"temperature": 0.0, "seed": 7, "mode": judge.mode, "max_tokens": None},
                "gguf": provenance["gguf"],
                "pass": {"name": pass_name, "split": split, "pairs": len(pairs), "source": halueval.SOURCE},
                "machine_time_s": round(sum(c.latency_s or 0.0 for c in calls), 1),
                "wall_time_s": round(time.monotonic() - started, 1),
                "notes": "Recorded with ragmetrics_edu.course.halueval_study.record; replies validated against "
                         "each step's JSON schema (llama.cpp json_object + schema)."}
        write_recording(target, meta, calls)
        say(f"{pass_name} {split} {i}/{len(pairs)} {pair.id}: {len(calls)} calls, "
            f"{time.monotonic() - started:.0f} s")
    return target
