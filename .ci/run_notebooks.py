"""Execute every course notebook with a given environment, each alone in an empty folder.

    python3 .ci/run_notebooks.py VENV [--package DIR] [NOTEBOOK ...]

What a student gets: the notebook copied by itself into a fresh temporary folder (as in Colab,
VS Code or a download folder), run by ``VENV``'s own Python, nbclient and kernel (what ``jupyter
nbconvert --execute`` uses; .ci/exec_notebooks.py), with nothing from this checkout on
``PYTHONPATH``. So a notebook passes only if the packages that environment has, and the data inside
the installed package, are enough. Two batches run at once (two cores), each in one process. Fails
(exit 1) on any cell error, and on any warning a run prints, to the terminal or into a cell's stderr
(a newcomer reads a warning as breakage). A kernel that dies before its first reply (no cell has
run) is replaced once, as JupyterLab restarts a dead kernel; the output says so, with what it printed.

``--package DIR``: a folder the built wheel was installed into (``pip install --no-deps --target DIR``),
put first on the kernel's path so the notebooks import the wheel's copy of ``ragmetrics_edu`` (checked
before any notebook runs) with ``VENV``'s dependencies: the wheel's files are enough on their own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORKER = Path(__file__).resolve().parent / "exec_notebooks.py"
MARKER = "=== run_notebooks: "   # exec_notebooks.py writes it to stderr before each notebook
EXIT = "(exit)"  # ... and with this after the last
RESTARTED = " (restarted)"  # ... and with the path and this before a second kernel's run
#: Variables that would let the checkout or a live judge leak into a learner's run.
OUTSIDE = ("PYTHONPATH", "JUPYTER_PATH", "VIRTUAL_ENV", "OPENAI_API_KEY", "OPENAI_BASE_URL")
BATCHES = 2


def environment(state: Path, package: Path | None) -> dict[str, str]:
    """This process's environment without :data:`OUTSIDE`, with Jupyter's folders under ``state``."""
    env = {k: v for k, v in os.environ.items() if k not in OUTSIDE}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as `make lab` runs JupyterLab: compiled modules are kept
    env.update(JUPYTER_CONFIG_DIR=str(state / "config"), JUPYTER_DATA_DIR=str(state / "data"),
               JUPYTER_RUNTIME_DIR=str(state / "runtime"), IPYTHONDIR=str(state / "ipython"),
               MPLCONFIGDIR=str(state / "matplotlib"))
    if package:
        env["PYTHONPATH"] = str(package)
    return env


def imported_from(venv: Path, package: Path | None) -> str:
    """Where ``VENV``'s python imports ragmetrics_edu from, with ``package`` first on the path."""
    env = {k: v for k, v in os.environ.items() if k not in OUTSIDE}
    if package:
        env["PYTHONPATH"] = str(package)
    done = subprocess.run([str(venv / "bin" / "python"), "-c", "import ragmetrics_edu; print(ragmetrics_edu.__file__)"],
                          capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    return done.stdout.strip() or done.stderr.strip()


def terminal_lines(stderr: str) -> dict[str, list[str]]:
    """The batch's stderr split by the worker's markers: notebook path -> the lines printed while it ran."""
    found: dict[str, list[str]] = {"": []}
    current = ""
    for line in stderr.splitlines():
        if line.startswith(MARKER):
            current = line[len(MARKER):]
            found[current] = []
        elif line.strip():
            found[current].append(line)
    return found


def run_batch(venv: Path, notebooks: list[Path], env: dict[str, str]) -> list[tuple[Path, float, str, str]]:
    """Run ``notebooks`` in one worker process; what :func:`judge` makes of its output."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="nb-batch-") as folder:
        done = subprocess.run([str(venv / "bin" / "python"), str(WORKER), *map(str, notebooks)],
                              cwd=folder, env=env, capture_output=True, text=True)
    return judge(notebooks, done.stdout, done.stderr, done.returncode, time.perf_counter() - start)


def judge(notebooks: list[Path], stdout: str, stderr: str, returncode: int,
          seconds: float) -> list[tuple[Path, float, str, str]]:
    """(notebook, seconds, problem or '', note or '') for each notebook a worker was given, from its
    output. A note says the first kernel died before it answered, and what it printed: the worker ran
    the notebook with a second kernel, whose run alone decides."""
    printed = terminal_lines(stderr)
    reports = {r["notebook"]: r for r in map(json.loads, filter(None, stdout.splitlines()))}
    results = []
    for notebook in notebooks:
        report = reports.get(str(notebook))
        if report is None:
            tail = "\n".join(stderr.strip().splitlines()[-25:])
            results.append((notebook, seconds, f"not run (worker exit {returncode}):\n{tail}", ""))
            continue
        note = ""
        if report.get("restarted"):
            note = "\n".join([f"its first kernel died at start ({report['restarted']}); a second kernel ran it",
                              *printed.get(str(notebook), [])[:40]])
        noise = report["stderr"] + printed.get(f"{notebook}{RESTARTED}" if note else str(notebook), [])
        if report["error"]:  # with what the kernel printed: a kernel that died at start says why there
            problem = "\n".join(["failed:", *report["error"].strip().splitlines()[-25:],
                                  *(["printed while it ran:", *noise[:40]] if noise else [])])
        elif noise:
            problem = "ran, but printed:\n" + "\n".join(noise[:20])
        else:
            problem = ""
        results.append((notebook, report["seconds"], problem, note))
    own = printed[""] + printed.get(EXIT, [])  # before the first notebook or after the last: the worker's
    if own:
        results.append((WORKER, 0.0, "printed:\n" + "\n".join(own[:20]), ""))
    return results


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    package = None
    if "--package" in argv:
        at = argv.index("--package")
        package = Path(argv[at + 1]).resolve()
        argv = argv[:at] + argv[at + 2:]
    venv = Path(argv[0]).resolve()
    if not (venv / "bin" / "python").exists():
        print(f"{venv}/bin/python is missing: build the environment first (make install VENV=...)", file=sys.stderr)
        return 2
    notebooks = [Path(n).resolve() for n in argv[1:]] or sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if package:
        source = imported_from(venv, package)
        if not Path(source).is_relative_to(package):
            print(f"ragmetrics_edu is imported from {source}, not from the wheel in {package}", file=sys.stderr)
            return 1
        print(f"ragmetrics_edu from the wheel: {source}")
    start = time.perf_counter()
    batches = [notebooks[i::BATCHES] for i in range(BATCHES) if notebooks[i::BATCHES]]
    with tempfile.TemporaryDirectory(prefix="nb-state-") as state, ThreadPoolExecutor(len(batches)) as pool:
        env = environment(Path(state), package)
        results = [r for batch in pool.map(lambda b: run_batch(venv, b, env), batches) for r in batch]
    for notebook, seconds, problem, note in sorted(results):
        print(f"{'ok  ' if not problem else 'FAIL'} {notebook.name} ({seconds:.0f} s)", flush=True)
        for text in filter(None, (note and f"note: {note}", problem)):
            print("     " + text.replace("\n", "\n     "), flush=True)
    failed = sum(1 for notebook, _, problem, _ in results if problem and notebook != WORKER)
    print(f"{len(notebooks) - failed}/{len(notebooks)} notebooks ran cleanly with {venv}"
          f"{f' and the wheel in {package}' if package else ''} "
          f"in {time.perf_counter() - start:.0f} s")
    return 1 if any(problem for _, _, problem, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
