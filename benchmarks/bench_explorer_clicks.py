"""How long an explorer's click takes to show its new score, beside a bare ipywidgets round trip.

    python benchmarks/bench_explorer_clicks.py [--clicks 30] [--warm-up 3]    (or: make bench-clicks)

JupyterLab is started as the browser tests start it (``tests/lab_server.py``: the course's server
settings, fresh folders, a scratch copy of ``notebooks/``), and headless Chromium runs notebook 01
there. In the copy, the cell that draws the reorder explorer also draws, below it, the references: a
bare ToggleButton and a bare Button, each echoed by a kernel callback into an HTML widget, the
least a click of that kind of widget costs through the kernel and back on this machine at this
moment (the explorer's verdict is a ToggleButton, its ↑ a Button). Then, interleaved so that all
four meet the same machine, each is clicked ``--clicks`` times (after ``--warm-up`` untimed rounds):

- the references, timed from the click to the echoed text;
- reorder, verdict toggle: a verdict of notebook 01's reorder explorer, to the new score;
- reorder, ↑: a row's ↑, which swaps two ranks back and forth, to the new score.

Each click starts from a settled page and is timed by the page itself, from the click event to the
text's change (``tests/browser_support.timed_action``). It prints the median and p95 (nearest rank)
of each, each explorer action's median over its bare widget's, and the machine: cores, load average before and
after, versions, date. A benchmark, not a test: nothing here passes or fails on a time (the
JupyterLab test only holds the explorers to a 250 ms median, where a click feels broken).
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from browser_support import CLICK_TIMINGS, tab, timed_action  # noqa: E402
from lab_server import copy_notebooks, open_and_run_all, running_lab  # noqa: E402

NOTEBOOK = "01_context_precision.ipynb"
EXPLORER = ".rme-reorder"
#: The references' code: a plain ToggleButton and a plain Button, each with a kernel callback that writes
#: into an HTML widget (the ``rme-score-value`` markup of the explorers' score, so one timer reads all).
REFERENCE_CODE = """\
import ipywidgets as widgets
reference_toggle = widgets.ToggleButton(description="toggle")
reference_button = widgets.Button(description="button")
reference_toggle_echo = widgets.HTML("<b class='rme-score-value'>False</b>")
reference_button_echo = widgets.HTML("<b class='rme-score-value'>0</b>")
def _echo_toggle(change):
    reference_toggle_echo.value = f"<b class='rme-score-value'>{change['new']}</b>"
def _echo_click(button, clicks=[0]):
    clicks[0] += 1
    reference_button_echo.value = f"<b class='rme-score-value'>{clicks[0]}</b>"
reference_toggle.observe(_echo_toggle, names="value")
reference_button.on_click(_echo_click)
reference = widgets.VBox([widgets.HBox([reference_toggle, reference_toggle_echo]).add_class("rme-bench-toggle"),
                          widgets.HBox([reference_button, reference_button_echo]).add_class("rme-bench-button")])
reference"""

TOGGLE_REFERENCE = "bare ipywidgets ToggleButton, echoed"
BUTTON_REFERENCE = "bare ipywidgets Button, echoed"
#: Each explorer action beside the bare widget of its kind (the verdict is a ToggleButton, ↑ a Button).
REFERENCE_OF = {"reorder explorer: verdict toggle": TOGGLE_REFERENCE, "reorder explorer: ↑ (a move)": BUTTON_REFERENCE}

#: Per rank: the explorer's verdict toggle text ("relevant" / "not relevant").
VERDICTS_JS = """selector => [...document.querySelector(selector).querySelectorAll('.rme-toggle')]
  .map(t => t.textContent.trim() === 'relevant' ? 1 : 0)"""


def add_references(root: Path) -> None:
    """Draw :data:`REFERENCE_CODE`'s widgets in the cell that draws notebook 01's reorder explorer, below it.

    The same cell, so that every click lands where the one before it did, as a learner's clicks on
    one explorer do: a click in another cell makes JupyterLab make that cell the active one first,
    which added about 30 ms to the next click here."""
    import nbformat

    path = root / NOTEBOOK
    notebook = nbformat.read(path, as_version=4)
    cell = next(cell for cell in notebook.cells
                if cell.cell_type == "code" and "ReorderExplorer.from_example" in cell.source)
    head, last = cell.source.rstrip().rsplit("\n", 1)
    cell.source = f"{head}\ndisplay({last.strip()})\n{REFERENCE_CODE}"
    nbformat.write(notebook, path)


def changing_positions(verdicts: list[int]) -> tuple[int, int]:
    """(rank to flip, rank to move up): two ranks apart, so that in each of the four states the rounds
    pass through (flipped or not, swapped or not) both actions change the library's score."""
    from ragmetrics_edu import metrics

    def score(flags: list[int]) -> float:
        return metrics.context_precision(flags).score

    def flipped(flags: list[int], pos: int) -> list[int]:
        return [1 - v if i == pos else v for i, v in enumerate(flags)]

    def swapped(flags: list[int], pos: int) -> list[int]:
        out = list(flags)
        out[pos - 1], out[pos] = out[pos], out[pos - 1]
        return out

    n = len(verdicts)
    for flip in range(n):
        for up in (p for p in range(1, n) if flip not in (p - 1, p)):
            states = [s for f in (verdicts, flipped(verdicts, flip)) for s in (f, swapped(f, up))]
            if all(score(flipped(s, flip)) != score(s) and score(swapped(s, up)) != score(s) for s in states):
                return flip, up
    raise SystemExit(f"no two ranks of {verdicts} whose flip and move both change the score")


