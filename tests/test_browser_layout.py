"""The explorers' layout on a laptop screen, and the exact slider, in a real JupyterLab (Chromium).

Not timed, so not in ``make test``'s timed step: this module runs beside the other untimed tests,
with a JupyterLab of its own (the fixtures of ``test_browser_lab``). Notebooks 01, 02 and 08 are run
at 1440x900 and their explorers must fit the width, show their plot above the fold, never break a
number over two lines, and make the selected verdict stand out (notebook 01's are checked by the
timed test in ``test_browser_lab``, which runs it anyway); notebook 07's exact slider value
must survive the browser's snapping. Screenshots go to ``artifacts_dir("lab")``.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect
from test_browser_lab import (
    ACTION_TIMEOUT_MS,
    EXPLORER,
    NOTEBOOK_READY_JS,
    UI_TIMEOUT_MS,
    open_and_run_all,
)

from browser_support import artifacts_dir, chromium, layout_faults

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


def test_explorers_fit_a_laptop_screen(lab: str) -> None:
    # 1440x900, a common laptop screen: the explorers of notebooks 02 and 08 fit its width, show
    # their whole plot without scrolling (scrolled to the explorer's top), never break a number
    # over two lines, and a selected verdict stands out from the others. (Notebook 01's explorers
    # are checked the same way at the end of test_browser_lab's timed test, which runs it anyway.)
    with chromium(viewport=(1440, 900)) as (context, log):
        page = context.new_page()
        faults: list[str] = []
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
