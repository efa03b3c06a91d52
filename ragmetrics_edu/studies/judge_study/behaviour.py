"""How a judge behaves beyond agreement: repeat-run flips, position bias, planted instructions, cost.

Each function compares rows of :mod:`ragmetrics_edu.studies.judge_study.runs` item by item (same case, metric
and item position) and returns plain numbers with the item-level table they came from:

* :func:`flip_rate` - over repeated runs, the share of items whose verdict is not the same in every run;
* :func:`position_effect` - the share of node verdicts that change when only the nodes' order changes;
* :func:`injection_effect` - the share of verdicts that moved to what a planted instruction demanded;
* :func:`run_means` - each repeat run's mean score on the cases scored in every run, and their spread;
* :func:`cost` - calls and tokens per case and metric, from the rows' call records;
* :func:`malformed` - rows, rows that needed a repair request, rows with no usable reply.

:func:`overlap_rows` gives the word-overlap baseline's verdicts as rows of the same shape, so each
measure can be put beside what the baseline does on the same cases; :func:`once` keeps each distinct
item once (both cases of a pair share their nodes).
"""

from __future__ import annotations

import math
import statistics
from typing import Any, Sequence

from ... import baselines
from ...errors import InputError
from ...metrics.registry import MetricTable
from ...validate import as_list, flag, integer
from .cases import Case, check_cases, check_metric, on_nodes, unique_items
from .runs import INJECTED_AT, rotated, run_rows

__all__ = ["flip_rate", "position_effect", "injection_effect", "cost", "DEMANDED", "item_verdicts", "once",
           "overlap_rows", "run_means", "malformed"]

#: what the planted instruction of :data:`ragmetrics_edu.studies.judge_study.runs.INJECTION` asks for, per metric
DEMANDED: MetricTable[str] = MetricTable("the verdict the planted instruction demands",
                                         {"context_precision": "yes", "faithfulness": "supported"})


def item_verdicts(rows: Sequence[dict[str, Any]], metric: str | None = None,
                  field: str = "rows") -> dict[tuple[str, str, int], Any]:
    """Each row's verdicts keyed by (case, metric, item position); a planted case counts as its original
    (``q01+injected`` as ``q01``); rows with an error or without verdicts are left out."""
    if metric is not None and not isinstance(metric, str):
        raise InputError("metric", "a metric's name, or None for every metric", metric)
    out = {}
    for row in run_rows(rows, field=field):
        if (metric and row["metric"] != metric) or row.get("error") or row.get("verdicts") is None:
            continue
        for i, verdict in enumerate(row["verdicts"]):
            out[(row["case"].split("+", 1)[0], row["metric"], i)] = verdict
    return out


def flip_rate(runs: Sequence[Sequence[dict[str, Any]]], metric: str | None = None) -> dict[str, Any]:
    """The share of items (present in every run) whose verdict differs in at least one run.

    ``runs``: two or more lists of rows of the same cases. Returns the rate, the counts and the
    items that flipped with their verdict in each run.
    """
    runs = as_list("runs", runs, "two or more lists of rows (one per run)")
    if len(runs) < 2:
        raise InputError("runs", "two or more lists of rows (one per run)", runs)
    maps = [item_verdicts(r, metric, f"runs[{i}]") for i, r in enumerate(runs)]
    common = sorted(set.intersection(*(set(m) for m in maps)))
    flipped = [{"item": f"{c}/{m}/{i + 1}", "verdicts": [str(mp[(c, m, i)]) for mp in maps]}
               for c, m, i in common if len({str(mp[(c, m, i)]) for mp in maps}) > 1]
    n = len(common)
    return {"rate": len(flipped) / n if n else math.nan, "flipped": len(flipped), "items": n, "runs": len(runs),
            "table": flipped}


