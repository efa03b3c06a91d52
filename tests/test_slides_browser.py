"""The slide decks as a person sees them: built from ``slides/``, opened in a real Chromium.

Every deck is built (as ``make slides`` does) into a temporary folder served on 127.0.0.1.
Each deck is then stepped through with the keyboard, slide by slide, and the test asserts:
no request left 127.0.0.1 and none failed; MathJax typeset every formula (no raw LaTeX is
left in the page, no math error); every worked example shown in the deck carries its number,
computed here from the catalogue with the library, on the slide where the example is;
nothing on any slide runs off the 1280x760 screen; no title overflows its own box, and nothing
on a slide shows a scrollbar (a title 2 px taller than its line once gave each its own). A screenshot of each deck's first example
slide is saved.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from browser_support import REPO, artifacts_dir, launch, new_context
from ragmetrics_edu import examples
from ragmetrics_edu.results import fmt

SLIDES = REPO / "slides"


def _load_build_script():
    spec = importlib.util.spec_from_file_location("slides_build", SLIDES / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load_build_script()
DECKS = [deck.stem for deck in build.decks()]

#: Text nodes outside <script>/<style> that still hold TeX: MathJax left them unrendered.
RAW_TEX_JS = """() => {
  const walker = document.createTreeWalker(document.querySelector('.reveal .slides'), NodeFilter.SHOW_TEXT);
  const raw = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement.closest('script, style');
    if (!parent && /\\$\\$|\\\\frac|\\\\left|\\\\sum/.test(node.textContent)) raw.push(node.textContent.slice(0, 80));
  }
  return raw;
}"""

#: What the test reads off the slide on screen: its text and the worked examples on it.
SLIDE_JS = """() => {
  const slide = window.R.getCurrentSlide();
  const visible = el => { const b = el.getBoundingClientRect();
                          return b.width > 0 && b.height > 0 && b.bottom <= innerHeight && b.right <= innerWidth; };
  const marked = [...slide.querySelectorAll('[data-example]')].map(el => ({
    id: el.dataset.example, case: el.dataset.case || null, text: el.innerText,
    visible: visible(el), computed: [...el.querySelectorAll('.rme-computed')].map(e => e.innerText.trim()),
    stated: [...el.querySelectorAll('.rme-stated')].map(e => e.innerText.trim())}));
  const offscreen = [...slide.querySelectorAll('*')].filter(el => !el.closest('.MJX_Assistive_MathML, aside.notes'))
    .filter(el => { const b = el.getBoundingClientRect();
                    return b.width > 0 && b.height > 0 && (b.bottom > innerHeight + 1 || b.right > innerWidth + 1); })
    .map(el => `${el.tagName.toLowerCase()}.${el.className}: ${(el.innerText || '').slice(0, 40)}`);
  const titles = [...slide.querySelectorAll('h1, h2, h3')].filter(t => t.getBoundingClientRect().width > 0)
    .filter(t => t.scrollHeight > t.clientHeight || t.scrollWidth > t.clientWidth)
    .map(t => `${t.innerText.trim().slice(0, 40)} (${t.scrollWidth}x${t.scrollHeight} in ${t.clientWidth}x${t.clientHeight}, `
              + `overflow ${getComputedStyle(t).overflow})`);
  const scrollbars = [...slide.querySelectorAll('*')].filter(e => e.getBoundingClientRect().width > 0)
    .filter(e => { const s = getComputedStyle(e);
                   return (['auto', 'scroll'].includes(s.overflowY) && e.scrollHeight > e.clientHeight)
                       || (['auto', 'scroll'].includes(s.overflowX) && e.scrollWidth > e.clientWidth); })
    .map(e => `${e.tagName.toLowerCase()}.${e.className} (${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight})`);
  return {h: window.R.getIndices().h, text: slide.innerText, examples: marked, offscreen, titles, scrollbars};
}"""


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Every deck built into a temporary folder, served on 127.0.0.1 until the module ends."""
    out = tmp_path_factory.mktemp("slides")
    done = subprocess.run([sys.executable, str(SLIDES / "build.py"), "--out", str(out)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"slides/build.py failed:\n{done.stdout}\n{done.stderr}"
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", out
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def browser():
    with launch() as b:
        yield b


def expected_numbers(example_id: str, case: str | None) -> list[tuple[str, str | None]]:
    """(library value at the deck's precision, the deck's printed number or None) for each headline number.

    Computed here from the catalogue's inputs with the library; where the deck prints nothing,
    the library's score as :func:`fmt` writes it.
    """
    ex = examples.load(example_id)
    pairs = []
    for label in [case] if case else ex.case_labels:
        result = ex.compute(label)
        stated = ex.case(label).headline
        for s in stated:
            value = result.value(s.quantity)
            assert s.matches(value), f"{example_id} [{label}]: the library no longer gives the deck's {s.printed}"
            pairs.append((s.shown(value), s.printed))
        if not stated:
            pairs.append((fmt(result.score), None))
    return pairs


#: Each formula on the current slide that MathJax has not (yet) drawn with a size, and what hides it.
#: MathJax 2 keeps the TeX in <script id="MathJax-Element-N"> and draws it in #MathJax-Element-N-Frame.
UNDRAWN_MATH_JS = """() => [...window.R.getCurrentSlide().querySelectorAll('script[type^="math/tex"]')]
  .map(script => ({script, frame: document.getElementById(script.id + '-Frame')}))
  .filter(({frame}) => !frame || frame.getBoundingClientRect().width === 0)
  .map(({script, frame}) => {
    const hidden = [];
    for (let e = script.parentElement; e; e = e.parentElement)
      if (getComputedStyle(e).display === 'none') hidden.push(e.className || e.tagName);
    return {tex: script.textContent.slice(0, 60), drawn: !!frame, hidden_by: hidden};
  })"""


def wait_for_math_on_screen(page, where: str) -> None:
    """Wait until every formula on the current slide is drawn with a size; fail naming the ones that never are.

    reveal.js asks MathJax to re-typeset a slide when it is shown, and MathJax finishes that
    after its queue reports idle, so a formula is given a few seconds to appear.
    """
    from playwright.sync_api import TimeoutError as WaitedTooLong

    try:
        page.wait_for_function(f"({UNDRAWN_MATH_JS})().length === 0", timeout=10_000)
    except WaitedTooLong:
        shot = artifacts_dir("slides") / "undrawn-math.png"
        page.screenshot(path=str(shot))
        pytest.fail(f"{where}: formula not drawn on screen: {page.evaluate(UNDRAWN_MATH_JS)} (see {shot})")


def contains_number(text: str, number: str) -> bool:
    """``number`` occurs in ``text`` as a whole number (so "1" is not found inside "0.15" or "12")."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?!\d|\.\d)", text) is not None


@pytest.mark.parametrize("deck", DECKS)
def test_deck_in_browser(deck: str, site, browser) -> None:
    base, out = site
    context, log = new_context(browser, viewport=(1280, 760))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{base}/{deck}.html")
        page.wait_for_selector(".reveal.ready", timeout=20_000)
        page.evaluate("() => new Promise(done => require(['assets/reveal.js/dist/reveal.js'], R => { window.R = R; done(); }))")
        assert page.evaluate("() => typeof MathJax !== 'undefined' && !!MathJax.Hub"), f"{deck}: MathJax did not load"
        page.evaluate("() => new Promise(done => MathJax.Hub.Queue(done))")
        total = page.evaluate("() => R.getTotalSlides()")
        assert total >= 5, f"{deck}: only {total} slides"
        assert page.evaluate(RAW_TEX_JS) == [], f"{deck}: LaTeX left unrendered"
        assert page.locator(".MathJax_Error, .mjx-merror").count() == 0, f"{deck}: MathJax reported an error"
        assert page.locator(".MathJax_CHTML").count() > 0, f"{deck}: no formula rendered as math"

        seen: list[dict] = []
        shot = None
        for index in range(total):
            wait_for_math_on_screen(page, f"{deck} slide {index + 1}")
            slide = page.evaluate(SLIDE_JS)
            assert slide["h"] == index
            assert slide["offscreen"] == [], f"{deck} slide {index + 1}: runs off the screen: {slide['offscreen'][-3:]}"
            assert slide["titles"] == [], f"{deck} slide {index + 1}: title overflows its box: {slide['titles']}"
            assert slide["scrollbars"] == [], f"{deck} slide {index + 1}: shows a scrollbar: {slide['scrollbars']}"
            for ex in slide["examples"]:
                assert ex["visible"], f"{deck} slide {index + 1}: {ex['id']} runs off the slide"
                for computed, printed in expected_numbers(ex["id"], ex["case"]):
                    assert contains_number(slide["text"], computed), \
                        f"{deck} slide {index + 1}: {ex['id']} should show {computed}"
                    if ex["computed"]:
                        assert computed in ex["computed"], f"{deck} slide {index + 1}: {ex['id']} computes {computed}"
                    if printed is not None and ex["stated"]:
                        assert printed in ex["stated"], f"{deck} slide {index + 1}: deck's {printed} not shown"
                seen.append(ex)
            page.screenshot(path=str(artifacts_dir("slides") / f"{deck}-{index + 1:02d}.png"))
            if slide["examples"] and shot is None:
                shot = artifacts_dir("slides") / f"{deck}.png"
                page.screenshot(path=str(shot))
            if index < total - 1:
                page.keyboard.press("n")
                page.wait_for_function(f"() => R.getIndices().h === {index + 1}", timeout=5_000)
        assert seen, f"{deck}: no worked example on any slide"
        assert shot is not None and shot.stat().st_size > 10_000
    finally:
        context.close()
    assert log.outside == [], f"{deck}: requests left the machine: {log.outside}"
    assert log.failed == [], f"{deck}: requests failed: {log.failed}"
    assert errors == [], f"{deck}: script errors: {errors}"


def test_every_worked_example_is_on_a_slide(site) -> None:
    _, out = site
    shown = set()
    for page in out.glob("[0-9][0-9]_*.html"):
        shown |= set(re.findall(r"data-example=['\"]([^'\"]+)['\"]", page.read_text(encoding="utf-8")))
    assert set(examples.ids()) - shown == set()


def test_index_links_every_deck(site) -> None:
    _, out = site
    index = (out / "index.html").read_text(encoding="utf-8")
    assert [f"{deck}.html" for deck in DECKS] == re.findall(r'href="(\d\d_[^"]+\.html)"', index)
