"""What the real-browser tests share: Debian's Chromium under Playwright, a request log, artifacts.

The browser is the system's ``/usr/bin/chromium`` (``.ci/run`` installs it with apt; set
``RME_CHROMIUM`` to use another); Playwright never downloads one. Every request the page makes
is recorded, and anything not addressed to 127.0.0.1 (or a ``file:``/``data:``/``blob:`` URL)
is refused by the browser and reported, so a test can assert that nothing left the machine.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
from urllib.parse import urlparse

import pytest

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("RME_CHROMIUM", "/usr/bin/chromium")
#: A port on 127.0.0.1 where no proxy listens: every request Chromium would send beyond 127.0.0.1 goes there and fails.
DEAD_PROXY = "http://127.0.0.1:9"
#: Flags for a headless run on a machine with no network but the package registries. With no GPU, the
#: compositor runs in the browser process and rasterises on one thread (``--in-process-gpu``,
#: ``--num-raster-threads=1``): on 2 cores that cut Chromium's CPU by a tenth (decks and JupyterLab alike).
#: The last two keep every request on the machine without intercepting any (see :meth:`RequestLog.attach`):
#: no host name resolves but 127.0.0.1 and localhost, and anything not on the loopback goes to
#: :data:`DEAD_PROXY` (Chromium never sends loopback requests through a proxy).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--in-process-gpu", "--num-raster-threads=1",
                 "--disable-quic", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
                 "--disable-extensions", "--mute-audio",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
                 f"--proxy-server={DEAD_PROXY}"]
#: CSS for the notebook in front in JupyterLab (the others stay in the DOM, hidden in their tabs).
FRONT = ".jp-NotebookPanel:not(.lm-mod-hidden)"
LOCAL_SCHEMES = {"file", "data", "blob", "about"}


def artifacts_dir(*parts: str) -> Path:
    """Where screenshots go: ``$RME_ARTIFACTS`` or ``test-artifacts/`` in the repository (git-ignored)."""
    root = Path(os.environ.get("RME_ARTIFACTS", REPO / "test-artifacts"))
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def is_local(url: str) -> bool:
    """True for 127.0.0.1/localhost over HTTP(S)/WebSocket, and for file:, data:, blob:, about: URLs."""
    parsed = urlparse(url)
    if parsed.scheme in LOCAL_SCHEMES:
        return True
    return parsed.scheme in {"http", "https", "ws", "wss"} and parsed.hostname in {"127.0.0.1", "localhost"}


@dataclass
class RequestLog:
    """Every URL a browser context asked for, those that were not local (refused by the browser), and failed responses."""

    urls: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def clear(self) -> None:
        """Forget what was logged so far (a page reused for the next check starts a fresh log)."""
        self.urls.clear()
        self.outside.clear()
        self.failed.clear()

    def attach(self, context) -> None:
        """Log every request ``context`` makes (a non-local one also as outside) and every failed response.

        Listened to, not intercepted: Playwright turns a context's HTTP cache off once it routes its
        requests, and each routed request waits on a round trip to this process. Chromium itself
        refuses to send a non-local request (:data:`CHROMIUM_ARGS`); the log says it was tried."""
        def seen(request) -> None:
            self.urls.append(request.url)
            if not is_local(request.url):
                self.outside.append(request.url)

        context.on("request", seen)
        context.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)


def require_chromium() -> None:
    """Fail (never skip) with the fix when the browser is missing: these tests are part of `make test`."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's package (`apt-get install chromium`, "
                    "which `make test` does as root) or set RME_CHROMIUM to a Chromium binary", pytrace=False)


