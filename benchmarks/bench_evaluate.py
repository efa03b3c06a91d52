"""Measure `ragmetrics-edu evaluate` on a large file: rows per second and peak memory, judge-free defaults.

    python benchmarks/bench_evaluate.py [--rows 10000 100000] [--keep DIR] [--distinct]

The rows are RAGTruth-sized: each is one of the shipped public RAGTruth QA answers with its question and
passages (ragmetrics_edu.data.ragtruth), and another answer as its reference, cycled to the size asked for
(so words repeat as they do in a real file, and the hashing embedder's feature cache is warm after the first
few hundred rows; a text met again is held and hashed once). With ``--distinct`` each answer and reference ends
with its row's number, so no two rows share either (the passages and questions still repeat, as in RAGTruth,
where six models' answers share each source). Each size is scored by the command line in a fresh process, as a
user runs it: ``ragmetrics-edu evaluate FILE --out results.csv`` (word overlap and semantic similarity, the summary with its
bootstrap intervals, the flat table written). Peak memory is the process's maximum resident set (getrusage);
the baseline is the same command on a 10-row file (the interpreter, pandas and numpy), and the growth over it
is compared with the input file's size. On a machine other work keeps busy the wall clock counts waiting: the CPU
seconds are the run's own, and "net" rows per CPU second leave out the baseline's (starting up).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def write_rows(path: Path, n: int, distinct: bool = False) -> int:
    """``n`` RAGTruth-sized rows as JSONL (``distinct``: no two answers or references alike); returns the file's
    size in bytes."""
    sys.path.insert(0, str(REPO))
    from ragmetrics_edu.data import ragtruth

    answers = ragtruth.answers()
    tail = (lambda i: f" (row {i})") if distinct else (lambda i: "")
    with path.open("w", encoding="utf-8") as file:
        for i, a in zip(range(n), itertools.cycle(answers)):
            file.write(json.dumps({"id": f"row-{i}", "question": a.question, "answer": a.answer + tail(i),
                                   "contexts": a.context,
                                   "reference": answers[(7 * i + 3) % len(answers)].answer + tail(i)}) + "\n")
    return path.stat().st_size


def run_cli(path: Path, out: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak resident set in bytes) of one `ragmetrics-edu evaluate` run in a fresh
    process. CPU seconds are what the run itself used: on a busy machine the wall clock also counts waiting."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", "import sys, resource; from ragmetrics_edu import cli; code = cli.main("
               "sys.argv[1:]); u = resource.getrusage(resource.RUSAGE_SELF); print('maxrss', u.ru_maxrss, u.ru_utime + "
               "u.ru_stime, file=sys.stderr); "
               "raise SystemExit(code)", "evaluate", str(path), "--out", str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"evaluate failed ({done.returncode}): {done.stderr[-500:]}")
    found = next(line.split() for line in done.stderr.splitlines() if line.startswith("maxrss"))
    return seconds, float(found[2]), int(found[1]) * 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--keep", help="a folder to keep the generated files and results in")
    parser.add_argument("--distinct", action="store_true", help="no two rows share an answer or a reference")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-evaluate-"))
    folder.mkdir(parents=True, exist_ok=True)
    small = folder / "rows-10.jsonl"
    write_rows(small, 10)
    started, start_cpu, baseline = run_cli(small, folder / "results-10.csv")
    print(f"baseline (10 rows: interpreter, pandas, numpy): peak {baseline / 2**20:.0f} MiB, {started:.1f} s wall, "
          f"{start_cpu:.1f} s CPU" + ("; every answer and reference distinct" if args.distinct
                                       else "; rows cycled from the shipped answers"))
    print(f"{'rows':>8} {'file MiB':>9} {'wall s':>7} {'rows/s':>7} {'CPU s':>7} {'rows/CPU s':>10} "
          f"{'net rows/CPU s':>14} {'peak MiB':>9} {'peak/file':>9} {'growth MiB':>11} {'growth/file':>12}")
    for n in args.rows:
        path = folder / f"rows-{n}{'-distinct' if args.distinct else ''}.jsonl"
        size = write_rows(path, n, args.distinct)
        seconds, cpu, peak = run_cli(path, folder / f"results-{n}.csv")
        growth = peak - baseline
        print(f"{n:>8,} {size / 2**20:>9.1f} {seconds:>7.1f} {n / seconds:>7,.0f} {cpu:>7.1f} {n / cpu:>10,.0f} "
              f"{n / max(cpu - start_cpu, 1e-9):>14,.0f} "
              f"{peak / 2**20:>9.0f} {peak / size:>9.2f} {growth / 2**20:>11.0f} {growth / size:>12.2f}", flush=True)
    print(f"cpu: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f} at the end "
          f"(other work on the machine slows it); files in {folder}")


if __name__ == "__main__":
    main()
