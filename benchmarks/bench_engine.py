"""Measure the metric engine: cold import time and context-precision throughput.

    python benchmarks/bench_engine.py [--cases 100000] [--repeat 7]

Cold import: a fresh interpreter per run, timing only ``import ragmetrics_edu.metrics``.
Throughput: seeded random verdict lists of 5 nodes (as in deck A), scored by the batch
path (floats, no step tables) and, for comparison, by ``context_precision`` one case at a
time (a MetricResult each, still no DataFrame) and with the DataFrame built.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

IMPORT_SNIPPET = ("import time; t = time.perf_counter(); import ragmetrics_edu.metrics; "
                  "print(time.perf_counter() - t)")


def cold_import_seconds(repeat: int) -> list[float]:
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", IMPORT_SNIPPET], capture_output=True, text=True, check=True)
        runs.append(float(out.stdout))
    return runs


def timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    from ragmetrics_edu import metrics

    rng = random.Random(42)
    cases = [[rng.choice(("yes", "no")) for _ in range(5)] for _ in range(args.cases)]
    as_ints = [[1 if v == "yes" else 0 for v in case] for case in cases]
    few = cases[: max(1, args.cases // 10)]

    imports = cold_import_seconds(args.repeat)
    batch_str = min(timed(metrics.context_precision_batch, cases) for _ in range(3))
    batch_int = min(timed(metrics.context_precision_batch, as_ints) for _ in range(3))
    single = timed(lambda: [metrics.context_precision(c) for c in few])
    frames = timed(lambda: [metrics.context_precision(c).steps for c in few[:1000]])

    rows = [
        ("cold import ragmetrics_edu.metrics (median of %d)" % args.repeat, f"{statistics.median(imports) * 1000:.1f} ms",
         f"min {min(imports) * 1000:.1f} ms"),
        (f"{args.cases:,} cases, batch path, yes/no strings", f"{batch_str:.3f} s", f"{args.cases / batch_str:,.0f} cases/s"),
        (f"{args.cases:,} cases, batch path, 0/1 ints", f"{batch_int:.3f} s", f"{args.cases / batch_int:,.0f} cases/s"),
        (f"{len(few):,} cases, one MetricResult each", f"{single:.3f} s", f"{len(few) / single:,.0f} cases/s"),
        ("1,000 cases, MetricResult + DataFrame each", f"{frames:.3f} s", f"{1000 / frames:,.0f} cases/s"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure'.ljust(width)}  {'time':>10}  rate")
    for name, t, rate in rows:
        print(f"{name.ljust(width)}  {t:>10}  {rate}")
    print(f"\nPython {sys.version.split()[0]} on {sys.platform}; budget: import <= 150 ms, 100,000 cases <= 2 s.")


if __name__ == "__main__":
    main()