@contextmanager
def launch() -> Iterator[object]:
    """A headless Chromium with its own HOME and profile, closed on exit; open pages with :func:`new_context`."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    home = Path(tempfile.mkdtemp(prefix="rme-chromium-"))
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_CACHE_HOME": str(home / "cache")}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, env=env)
        try:
            yield browser
        finally:
            browser.close()
            shutil.rmtree(home, ignore_errors=True)


def new_context(browser, viewport: tuple[int, int] = (1280, 800)) -> tuple[object, RequestLog]:
    """A fresh browser context whose every request is logged (Chromium refuses any beyond 127.0.0.1)."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    log = RequestLog()
    log.attach(context)
    return context, log


@contextmanager
def tab(viewport: tuple[int, int] = (1280, 800)) -> Iterator[tuple[object, RequestLog]]:
    """One page in a fresh headless Chromium (own profile and HOME), for a module's tests to share:
    its cache keeps scripts and fonts between the pages it loads. Yields (page, request log)."""
    with launch() as browser:
        context, log = new_context(browser, viewport)
        try:
            yield context.new_page(), log
        finally:
            context.close()


#: The bound on an explorer's median click → updated score (ms), per explorer kind, in the tests: the
#: point where a click feels broken, which no healthy machine misses however busy (a test's pass or
#: fail never hangs on a timing a loaded laptop can miss). The real figures, beside a bare ipywidgets
#: round trip timed in the same run, come from ``benchmarks/bench_explorer_clicks.py``.
CLICK_BOUND_MS = 250.0
#: Milliseconds from each timed action to the updated score, per explorer kind (this process's tests).
CLICK_TIMINGS: dict[str, list[float]] = {}

#: Arms a timer on one score: it starts at the next click, drop or change event anywhere on the page
#: (capture phase, so before the widget's own handler) and stops when the score's text first differs
#: from what it was when armed.
ARM_TIMER_JS = """score => {
  const text = () => { const el = document.querySelector(score); return el ? el.textContent.trim() : null; };
  const before = text();
  const timed = window.rmeTimed = {start: null, end: null};
  // Settled when the score has changed: waited on without polling, which would make the page draw a
  // frame every 16 ms (each with JupyterLab's layout and intersection work) while the click is timed.
  window.rmeTimedDone = new Promise(resolve => { timed.resolve = resolve; });
  const start = () => { if (timed.start === null) timed.start = performance.now(); };
  for (const kind of ['click', 'drop', 'change']) document.addEventListener(kind, start, {capture: true, once: true});
  // The widget may replace the score's element rather than edit it: watch its output area, read it anew.
  const area = document.querySelector(score).closest('.jp-OutputArea-output') || document.body;
  const seen = new MutationObserver(() => {
    const now = text();
    if (timed.end === null && timed.start !== null && now !== null && now !== before) {
      timed.end = performance.now();
      seen.disconnect();
      timed.resolve();
    }
  });
  seen.observe(area, {childList: true, characterData: true, subtree: true});
}"""


#: True once the explorer of ``score`` (a CSS selector) has settled: the notebook's kernel is idle (it
#: has sent everything the last action changed, and the page has handled it) and nothing in the
#: explorer's output area changed during the last two animation frames (what the page does with those
#: messages, MathJax's typesetting included, is done). Polled once per frame.
SETTLED_JS = """score => {
  const area = document.querySelector(score).closest('.jp-OutputArea-output');
  const settles = window.rmeSettles = window.rmeSettles || new Map();  // one observer per output area
  if (!settles.has(area)) {
    const fresh = {changed: 0, frames: 0};
    new MutationObserver(() => { fresh.changed += 1; })
      .observe(area, {childList: true, characterData: true, subtree: true, attributes: true});
    settles.set(area, fresh);
  }
  const settle = settles.get(area);
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  settle.frames = settle.changed === 0 && kernel.status === 'idle' ? settle.frames + 1 : 0;
  settle.changed = 0;
  return settle.frames >= 2;
}"""


def wait_settled(page, score: str, timeout_ms: int = 15_000) -> None:
    """Wait until the explorer of ``score`` has settled (:data:`SETTLED_JS`): a timed click then starts
    from a still explorer, as a person's next click does, and its time is its own, not the tail of the
    action before it."""
    page.wait_for_function(SETTLED_JS, arg=score, timeout=timeout_ms, polling="raf")


