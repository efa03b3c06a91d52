"""The course in a browser tab: the offline JupyterLite site, in headless Chromium, with no request outside.

``make test-site`` (run by ``.ci/run``; not part of ``make test``, which ignores this folder): builds
the site with Pyodide bundled, serves it on 127.0.0.1, opens notebook 00 in JupyterLite and runs it
the way a student does (Run All), clicks its reorder explorer and checks the score it then shows
against ``metrics``, then runs every notebook's code cells, in order, in that same browser kernel.
Chromium sends nothing beyond 127.0.0.1 (browser_support), and the test counts what tried.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from site_support import (
    ERRORS_JS,
    add_and_run_cell,
    build_site,
    driver_code,
    open_notebook,
    run_all,
    serving,
    wait_for_lines,
)

from browser_support import artifacts_dir, launch, new_context
from ragmetrics_edu import metrics
from ragmetrics_edu.results import fmt

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
FIRST = "00_start_here.ipynb"
EXPLORER = ".jp-NotebookPanel:not(.lm-mod-hidden) .rme-reorder"
#: Each row's verdict toggle and the score, as the explorer shows them.
SHOWN_JS = """root => { const e = document.querySelector(root);
  return {score: e.querySelector('.rme-score-value').textContent.trim(),
          toggles: [...e.querySelectorAll('.rme-toggle')].map(t => t.textContent.trim())}; }"""
FLAGS = {"relevant": 1, "not relevant": 0}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    build_site(out)
    return out


def _shown(page) -> tuple[str, list[int]]:
    raw = page.evaluate(SHOWN_JS, EXPLORER)
    assert set(raw["toggles"]) <= set(FLAGS), raw["toggles"]
    return raw["score"], [FLAGS[t] for t in raw["toggles"]]


def test_every_notebook_runs_in_the_browser_offline_and_an_explorer_scores_as_metrics_does(site: Path) -> None:
    started = time.monotonic()
    with serving(site) as base, launch() as browser:
        context, log = new_context(browser, (1280, 800))
        page = context.new_page()
        open_notebook(page, base, FIRST)
        run_all(page)
        assert page.evaluate(ERRORS_JS) == [], f"{FIRST} after Run All in JupyterLite"
        ran_first = time.monotonic() - started

        page.locator(f"{EXPLORER} .rme-score-value").first.scroll_into_view_if_needed()
        before, verdicts = _shown(page)
        assert before == fmt(metrics.context_precision(verdicts).score), "after Run All the score is not the library's"
        down = page.locator(f"{EXPLORER} .rme-down-0")
        down.click()  # the first node goes down one rank
        page.wait_for_function(f"() => ({SHOWN_JS})({EXPLORER!r}).score !== {before!r}", timeout=60_000)
        after, moved = _shown(page)
        assert moved == [verdicts[1], verdicts[0], *verdicts[2:]], "the order shown is not the one clicked"
        assert after == fmt(metrics.context_precision(moved).score), "the score shown is not the library's"
        page.screenshot(path=str(artifacts_dir("site") / "00_explorer.png"))

        add_and_run_cell(page, driver_code(NOTEBOOKS))
        lines = wait_for_lines(page, len(NOTEBOOKS), timeout_s=900)
        errors = page.evaluate(ERRORS_JS)
        page.screenshot(path=str(artifacts_dir("site") / "all_notebooks.png"))
        context.close()
    report = "\n".join(f"  {x['notebook']}: {x['seconds']} s, {x['cells']}/{x['of']} cells, error: {x['error']}"
                       for x in lines)
    print(f"\nsite: {FIRST} ran and its explorer was checked after {ran_first:.0f} s; all notebooks:\n{report}\n"
          f"in all {time.monotonic() - started:.0f} s; requests: {len(log.urls)}, outside: {len(log.outside)}")
    assert not errors, f"the driver cell failed: {errors}"
    assert [x["notebook"] for x in lines] == NOTEBOOKS, f"not every notebook ran:\n{report}"
    assert all(x["error"] is None and x["cells"] == x["of"] > 0 for x in lines), f"a notebook failed:\n{report}"
    assert log.outside == [], f"requests beyond 127.0.0.1: {log.outside[:5]}"
    assert not [f for f in log.failed if not re.search(r"/(api/contents|files)/.*all\.json", f)], log.failed
