"""What a student waits for in the browser site, cold and warm, beside JupyterLab from `make lab`.

    python benchmarks/bench_site.py [--site lab/lite/_output]     (make bench-site)

Builds the offline site (``lab/lite/build.py --offline``) unless ``--site`` names a built one, serves it on
127.0.0.1 and opens notebook 00 in headless Chromium, as a student does, with Run All. It measures, from
the moment the page is asked for:

- *first result*: the lesson's first output (the cell after the install cell);
- *explorer score*: the reorder explorer's score on screen;

once **cold** (a fresh browser profile: nothing cached) and once **warm** (a second visit in the same
profile: the browser's cache holds Pyodide and the wheels). Then the same two moments in JupyterLab
served from this Python (the environment `make lab` builds, already installed), for comparison.
A benchmark, not a test: quote it from a machine doing nothing else.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from site_support import RUN_ALL_JS, build_site, serving  # noqa: E402

from browser_support import launch, new_context  # noqa: E402
from lab_server import copy_notebooks, running_lab  # noqa: E402

NOTEBOOK = "00_start_here.ipynb"
SCORE = ".jp-NotebookPanel:not(.lm-mod-hidden) .rme-reorder .rme-score-value"
#: The first code cell (``first`` counts code cells; 1 skips the site's install cell) has an output: the lesson's first result.
FIRST_OUTPUT_JS = """first => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.content) return false;
  const code = w.content.widgets.filter(c => c.model.type === 'code').slice(first);
  return code.length > 0 && !!code[0].model.outputs && code[0].model.outputs.length > 0; }"""


def visit(page, url: str, first: int) -> tuple[float, float]:
    """Seconds from asking for ``url`` to the first result, and to the explorer's score, with Run All."""
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function("() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
                           " return !!(w && w.sessionContext && w.context); }", timeout=300_000)
    page.evaluate(RUN_ALL_JS)
    page.wait_for_function(FIRST_OUTPUT_JS, arg=first, timeout=600_000, polling=100)
    first_result = time.perf_counter() - start
    page.wait_for_selector(SCORE, timeout=600_000)
    return first_result, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a site built with lab/lite/build.py --offline (default: build one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-site-") as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            began = time.perf_counter()
            build_site(site)
            print(f"built the offline site in {time.perf_counter() - began:.0f} s")
        rows = []
        with serving(site) as base, launch() as browser:
            context, log = new_context(browser)
            page = context.new_page()
            url = f"{base}/lab/index.html?path={NOTEBOOK}"
            rows.append(("site, cold", *visit(page, url, first=1)))
            rows.append(("site, warm", *visit(page, url, first=1)))
            context.close()
        with running_lab(copy_notebooks(Path(scratch) / "lab")) as lab, launch() as browser:
            context, _ = new_context(browser)
            page = context.new_page()
            rows.append(("JupyterLab (make lab)", *visit(page, f"{lab}/lab/tree/{NOTEBOOK}?reset", first=0)))
            context.close()
    print(f"{platform.node()}, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}: notebook {NOTEBOOK}")
    print(f"{'':24}{'first result':>14}{'explorer score':>16}")
    for name, first, explorer in rows:
        print(f"{name:24}{first:>12.1f} s{explorer:>14.1f} s")
    print(f"requests beyond 127.0.0.1 on the site: {len(log.outside)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
