"""The explorers in a real JupyterLab, driven by a real headless Chromium.

JupyterLab is started on 127.0.0.1 with fresh settings, config, data, runtime and HOME folders,
serving a temporary copy of ``notebooks/`` (it autosaves; the committed notebooks are never
served); every test here drives one Chromium tab on it (``lab_server``). In order:

- Untimed. Notebook 07's exact slider keeps the value it was given though the browser snaps it;
  notebook 08 is run at 1440x900 and its reorder explorer must fit the width, show its plot
  above the fold and never break a number over two lines.
- Untimed. Notebooks 01 and 02 are opened and run, every cell without error, and each explorer is
  rendered as a widget (not the "Loading widget..." placeholder); their explorers (reorder,
  permutations, decomposition, statements) must fit the same laptop screen, and the selected
  verdict must stand out.
- Clicked. ``01_context_precision.ipynb``: a ↑ button, a verdict toggle and a chip drag each show
  the order and verdicts the action should give, and the score ``metrics.context_precision``
  computes for them, which differs from the score before; at the moment the new score shows, the
  rows already show its order (the explorer sends them first: a test once read ``N3, N2, N3``).
  ``02_context_recall.ipynb``: the ✂ between deck A's two pieces is clicked (one statement), the
  lenient judge is ticked, the menu is switched to deck E's Einstein answer, and its cut is
  clicked; each shows the score the library computes.

Each click is also timed to the updated score, from a settled explorer
(``browser_support.timed_action``), and the median must stay under
:data:`browser_support.CLICK_BOUND_MS` (250 ms), the point where a click feels broken: a bound no
healthy machine misses, busy or not. How fast the clicks really are is measured, beside a bare
ipywidgets round trip, by ``benchmarks/bench_explorer_clicks.py`` (the README quotes it).
JupyterLab loads the course's server settings (``lab/jupyter_server_config.py``). No request may
leave 127.0.0.1, and none may fail. Screenshots go to ``artifacts_dir("lab")``
(``test-artifacts/lab/`` unless ``RME_ARTIFACTS`` says otherwise).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from browser_support import (
    CLICK_BOUND_MS,
    FRONT,
    click_summary,
    lab_shot,
    layout_faults,
    timed_action,
    verdict_contrast_faults,
)
from lab_server import ACTION_TIMEOUT_MS, UI_TIMEOUT_MS, open_and_run_all, open_notebook, show_notebook
from ragmetrics_edu import metrics
from ragmetrics_edu.results import fmt
from ragmetrics_edu.widgets.decompose_model import CASES, DecomposeModel

NOTEBOOK = "01_context_precision.ipynb"
DECOMPOSE_NOTEBOOK = "02_context_recall.ipynb"
EXPLORER = ".rme-reorder"
#: The TagsInput's chips (its hidden text input carries the chip class too, but is not draggable).
CHIPS = ".rme-tags .jupyter-widget-tag[draggable='true']"

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


# -- untimed: the exact slider, notebook 08 on a laptop screen ------------------------------------
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
    panel = FRONT  # the server's other notebooks may be open in tabs too
    readouts = page.locator(f"{panel} .widget-slider .widget-readout")
    expect(readouts).to_have_count(3, timeout=UI_TIMEOUT_MS)
    expect(readouts.nth(2)).to_have_text("0.5700", timeout=ACTION_TIMEOUT_MS)  # the browser snapped it
    expect(readouts.nth(0)).to_have_text("0.5714", timeout=ACTION_TIMEOUT_MS)
    # Ask the kernel until the plain slider's snapped value has reached it: the sliders write back in
    # the order they were drawn, over one connection, so the two before it have written back by then.
    output = page.locator(f"{panel} .jp-Cell").nth(1).locator(".jp-OutputArea-output")
    deadline = time.monotonic() + ACTION_TIMEOUT_MS / 1000
    while True:
        page.evaluate(RUN_CELL_JS, 1)
        page.wait_for_function("() => window.rmeRunCell !== undefined", timeout=UI_TIMEOUT_MS, polling=100)
        expect(output).to_contain_text("kernel:", timeout=ACTION_TIMEOUT_MS)
        _, free_kept, stepped_kept, plain = output.inner_text().split()
        if abs(float(plain) - 0.57) < 1e-9 or time.monotonic() > deadline:
            break
        page.wait_for_timeout(100)
    assert abs(float(plain) - 0.57) < 1e-9, f"premise: the plain FloatSlider was not snapped ({plain})"
    assert (free_kept, stepped_kept) == ("True", "True"), f"exact value lost (free, stepped): {free_kept, stepped_kept}"
    lab_shot(page, "slider")
    assert log.outside == [] and log.failed == [], (log.outside, log.failed)


def test_notebook_08_explorer_fits_a_laptop_screen(lab: str, lab_tab) -> None:
    # 1440x900, a common laptop screen: notebook 08's reorder explorer fits its width, shows its whole
    # plot without scrolling (scrolled to the explorer's top) and never breaks a number over two lines.
    page, log = lab_tab
    log.clear()
    page.set_viewport_size({"width": 1440, "height": 900})
    open_and_run_all(page, lab, "08_ranking_measures.ipynb")
    visible = f"{FRONT} {EXPLORER}"
    expect(page.locator(f"{visible} .rme-score-value")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
    faults = layout_faults(page, EXPLORER, "reorder (08)", plot=True)
    assert faults == [], "\n".join(faults)
    assert log.outside == [] and log.failed == [], (log.outside, log.failed)


# -- notebooks 01 and 02: the layout, then the clicks ----------------------------------------------
@pytest.fixture(scope="module")
def prepared(lab: str, lab_tab):
    """The module's tab with notebooks 01 and 02 open and run (02 in front). Yields (page, request log)."""
    page, log = lab_tab
    open_and_run_all(page, lab, NOTEBOOK)
    open_and_run_all(page, lab, DECOMPOSE_NOTEBOOK, alone=False)
    return page, log


