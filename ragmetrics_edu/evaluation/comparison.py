"""Two versions scored on the same cases: the paired tests and the regression gate, per metric.

A is the accepted version, B the candidate; every difference is B − A. The rows are paired by
:func:`~ragmetrics_edu.evaluation.pairing.pair_rows` (by id, else by text, never by position). For
each metric, the pairs where both versions have a score go to :func:`ragmetrics_edu.stats.paired_bootstrap`,
:func:`~ragmetrics_edu.stats.permutation_test`, :func:`~ragmetrics_edu.stats.sign_test` and
:func:`ragmetrics_edu.regression_gate.gate`. The gate counts the judge's run-to-run noise: a metric that
asks no judge is deterministic (noise 0); for a judged one the noise must be measured
(:func:`~ragmetrics_edu.regression_gate.judge_noise` of repeat runs) and given, or the gate is not run.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Sequence

from .. import stats, validate
from ..errors import InputError
from ..metrics.specs import SPECS
from ..regression_gate import GateResult, JudgeNoise, gate
from ..results import fmt
from .datasets import field_at, read_cases
from .pairing import Pairing

__all__ = ["MetricComparison", "compare_scores", "comparison_text", "pair_table_rows", "scores_of", "summary_line"]


@dataclass(frozen=True)
class MetricComparison:
    """One metric's paired comparison: ``n`` pairs with both scores, ``missing`` the labels of pairs left out
    (a score missing on either side), the three paired tests (None with no pair) and the gate (None, with
    ``gate_note`` saying why, when the judge's noise was not given)."""

    metric: str
    n: int
    missing: list[Any] = field(default_factory=list)
    bootstrap: Any = None
    permutation: Any = None
    sign: Any = None
    gate: GateResult | None = None
    gate_note: str = ""
    #: how many resamples the bootstrap and the permutation test drew (:func:`ragmetrics_edu.stats.adapted_resamples`)
    resampling: str = ""


def scores_of(data: Any, metric: str, column: Sequence[Any] | None = None) -> list[float | None]:
    """One score per row of ``data`` (what read_cases() reads) for ``metric`` (None where missing): from ``column``
    (an evaluate() table's column) or, when None, from each row's own field of that name (a table scored elsewhere)."""
    data = read_cases(data)
    if not isinstance(metric, str) or not metric:
        raise InputError("metric", "a metric's (or score column's) name", metric)
    if column is not None:
        column = validate.as_list("column", column, f"one score per row ({len(data)})")
        if len(column) != len(data):
            raise InputError("column", f"one score per row ({len(data)})", f"{len(column)} scores")
    values = list(column) if column is not None else [case.get(metric) for case in data.cases]
    if column is None and all(v is None for v in values):
        raise InputError(f"{data.source}: {metric}", f"a column of {metric} scores (a scored table, e.g. from "
                         "`ragmetrics-edu evaluate --out`)", sorted({k for c in data.cases for k in c}),
                         hint="no row has it")
    out: list[float | None] = []
    for where, value in zip(data.where, values, strict=True):
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise InputError(field_at(where, metric), "a score (a number)", value) from None
        if value is None or isinstance(value, float) and math.isnan(value):
            out.append(None)
        elif isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
            raise InputError(field_at(where, metric), "a score (a finite number)", value)
        else:
            out.append(float(value))
    return out


def _noise(metric: str, noise: float | None) -> tuple[JudgeNoise | None, str]:
    judged = metric in SPECS and SPECS[metric].judged
    if not judged and metric in SPECS:
        return JudgeNoise(run_sd=0.0, shift_sd=0.0, source="no judge: the metric is deterministic"), ""
    if noise is None:
        return None, (f"gate not run: {metric} " + ("asks a judge" if judged else "was scored elsewhere")
                      + ", whose run-to-run noise must be measured first: score A again, pass the runs to "
                      "regression_gate.judge_noise(), and give its per-run shift sd as --noise")
    return JudgeNoise(run_sd=noise, shift_sd=noise, source="given (--noise)"), ""


def _check_scores(pairing: Any, scores_a: Any, scores_b: Any) -> None:
    """The pairing and the two score tables: metric -> a list long enough for every row the pairs name."""
    if not isinstance(pairing, Pairing):
        raise InputError("pairing", "what pair_rows() returns", pairing)
    for name, scores, side in (("scores_a", scores_a, 0), ("scores_b", scores_b, 1)):
        if not isinstance(scores, dict) or not scores or not all(isinstance(k, str) for k in scores):
            raise InputError(name, "metric -> one score (or None) per row", scores)
        needed = 1 + max((p[side] for p in pairing.pairs), default=-1)
        for metric, values in scores.items():
            if not isinstance(values, list) or len(values) < needed or not all(
                    v is None or isinstance(v, float) and math.isfinite(v) for v in values):
                raise InputError(f"{name}[{metric!r}]", f"a list of scores (floats or None), one per row "
                                 f"(at least {needed})", values)
    if set(scores_a) != set(scores_b):
        raise InputError("scores_b", "the same metrics as scores_a: " + ", ".join(scores_a), sorted(scores_b))


def compare_scores(pairing: Pairing, scores_a: dict[str, list[float | None]], scores_b: dict[str, list[float | None]],
                   *, noise: float | None = None, margin: float = 0.05, level: float = 0.95,
                   n_resamples: int = 2000, seed: int = 0) -> list[MetricComparison]:
    """Each metric of ``scores_a`` (metric -> one score per row of A; ``scores_b`` the same for B) compared over
    the pairs (see the module); ``noise``: the judge's per-run shift sd, for judged metrics."""
    _check_scores(pairing, scores_a, scores_b)
    if noise is not None:
        noise = validate.number("noise", noise, "the judge's per-run shift sd, a number >= 0", low=0.0, high=1e6)
    found = []
    for metric in scores_a:
        kept: list[tuple[Any, float, float]] = []
        left: list[tuple[Any, Any, Any]] = []
        for (i, j), label in zip(pairing.pairs, pairing.labels, strict=True):
            a, b = scores_a[metric][i], scores_b[metric][j]
            if a is None or b is None:
                left.append((label, a, b))
            else:
                kept.append((label, a, b))
        if not kept:
            found.append(MetricComparison(metric, 0, [x[0] for x in left], gate_note="no pair has both scores"))
            continue
        ids = [x[0] for x in kept]
        new, old = [x[2] for x in kept], [x[1] for x in kept]
        common: dict[str, Any] = dict(level=level, labels=("B", "A"), ids=ids)
        measured, note = _noise(metric, noise)
        count, how = stats.adapted_resamples(len(kept), n_resamples)  # many pairs: fewer resamples, said so
        found.append(MetricComparison(
            metric, len(kept), [x[0] for x in left],
            stats.paired_bootstrap(new, old, n_resamples=count, seed=seed, **common),
            stats.permutation_test(new, old, n_resamples=count, seed=seed, **common),
            stats.sign_test(new, old, **common),
            None if measured is None else gate(new, old, noise=measured, margin=margin, metric=metric, ids=ids,
                                               level=level, n_resamples=count, seed=seed),
            note, how))
    return found


def _stat_lines(result: Any) -> list[str]:
    lines = [f"  {result.headline()}"] + [f"    {k}. {line}" for k, line in enumerate(result.narrative, 1)]
    return lines + [f"    note: {n}" for n in result.notes]


def comparison_text(comparisons: Sequence[MetricComparison], pairing: Pairing, names: tuple[str, str] = ("A", "B")) -> str:
    """The pairing, then per metric each test's headline and steps and the gate's explanation, as text."""
    if not isinstance(pairing, Pairing):
        raise InputError("pairing", "what pair_rows() returns", pairing)
    if not (isinstance(names, tuple) and len(names) == 2 and all(isinstance(n, str) and n for n in names)):
        raise InputError("names", "the two files' names, e.g. ('v1.jsonl', 'v2.jsonl')", names)
    lines = [f"A = {names[0]} (accepted), B = {names[1]} (candidate); every difference is B − A.",
             pairing.describe(("A", "B"))]
    for c in validate.as_list("comparisons", comparisons, "the list compare_scores() returns"):
        if not isinstance(c, MetricComparison):
            raise InputError("comparisons", "the list compare_scores() returns", c)
        lines += ["", f"== {c.metric}: {c.n} paired cases" + (f" ({len(c.missing)} pairs left out: a score is "
                                                                 "missing on one side)" if c.missing else "") + " =="]
        if c.resampling:
            lines.append(f"  resampling: {c.resampling}")
        for result in (c.bootstrap, c.permutation, c.sign):
            if result is not None:
                lines += _stat_lines(result)
        if c.gate is not None:
            lines += ["  regression gate (A accepted, B candidate):"] + ["    " + x for x in c.gate.explain().splitlines()]
        elif c.gate_note:
            lines.append(f"  {c.gate_note}")
    return "\n".join(lines)


def pair_table_rows(pairing: Pairing, scores_a: dict[str, list[float | None]],
                    scores_b: dict[str, list[float | None]]) -> list[dict[str, Any]]:
    """One row per pair: its id (or question), and per metric the score in A, in B and the difference B − A."""
    _check_scores(pairing, scores_a, scores_b)
    name = "id" if pairing.key == "id" else "question"
    rows = []
    for (i, j), label in zip(pairing.pairs, pairing.labels, strict=True):
        row: dict[str, Any] = {name: label}
        for metric in scores_a:
            a, b = scores_a[metric][i], scores_b[metric][j]
            row.update({f"{metric}_A": a, f"{metric}_B": b,
                        f"{metric}_difference": None if a is None or b is None else b - a})
        rows.append(row)
    return rows


def summary_line(c: MetricComparison) -> str:
    """One line per metric: the mean difference, its interval, p and the gate's verdict."""
    if not isinstance(c, MetricComparison):
        raise InputError("c", "one of the comparisons compare_scores() returns", c)
    if c.bootstrap is None:
        return f"{c.metric}: no pair to compare"
    low, high = c.bootstrap.ci
    verdict = c.gate.verdict if c.gate is not None else "gate not run"
    return (f"{c.metric}: mean difference B − A {c.bootstrap.score:+.4f} [{fmt(low)}, {fmt(high)}], permutation "
            f"p = {fmt(c.permutation.p_value)}, sign test p = {fmt(c.sign.p_value)}; gate: {verdict}")
