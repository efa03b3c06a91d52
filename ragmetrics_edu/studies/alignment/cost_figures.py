"""What lesson 15's designs cost, counted from the recordings the log holds: tokens (prompt and reply) and seconds
an answer, beside what each design ranks.

The tokens compare designs; the seconds were recorded on different days, under whatever else ran. A call several
answers share (G-Eval's evaluation steps) is counted once, with the answer that made it (``log.add_timings``).
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from ...agreement import auc_difference, roc_auc
from ...errors import InputError
from .log import checked_log
from .protocol import BASELINE, EXPLORED, LEVEL, RESAMPLES, SEED

__all__ = ["cost_comparison", "explored"]


def _median(values: list[float]) -> float:
    """The median of the values that are not NaN (NaN with none)."""
    kept = [v for v in values if not math.isnan(v)]
    return statistics.median(kept) if kept else math.nan


def cost_comparison(log: Any) -> dict[str, Any]:
    """Recorded seconds and tokens per answer (mean and median) of the support design and of G-Eval on the dev
    answers both were recorded on."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    secs, toks = part["seconds"], part.get("tokens", {})
    if "support" not in secs or "g_eval" not in secs or "support" not in toks or "g_eval" not in toks:
        raise InputError("log", "a log holding the support and the G-Eval recordings' seconds and tokens", sorted(secs))
    both = [k for k, (a, b) in enumerate(zip(secs["support"], secs["g_eval"], strict=True))
            if not math.isnan(a) and not math.isnan(b)]
    out: dict[str, Any] = {"answers": len(both), "sources": len({part["items"][k]["group"] for k in both})}
    for name in ("support", "g_eval"):
        kept = [secs[name][k] for k in both]
        out[f"{name}_seconds"], out[f"{name}_median"] = sum(kept) / max(len(both), 1), _median(kept)
    for name in ("support", "g_eval"):
        kept = [toks[name][k] for k in both]
        out[f"{name}_tokens"], out[f"{name}_tokens_median"] = sum(kept) / max(len(both), 1), _median(kept)
    return out


def _lesson14_scores(log14: Any, design: str, ids: list[str]) -> list[float] | None:
    """Lesson 14's recorded scores of ``design`` for these RAGTruth dev answers (None: not all of them scored)."""
    part = log14.get("parts", {}).get("ragtruth-dev-all") if isinstance(log14, dict) else None
    if not isinstance(part, dict):
        raise InputError("log14", "lesson 14's log (course.against_people.study.load_log())", type(log14).__name__)
    by_id = {row["id"]: v for row, v in zip(part["items"], part["scores"].get(design, []), strict=False)}
    found = [by_id.get(i) for i in ids]
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in found):
        return None
    return [float(v) for v in found if v is not None]


def explored(log: Any, log14: Any) -> dict[str, dict[str, Any]]:
    """Each design explored after the rule was written (:data:`~.protocol.EXPLORED`), on the dev answers it was
    recorded on: its seconds, tokens and AUC an answer beside the one-request-a-sentence design's, G-Eval's (its
    scores from lesson 14's log, ``log14``) and word overlap's on the same answers, and its paired difference from
    word overlap (no interval under 10 sources). Empty when none was recorded."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    secs, scores, toks = part["seconds"], part["scores"], part.get("tokens", {})
    out: dict[str, dict[str, Any]] = {}
    for pass_name, (score_name, what) in EXPLORED.items():
        if any(n not in secs or n not in toks for n in (pass_name, "support", "g_eval")):
            continue
        keep = [k for k in range(len(part["items"]))
                if not any(math.isnan(secs[n][k]) for n in (pass_name, "support", "g_eval"))]
        if not keep:
            continue
        failed = [part["items"][k]["failed"] for k in keep]
        groups = [part["items"][k]["group"] for k in keep]
        row: dict[str, Any] = {"what": what, "answers": len(keep), "sources": len(set(groups)),
                               "hallucinated": sum(failed)}
        both = len(set(failed)) == 2
        for name, seconds, score in ((pass_name, pass_name, score_name), ("support", "support", "support_min"),
                                     ("g_eval", "g_eval", None), (BASELINE, None, BASELINE)):
            values = [secs[seconds][k] for k in keep] if seconds else [0.0] * len(keep)
            counted = [toks[seconds][k] for k in keep] if seconds else [0.0] * len(keep)
            row[name] = {"seconds": sum(values) / len(keep), "median_seconds": _median(values),
                         "tokens": sum(counted) / len(keep)}
            if score is not None and both:
                row[name]["auc"] = roc_auc(failed, [scores[score][k] for k in keep])
        g_eval = _lesson14_scores(log14, "g_eval", [part["items"][k]["id"] for k in keep])
        if g_eval is not None and both:
            row["g_eval"]["auc"] = roc_auc(failed, g_eval)   # G-Eval's scores are lesson 14's, on these same answers
        if both:
            against = auc_difference(failed, [scores[score_name][k] for k in keep], [scores[BASELINE][k] for k in keep],
                                     groups=groups, names=(score_name, BASELINE), level=LEVEL, n_resamples=RESAMPLES,
                                     seed=SEED)
            row["vs_overlap"], row["vs_overlap_ci"] = against.score, against.ci
        out[pass_name] = row
    return out
