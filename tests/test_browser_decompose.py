"""Notebook 02's decomposition explorer works in a real JupyterLab, driven by a real headless Chromium.

Reuses the JupyterLab fixture and helpers of ``test_browser_lab.py``: a server on 127.0.0.1
serving a temporary copy of ``notebooks/``. The test runs every cell of
``02_context_recall.ipynb`` and checks that the explorer is rendered (not "Loading widget..."),
that it fits a 1440x900 laptop screen, and that each action shows the score the library computes:
the ✂ between deck A's two pieces is clicked (one statement), the lenient judge is ticked, the
menu is switched to deck E's Einstein answer, and its cut is clicked. No request may leave
127.0.0.1. Screenshots go to ``artifacts_dir("lab")``.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from test_browser_lab import (
    ACTION_TIMEOUT_MS,
    PLACEHOLDER_JS,
    UI_TIMEOUT_MS,
    open_and_run_all,
)

from browser_support import CLICK_MEDIAN_MS, artifacts_dir, chromium, click_summary, layout_faults, timed_action
from ragmetrics_edu.results import fmt
from ragmetrics_edu.widgets.decompose_model import CASES, DecomposeModel

EXPLORER = ".jp-NotebookPanel:not(.lm-mod-hidden) .rme-decompose"


def expected(key: str, *, cuts: list[bool] | None = None, lenient: bool = False) -> str:
    """The library's score for a deck case cut as given, as the explorer writes it."""
    model = DecomposeModel.from_example(key)
    if cuts is not None:
        model.set_cuts(cuts)
    model.set_lenient(lenient)
    return fmt(model.score)


def expect_score(page, text: str, statements: int) -> None:
    expect(page.locator(f"{EXPLORER} .rme-score-value")).to_have_text(text, timeout=ACTION_TIMEOUT_MS)
    expect(page.locator(f"{EXPLORER} .rme-decompose-statements li")).to_have_count(statements,
                                                                                  timeout=ACTION_TIMEOUT_MS)


def test_decomposition_explorer_in_jupyterlab(lab: str, record_property) -> None:
    with chromium(viewport=(1440, 900)) as (context, log):
        page = context.new_page()
        open_and_run_all(page, lab, "02_context_recall.ipynb")
        score = page.locator(f"{EXPLORER} .rme-score-value")
        expect(score).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
        assert not page.evaluate(PLACEHOLDER_JS, EXPLORER), "the explorer still shows 'Loading widget...'"
        faults = layout_faults(page, ".rme-decompose", "decompose", plot=False)  # it adds the panel prefix
        assert faults == [], "\n".join(faults)

        # Deck A as the deck cuts it: two statements.
        start = expected("A-cr-what-is-ai")
        expect_score(page, start, 2)
        page.screenshot(path=artifacts_dir("lab") / "decompose_1_deck_a.png")

        # ✂ off: the expected output as one statement, which the strict judge does not support.
        cut, shown = page.locator(f"{EXPLORER} .rme-cut-0"), f"{EXPLORER} .rme-score-value"
        timed_action(page, "decomposition", shown, cut.click)
        merged = expected("A-cr-what-is-ai", cuts=[False])
        assert merged != start
        expect_score(page, merged, 1)

        # A lenient judge accepts the merged statement because one of its pieces is supported.
        timed_action(page, "decomposition", shown, page.locator(f"{EXPLORER} .rme-lenient input").check)
        lenient = expected("A-cr-what-is-ai", cuts=[False], lenient=True)
        assert lenient != merged
        expect_score(page, lenient, 1)
        page.screenshot(path=artifacts_dir("lab") / "decompose_2_deck_a_merged_lenient.png")

        # The menu: deck E's low Einstein answer, two claims, then one.
        page.locator(f"{EXPLORER} .rme-decompose-case select").select_option(label=CASES["E-faith-einstein"].title)
        two = expected("E-faith-einstein")
        expect_score(page, two, 2)
        timed_action(page, "decomposition", shown, cut.click)
        one = expected("E-faith-einstein", cuts=[False])
        assert one != two
        expect_score(page, one, 1)

        # The ✂ clicked ten more times, each timed from the click to the new score, each checked.
        for i in range(10):
            timed_action(page, "decomposition", shown, cut.click)
            expect_score(page, two if i % 2 == 0 else one, 2 if i % 2 == 0 else 1)
        n, median, worst = click_summary("decomposition", record_property)
        assert median <= CLICK_MEDIAN_MS, f"decomposition explorer: click -> score median {median:.0f} ms over {n} actions"
        page.screenshot(path=artifacts_dir("lab") / "decompose_3_deck_e_one_claim.png")

        assert log.outside == [] and log.failed == [], (log.outside, log.failed)
