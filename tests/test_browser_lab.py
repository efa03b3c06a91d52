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


#: Layout of one explorer scrolled to the top of the notebook: elements that scroll sideways (the
#: explorer, its output area or anything inside), selects too narrow for their longest label,
#: buttons whose text is cut, numbers broken over two lines, and where its plot ends.
LAYOUT_JS = """selector => {
  const root = document.querySelector(`.jp-NotebookPanel:not(.lm-mod-hidden) ${selector}`);
  root.scrollIntoView({block: 'start'});
  const output = root.closest('.jp-OutputArea-output');
  const scrollers = [output, root, ...root.querySelectorAll('*')].filter(e => {
    const style = getComputedStyle(e);
    const scrolls = e === root || e === output || ['auto', 'scroll'].includes(style.overflowX);
    return e.offsetParent !== null && scrolls && e.scrollWidth > e.clientWidth;
  }).map(e => `${e.className} (${e.scrollWidth} > ${e.clientWidth})`);
  const ctx = document.createElement('canvas').getContext('2d');
  const cut = [...root.querySelectorAll('select')].filter(s => s.offsetParent !== null).flatMap(s => {
    const style = getComputedStyle(s);
    ctx.font = style.font;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return [...s.options].filter(o => ctx.measureText(o.text).width > room)
      .map(o => `'${o.text}' (${Math.ceil(ctx.measureText(o.text).width)} px > ${Math.floor(room)} px)`);
  });
  const broken = [...root.querySelectorAll('td:not(.rme-text)')].filter(td => td.offsetParent !== null).filter(td => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
  }).map(td => `'${td.textContent.trim()}'`);
  const clipped = [...root.querySelectorAll('button')]
    .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth).map(b => `'${b.textContent.trim()}'`);
  const plot = root.querySelector('.rme-plot');
  return {scrollers, cut, clipped, broken, plotBottom: plot ? plot.getBoundingClientRect().bottom : null, height: window.innerHeight};
}"""