#: True once the explorer shows ``score`` and the verdict toggles ``toggles`` (one round trip, polled per frame).
SHOWS_JS = f"""([selector, chips, score, toggles]) => {{
  const shown = ({STATE_JS})([selector, chips]);
  return shown.score === score && JSON.stringify(shown.toggles) === JSON.stringify(toggles);
}}"""


def expect_shown(page, before: Shown, nodes: list[str], verdicts: list[int]) -> Shown:
    """Wait for the explorer to show ``nodes`` with ``verdicts`` and the library's score for them; return it."""
    expected = score_text(verdicts)
    toggles = ["relevant" if flag else "not relevant" for flag in verdicts]
    try:
        page.wait_for_function(SHOWS_JS, arg=[EXPLORER, CHIPS, expected, toggles], timeout=ACTION_TIMEOUT_MS,
                               polling="raf")
    except PlaywrightTimeout:
        pytest.fail(f"the explorer never showed score {expected} with verdicts {verdicts}: it shows {read_explorer(page)}")
    after = read_explorer(page)
    assert after.nodes == nodes and after.chips == nodes, \
        f"order shown {after.nodes}, chips {after.chips}, expected {nodes}"
    assert after.verdicts == verdicts, f"verdicts shown {after.verdicts}, expected {verdicts}"
    assert after.score == score_text(after.verdicts), "the score shown is not the library's for the verdicts shown"
    assert after.score != before.score, f"the score did not change ({before.score})"
    return after


def test_notebooks_01_and_02_fit_a_laptop_screen(prepared) -> None:
    """After Run All, on a 1440x900 laptop screen: notebook 01's reorder and permutations explorers fit
    its width and show their plots above the fold; notebook 02's decomposition and statements
    explorers fit, never break a number over two lines, and the selected verdict stands out."""
    page, log = prepared
    page.set_viewport_size({"width": 1440, "height": 900})
    faults: list[str] = []
    for notebook, explorers in ((NOTEBOOK, {EXPLORER: True, ".rme-permutations": True}),
                                (DECOMPOSE_NOTEBOOK, {".rme-decompose": False, ".rme-statements": False})):
        show_notebook(page, notebook)
        for selector, plot in explorers.items():
            visible = f"{FRONT} {selector}"
            expect(page.locator(f"{visible} .rme-score-value").first).to_have_text(re.compile(r"\S"),
                                                                                  timeout=UI_TIMEOUT_MS)
            assert not page.evaluate(PLACEHOLDER_JS, visible), f"{notebook}: {selector} still shows 'Loading widget...'"
            faults += layout_faults(page, selector, selector.removeprefix(".rme-"), plot=plot)  # it adds the panel prefix
    faults += verdict_contrast_faults(page, f"{FRONT} .rme-statements")
    assert faults == [], "\n".join(faults)
    assert log.outside == [] and log.failed == [], (log.outside, log.failed)


