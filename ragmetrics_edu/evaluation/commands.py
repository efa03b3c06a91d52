"""The ``evaluate``, ``compare`` and ``stats`` subcommands of ``ragmetrics-edu`` (wired in by ``cli.py``).

    ragmetrics-edu evaluate FILE [--metrics ...] [--base-url URL --model NAME] [--out results.csv|jsonl]
                                 [--report report.html] [--explain N]
    ragmetrics-edu compare A B [--metrics ...] [--out pairs.csv]     score both, pair the rows, test and gate
    ragmetrics-edu stats A B --metrics M [--out pairs.csv]           the same on tables already scored

This module is the command line's plumbing (no ``__all__``: the package curates what a user imports; the
functions behind the commands are :func:`~ragmetrics_edu.evaluate`, :mod:`.summary`, :mod:`.report`,
:mod:`.pairing` and :mod:`.comparison`). Progress and notes go to stderr, results to stdout. Bad input is an InputError, which ``cli.main`` prints as
one line with exit status 2. A run where a metric could score no case exits 1.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
from pathlib import Path
from typing import Any, Callable

from .. import validate
from ..errors import InputError
from ..judges.openai_judge import OpenAIJudge, redact_url
from ..judges.served import check_served
from ..metrics import SPECS
from ..results import fmt
from . import empty_answer, evaluate, judge_free, plan
from .compare_labels import labelled_rates, labels_html, labels_text, read_labels
from .compare_numbers import PLANNING_RULE, comparison_numbers
from .compare_report import render_compare, write_compare
from .comparison import compare_scores, comparison_text, pair_table_rows, scores_of, summary_line
from .datasets import read_cases
from .judge_identity import file_sha256, prompt_version
from .pairing import pair_rows
from .report import write_report
from .report_cases import case_name, find_case
from .summary import TABLE_SUFFIXES, summarize, summary_text, write_table


def _judge_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--base-url", help="an OpenAI-compatible endpoint for the judged metrics, e.g. "
                                      "http://127.0.0.1:8080/v1 (a key comes from $OPENAI_API_KEY)")
    p.add_argument("--model", help="the judge model's name, as the server lists it")
    p.add_argument("--mode", default="auto", help="auto | json_schema | json_object_schema | json")
    p.add_argument("--cache-dir", default=".judge-cache", help="validated replies are kept here (a re-run is free)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per request")


class _Names(argparse.Action):
    """``--metrics a b`` or ``--metrics a,b``: both give ``["a", "b"]``."""

    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option_string: Any = None) -> None:
        setattr(namespace, self.dest, [name for value in values for name in str(value).split(",") if name.strip()])


def add_parsers(sub: Any) -> None:
    """Add the three subcommands to ``sub`` (what argparse's ``add_subparsers()`` returns)."""
    if not callable(getattr(sub, "add_parser", None)):
        raise InputError("sub", "argparse subparsers (parser.add_subparsers())", sub)
    ev = sub.add_parser("evaluate", help="score your own JSONL/CSV/Parquet file; summary, flat table, HTML report")
    ev.add_argument("file", help="cases: question, answer, contexts, reference, optional id (Ragas' and DeepEval's "
                                 "names work too)")
    ev.add_argument("--metrics", nargs="+", action=_Names, help="metric names (default: those needing no judge, plus the judged "
                                                 "defaults when --model is given)")
    _judge_options(ev)
    ev.add_argument("--out", help="write one flat row per case: results.csv or results.jsonl")
    ev.add_argument("--report", help="write a self-contained HTML report: report.html")
    ev.add_argument("--explain", metavar="CASE", help="print one case's step-by-step explanation: its id, or its "
                                                      "row in the file from 1 (as the report names it)")
    for name, helptext in (("compare", "score two versions' files and compare them pair by pair (A accepted, "
                                       "B candidate)"),
                           ("stats", "compare two files already scored (e.g. by evaluate --out), pair by pair")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("a", help="the accepted version's file")
        p.add_argument("b", help="the candidate's file (rows paired by id, else by text; never by position)")
        p.add_argument("--metrics", nargs="+", action=_Names, required=name == "stats",
                       help="score columns to compare" if name == "stats" else "metric names (default as evaluate)")
        if name == "compare":
            _judge_options(p)
        p.add_argument("--out", help="write one row per pair: id or question, each metric in A, in B, the difference")
        p.add_argument("--margin", type=float, default=0.05, help="the regression gate's margin: the largest drop "
                                                                  "accepted as no regression (default 0.05)")
        p.add_argument("--noise", type=float, help="the judge's per-run shift sd, measured from repeat runs "
                                                   "(needed to gate a judged metric)")
        p.add_argument("--report", help="write a self-contained HTML page of the comparison: compare.html")
        p.add_argument("--detect", type=float, default=0.05, help="the difference the planning line sizes for "
                                                                  "(default 0.05): paired questions for 80%% power")
        p.add_argument("--labels", help="people's pass/fail on some rows of either version: a .jsonl or .csv with "
                                        "id, version (A or B) and pass (true/false); joined by id")
        p.add_argument("--labels-metric", help="the metric whose score predicts people's verdict for --labels "
                                               "(default: the first metric)")
        if name == "compare":
            p.add_argument("--judge-weights", help="the judge's local weights file (GGUF): its sha256 goes on the page")


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _judge(args: argparse.Namespace) -> OpenAIJudge | None:
    """The OpenAI-compatible judge --base-url and --model name, or None when neither is given. Its server is asked
    which models it serves before any request (:func:`~ragmetrics_edu.judges.served.check_served`): no server, or a
    name it does not serve, stops the command here with one line."""
    if args.base_url is None and args.model is None:
        return None
    if not args.base_url or not args.model:
        missing = "--model" if args.base_url else "--base-url"
        raise InputError(missing, "--base-url and --model together (the judge's endpoint and model)", None)
    judge = OpenAIJudge(args.model, base_url=args.base_url, api_key=os.environ.get("OPENAI_API_KEY") or "local",
                        mode=args.mode, temperature=0.0, seed=7, timeout=args.timeout, max_retries=1,
                        cache_dir=args.cache_dir)
    model = check_served(judge)
    _say(f"judge: {model} at {redact_url(judge.server)} (cache {args.cache_dir})")
    return judge


def _out_path(field: str, value: Any, suffixes: tuple[str, ...]) -> Path | None:
    """An output path checked before any work (never after minutes of requests)."""
    if value is None:
        return None
    path = validate.path(field, value, exists=False, expected="a file path ending in " + " or ".join(suffixes))
    if path.suffix.lower() not in suffixes:
        raise InputError(field, "a file path ending in " + " or ".join(suffixes), value)
    if not path.resolve().parent.is_dir():
        raise InputError(field, "a file in an existing folder", value, hint=f"{path.parent} is not a folder")
    return path


def _score(path: Any, metrics: Any, judge: Any) -> Any:
    data = read_cases(path)
    path = data.source
    judged = [m for m in metrics or () if m in SPECS and SPECS[m].judged]
    if judge is None and judged:  # evaluate() would name the Python API's judges: say it in the command's words
        raise InputError("--metrics", "metrics this command can score without a judge", metrics,
                         hint=f"{', '.join(judged)} need{'' if len(judged) > 1 else 's'} a judge: add "
                              f"--base-url URL --model NAME, or ask only for {', '.join(judge_free())}")
    names, left_out = plan(data, metrics, judge)  # every check before the first line of progress
    _say(f"{path}: {len(data)} case{'' if len(data) == 1 else 's'}" + (" with ids" if data.has_ids else "")
         + f"; metrics: {', '.join(names)}")
    for name, why in left_out.items():
        _say(f"note: default metric {name} left out: it {why}")
    empty = [w for w, c in zip(data.where, data.cases, strict=True) if empty_answer(c)]
    readers = [n for n in names if "answer" in SPECS[n].needs]
    if empty and readers:  # named before scoring; counted unscored, never scored 0
        _say(f"note: {len(empty)} row{' has' if len(empty) == 1 else 's have'} an empty answer, counted unscored by "
             f"{', '.join(readers)}: {', '.join(empty[:20])}" + (f" and {len(empty) - 20} more" if len(empty) > 20 else ""))
    table = evaluate(data, metrics=names, judge=judge, progress=True)
    table.attrs["left_out"] = left_out
    return data, table


def _print_explanation(table: Any, case: int) -> None:
    if not 0 <= case < len(table):
        raise InputError("--explain", f"a case from 1 to {len(table)}", case + 1)
    row = table.iloc[case]
    print(f"\nCase {case_name(row.to_dict(), case)}: {row['question']}")
    print(f"Answer: {row['answer']}")
    shown = table.attrs["results"].case(case) if hasattr(table.attrs["results"], "case") else {}
    for k, passage in enumerate(shown.get("contexts") or [], 1):
        print(f"Context {k}: {passage}")
    if shown.get("ground_truth") is not None:
        print(f"Reference: {shown['ground_truth']}")
    results = table.attrs["results"][case]
    for name in table.attrs["metrics"]:
        print(f"\n--- {name} ---")
        if name not in results:
            print(f"not scored: {row['error']}")
            continue
        result = results[name]
        if result.rows:
            print(result.table_text())
        for k, line in enumerate(result.narrative, 1):
            print(f"{k}. {line}")
        print(f"score: {result.score}")
        for note in result.notes:
            print(f"note: {note}")


def run_evaluate(args: argparse.Namespace) -> int:
    """``ragmetrics-edu evaluate``: 0 when every metric scored a case, 1 when one scored none."""
    out = _out_path("--out", args.out, TABLE_SUFFIXES)
    report = _out_path("--report", args.report, (".html",))
    validate.path("FILE", args.file, expected="your cases: a .jsonl, .json, .csv or .parquet file")
    data = read_cases(args.file)
    explain = None if args.explain is None else find_case(
        [c["id"] for c in data.cases] if data.has_ids else None, len(data), args.explain)  # checked before scoring
    _, table = _score(data, args.metrics, _judge(args))
    summaries = summarize(table)
    print(f"{len(table)} case{'' if len(table) == 1 else 's'} from {table.attrs['source']}" + (f", judge {table.attrs['judge']}"
                                                                  if table.attrs["judge"] else ", no judge"))
    print(summary_text(summaries))
    if "calls" in table.columns:
        print(f"judge: {int(table['calls'].sum())} calls, {int(table['cache_hits'].sum())} cache hits, "
              f"{int(table['prompt_tokens'].sum())}+{int(table['completion_tokens'].sum())} tokens")
    failed = table[table["error"].notna()]
    for _, row in failed.head(5).iterrows():
        print(f"{case_name(row.to_dict(), int(row['case']))} failed: {row['error']}")
    if len(failed) > 5:
        print(f"... {len(failed) - 5} more failed cases (see the error column)")
    if out is not None:
        print(f"table: {write_table(table, out)}")
    if report is not None:
        print(f"report: {write_report(table, report, summaries=summaries)}")
    if explain is not None:
        _print_explanation(table, explain)
    return 1 if any(s.scored == 0 for s in summaries) else 0


def _write_pairs(path: Path, rows: list[dict[str, Any]]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["id"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    try:
        path.write_text(buffer.getvalue(), encoding="utf-8")
    except OSError as exc:
        raise InputError("--out", "a file that can be written", str(path), hint=str(exc.strerror or exc)) from None


Scores = dict[str, list[float | None]]


def _compared(args: argparse.Namespace, scored: Callable[[Any, Any], tuple[Scores, Scores]],
              judge_info: Callable[[], dict[str, Any] | None] = lambda: None) -> int:
    """Read A and B, pair their rows (refused before any scoring when nothing pairs), score, test, gate."""
    out = _out_path("--out", args.out, (".csv",))
    page = _out_path("--report", args.report, (".html",))
    validate.number("--detect", args.detect, "a difference to plan for, above 0 and at most 1", low=0.0, high=1.0,
                    low_open=True)
    weights = getattr(args, "judge_weights", None)
    if weights is not None:
        validate.path("--judge-weights", weights, expected="the judge's weights file (e.g. a .gguf)")
    validate.number("--margin", args.margin, "a number between 0 and 1 (the largest drop accepted)", low=0.0, high=1.0)
    for field in ("a", "b"):
        validate.path(field.upper(), getattr(args, field), expected="a .jsonl, .json, .csv or .parquet file")
    data_a, data_b = read_cases(args.a), read_cases(args.b)
    pairing = pair_rows(data_a, data_b)
    if not pairing.pairs:
        raise InputError("B", f"rows that pair with A's by {pairing.key}", args.b,
                         hint=pairing.describe().splitlines()[0] + " Give both files an id column to pair them by id")
    labels = read_labels(args.labels, data_a, data_b) if args.labels else None  # checked before any scoring
    scores_a, scores_b = scored(data_a, data_b)
    found = compare_scores(pairing, scores_a, scores_b, noise=args.noise, margin=args.margin)
    print(comparison_text(found, pairing, (data_a.source, data_b.source)))
    print("\nIn short:")
    for c in found:
        print("  " + summary_line(c))
    if out is not None:
        _write_pairs(out, pair_table_rows(pairing, scores_a, scores_b))
        print(f"pairs: {out}")
    numbers = comparison_numbers(found, pairing, scores_a, scores_b, detect=args.detect)
    for m in numbers:
        print(f"  {m.metric}: planning: sd of the differences {fmt(m.sd)}; about {m.needed:,.0f} paired questions "
              f"tell apart a difference of {fmt(args.detect)} at 80% power ({PLANNING_RULE})")
    estimates = None
    if labels is not None:
        metric = args.labels_metric or next(iter(scores_a))
        if metric not in scores_a:
            raise InputError("--labels-metric", "one of the metrics compared: " + ", ".join(scores_a), metric)
        estimates = labelled_rates(labels, data_a, data_b, scores_a[metric], scores_b[metric], metric)
        print(labels_text(estimates))
    if page is not None:
        info = judge_info()
        if info is not None and weights is not None:
            info["weights sha256"] = file_sha256(weights)
        text = render_compare(numbers, pairing, (data_a, data_b), (scores_a, scores_b), judge=info, noise=args.noise,
                              labels_html="" if estimates is None else labels_html(estimates))
        print(f"report: {write_compare(page, text)}")
    return 0


def run_compare(args: argparse.Namespace) -> int:
    """``ragmetrics-edu compare``: pair A's and B's rows, score both with evaluate(), then test and gate."""
    tables: dict[str, Any] = {}

    def scored(data_a: Any, data_b: Any) -> tuple[Scores, Scores]:
        judge = _judge(args)
        tables["judge"] = judge
        plan(data_b, args.metrics, judge)  # B's bad row is found before A's requests, not after
        _, table_a = _score(data_a, args.metrics, judge)
        metrics = table_a.attrs["metrics"]
        _, table_b = _score(data_b, metrics, judge)
        tables.update(a=table_a, b=table_b)
        return ({m: scores_of(data_a, m, list(table_a[m])) for m in metrics},
                {m: scores_of(data_b, m, list(table_b[m])) for m in metrics})

    def info() -> dict[str, Any] | None:
        judge = tables.get("judge")
        if judge is None:
            return None
        found: dict[str, Any] = {"model": judge.model, "server": redact_url(judge.server), "mode": judge.mode,
                                 "prompt version": prompt_version()}
        for side in ("a", "b"):
            table = tables[side]
            if "calls" in table.columns:
                found[f"cost of {side.upper()}"] = (f"{int(table['calls'].sum())} calls, {int(table['cache_hits'].sum())} "
                                                    f"cache hits, {int(table['prompt_tokens'].sum())} prompt + "
                                                    f"{int(table['completion_tokens'].sum())} completion tokens")
        return found

    return _compared(args, scored, info)


def run_stats(args: argparse.Namespace) -> int:
    """``ragmetrics-edu stats``: the comparison of ``compare`` on score columns already in A and B."""
    def scored(data_a: Any, data_b: Any) -> tuple[Scores, Scores]:
        return ({m: scores_of(data_a, m) for m in args.metrics}, {m: scores_of(data_b, m) for m in args.metrics})

    return _compared(args, scored)


#: subcommand -> what runs it
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {"evaluate": run_evaluate, "compare": run_compare,
                                                             "stats": run_stats}
