"""Measure the explorers and the notebook suite.

    python benchmarks/bench_widgets.py [--updates 200] [--no-notebooks]

1. Median time of one explorer update without a browser: a move (drag or ↑/↓) that
   recomputes the result and redraws the table, score, formula and plot, for 5 and 10
   nodes (ReorderExplorer and PermutationExplorer), and a verdict toggle.
2. The whole notebook suite: every notebook in notebooks/ executed by nbval, as
   ``make test`` runs it (kernel start included).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def explorer_updates(cls_name: str, n: int, updates: int, action: str) -> list[float]:
    from ragmetrics_edu import widgets

    rng = random.Random(n)
    nodes = [f"Retrieved node number {i} about some topic or other" for i in range(1, n + 1)]
    verdicts = [rng.randint(0, 1) for _ in range(n)]
    verdicts[0] = 1
    explorer = getattr(widgets, cls_name)(nodes=nodes, verdicts=verdicts)
    times = []
    for _ in range(updates):
        start = time.perf_counter()
        if action == "move":
            explorer.move(rng.randrange(n), rng.randrange(n))
        else:
            explorer.toggle(rng.randrange(n))
        times.append(time.perf_counter() - start)
    explorer.close()
    return times


def notebook_suite() -> tuple[float, int, str]:
    state = tempfile.mkdtemp(prefix="bench-nb-")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=state, JUPYTER_DATA_DIR=state, JUPYTER_RUNTIME_DIR=state,
               IPYTHONDIR=state, MPLCONFIGDIR=state)
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *map(str, notebooks)],
                          cwd=REPO, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-200:]
    return elapsed, len(notebooks), last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--no-notebooks", action="store_true")
    args = parser.parse_args()

    rows = []
    for cls_name in ("ReorderExplorer", "PermutationExplorer"):
        for n in (5, 10):
            for action in ("move", "toggle"):
                t = explorer_updates(cls_name, n, args.updates, action)
                rows.append((f"{cls_name}, {n} nodes, {action}", statistics.median(t), sorted(t)[int(0.9 * len(t))]))
    width = max(len(r[0]) for r in rows)
    print(f"{'explorer update'.ljust(width)}  {'median':>9}  {'p90':>9}")
    for name, med, p90 in rows:
        print(f"{name.ljust(width)}  {med * 1000:7.1f} ms  {p90 * 1000:7.1f} ms")
    if not args.no_notebooks:
        elapsed, count, last = notebook_suite()
        print(f"\nnotebook suite: {count} notebooks under nbval in {elapsed:.1f} s ({last})")
    print(f"\nPython {sys.version.split()[0]}; budget: update median <= 30 ms for 10 nodes, suite <= 90 s.")


if __name__ == "__main__":
    main()
