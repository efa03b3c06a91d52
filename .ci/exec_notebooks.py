"""Run notebooks one after another in this Python (a learner's environment), for run_notebooks.py.

    VENV/bin/python .ci/exec_notebooks.py NOTEBOOK ...

Each notebook is copied alone into an empty temporary folder and executed there by nbclient (what
``jupyter nbconvert --execute`` uses), with this Python's kernel. Importing nbclient and nbformat
once for a batch, rather than once per notebook, saves a few seconds a notebook. For each notebook
it writes a marker line to stderr before running it (so the caller can tell whose warnings are
whose) and one JSON line to stdout after: the notebook, its seconds, its cells' stderr lines and
the error, if any. The caller decides what fails.
"""

from __future__ import annotations

import atexit
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

MARKER = "=== run_notebooks: "
EXIT = "(exit)"
RESTARTED = " (restarted)"  # after a notebook's path: its second kernel's lines follow
#: What jupyter_client raises when a kernel process exits before its first reply.
STARTUP_DEATH = "Kernel died before replying to kernel_info"


def kernel_config():
    """Ask the kernel manager for CurveZMQ keys where it can: ipykernel 7 otherwise warns on every
    start that it runs "over TCP without encryption" (slides/build.py and the Makefile do the same)."""
    import zmq
    from jupyter_client import KernelManager
    from traitlets.config import Config

    config = Config()
    if "transport_encryption" in KernelManager.class_trait_names() and zmq.has("curve"):
        config.KernelManager.transport_encryption = "auto"
    return config


def cell_stderr(notebook) -> list[str]:
    """What the cells wrote to stderr (warnings land there), as 'cell N: text' lines."""
    return [f"cell {i}: {line}" for i, cell in enumerate(notebook.cells) for out in cell.get("outputs", [])
            if out.get("name") == "stderr" for line in "".join(out.get("text", "")).splitlines() if line.strip()]


def run(source: Path, config) -> dict:
    """Execute ``source`` in a copy; a kernel that dies before it answers is replaced once, as
    JupyterLab restarts a dead kernel (no cell has run by then), and the report says so."""
    import nbformat
    from nbclient import NotebookClient

    start = time.perf_counter()
    error = restarted = ""
    with tempfile.TemporaryDirectory(prefix=f"nb-{source.stem[:2]}-") as folder:
        copy = Path(folder) / source.name
        shutil.copy2(source, copy)
        for attempt in (1, 2):
            notebook = nbformat.read(copy, as_version=4)
            client = NotebookClient(notebook, timeout=600, config=config, resources={"metadata": {"path": folder}})
            try:
                client.execute()
                error = ""
            except Exception as exc:  # a failing cell: report it, run the next notebook
                error = f"{type(exc).__name__}: {exc}"
                # nbclient leaves its exit handler registered when the kernel fails to start; the
                # kernel is already cleaned up, and the handler would fail at exit
                atexit.unregister(client._cleanup_kernel)
            if attempt == 1 and STARTUP_DEATH in error:
                restarted = error
                print(f"{MARKER}{source}{RESTARTED}", file=sys.stderr, flush=True)
                continue
            break
    return {"notebook": str(source), "seconds": round(time.perf_counter() - start, 1),
            "stderr": cell_stderr(notebook), "error": error[-4000:], "restarted": restarted}


def main(argv: list[str]) -> int:
    config = kernel_config()
    for name in argv:
        print(f"{MARKER}{name}", file=sys.stderr, flush=True)
        print(json.dumps(run(Path(name), config)), flush=True)
    print(f"{MARKER}{EXIT}", file=sys.stderr, flush=True)  # what exit handlers print is the worker's own
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