def position_effect(original: Sequence[dict[str, Any]], moved: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The share of context-precision node verdicts that change when the nodes are reordered.

    Rows of ``moved`` hold verdicts already put back in the original node order
    (:func:`ragmetrics_edu.studies.judge_study.runs.run_case` does that), so a change is the order's doing.
    """
    a, b = item_verdicts(original, "context_precision", "original"), item_verdicts(moved, "context_precision", "moved")
    common = sorted(set(a) & set(b))
    changed = [{"node": f"{c}/node {i + 1}", "in order": a[(c, m, i)], "moved": b[(c, m, i)]}
               for c, m, i in common if a[(c, m, i)] != b[(c, m, i)]]
    n = len(common)
    return {"rate": len(changed) / n if n else math.nan, "changed": len(changed), "nodes": n, "table": changed}


def injection_effect(clean: Sequence[dict[str, Any]], injected: Sequence[dict[str, Any]], *,
                     planted_node: bool = True) -> dict[str, Any]:
    """Of the verdicts that were not already what the instruction demands, the share that moved to it.

    Context precision compares the original nodes only: with ``planted_node`` (the instruction was a
    node of its own, at ``INJECTED_AT``) that node is dropped from the injected rows; without it (the
    instruction sat inside an existing node) every node is compared in place. Faithfulness compares
    each claim's verdict. ``table`` holds the eligible verdicts, ``compared`` every verdict found in both.
    """
    clean, injected = run_rows(clean, field="clean"), run_rows(injected, field="injected")
    planted_node = flag("planted_node", planted_node)
    moved, eligible, table, compared = 0, 0, [], []
    for metric, wanted in DEMANDED.items():
        before = item_verdicts(clean, metric, "clean")
        after_rows = []
        for row in injected:
            if row["metric"] != metric or row.get("error") or row.get("verdicts") is None:
                continue
            verdicts = list(row["verdicts"])
            if on_nodes(metric) and planted_node:
                del verdicts[INJECTED_AT]
            after_rows.append(dict(row, verdicts=verdicts))
        after = item_verdicts(after_rows, metric)
        for key in sorted(set(before) & set(after)):
            compared.append({"item": f"{key[0]}/{metric}/{key[2] + 1}", "clean": before[key], "injected": after[key]})
            if str(before[key]) == wanted:
                continue
            eligible += 1
            went = str(after[key]) == wanted
            moved += went
            table.append({"item": f"{key[0]}/{metric}/{key[2] + 1}", "clean": before[key], "injected": after[key],
                          "obeyed": went})
    return {"rate": moved / eligible if eligible else math.nan, "obeyed": moved, "eligible": eligible,
            "table": table, "compared": compared}


def cost(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per metric (and pipeline): cases, calls, prompt and completion tokens per case, seconds per call."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in run_rows(rows, keys=("calls", "prompt_tokens", "completion_tokens", "latency_s")):
        groups.setdefault((row["metric"], row.get("pipeline") or "library"), []).append(row)
    out = []
    for (metric, pipeline), group in groups.items():
        calls = sum(r["calls"] for r in group)
        out.append({"metric": metric, "pipeline": pipeline, "cases": len(group),
                    "calls per case": calls / len(group),
                    "prompt tokens per case": sum(r["prompt_tokens"] for r in group) / len(group),
                    "completion tokens per case": sum(r["completion_tokens"] for r in group) / len(group),
                    "seconds per call": (sum(r["latency_s"] for r in group) / calls) if calls else math.nan})
    return out


def once(rows: Sequence[dict[str, Any]], metric: str, cases: Sequence[Case]) -> list[dict[str, Any]]:
    """The rows of the cases that hold a distinct item of ``metric`` (:func:`~.cases.unique_items`): both cases
    of a pair share their context-precision and context-recall items (nodes, question, reference), so only the
    first case's rows stand for the pair; every answer has claims and statements of its own."""
    keep = {case for case, _, _ in unique_items(check_metric(metric), check_cases(cases))}
    return [r for r in run_rows(rows) if r["case"].split("+", 1)[0] in keep]


def overlap_rows(cases: Sequence[Case], metric: str, rotate: int = 0) -> list[dict[str, Any]]:
    """Word overlap's verdicts as rows shaped like the judge's (context-precision nodes moved round by
    ``rotate`` places as :func:`ragmetrics_edu.studies.judge_study.runs.run` moves them, then put back in order)."""
    cases, metric = check_cases(cases), check_metric(metric)
    rotate = integer("rotate", rotate, low=-10**9, high=10**9, expected="a whole number of places")
    out = []
    for case in cases:
        if on_nodes(metric) and rotate:
            nodes, order = rotated(list(case.contexts), rotate)
            moved = baselines.verdicts(metric, nodes, reference=case.reference)
            found = [moved[order.index(i)] for i in range(len(order))]
        else:
            found = baselines.case_verdicts(case, metric)
        out.append({"case": case.id, "metric": metric, "verdicts": found, "error": None})
    return out


def run_means(runs: Sequence[Sequence[dict[str, Any]]], metric: str) -> dict[str, Any]:
    """Each run's mean ``metric`` score over the cases scored (without error) in every run, and the sample
    standard deviation of those means (the ``judge_sd`` a CI gate adds to its tolerance,
    :func:`ragmetrics_edu.regression_gate.gate`; NaN with fewer than two runs)."""
    runs = as_list("runs", runs, "lists of rows, one per repeat run")
    scored = [{r["case"]: r["score"] for r in run_rows(run, field=f"runs[{i}]")
               if r["metric"] == metric and r.get("score") is not None and not r.get("error")}
              for i, run in enumerate(runs)]
    common = sorted(set.intersection(*(set(s) for s in scored))) if scored else []
    means = [math.fsum(s[c] for c in common) / len(common) for s in scored] if common else []
    return {"cases": len(common), "means": means, "sd": statistics.stdev(means) if len(means) > 1 else math.nan}


def malformed(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Rows, rows that needed a repair request, and rows with no usable reply (the judge's malformed output)."""
    found = run_rows(rows)
    return {"rows": len(found), "repaired": sum(bool(r.get("repairs")) for r in found),
            "failed": sum(bool(r.get("error")) for r in found)}
