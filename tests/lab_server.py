"""JupyterLab for the browser tests: one server per test process, shared by every module that asks.

Started on 127.0.0.1 with fresh settings, config, data, runtime and HOME folders, serving a
temporary copy of ``notebooks/`` (it autosaves; the committed notebooks are never served). The
fixtures live here and are registered by ``conftest.py``, so pytest makes one server per session,
not one per module that imports them; one Chromium tab on it per module (:func:`lab_tab`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from browser_support import REPO, RequestLog, free_port, tab

#: Seconds; generous for a loaded 2-core machine, where the whole test takes about 15 s.
SERVER_TIMEOUT = 60
STOP_TIMEOUT = 15

#: The course's server settings, which ``make lab`` loads too (the Makefile's ``LAB_CONFIG``).
LAB_CONFIG = REPO / "lab" / "jupyter_server_config.py"


def make_lab_overrides() -> dict[str, dict]:
    """The settings ``make lab`` gives every JupyterLab user (the Makefile's ``NO_NEWS``: no news prompt)."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    line = re.search(r"^NO_NEWS := (.*)$", makefile, flags=re.M)
    assert line, "the Makefile no longer sets NO_NEWS"
    assert "LAB_CONFIG := --config=$(abspath lab/jupyter_server_config.py)" in makefile, \
        "the Makefile's make lab no longer loads lab/jupyter_server_config.py, which the test JupyterLab loads"
    return json.loads(line.group(1))


#: User settings of the server's own config folder: start the kernel without the "Select Kernel"
#: dialog; what `make lab` sets (no news prompt). Windowing as a learner's JupyterLab has it by default
#: ("contentVisibility": every cell in the DOM, the browser skips drawing those off screen; "none",
#: used before, drew every cell of a notebook, at about 3% more of Chromium's CPU).
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings":
        '{"autoStartDefaultKernel": true, "windowingMode": "contentVisibility"}',
    **{f"{plugin.replace(':', '/')}.jupyterlab-settings": json.dumps(values)
       for plugin, values in make_lab_overrides().items()},
}


def lab_env(state: Path) -> dict[str, str]:
    """The server's (and its kernel's) environment: HOME and every Jupyter/IPython/matplotlib folder under ``state``."""
    dirs = {"HOME": "home", "JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data",
            "JUPYTER_RUNTIME_DIR": "runtime", "IPYTHONDIR": "ipython", "MPLCONFIGDIR": "matplotlib",
            "JUPYTERLAB_SETTINGS_DIR": "config/lab/user-settings", "JUPYTERLAB_WORKSPACES_DIR": "config/lab/workspaces"}
    env = {**os.environ, **{var: str(state / sub) for var, sub in dirs.items()}}
    for sub in dirs.values():
        (state / sub).mkdir(parents=True, exist_ok=True)
    return env


def write_settings(settings_dir: Path) -> None:
    """Write :data:`SETTINGS` into a JupyterLab user-settings folder."""
    for name, text in SETTINGS.items():
        path = settings_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def wait_for_server(base: str, proc: subprocess.Popen, log: Path) -> None:
    """Poll ``/api/status`` until the server answers; fail with its log if it exits or takes too long."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    deadline = time.monotonic() + SERVER_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"JupyterLab exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with opener.open(f"{base}/api/status", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    pytest.fail(f"JupyterLab did not answer within {SERVER_TIMEOUT} s:\n{log.read_text()[-3000:]}")


def stop_server(proc: subprocess.Popen) -> None:
    """Stop the server's process group: SIGTERM (the server shuts its kernels down), then SIGKILL.

    A kernel runs in its own session, but exits by itself when the server is gone (ipykernel
    watches its parent process).
    """
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=STOP_TIMEOUT)


@contextmanager
def running_lab(root: Path) -> Iterator[str]:
    """JupyterLab on 127.0.0.1 serving ``root`` (its state in ``root.parent / "state"``); yields its URL
    and stops it on exit. The tests' :func:`lab` and ``benchmarks/bench_explorer_clicks.py`` use it."""
    state = root.parent / "state"
    env = lab_env(state)
    write_settings(Path(env["JUPYTERLAB_SETTINGS_DIR"]))
    port = free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--ServerApp.root_dir={root}",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               "--IdentityProvider.token=", "--ServerApp.password=", "--LabApp.expose_app_in_browser=True",
               f"--config={LAB_CONFIG}"]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = state / "jupyterlab.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_server(base, proc, log)
        yield base
    finally:
        stop_server(proc)


