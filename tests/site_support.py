"""What the browser-site test and its benchmark share: build the site, serve it, run notebooks in JupyterLite.

The site is the one ``make site OFFLINE=1`` builds (``lab/lite/build.py --offline``), served by a
plain HTTP server on 127.0.0.1. Chromium comes from :mod:`browser_support`: no request leaves the
machine, and every one that tried is logged. In JupyterLite the Python kernel is Pyodide, running
in the page; a notebook's first cell installs the course from the site.
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "lab" / "lite" / "build.py"
#: How long a cold Pyodide may take to start, install and run a notebook on a busy 2-core machine.
KERNEL_TIMEOUT_MS = 600_000


def build_site(out: Path) -> None:
    """``make site OFFLINE=1`` into ``out`` (fails with the build's own one-line message)."""
    done = subprocess.run([sys.executable, str(BUILD), "--offline", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, f"the offline site did not build: {done.stderr.strip() or done.stdout.strip()}"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        """No line per request."""


@contextmanager
def serving(site: Path) -> Iterator[str]:
    """The site served on 127.0.0.1 (a free port) while the block runs; yields its base URL."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


#: JupyterLite is up and the notebook in front has its kernel session.
APP_READY_JS = """() => { const app = window.jupyterapp; const w = app && app.shell.currentWidget;
  return !!(w && w.sessionContext && w.context); }"""
RUN_ALL_JS = """async () => { const w = window.jupyterapp.shell.currentWidget;
  await w.context.ready; await w.sessionContext.ready;
  await window.jupyterapp.commands.execute('notebook:run-all-cells'); }"""
#: Every code cell of the notebook in front has run and its kernel is idle.
ALL_RAN_JS = """() => { const w = window.jupyterapp.shell.currentWidget;
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle' && w.content.widgets.every(c => c.model.type !== 'code'
    || (c.model.executionCount !== null && c.model.executionCount !== undefined));}"""
#: The text of every error output in the notebook in front.
ERRORS_JS = """() => [...document.querySelectorAll(
  '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]')]
  .map(e => e.textContent.trim().split('\\n').slice(-3).join(' | '))"""
#: The text of the first output of the first cell after the install cell (the lesson's first result).
FIRST_RESULT_JS = """() => { const w = window.jupyterapp.shell.currentWidget; const cell = w.content.widgets[1];
  return !!cell && cell.model.outputs.length > 0; }"""


def open_notebook(page, base: str, notebook: str) -> None:
    """Open ``notebook`` of the site in JupyterLab and wait for its kernel session."""
    page.goto(f"{base}/lab/index.html?path={notebook}")
    page.wait_for_function(APP_READY_JS, timeout=120_000)


def run_all(page) -> None:
    """Run every cell of the notebook in front and wait until each has run."""
    page.evaluate(RUN_ALL_JS)
    page.wait_for_function(ALL_RAN_JS, timeout=KERNEL_TIMEOUT_MS, polling=500)


#: Runs in the page's kernel (Pyodide): each notebook's code cells in order, in this one kernel, with a
#: clean namespace per notebook; Pyodide's packages a cell imports are loaded first, as the kernel does
#: for a cell it runs itself. Prints one ``SITE {json}`` line per notebook: seconds, cells run, and the
#: first error (cell index and the error's last line), or null.
DRIVER = r'''
import json as _json, sys as _sys, types as _types
_driver = _types.ModuleType("site_driver")
exec("""
import json, time
import pyodide_js
from IPython import get_ipython
from IPython.utils.capture import capture_output

async def run_notebooks(names):
    shell = get_ipython()
    for name in names:
        cells = [c for c in json.load(open(name))["cells"] if c["cell_type"] == "code"]
        cells = [c for c in cells if "site-install" not in c["metadata"].get("tags", [])]
        shell.reset(new_session=False)
        start, error, ran = time.perf_counter(), None, 0
        for index, cell in enumerate(cells):
            source = "".join(cell["source"])
            await pyodide_js.loadPackagesFromImports(source)
            with capture_output(display=True):
                outcome = shell.run_cell(source, store_history=False)
            ran += 1
            failure = outcome.error_before_exec or outcome.error_in_exec
            if failure is not None:
                error = f"code cell {index}: {type(failure).__name__}: {failure}"
                break
        print("SITE " + json.dumps({"notebook": name, "seconds": round(time.perf_counter() - start, 2),
                                    "cells": ran, "of": len(cells), "error": error}), flush=True)
""", _driver.__dict__)
_sys.modules["site_driver"] = _driver
await _driver.run_notebooks(NAMES)
'''


def driver_code(notebooks: list[str]) -> str:
    return DRIVER.replace("NAMES", json.dumps(notebooks))


def add_and_run_cell(page, code: str) -> None:
    """Append a code cell holding ``code`` to the notebook in front (not saved) and run it."""
    page.evaluate("""async code => { const app = window.jupyterapp; const panel = app.shell.currentWidget;
      const nb = panel.content; nb.activeCellIndex = nb.widgets.length - 1;
      await app.commands.execute('notebook:insert-cell-below');
      nb.activeCell.model.sharedModel.setSource(code);
      await app.commands.execute('notebook:run-cell'); }""", code)


def driver_lines(page) -> list[dict]:
    """The ``SITE`` lines the driver cell (the last cell) has printed so far."""
    text = page.evaluate("""() => { const nb = window.jupyterapp.shell.currentWidget.content;
      const last = nb.widgets[nb.widgets.length - 1];
      return last.outputArea.node.textContent; }""")
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("SITE {")]


def wait_for_lines(page, count: int, timeout_s: float) -> list[dict]:
    """Wait until the driver has printed ``count`` lines (or an error shows); return them."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        lines = driver_lines(page)
        if len(lines) >= count or page.evaluate(ERRORS_JS):
            return lines
        page.wait_for_timeout(1000)
    return driver_lines(page)
