"""What a table from :func:`~ragmetrics_edu.evaluate` adds up to, and the table written flat to a file.

:func:`summarize` gives each metric's mean with its percentile bootstrap interval
(:func:`ragmetrics_edu.stats.bootstrap_ci`), how many cases it scored, how many it could not score
(the metric failed: its error is in the row) and how many it scored as undefined (NaN without an
error, e.g. Ragas' faithfulness of an answer with no statements). :func:`flat_rows` and
:func:`write_table` give one row per case with plain cells (numbers and text, lists as JSON), for
a spreadsheet or a later ``ragmetrics-edu stats``.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import stats, validate
from ..errors import InputError
from ..metrics.specs import SPECS
from ..results import fmt
from .case_results import CaseResults

__all__ = ["MetricSummary", "summarize", "summary_text", "flat_rows", "write_table", "scored_metrics", "TABLE_SUFFIXES"]

#: The call columns evaluate() adds when a metric asks a judge.
CALL_COLUMNS = ("calls", "repairs", "cache_hits", "prompt_tokens", "completion_tokens")
#: The files write_table() writes, by suffix.
TABLE_SUFFIXES = (".csv", ".jsonl")


@dataclass(frozen=True)
class MetricSummary:
    """One metric over a table: ``mean`` of the ``scored`` cases with its ``interval`` (a StatResult; None when
    nothing was scored), ``failed`` (no score: the metric raised) and ``undefined`` (scored NaN)."""

    metric: str
    scored: int
    failed: int
    undefined: int
    mean: float | None
    interval: Any
    higher_is_better: bool = True
    #: how many resamples the interval drew and why (:func:`ragmetrics_edu.stats.adapted_resamples`)
    resampling: str = ""

    @property
    def ci(self) -> tuple[float, float] | None:
        """The interval, or None: nothing scored, or one case (every resample is that case: no spread to see)."""
        return None if self.interval is None or self.scored < 2 else self.interval.ci

    def interval_text(self) -> str:
        """'95% interval [low, high]', or why there is none."""
        if self.ci is None:
            return "no interval (one case scored)" if self.scored == 1 else "no interval"
        return f"{fmt(100 * self.level)}% interval [{fmt(self.ci[0])}, {fmt(self.ci[1])}]"

    @property
    def level(self) -> float:
        return 0.95 if self.interval is None else self.interval.level

    def line(self) -> str:
        """One line: the mean, its interval and the counts."""
        if self.mean is None:
            shown = "no case scored"
        else:
            shown = f"mean {fmt(self.mean):<6} {self.interval_text()}"
        counts = f"{self.scored} scored, {self.failed} failed" + (f", {self.undefined} undefined" if self.undefined else "")
        return f"{self.metric:<28} {shown:<46} {counts}"


def scored_metrics(frame: Any) -> list[str]:
    """The metrics a table from evaluate() holds (``frame.attrs["metrics"]``), or an InputError."""
    attrs = getattr(frame, "attrs", None)
    names = attrs.get("metrics") if isinstance(attrs, dict) else None
    columns = getattr(frame, "columns", ())
    if not isinstance(names, list) or not all(isinstance(n, str) and n in columns for n in names):
        raise InputError("frame", "a table returned by evaluate() (its attrs name the metrics it scored)", frame)
    return names


def _results(frame: Any) -> Any:
    results = frame.attrs.get("results")
    if not isinstance(results, (list, CaseResults)) or len(results) != len(frame):
        raise InputError("frame", "a table returned by evaluate() (one dict of results per row in attrs)", frame)
    return results


def scored_mask(frame: Any, metric: str) -> list[bool]:
    """For each row of an evaluate() table, whether ``metric`` scored it (False: it failed), without building
    any step table."""
    results = _results(frame)
    if isinstance(results, CaseResults):
        return [results.has(i, metric) for i in range(len(results))]
    return [metric in found for found in results]


def summarize(frame: Any, *, level: float = 0.95, n_resamples: int = 2000, seed: int | None = 0) -> list[MetricSummary]:
    """Each metric's mean, bootstrap interval and counts (see the module), in the table's metric order."""
    names = scored_metrics(frame)
    summaries = []
    for name in names:
        scores, failed, undefined = [], 0, 0
        for value, found in zip(frame[name], scored_mask(frame, name), strict=True):
            if not found:
                failed += 1
            elif value is None or math.isnan(float(value)):
                undefined += 1
            else:
                scores.append(float(value))
        interval, how = None, ""
        if scores:  # a large table gets fewer resamples, never a refusal (the summary says how many)
            count, how = stats.adapted_resamples(len(scores), n_resamples)
            interval = stats.bootstrap_ci(scores, level=level, n_resamples=count, seed=seed)
        summaries.append(MetricSummary(name, len(scores), failed, undefined,
                                       None if interval is None else interval.score, interval,
                                       SPECS[name].higher_is_better, how))
    return summaries


def summary_text(summaries: list[MetricSummary]) -> str:
    """The summaries as lines of text, one a metric, under a header saying how the interval was made."""
    items = validate.as_list("summaries", summaries, "the list summarize() returns")
    if not items or not all(isinstance(s, MetricSummary) for s in items):
        raise InputError("summaries", "the list summarize() returns", summaries)
    made = next((s for s in items if s.interval is not None), None)
    how = "" if made is None else (f" (interval: percentile bootstrap over cases, {made.resampling or 'resampled'}, "
                                   f"seed {made.interval.values['seed']})")
    lines = [f"Summary{how}:"]
    for s in items:
        lines.append("  " + s.line())
        if made is not None and s.resampling and s.resampling != made.resampling:
            lines.append(f"    ({s.metric}'s interval: {s.resampling})")
    return "\n".join(lines)


def _cell(value: Any) -> Any:
    """A plain cell: numbers and text as they are, NaN as empty, lists and dicts as JSON text."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        value = value.item()  # a numpy number
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


def flat_rows(frame: Any) -> list[dict[str, Any]]:
    """One dict per case: case, id, question, answer, each metric's score, design and verdicts, the calls, the error."""
    names = scored_metrics(frame)
    columns = ["case", *(["id"] if "id" in frame.columns else []), "question", "answer"]
    for name in names:
        columns += [c for c in (name, f"{name}_design", f"{name}_verdicts") if c in frame.columns]
    columns += [c for c in (*CALL_COLUMNS, "error") if c in frame.columns]
    return [{c: _cell(row[c]) for c in columns} for row in frame[columns].to_dict(orient="records")]


def write_table(frame: Any, path: Any) -> Path:
    """Write :func:`flat_rows` to ``path``: CSV (``.csv``) or JSON Lines (``.jsonl``); returns the path."""
    target = validate.path("out", path, exists=False, expected="a file path ending in .csv or .jsonl")
    if target.suffix.lower() not in TABLE_SUFFIXES:
        raise InputError("out", "a file path ending in .csv or .jsonl", str(path))
    rows = flat_rows(frame)
    try:  # written row by row: a large table is not held again as one text
        with target.open("w", encoding="utf-8", newline="") as file:
            if target.suffix.lower() == ".jsonl":
                for r in rows:
                    file.write(json.dumps(r, ensure_ascii=False, default=str) + "\n")
            else:
                writer = csv.DictWriter(file, fieldnames=list(rows[0]) if rows else ["case"], lineterminator="\n")
                writer.writeheader()
                writer.writerows(rows)
    except OSError as exc:
        raise InputError("out", "a file that can be written", str(path), hint=str(exc.strerror or exc)) from None
    return target