def test_reorder_explorer_in_jupyterlab(prepared, record_property) -> None:
    page, log = prepared
    # Tall enough for the whole explorer (about 1150 px) below JupyterLab's menu and toolbar.
    page.set_viewport_size({"width": 1280, "height": 1400})
    show_notebook(page, NOTEBOOK)
    # The score is filled in a moment after the widget appears.
    expect(page.locator(f"{EXPLORER} .rme-score-value")).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
    assert not page.evaluate(PLACEHOLDER_JS, EXPLORER), "the explorer's output still shows 'Loading widget...'"
    start = read_explorer(page)
    assert len(start.nodes) >= 2 and start.chips == start.nodes
    assert start.score == score_text(start.verdicts), "after Run All the score is not the library's"
    lab_shot(page, "01_after_run_all", always=True, scroll_to=EXPLORER)  # one default picture of the explorer

    # ↑ on the first row whose move changes the score: that node and its verdict go one rank up.
    score = f"{EXPLORER} .rme-score-value"
    pos = first_changing(start.verdicts, range(1, len(start.verdicts)), lambda v, p: moved(v, p, p - 1))
    timed_action(page, "reorder", score, page.locator(f"{EXPLORER} .rme-up-{pos}").click)
    up = expect_shown(page, start, moved(start.nodes, pos, pos - 1), moved(start.verdicts, pos, pos - 1))
    lab_shot(page, "02_after_up", scroll_to=EXPLORER)

    # The first toggle whose flip changes the score: only that verdict changes.
    pos = first_changing(up.verdicts, range(len(up.verdicts)), flipped)
    timed_action(page, "reorder", score, page.locator(f"{EXPLORER} .rme-toggle-{pos}").click)
    toggled = expect_shown(page, up, up.nodes, flipped(up.verdicts, pos))
    lab_shot(page, "03_after_toggle", scroll_to=EXPLORER)

    # Drag the chip of the first node whose move to rank 1 changes the score onto the first chip.
    pos = first_changing(toggled.verdicts, range(1, len(toggled.verdicts)), lambda v, p: moved(v, p, 0))
    chips = page.locator(f"{EXPLORER} {CHIPS}")
    timed_action(page, "reorder", score, lambda: chips.nth(pos).drag_to(chips.nth(0)))
    dragged = expect_shown(page, toggled, moved(toggled.nodes, pos, 0), moved(toggled.verdicts, pos, 0))
    lab_shot(page, "04_after_drag", scroll_to=EXPLORER)

    # Ten more flips of one verdict, each timed from the click to the new score, each checked. The
    # toggle was just clicked as a person would (Playwright waited until it was visible, stable and
    # the one hit); these repeat clicks skip those waits (force), which the timer never saw anyway.
    shown = dragged
    pos = first_changing(shown.verdicts, range(len(shown.verdicts)), flipped)
    toggle = page.locator(f"{EXPLORER} .rme-toggle-{pos}")
    for _ in range(10):
        timed_action(page, "reorder", score, lambda: toggle.click(force=True))
        shown = expect_shown(page, shown, shown.nodes, flipped(shown.verdicts, pos))
    n, median, worst = click_summary("reorder", record_property)
    assert median <= CLICK_BOUND_MS, f"reorder explorer: click -> score median {median:.0f} ms over {n} actions"

    assert log.outside == [], f"requests left 127.0.0.1: {log.outside}"
    assert log.failed == [], f"requests failed: {log.failed}"


# -- notebook 02's decomposition explorer ------------------------------------------------------------
DECOMPOSE = f"{FRONT} .rme-decompose"


