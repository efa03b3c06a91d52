"""Issue 43 §3: `ragmetrics-edu evaluate FILE`: a summary, a flat table, an HTML report and one case
explained; with no judge on JSONL and on Ragas' and DeepEval's CSV, with a judge against a real HTTP server,
and one clear line with exit 2 for every bad file."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys

import pytest
from evaluate_cases import CASES, DEEPEVAL, RAGAS, by_hand, write_csv

from ragmetrics_edu import metrics, stats
from ragmetrics_edu.cli import main
from scripted_server import Scripted, schema_responder


def summary_numbers(out: str, metric: str) -> tuple[float, float, float, int, int]:
    """(mean, low, high, scored, failed) from the summary line the command printed for ``metric``."""
    line = next(x for x in out.splitlines() if x.strip().startswith(metric + " "))
    found = re.search(r"mean (\S+)\s+95% interval \[(\S+), (\S+)\]\s+(\d+) scored, (\d+) failed", line)
    assert found, line
    mean, low, high, scored, failed = found.groups()
    return float(mean), float(low), float(high), int(scored), int(failed)


@pytest.fixture(params=["jsonl", "ragas csv", "deepeval csv"])
def cases_file(request, tmp_path):
    if request.param == "jsonl":
        path = tmp_path / "mine.jsonl"
        path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    else:
        path = tmp_path / "mine.csv"
        write_csv(path, CASES, RAGAS if request.param == "ragas csv" else DEEPEVAL)
    return path


def test_evaluate_scores_the_file_with_no_judge_and_writes_the_table_and_the_report(cases_file, tmp_path, capsys):
    out, report = tmp_path / "results.csv", tmp_path / "report.html"
    assert main(["evaluate", str(cases_file), "--out", str(out), "--report", str(report)]) == 0
    printed, progress = capsys.readouterr()
    assert f"{cases_file.name}: 3 cases with ids" in progress and "no judge" in printed
    for name in ("word_overlap", "semantic_similarity"):
        expected = [by_hand(c)[name] for c in CASES]
        interval = stats.bootstrap_ci(expected, n_resamples=2000, seed=0)
        mean, low, high, scored, failed = summary_numbers(printed, name)
        assert mean == pytest.approx(sum(expected) / 3, abs=5e-5) and (scored, failed) == (3, 0)
        assert (low, high) == pytest.approx(interval.ci, abs=5e-5)
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["id"] for r in rows] == ["q1", "q2", "q3"]
    for row, case in zip(rows, CASES, strict=True):
        assert row["question"] == case["question"]
        assert float(row["word_overlap"]) == pytest.approx(by_hand(case)["word_overlap"])
        assert float(row["semantic_similarity"]) == pytest.approx(by_hand(case)["semantic_similarity"])
    page = report.read_text(encoding="utf-8")
    assert page.count('<svg class="figure"') == 3          # the intervals, and one histogram per metric
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # nothing fetched from anywhere


def test_the_table_can_be_json_lines_and_a_case_is_explained_step_by_step(tmp_path, capsys):
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    out = tmp_path / "results.jsonl"
    assert main(["evaluate", str(path), "--metrics", "word_overlap", "--out", str(out), "--explain", "q2"]) == 0
    printed = capsys.readouterr().out
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["word_overlap"] for r in rows] == pytest.approx([by_hand(c)["word_overlap"] for c in CASES])
    own = metrics.word_overlap(CASES[1]["answer"], CASES[1]["contexts"])
    explained = printed.split("Case id q2")[1]
    assert all(line in explained for line in own.narrative) and own.table_text() in explained


def test_a_judge_from_the_command_line_is_asked_and_its_calls_are_counted(server, tmp_path, capsys):
    server.responder = schema_responder()
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    report = tmp_path / "report.html"
    argv = ["evaluate", str(path), "--metrics", "context_precision", "word_overlap", "--base-url", server.base_url,
            "--model", "scripted-model", "--mode", "json_schema", "--cache-dir", str(tmp_path / "cache"),
            "--report", str(report)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    hits = server.hits
    assert hits >= len(CASES) and f"judge: {hits} calls, 0 cache hits" in printed
    assert summary_numbers(printed, "context_precision")[3:] == (3, 0)
    assert re.search(rf'<div class="name">calls</div><div class="big">{hits}</div>', report.read_text())
    assert main(argv) == 0                                   # again: every reply from the cache, no request
    assert server.hits == hits and f"judge: 0 calls, {hits} cache hits" in capsys.readouterr().out


def test_a_judged_metric_without_a_judge_is_refused_naming_those_that_need_none(tmp_path, capsys):
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps(CASES[0]) + "\n")
    assert main(["evaluate", str(path), "--metrics", "faithfulness"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "word_overlap, semantic_similarity" in err
    assert "--base-url URL --model NAME" in err and "faithfulness needs a judge" in err  # the command's words
    assert main(["evaluate", str(path), "--base-url", "http://127.0.0.1:9/v1"]) == 2
    assert "--model" in capsys.readouterr().err


BAD_FILES = {
    "malformed.jsonl": (json.dumps(CASES[0]) + "\n{oops\n", "malformed.jsonl line 2"),
    "empty.jsonl": ("\n", "no rows"),
    "mixed_ids.jsonl": (json.dumps(CASES[0]) + "\n" + json.dumps({k: v for k, v in CASES[1].items() if k != "id"}) + "\n",
                        "mixed_ids.jsonl line 2: id"),
    "string_contexts.csv": ("question,answer,contexts\nq,a,one; two\n", "string_contexts.csv line 2: contexts"),
    "no_answer.csv": ('question,contexts\nq,"[""c""]"\n', "no_answer.csv: answer"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_is_one_line_on_stderr_exit_2_and_no_traceback(name, tmp_path):
    text, named = BAD_FILES[name]
    (tmp_path / name).write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "ragmetrics_edu.cli", "evaluate", name, "--metrics", "word_overlap"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    lines = [x for x in run.stderr.splitlines() if x.startswith("error:")]
    assert run.returncode == 2 and "Traceback" not in run.stderr and len(lines) == 1, run.stderr
    assert named in lines[0], lines[0]


@pytest.mark.parametrize("argv, named", [
    (["evaluate", "missing.jsonl"], "FILE"),
    (["evaluate", "{file}", "--out", "results.xlsx"], "--out"),
    (["evaluate", "{file}", "--report", "report.pdf"], "--report"),
    (["evaluate", "{file}", "--explain", "7"], "--explain"),
    (["evaluate", "{file}", "--metrics", "no_such_metric"], "metrics"),
])
def test_bad_options_are_one_line_and_exit_2(argv, named, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.jsonl").write_text(json.dumps(CASES[0]) + "\n")
    assert main([a.replace("{file}", "mine.jsonl") for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and named in err and err.count("\n") == 1


def test_a_metric_that_scores_no_case_exits_1_and_says_why_per_case(server, tmp_path, capsys):
    server.responder = lambda body: Scripted(status=400, message="model 'nope' not found")
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    status = main(["evaluate", str(path), "--metrics", "context_precision", "word_overlap", "--base-url",
                   server.base_url, "--model", "nope", "--mode", "json_schema", "--cache-dir", str(tmp_path / "c")])
    printed = capsys.readouterr().out
    assert status == 1
    assert re.search(r"context_precision\s+no case scored\s+0 scored, 3 failed", printed)
    assert summary_numbers(printed, "word_overlap")[3:] == (3, 0)      # the judge-free metric still scored
    assert printed.count("failed: context_precision: ") == 3 and "not found" in printed


def test_metrics_may_be_listed_with_spaces_or_commas(tmp_path, capsys):
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in CASES))
    assert main(["evaluate", str(path), "--metrics", "word_overlap,semantic_similarity"]) == 0
    by_commas = capsys.readouterr().out
    assert main(["evaluate", str(path), "--metrics", "word_overlap", "semantic_similarity"]) == 0
    assert capsys.readouterr().out == by_commas and "semantic_similarity" in by_commas
