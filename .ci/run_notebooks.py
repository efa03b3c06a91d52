"""Execute every course notebook with a given environment, each alone in an empty folder.

    python3 .ci/run_notebooks.py VENV [--package DIR] [NOTEBOOK ...]

What a student gets: the notebook copied by itself into a fresh temporary folder (as in Colab,
VS Code or a download folder), run by ``VENV``'s own ``jupyter nbconvert --execute`` and kernel,
with nothing from this checkout on ``PYTHONPATH``. So a notebook passes only if the packages that
environment has, and the data inside the installed package, are enough. Fails (exit 1) on any
cell error, and on any warning the run prints, to the terminal or into a cell's stderr (a newcomer reads a warning as breakage).

``--package DIR``: a folder the built wheel was installed into (``pip install --no-deps --target DIR``),
put first on the kernel's path so the notebooks import the wheel's copy of ``ragmetrics_edu`` (checked
before any notebook runs) with ``VENV``'s dependencies: the wheel's files are enough on their own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: Lines of a run's stderr that are not noise: nbconvert's own progress messages.
OUTSIDE = ("PYTHONPATH", "JUPYTER_PATH", "VIRTUAL_ENV", "OPENAI_API_KEY", "OPENAI_BASE_URL")
PROGRESS = re.compile(r"^\[NbConvertApp\] (Converting notebook|Writing \d+ bytes|Executing notebook)")


def kernel_flags(venv: Path) -> list[str]:
    """Ask the kernel manager for CurveZMQ keys where it can: ipykernel 7 otherwise warns on every
    start that it runs "over TCP without encryption" (slides/build.py and the Makefile do the same)."""
    probe = ("import zmq; from jupyter_client import KernelManager as K; "
             "print('transport_encryption' in K.class_trait_names() and zmq.has('curve'))")
    done = subprocess.run([str(venv / "bin" / "python"), "-c", probe], capture_output=True, text=True)
    return ["--KernelManager.transport_encryption=auto"] if done.stdout.strip() == "True" else []


def cell_stderr(executed: Path) -> list[str]:
    """What the cells wrote to stderr (warnings land there), as 'cell N: text' lines."""
    cells = json.loads(executed.read_text(encoding="utf-8"))["cells"]
    return [f"cell {i}: {line}" for i, cell in enumerate(cells) for out in cell.get("outputs", [])
            if out.get("name") == "stderr" for line in "".join(out.get("text", "")).splitlines() if line.strip()]


def imported_from(venv: Path, package: Path | None) -> str:
    """Where ``VENV``'s python imports ragmetrics_edu from, with ``package`` first on the path."""
    env = {k: v for k, v in os.environ.items() if k not in OUTSIDE}
    if package:
        env["PYTHONPATH"] = str(package)
    done = subprocess.run([str(venv / "bin" / "python"), "-c", "import ragmetrics_edu; print(ragmetrics_edu.__file__)"],
                          capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    return done.stdout.strip() or done.stderr.strip()


def run(venv: Path, notebook: Path, state: Path, flags: list[str],
        package: Path | None = None) -> tuple[Path, float, str]:
    """Run one notebook in an empty folder; the problem as text ('' when it ran cleanly)."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"nb-{notebook.stem[:2]}-") as folder:
        copy = Path(folder) / notebook.name
        shutil.copy2(notebook, copy)
        env = {k: v for k, v in os.environ.items() if k not in OUTSIDE}
        env.update(JUPYTER_CONFIG_DIR=str(state / "config"), JUPYTER_DATA_DIR=str(state / "data"),
                   JUPYTER_RUNTIME_DIR=str(state / "runtime"), IPYTHONDIR=str(state / "ipython"),
                   MPLCONFIGDIR=str(state / "matplotlib"))
        if package:
            env["PYTHONPATH"] = str(package)
        done = subprocess.run(
            [str(venv / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
             "--ExecutePreprocessor.timeout=600", *flags, "--output", "executed", notebook.name],
            cwd=folder, env=env, capture_output=True, text=True)
        executed = Path(folder) / "executed.ipynb"
        noise = cell_stderr(executed) if done.returncode == 0 and executed.exists() else []
    seconds = time.perf_counter() - start
    noise += [line for line in done.stderr.splitlines() if line.strip() and not PROGRESS.match(line)]
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-25:])
        return notebook, seconds, f"failed (exit {done.returncode}):\n{tail}"
    if noise:
        return notebook, seconds, "ran, but printed:\n" + "\n".join(noise[:20])
    return notebook, seconds, ""


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
    if not (venv / "bin" / "jupyter").exists():
        print(f"{venv}/bin/jupyter is missing: build the environment first (make install VENV=...)", file=sys.stderr)
        return 2
    notebooks = [Path(n).resolve() for n in argv[1:]] or sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if package:
        source = imported_from(venv, package)
        if not Path(source).is_relative_to(package):
            print(f"ragmetrics_edu is imported from {source}, not from the wheel in {package}", file=sys.stderr)
            return 1
        print(f"ragmetrics_edu from the wheel: {source}")
    start = time.perf_counter()
    failed = 0
    flags = kernel_flags(venv)
    with tempfile.TemporaryDirectory(prefix="nb-state-") as state, ThreadPoolExecutor(2) as pool:
        for notebook, seconds, problem in pool.map(lambda nb: run(venv, nb, Path(state), flags, package), notebooks):
            print(f"{'ok  ' if not problem else 'FAIL'} {notebook.name} ({seconds:.0f} s)", flush=True)
            if problem:
                failed += 1
                print("     " + problem.replace("\n", "\n     "), flush=True)
    print(f"{len(notebooks) - failed}/{len(notebooks)} notebooks ran cleanly with {venv}"
          f"{f' and the wheel in {package}' if package else ''} "
          f"in {time.perf_counter() - start:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
