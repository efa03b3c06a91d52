"""Keep Jupyter, IPython and matplotlib state out of $HOME while tests (and nbval) run."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from lab_server import lab, lab_root, lab_tab  # noqa: F401  (fixtures: one JupyterLab per test process, a tab on it per module)

_STATE = Path(tempfile.mkdtemp(prefix="ragmetrics-tests-"))
atexit.register(shutil.rmtree, _STATE, ignore_errors=True)  # by then its servers and kernels are stopped
for _var, _sub in (("JUPYTER_CONFIG_DIR", "jupyter-config"), ("JUPYTER_DATA_DIR", "jupyter-data"),
                   ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"), ("IPYTHONDIR", "ipython"),
                   ("MPLCONFIGDIR", "matplotlib")):
    os.environ.setdefault(_var, str(_STATE / _sub))
os.environ.setdefault("MPLBACKEND", "Agg")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _no_outside_llm(monkeypatch):
    """No key or base URL from the developer's shell reaches a test; 127.0.0.1 is never proxied."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture
def server():
    """A scripted OpenAI-compatible server on 127.0.0.1, stopped after the test."""
    from scripted_server import ScriptedServer

    srv = ScriptedServer().start()
    try:
        yield srv
    finally:
        srv.stop()


#: Explorer kind -> ms from each timed click to the updated score, gathered from the browser tests'
#: reports (``record_property("explorer_clicks", ...)``), so the summary also works under pytest-xdist.
_CLICKS: dict[str, list[float]] = {}


#: Notebook -> seconds its cells took under nbval, kernel start included (set-up, call and teardown of
#: each cell's test: nbval starts the kernel in the first cell's set-up and stops it in the last's teardown).
_NOTEBOOK_SECONDS: dict[str, float] = {}
#: What a notebook may take under nbval (issue 21): printed beside each notebook's time, not enforced
#: (a busy or slow machine is not a broken notebook).
NOTEBOOK_BUDGET_S = 10.0


def pytest_runtest_logreport(report) -> None:
    path = report.nodeid.split("::")[0]
    if path.endswith(".ipynb"):
        _NOTEBOOK_SECONDS[path] = _NOTEBOOK_SECONDS.get(path, 0.0) + report.duration
    if report.when == "call":
        for name, value in report.user_properties:
            if name == "explorer_clicks":
                kind, times = value
                _CLICKS.setdefault(kind, []).extend(times)


def pytest_terminal_summary(terminalreporter) -> None:
    """Print each notebook's time under nbval, and each explorer kind's click -> score times."""
    import statistics

    from browser_support import CLICK_BOUND_MS

    if _NOTEBOOK_SECONDS:
        terminalreporter.section("notebooks under nbval: seconds each, kernel start included")
        for path, seconds in sorted(_NOTEBOOK_SECONDS.items()):
            over = "  OVER BUDGET" if seconds > NOTEBOOK_BUDGET_S else ""
            terminalreporter.write_line(f"{seconds:5.1f} s  {path}{over}")
        slowest = max(_NOTEBOOK_SECONDS, key=_NOTEBOOK_SECONDS.__getitem__)
        terminalreporter.write_line(f"slowest {_NOTEBOOK_SECONDS[slowest]:.1f} s ({slowest}); "
                                    f"budget: each <= {NOTEBOOK_BUDGET_S:g} s")
    if not _CLICKS:
        return
    terminalreporter.section("explorers: click -> updated score in a real JupyterLab")
    for kind in sorted(_CLICKS):
        times = _CLICKS[kind]
        terminalreporter.write_line(f"{kind:<16} {len(times):3d} actions  median {statistics.median(times):6.1f} ms  "
                                    f"max {max(times):6.1f} ms  (bound: median <= {CLICK_BOUND_MS:g} ms; "
                                    "benchmarks/bench_explorer_clicks.py measures them)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails leaves a picture of its page: ``failed/<test>.png`` under the test artifacts
    (the browser tests take few screenshots otherwise; see ``browser_support.lab_shot``)."""
    report = yield
    if report.failed and call.when == "call":
        tab = next((item.funcargs[name] for name in ("prepared", "lab_tab", "tab") if name in item.funcargs), None)
        if tab is not None:
            import re

            from browser_support import artifacts_dir

            try:
                tab[0].screenshot(path=artifacts_dir("failed") / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', item.name)}.png")
            except Exception as error:  # noqa: BLE001 - a page too broken to picture must not hide the failure
                report.sections.append(("screenshot", f"no screenshot of the failed page: {error}"))
    return report


#: The test files that take longest, slowest first: collected first, so that under pytest-xdist (``make
#: test``, ``--dist loadfile``) they start at once and the many short files fill the other process.
SLOW_FIRST = ("test_slides_browser.py", "test_api_walk.py", "test_junk_inputs.py", "test_packaging.py", "test_choosing_metrics.py")


def pytest_collection_modifyitems(items) -> None:
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOW_FIRST)))  # stable: the rest keep their order


def plant_package(root: Path, files: dict[str, str]) -> Path:
    """Write a small fake package (file name -> source) under ``root``: the layering and one-home tests
    run their checkers on one with a planted violation of each rule."""
    import textwrap

    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root
