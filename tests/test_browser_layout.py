"""Notebook 08's explorer on a laptop screen, and the exact slider, in a real JupyterLab (Chromium).

Not timed: ``make test`` runs this module first in its JupyterLab run, beside the other tests and
before the timed ones, on that run's JupyterLab in a Chromium tab of its own (``lab_server``).
Notebook 08 is run at 1440x900 and its reorder explorer must fit the width, show its plot above the fold and never break a number over
two lines (the timed tests check notebook 01's explorers and notebook 02's the same way, on the
notebooks they run anyway); notebook 07's exact slider value must survive the browser's snapping.
Screenshots go to ``artifacts_dir("lab")``.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect
from test_browser_lab import ACTION_TIMEOUT_MS, EXPLORER, UI_TIMEOUT_MS, open_and_run_all, open_notebook

from browser_support import artifacts_dir, layout_faults


def test_explorers_fit_a_laptop_screen(lab: str, lab_tab) -> None:
    # 1440x900, a common laptop screen: notebook 08's reorder explorer fits its width, shows its whole
    # plot without scrolling (scrolled to the explorer's top) and never breaks a number over two lines.
    page, log = lab_tab
    log.clear()
    page.set_viewport_size({"width": 1440, "height": 900})
    open_and_run_all(page, lab, "08_ranking_measures.ipynb")
    visible = f".jp-NotebookPanel:not(.lm-mod-hidden) {EXPLORER}"
    expect(page.locator(f"{visible} .rme-score-value")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
    faults = layout_faults(page, EXPLORER, "reorder (08)", plot=True)
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


def test_slider_keeps_the_value_it_was_given(lab: str, lab_root: Path, lab_tab) -> None:
    # Notebook 07's similarity 0.5714...: the browser snaps a stepped slider and writes the snapped
    # value back. ipywidgets' FloatSlider takes it (the premise, checked here); ExactFloatSlider,
    # with or without a step, keeps the exact value, and without a step shows it.
    import nbformat

    name = "rme_slider_check.ipynb"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in SLIDER_CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, lab_root / name)
    page, log = lab_tab
    log.clear()
    page.set_viewport_size({"width": 1280, "height": 800})
    open_notebook(page, lab, name)
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
