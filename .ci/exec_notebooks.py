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

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

MARKER = "=== run_notebooks: "


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
    import nbformat
    from nbclient import NotebookClient

    start = time.perf_counter()
    error = ""
    with tempfile.TemporaryDirectory(prefix=f"nb-{source.stem[:2]}-") as folder:
        copy = Path(folder) / source.name
        shutil.copy2(source, copy)
        notebook = nbformat.read(copy, as_version=4)
        client = NotebookClient(notebook, timeout=600, config=config, resources={"metadata": {"path": folder}})
        try:
            client.execute()
        except Exception as exc:  # a failing cell: report it, run the next notebook
            error = f"{type(exc).__name__}: {exc}"
    return {"notebook": str(source), "seconds": round(time.perf_counter() - start, 1),
            "stderr": cell_stderr(notebook), "error": error[-4000:]}


def main(argv: list[str]) -> int:
    config = kernel_config()
    for name in argv:
        print(f"{MARKER}{name}", file=sys.stderr, flush=True)
        print(json.dumps(run(Path(name), config)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
