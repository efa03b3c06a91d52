"""Notebook 01's reorder explorer works in a real JupyterLab, driven by a real headless Chromium.

JupyterLab is started on 127.0.0.1 with fresh settings, config, data, runtime and HOME folders,
serving a temporary copy of ``notebooks/`` (it autosaves; the committed notebooks are never
served). The test opens ``01_context_precision.ipynb``, runs every cell, and checks that the
reorder explorer is rendered as a widget (not the "Loading widget..." placeholder). It then
clicks a ↑ button, flips a verdict toggle and drags a chip, and after each action asserts that
the rows show the order and verdicts the action should give and that the score shown is the
one ``metrics.context_precision`` computes for them, and differs from the score before.
No request may leave 127.0.0.1, and none may fail. Screenshots go to ``artifacts_dir("lab")``
(``test-artifacts/lab/`` unless ``RME_ARTIFACTS`` says otherwise).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import pytest
from playwright.sync_api import expect

from browser_support import CLICK_MEDIAN_MS, REPO, artifacts_dir, chromium, click_summary, free_port, timed_action
from ragmetrics_edu import metrics
from ragmetrics_edu.results import fmt

NOTEBOOK = "01_context_precision.ipynb"
EXPLORER = ".rme-reorder"
#: The TagsInput's chips (its hidden text input carries the chip class too, but is not draggable).
CHIPS = ".rme-tags .jupyter-widget-tag[draggable='true']"
#: Seconds; generous for a loaded 2-core machine, where the whole test takes about 15 s.
SERVER_TIMEOUT = 60
STOP_TIMEOUT = 15
UI_TIMEOUT_MS = 60_000
ACTION_TIMEOUT_MS = 15_000

#: User settings of the server's own config folder: start the kernel without the "Select
#: Kernel" dialog, keep every cell in the DOM (no virtual scrolling), fetch no news.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings":
        '{"autoStartDefaultKernel": true, "windowingMode": "none"}',
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        '{"fetchNews": "false", "checkForUpdates": false}',
}

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

#: The explorer as shown: score text, each row's verdict toggle text and node label ("N2"), the chips' labels.
STATE_JS = """([selector, chips]) => {
  const root = document.querySelector(selector);
  const rows = [...root.querySelectorAll('.rme-row')].map((_, pos) => root.querySelector(`.rme-row-${pos}`));
  return {
    score: root.querySelector('.rme-score-value').textContent.trim(),
    toggles: rows.map(row => row.querySelector('.rme-toggle').textContent.trim()),
    nodes: rows.map(row => row.querySelector('span.rme-node-text b').textContent.trim()),
    chips: [...root.querySelectorAll(chips)].map(chip => chip.textContent.trim().split(' ')[0]),
  };
}"""

#: The explorer's output area still (or only) shows ipywidgets' placeholder text.
PLACEHOLDER_JS = """selector => {
  const output = document.querySelector(selector).closest('.jp-OutputArea-output');
  return output.textContent.includes('Loading widget');
}"""


@dataclass
class Shown:
    """What the explorer shows: the score text, per rank the node label and verdict (1/0), the chips in order."""

    score: str
    nodes: list[str]
    verdicts: list[int]
    chips: list[str]


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


@pytest.fixture(scope="module")
def lab_root(tmp_path_factory) -> Path:
    """A temporary copy of ``notebooks/``, the folder the module's JupyterLab serves."""
    root = tmp_path_factory.mktemp("lab") / "notebooks"
    shutil.copytree(REPO / "notebooks", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return root


@pytest.fixture(scope="module")
def lab(lab_root: Path) -> Iterator[str]:
    """JupyterLab on 127.0.0.1 serving :func:`lab_root`, one per test module (each test opens its own
    browser); yields its URL, stops it after the module's last test."""
    root = lab_root
    state = root.parent / "state"
    env = lab_env(state)
    write_settings(Path(env["JUPYTERLAB_SETTINGS_DIR"]))
    port = free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--ServerApp.root_dir={root}",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               "--IdentityProvider.token=", "--ServerApp.password=", "--LabApp.expose_app_in_browser=True"]
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


def read_explorer(page) -> Shown:
    """Read the explorer's score, node order, verdicts and chips off the page."""
    raw = page.evaluate(STATE_JS, [EXPLORER, CHIPS])
    flags = {"relevant": 1, "not relevant": 0}
    assert set(raw["toggles"]) <= set(flags), f"unexpected toggle text: {raw['toggles']}"
    return Shown(raw["score"], raw["nodes"], [flags[t] for t in raw["toggles"]], raw["chips"])


def score_text(verdicts: list[int]) -> str:
    """The library's context precision (DeepEval variant, the explorer's default) as the explorer writes it."""
    return fmt(metrics.context_precision(verdicts).score)


def moved(items: list, src: int, dst: int) -> list:
    """``items`` with the element at ``src`` moved to index ``dst``."""
    out = list(items)
    out.insert(dst, out.pop(src))
    return out


def flipped(verdicts: list[int], pos: int) -> list[int]:
    """``verdicts`` with the one at ``pos`` flipped."""
    return [1 - v if i == pos else v for i, v in enumerate(verdicts)]


def first_changing(verdicts: list[int], candidates: range, change: Callable[[list[int], int], list[int]]) -> int:
    """The first position in ``candidates`` where ``change(verdicts, pos)`` changes the library's score."""
    before = score_text(verdicts)
    for pos in candidates:
        if score_text(change(verdicts, pos)) != before:
            return pos
    pytest.fail(f"no position in {candidates} changes the score of {verdicts}")


def open_and_run_all(page, base: str, notebook: str = NOTEBOOK) -> None:
    """Open a notebook in JupyterLab, wait for its kernel, run all cells and wait until they finished."""
    page.goto(f"{base}/lab/tree/{notebook}?reset")  # ?reset: no tabs restored from earlier tests
    page.wait_for_function(NOTEBOOK_READY_JS, arg=notebook, timeout=UI_TIMEOUT_MS, polling=100)
    page.evaluate(RUN_ALL_JS)
    page.wait_for_function("() => window.rmeRunAll !== undefined", timeout=UI_TIMEOUT_MS, polling=100)
    assert page.evaluate("() => window.rmeRunAll") == "true", "Run All Cells did not complete without errors"


def expect_shown(page, before: Shown, nodes: list[str], verdicts: list[int]) -> Shown:
    """Wait for the explorer to show ``nodes`` with ``verdicts`` and the library's score for them; return it."""
    expected = score_text(verdicts)
    expect(page.locator(f"{EXPLORER} .rme-score-value")).to_have_text(expected, timeout=ACTION_TIMEOUT_MS)
    for pos, flag in enumerate(verdicts):
        expect(page.locator(f"{EXPLORER} .rme-toggle-{pos}")).to_have_text(
            "relevant" if flag else "not relevant", timeout=ACTION_TIMEOUT_MS)
    after = read_explorer(page)
    assert after.nodes == nodes and after.chips == nodes, \
        f"order shown {after.nodes}, chips {after.chips}, expected {nodes}"
    assert after.verdicts == verdicts, f"verdicts shown {after.verdicts}, expected {verdicts}"
    assert after.score == score_text(after.verdicts), "the score shown is not the library's for the verdicts shown"
    assert after.score != before.score, f"the score did not change ({before.score})"
    return after


def screenshot(page, name: str) -> None:
    """Save the JupyterLab window, scrolled so the explorer starts at the top, as ``test-artifacts/lab/<name>.png``."""
    page.locator(EXPLORER).evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=artifacts_dir("lab") / f"{name}.png")