#: The armed timer's milliseconds once the score has changed; null after ``timeout`` ms without a change.
WAIT_TIMED_JS = """timeout => Promise.race([
  window.rmeTimedDone.then(() => window.rmeTimed.end - window.rmeTimed.start),
  new Promise(resolve => setTimeout(() => resolve(null), timeout)),
])"""


def timed_action(page, kind: str, score: str, action, timeout_ms: int = 15_000) -> float:
    """Wait until the explorer has settled, run ``action()`` (a click, drag or selection) and return the ms
    from its event to the score's change, as the page saw it; the time is also kept under ``kind`` for
    the run's summary."""
    wait_settled(page, score, timeout_ms)
    page.evaluate(ARM_TIMER_JS, score)
    action()
    ms = page.evaluate(WAIT_TIMED_JS, timeout_ms)
    if ms is None:
        pytest.fail(f"{kind}: the score ({score}) did not change within {timeout_ms} ms of the action")
    CLICK_TIMINGS.setdefault(kind, []).append(ms)
    return ms


def click_summary(kind: str, record_property=None) -> tuple[int, float, float]:
    """(actions timed, median ms, maximum ms) of an explorer kind; with pytest's ``record_property``
    the times also go into the test's report, for the run's summary (conftest.py)."""
    import statistics

    times = CLICK_TIMINGS[kind]
    if record_property is not None:
        record_property("explorer_clicks", (kind, list(times)))
    return len(times), statistics.median(times), max(times)


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


#: ``RME_LAB_SHOTS=1``: the JupyterLab tests save a screenshot after every step, not only where a check
#: failed (each costs Chromium about a third of a second of CPU; ``make test`` runs without).
EVERY_SHOT = os.environ.get("RME_LAB_SHOTS") == "1"


def lab_shot(page, name: str, *, always: bool = False, scroll_to: str | None = None) -> None:
    """Save the page as ``artifacts_dir("lab")/<name>.png`` when ``always`` or with ``RME_LAB_SHOTS=1``,
    first scrolled so that the element ``scroll_to`` (a CSS selector) starts at the top of the window."""
    if always or EVERY_SHOT:
        if scroll_to is not None:
            page.locator(scroll_to).first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=artifacts_dir("lab") / f"{name}.png")


def layout_faults(page, selector: str, name: str, plot: bool) -> list[str]:
    """Sideways scrollbars, cut select labels and (``plot``) a plot reaching below the fold; a screenshot
    ``layout_<name>.png`` when there is a fault (or with ``RME_LAB_SHOTS=1``)."""
    report = page.evaluate(LAYOUT_JS, selector)
    faults = [f"{name}: scrolls sideways: {s}" for s in report["scrollers"]]
    faults += [f"{name}: dropdown label cut: {c}" for c in report["cut"]]
    faults += [f"{name}: button text cut: {b}" for b in report["clipped"]]
    faults += [f"{name}: number broken over lines: {n}" for n in report["broken"]]
    if plot and (report["plotBottom"] is None or report["plotBottom"] > report["height"]):
        faults.append(f"{name}: the plot ends at {report['plotBottom']} px, below the {report['height']} px window")
    lab_shot(page, f"layout_{name}", always=bool(faults))
    return faults


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


def verdict_contrast_faults(page, selector: str) -> list[str]:
    """A fault when the selected button of the explorer's first verdict toggle hardly stands out
    from the others (WCAG contrast below 3)."""
    colours = page.evaluate(VERDICT_COLOURS_JS, selector)
    assert len(colours["selected"]) == 1 and colours["other"], colours
    ratios = [contrast(colours["selected"][0], other) for other in colours["other"]]
    return [f"the selected verdict hardly stands out: {colours} (contrast {ratios})"] if min(ratios) < 3 else []