def copy_notebooks(folder: Path) -> Path:
    """A copy of ``notebooks/`` in ``folder`` (JupyterLab autosaves: the committed ones are never served)."""
    root = folder / "notebooks"
    shutil.copytree(REPO / "notebooks", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


@pytest.fixture(scope="session")
def lab_root(tmp_path_factory) -> Path:
    """A temporary copy of ``notebooks/``, the folder the session's JupyterLab serves."""
    return copy_notebooks(tmp_path_factory.mktemp("lab"))


@pytest.fixture(scope="session")
def lab(lab_root: Path) -> Iterator[str]:
    """JupyterLab on 127.0.0.1 serving :func:`lab_root`, one per test process, shared by the browser
    test modules (each test opens its own browser and resets the workspace); yields its URL, stops it
    when the session ends."""
    with running_lab(lab_root) as base:
        yield base


@pytest.fixture(scope="module")
def lab_tab(lab: str) -> Iterator[tuple[object, RequestLog]]:
    """One headless Chromium tab on :func:`lab`, shared by a module's browser tests: JupyterLab's
    scripts load and compile once (a browser of its own per test cost each about 5 s of CPU). Each test
    clears the request log, sets its viewport and opens its notebook (``open_notebook``, alone by
    default: it closes what the test before left open). Yields (page, request log).

    Module-scoped, not session-scoped: Playwright's sync API keeps an asyncio loop running in the
    main thread while it is open, and a later module's ``asyncio.run`` would find it.
    """
    with tab(viewport=(1440, 900)) as (page, log):
        yield page, log


# -- opening and running notebooks in the page -----------------------------------------------------
#: Milliseconds to wait for JupyterLab (a notebook opened, Run All) and for one action's effect.
UI_TIMEOUT_MS = 60_000
ACTION_TIMEOUT_MS = 15_000

#: True once the notebook is open, its file loaded and its kernel connected.
NOTEBOOK_READY_JS = """path => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path || !panel.context.isReady) return false;
  const session = panel.sessionContext.session;
  return !!(session && session.kernel && session.kernel.connectionStatus === 'connected');
}"""

#: Starts "Run All Cells"; its outcome ("true" when every cell ran without error) lands in window.rmeRunAll.
RUN_ALL_JS = """() => {
  window.rmeRunAll = undefined;
  window.jupyterapp.commands.execute('notebook:run-all-cells').then(
    ok => { window.rmeRunAll = String(ok); }, err => { window.rmeRunAll = 'error: ' + err; });
}"""

#: Opens ``path`` in the loaded app; with ``alone``, first closes every document in JupyterLab's main
#: area without saving (a run notebook is "dirty") and shuts its kernel down: what ``?reset`` on a
#: reload gives, without reloading the app.
OPEN_JS = """async ([path, alone]) => {
  const app = window.jupyterapp;
  for (const widget of alone ? [...app.shell.widgets('main')] : []) {
    if (widget.context) widget.context.model.dirty = false;
    if (widget.sessionContext) await widget.sessionContext.shutdown();
    widget.dispose();
  }
  await app.commands.execute('docmanager:open', {path});
}"""

#: Brings the open notebook ``path`` to the front; false when it is not open.
SHOW_JS = """path => {
  const app = window.jupyterapp;
  const panel = [...app.shell.widgets('main')].find(w => w.context && w.context.path === path);
  if (panel) app.shell.activateById(panel.id);
  return !!panel;
}"""


def open_notebook(page, base: str, notebook: str, *, alone: bool = True) -> None:
    """Open a notebook in JupyterLab, alone unless ``alone=False`` (loading the app if the tab has not
    yet), and wait for its kernel."""
    if page.url.startswith(f"{base}/lab") and page.evaluate("() => !!window.jupyterapp"):
        page.evaluate(OPEN_JS, [notebook, alone])
    else:
        page.goto(f"{base}/lab/tree/{notebook}?reset")  # ?reset: no tabs restored from an earlier session
    page.wait_for_function(NOTEBOOK_READY_JS, arg=notebook, timeout=UI_TIMEOUT_MS, polling=100)


def open_and_run_all(page, base: str, notebook: str, *, alone: bool = True) -> None:
    """Open a notebook in JupyterLab (alone unless ``alone=False``), wait for its kernel, run all cells
    and wait until they finished."""
    open_notebook(page, base, notebook, alone=alone)
    page.evaluate(RUN_ALL_JS)
    page.wait_for_function("() => window.rmeRunAll !== undefined", timeout=UI_TIMEOUT_MS, polling=100)
    assert page.evaluate("() => window.rmeRunAll") == "true", "Run All Cells did not complete without errors"


def show_notebook(page, notebook: str) -> None:
    """Bring an open notebook to the front of JupyterLab and wait until it is the current one."""
    assert page.evaluate(SHOW_JS, notebook), f"{notebook} is not open"
    page.wait_for_function(NOTEBOOK_READY_JS, arg=notebook, timeout=ACTION_TIMEOUT_MS, polling=100)