def expected_decomposed(key: str, *, cuts: list[bool] | None = None, lenient: bool = False) -> str:
    """The library's score for a deck case cut as given, as the explorer writes it."""
    model = DecomposeModel.from_example(key)
    if cuts is not None:
        model.set_cuts(cuts)
    model.set_lenient(lenient)
    return fmt(model.score)


#: True once the visible decomposition explorer shows the score ``text`` and ``count`` statements.
DECOMPOSED_JS = """([root, text, count]) => {
  const explorer = document.querySelector(root), score = explorer && explorer.querySelector('.rme-score-value');
  return !!score && score.textContent.trim() === text
    && explorer.querySelectorAll('.rme-decompose-statements li').length === count;
}"""


def expect_decomposed(page, text: str, statements: int) -> None:
    """Wait for the decomposition explorer to show the score ``text`` and ``statements`` statements."""
    try:
        page.wait_for_function(DECOMPOSED_JS, arg=[DECOMPOSE, text, statements], timeout=ACTION_TIMEOUT_MS,
                               polling="raf")
    except PlaywrightTimeout:
        shown = page.evaluate("""root => { const e = document.querySelector(root);
          return e && [e.querySelector('.rme-score-value').textContent.trim(),
                       e.querySelectorAll('.rme-decompose-statements li').length]; }""", DECOMPOSE)
        pytest.fail(f"the decomposition explorer never showed {text} with {statements} statements: it shows {shown}")


def test_decomposition_explorer_in_jupyterlab(prepared, record_property) -> None:
    page, log = prepared
    page.set_viewport_size({"width": 1440, "height": 900})
    show_notebook(page, DECOMPOSE_NOTEBOOK)
    score = page.locator(f"{DECOMPOSE} .rme-score-value")
    expect(score).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
    assert not page.evaluate(PLACEHOLDER_JS, DECOMPOSE), "the explorer still shows 'Loading widget...'"

    # Deck A as the deck cuts it: two statements.
    start = expected_decomposed("A-cr-what-is-ai")
    expect_decomposed(page, start, 2)
    lab_shot(page, "decompose_1_deck_a")

    # ✂ off: the expected output as one statement, which the strict judge does not support.
    cut, shown = page.locator(f"{DECOMPOSE} .rme-cut-0"), f"{DECOMPOSE} .rme-score-value"
    timed_action(page, "decomposition", shown, cut.click)
    merged = expected_decomposed("A-cr-what-is-ai", cuts=[False])
    assert merged != start
    expect_decomposed(page, merged, 1)

    # A lenient judge accepts the merged statement because one of its pieces is supported.
    timed_action(page, "decomposition", shown, page.locator(f"{DECOMPOSE} .rme-lenient input").check)
    lenient = expected_decomposed("A-cr-what-is-ai", cuts=[False], lenient=True)
    assert lenient != merged
    expect_decomposed(page, lenient, 1)
    lab_shot(page, "decompose_2_deck_a_merged_lenient")

    # The menu: deck E's low Einstein answer, two claims, then one.
    page.locator(f"{DECOMPOSE} .rme-decompose-case select").select_option(label=CASES["E-faith-einstein"].title)
    two = expected_decomposed("E-faith-einstein")
    expect_decomposed(page, two, 2)
    timed_action(page, "decomposition", shown, cut.click)
    one = expected_decomposed("E-faith-einstein", cuts=[False])
    assert one != two
    expect_decomposed(page, one, 1)

    # The ✂ clicked ten more times, each timed from the click to the new score, each checked (forced,
    # as the reorder explorer's repeat clicks above).
    for i in range(10):
        timed_action(page, "decomposition", shown, lambda: cut.click(force=True))
        expect_decomposed(page, two if i % 2 == 0 else one, 2 if i % 2 == 0 else 1)
    n, median, worst = click_summary("decomposition", record_property)
    assert median <= CLICK_BOUND_MS, f"decomposition explorer: click -> score median {median:.0f} ms over {n} actions"
    lab_shot(page, "decompose_3_deck_e_one_claim")

    assert log.outside == [] and log.failed == [], (log.outside, log.failed)
