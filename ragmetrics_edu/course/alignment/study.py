"""Lesson 15's log: the recordings of its designs replayed once (``data/alignment_log.json``, rebuilt by
:func:`build_log`; a test checks that the shipped log is what the recordings replay), so the notebook reads figures
without replaying thousands of requests. The figures are computed by :mod:`ragmetrics_edu.studies.alignment`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ... import data
from ...errors import InputError
from ...studies.alignment import log as parts
from ...studies.alignment.calibration import platt_scaled
from ...studies.alignment.choice import candidate_figures
from ...studies.alignment.designs import ALIGNMENT_DESIGNS
from ...studies.alignment.protocol import CANDIDATES, HALUEVAL_DEV_PAIRS, RULE
from ...studies.alignment.stability import SOURCES, stability_figures
from ..against_people.items import Item, items
from .recordings import replayed_pass

__all__ = ["LOG_NAME", "LAYOUT_BENCHMARK", "build_log", "load_log", "layout_benchmark", "stability_items"]

LOG_NAME = "alignment_log.json"
#: the prompt-layout benchmark's result (benchmarks/bench_layouts.py against the local judge), when it was run
LAYOUT_BENCHMARK = "layout_benchmark.json"


def stability_items() -> list[Item]:
    """The answers the stability pass asks about: every answer of the first ``SOURCES`` dev sources."""
    return items("ragtruth", "dev", groups=SOURCES)


def _part(dataset: str, split: str, groups: int | None = None) -> dict[str, Any]:
    """One part of the log: every recorded pass of lesson 15's designs replayed on these answers."""
    chosen = items(dataset, split, groups=groups)
    part = parts.new_part(chosen)
    for pass_name in sorted({str(d.recording) for d in ALIGNMENT_DESIGNS.values()}):
        found = replayed_pass(pass_name, chosen, dataset, split)
        if found is not None and any(r is not None for r in found):
            parts.add_pass(part, pass_name, found, chosen, {n: d.score for n, d in ALIGNMENT_DESIGNS.items()
                                                            if d.recording == pass_name})
    return part


def build_log() -> dict[str, Any]:
    """Replay every recording of lesson 15's designs on RAGTruth dev (and HaluEval dev) into the log."""
    dev = _part("ragtruth", "dev")
    fitted = parts.add_combinations(dev)
    parts.add_baseline_cv(dev)
    g_eval = replayed_pass("g_eval", items("ragtruth", "dev"), "ragtruth", "dev")
    if g_eval is not None:
        parts.add_timings(dev, "g_eval", g_eval)
    found = {"ragtruth-dev": dev}
    halu = _part("halueval", "dev", HALUEVAL_DEV_PAIRS)
    if len(halu["scores"]) > 1:
        parts.add_transferred(fitted, halu)
        found["halueval-dev"] = halu
    log: dict[str, Any] = {"rule": RULE, "candidates": CANDIDATES, "parts": found}
    log["figures"] = json.loads(json.dumps(candidate_figures(log, fresh=True)))
    log["calibration"] = platt_scaled(log)
    chosen = stability_items()
    sampled = replayed_pass("stability", chosen, "ragtruth", "dev")
    if sampled is not None:  # the same sentences asked several times, sampled, beside their temperature-0 p(yes)
        zero = replayed_pass("support", chosen, "ragtruth", "dev") or [None] * len(chosen)
        threshold = (log["figures"].get("support_min") or {}).get("threshold")
        log.update(stability_figures(sampled, zero, [i.hallucinated for i in chosen], [i.model for i in chosen],
                                     threshold))
    return log


@lru_cache(maxsize=1)
def load_log() -> dict[str, Any]:
    """The shipped log."""
    return json.loads(data.path(LOG_NAME).read_text(encoding="utf-8"))


def layout_benchmark() -> dict[str, Any] | None:
    """What benchmarks/bench_layouts.py measured (seconds per answer, prompt tokens sent and evaluated per layout),
    or None when no result is shipped."""
    try:
        path = data.path(LAYOUT_BENCHMARK)
    except InputError:
        return None
    found = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(found, dict) or not isinstance(found.get("layouts"), dict):
        raise InputError(LAYOUT_BENCHMARK, "the JSON benchmarks/bench_layouts.py writes", found)
    return found