#: Background colours of the selected and of an unselected button of the first verdict toggle.
VERDICT_COLOURS_JS = """selector => {
  const buttons = [...document.querySelector(selector).querySelectorAll('.rme-verdict')[0]
                   .querySelectorAll('button')];
  const colour = b => getComputedStyle(b).backgroundColor;
  return {selected: buttons.filter(b => b.classList.contains('mod-active')).map(colour),
          other: buttons.filter(b => !b.classList.contains('mod-active')).map(colour)};
}"""


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two CSS ``rgb(...)``/``rgba(...)`` colours (alpha ignored)."""
    def luminance(colour: str) -> float:
        channels = [float(v) / 255 for v in re.findall(r"[\d.]+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def layout_faults(page, selector: str, name: str, plot: bool) -> list[str]:
    """Sideways scrollbars, cut select labels and (``plot``) a plot reaching below the fold; screenshot."""
    report = page.evaluate(LAYOUT_JS, selector)
    page.screenshot(path=artifacts_dir("lab") / f"layout_{name}.png")
    faults = [f"{name}: scrolls sideways: {s}" for s in report["scrollers"]]
    faults += [f"{name}: dropdown label cut: {c}" for c in report["cut"]]
    faults += [f"{name}: button text cut: {b}" for b in report["clipped"]]
    faults += [f"{name}: number broken over lines: {n}" for n in report["broken"]]
    if plot and (report["plotBottom"] is None or report["plotBottom"] > report["height"]):
        faults.append(f"{name}: the plot ends at {report['plotBottom']} px, below the {report['height']} px window")
    return faults


def test_explorers_fit_a_laptop_screen(lab: str) -> None:
    # 1440x900, a common laptop screen: the explorers of notebooks 01, 02 and 08 fit its width, show
    # their whole plot without scrolling (scrolled to the explorer's top), never break a number
    # over two lines, and a selected verdict stands out from the others.
    with chromium(viewport=(1440, 900)) as (context, log):
        page = context.new_page()
        open_and_run_all(page, lab)
        expect(page.locator(f"{EXPLORER} .rme-score-value")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
        expect(page.locator(".rme-permutations .rme-score")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
        faults = layout_faults(page, EXPLORER, "reorder", plot=True)
        faults += layout_faults(page, ".rme-permutations", "permutations", plot=True)
        open_and_run_all(page, lab, "02_context_recall.ipynb")
        statements = ".rme-statements"
        expect(page.locator(f"{statements} .rme-score-value")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
        faults += layout_faults(page, statements, "statements", plot=False)
        colours = page.evaluate(VERDICT_COLOURS_JS, statements)
        assert len(colours["selected"]) == 1 and colours["other"], colours
        ratios = [contrast(colours["selected"][0], other) for other in colours["other"]]
        if min(ratios) < 3:
            faults.append(f"the selected verdict hardly stands out: {colours} (contrast {ratios})")
        open_and_run_all(page, lab, "08_ranking_measures.ipynb")
        visible = f".jp-NotebookPanel:not(.lm-mod-hidden) {EXPLORER}"
        expect(page.locator(f"{visible} .rme-score-value")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
        faults += layout_faults(page, EXPLORER, "reorder (08)", plot=True)
        assert faults == [], "\n".join(faults)
        assert log.outside == [] and log.failed == [], (log.outside, log.failed)


#: Runs cell ``index`` of the open notebook; "true"/"error: ..." lands in window.rmeRunCell.
RUN_CELL_JS = """index => {
  const panel = window.jupyterapp.shell.currentWidget;
  window.rmeRunCell = undefined;
  panel.content.activeCellIndex = index;
  window.jupyterapp.commands.execute('notebook:run-cell').then(
    ok => { window.rmeRunCell = String(ok); }, err => { window.rmeRunCell = 'error: ' + err; });
}"""

SLIDER_CELLS = [
    "import ipywidgets as widgets\n"
    "from ragmetrics_edu.widgets import ExactFloatSlider\n"
    "exact = 4 / 7\n"
    "free = ExactFloatSlider(value=exact, min=-1.0, max=1.0, description='free')\n"
    "stepped = ExactFloatSlider(value=exact, min=-1.0, max=1.0, step=0.01, description='stepped')\n"
    "plain = widgets.FloatSlider(value=exact, min=-1.0, max=1.0, step=0.01, readout_format='.4f', description='plain')\n"
    "widgets.VBox([free, stepped, plain])",
    "print('kernel:', free.value == exact, stepped.value == exact, plain.value)",
]


def test_slider_keeps_the_value_it_was_given(lab: str, lab_root: Path) -> None:
    # Notebook 07's similarity 0.5714...: the browser snaps a stepped slider and writes the snapped
    # value back. ipywidgets' FloatSlider takes it (the premise, checked here); ExactFloatSlider,
    # with or without a step, keeps the exact value, and without a step shows it.
    import nbformat

    name = "rme_slider_check.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in SLIDER_CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, lab_root / name)
    with chromium(viewport=(1280, 800)) as (context, log):
        page = context.new_page()
        page.goto(f"{lab}/lab/tree/{name}?reset")
        page.wait_for_function(NOTEBOOK_READY_JS, arg=name, timeout=UI_TIMEOUT_MS, polling=100)
        page.evaluate(RUN_CELL_JS, 0)
        panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"  # the server's other notebooks may be open in tabs too
        readouts = page.locator(f"{panel} .widget-slider .widget-readout")
        expect(readouts).to_have_count(3, timeout=UI_TIMEOUT_MS)
        expect(readouts.nth(2)).to_have_text("0.5700", timeout=ACTION_TIMEOUT_MS)  # the browser snapped it
        expect(readouts.nth(0)).to_have_text("0.5714", timeout=ACTION_TIMEOUT_MS)
        page.wait_for_timeout(1000)  # let the write-backs reach the kernel
        page.evaluate(RUN_CELL_JS, 1)
        page.wait_for_function("() => window.rmeRunCell !== undefined", timeout=UI_TIMEOUT_MS, polling=100)
        output = page.locator(f"{panel} .jp-Cell").nth(1).locator(".jp-OutputArea-output")
        expect(output).to_contain_text("kernel:", timeout=ACTION_TIMEOUT_MS)
        _, free_kept, stepped_kept, plain = output.inner_text().split()
        assert abs(float(plain) - 0.57) < 1e-9, f"premise: the plain FloatSlider was not snapped ({plain})"
        assert (free_kept, stepped_kept) == ("True", "True"), f"exact value lost (free, stepped): {free_kept, stepped_kept}"
        page.screenshot(path=artifacts_dir("lab") / "slider.png")
        assert log.outside == [] and log.failed == [], (log.outside, log.failed)