def test_reorder_explorer_in_jupyterlab(lab: str, record_property) -> None:
    # Tall enough for the whole explorer (about 1150 px) below JupyterLab's menu and toolbar.
    with chromium(viewport=(1280, 1400)) as (context, log):
        page = context.new_page()
        open_and_run_all(page, lab)
        # The score is filled in a moment after the widget appears.
        expect(page.locator(f"{EXPLORER} .rme-score-value")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
        assert not page.evaluate(PLACEHOLDER_JS, EXPLORER), "the explorer's output still shows 'Loading widget...'"
        start = read_explorer(page)
        assert len(start.nodes) >= 2 and start.chips == start.nodes
        assert start.score == score_text(start.verdicts), "after Run All the score is not the library's"
        screenshot(page, "01_after_run_all")

        # ↑ on the first row whose move changes the score: that node and its verdict go one rank up.
        score = f"{EXPLORER} .rme-score-value"
        pos = first_changing(start.verdicts, range(1, len(start.verdicts)), lambda v, p: moved(v, p, p - 1))
        timed_action(page, "reorder", score, page.locator(f"{EXPLORER} .rme-up-{pos}").click)
        up = expect_shown(page, start, moved(start.nodes, pos, pos - 1), moved(start.verdicts, pos, pos - 1))
        screenshot(page, "02_after_up")

        # The first toggle whose flip changes the score: only that verdict changes.
        pos = first_changing(up.verdicts, range(len(up.verdicts)), flipped)
        timed_action(page, "reorder", score, page.locator(f"{EXPLORER} .rme-toggle-{pos}").click)
        toggled = expect_shown(page, up, up.nodes, flipped(up.verdicts, pos))
        screenshot(page, "03_after_toggle")

        # Drag the chip of the first node whose move to rank 1 changes the score onto the first chip.
        pos = first_changing(toggled.verdicts, range(1, len(toggled.verdicts)), lambda v, p: moved(v, p, 0))
        chips = page.locator(f"{EXPLORER} {CHIPS}")
        timed_action(page, "reorder", score, lambda: chips.nth(pos).drag_to(chips.nth(0)))
        dragged = expect_shown(page, toggled, moved(toggled.nodes, pos, 0), moved(toggled.verdicts, pos, 0))
        screenshot(page, "04_after_drag")

        # Ten more flips of one verdict, each timed from the click to the new score, each checked.
        shown = dragged
        pos = first_changing(shown.verdicts, range(len(shown.verdicts)), flipped)
        for _ in range(10):
            timed_action(page, "reorder", score, page.locator(f"{EXPLORER} .rme-toggle-{pos}").click)
            shown = expect_shown(page, shown, shown.nodes, flipped(shown.verdicts, pos))
        n, median, worst = click_summary("reorder", record_property)
        assert median <= CLICK_MEDIAN_MS, f"reorder explorer: click -> score median {median:.0f} ms over {n} actions"

        assert log.outside == [], f"requests left 127.0.0.1: {log.outside}"
        assert log.failed == [], f"requests failed: {log.failed}"