def nearest_rank(times: list[float], share: float) -> float:
    """The ``share`` quantile by the nearest-rank rule (p95 of 30 clicks: the 29th fastest)."""
    ordered = sorted(times)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def measure(clicks: int, warm_up: int) -> tuple[dict[str, list[float]], str]:
    """Run the clicks; return the times per kind (ms, warm-up dropped) and the browser's version."""
    with tempfile.TemporaryDirectory(prefix="bench-clicks-") as scratch:
        root = copy_notebooks(Path(scratch))
        add_references(root)
        with running_lab(root) as base, tab(viewport=(1280, 1400)) as (page, _log):
            open_and_run_all(page, base, NOTEBOOK)
            score = f"{EXPLORER} .rme-score-value"
            page.locator(score).wait_for()
            flip, up = changing_positions(page.evaluate(VERDICTS_JS, EXPLORER))
            toggle, button = ".rme-bench-toggle", ".rme-bench-button"
            actions = {
                TOGGLE_REFERENCE: (f"{toggle} .rme-score-value", page.locator(f"{toggle} button")),
                BUTTON_REFERENCE: (f"{button} .rme-score-value", page.locator(f"{button} button")),
                "reorder explorer: verdict toggle": (score, page.locator(f"{EXPLORER} .rme-toggle-{flip}")),
                "reorder explorer: ↑ (a move)": (score, page.locator(f"{EXPLORER} .rme-up-{up}")),
            }
            CLICK_TIMINGS.clear()
            for _ in range(warm_up + clicks):
                for kind, (shown, button) in actions.items():
                    timed_action(page, kind, shown, button.click)
            version = page.context.browser.version
    return {kind: CLICK_TIMINGS[kind][warm_up:] for kind in actions}, version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=30, help="timed clicks of each kind (default 30)")
    parser.add_argument("--warm-up", type=int, default=3, help="untimed rounds first (default 3)")
    args = parser.parse_args()

    from importlib.metadata import version

    load_before = os.getloadavg()[0]
    times, chromium = measure(args.clicks, args.warm_up)
    load_after = os.getloadavg()[0]
    width = max(map(len, times))
    print(f"click -> updated text in JupyterLab {version('jupyterlab')}, ipywidgets {version('ipywidgets')}, "
          f"headless Chromium {chromium}; notebook {NOTEBOOK}; {args.clicks} clicks each after {args.warm_up} "
          "untimed rounds, interleaved, each from a settled page:")
    print(f"{'':{width}}  {'median':>9}  {'p95':>9}  over the bare widget of its kind")
    for kind, ms in times.items():
        median = statistics.median(ms)
        versus = ""
        if kind in REFERENCE_OF:
            versus = f"{median / statistics.median(times[REFERENCE_OF[kind]]):.2f}x"
        print(f"{kind:{width}}  {median:6.1f} ms  {nearest_rank(ms, 0.95):6.1f} ms  {versus}")
    print(f"machine: {platform.system()} {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{load_before:.2f} before and {load_after:.2f} after; Python {platform.python_version()}; "
          f"{datetime.date.today().isoformat()}")


if __name__ == "__main__":
    main()
