"""The slide decks as a person sees them: built from ``slides/``, opened in a real Chromium.

Every deck is built (as ``make slides`` does) into a temporary folder served on 127.0.0.1.
Each deck is then stepped through with the keyboard, slide by slide, and the test asserts:
no request left 127.0.0.1 and none failed; MathJax typeset every formula (no raw LaTeX is
left in the page, no math error); every worked example shown in the deck carries its number,
computed here from the catalogue with the library, on the slide where the example is;
and every slide is readable from the back row of a room with a 1280x720 projector: every piece
of text, every formula and the smallest text in every figure is at least 24 px as rendered
(reveal's scale applied; a figure states its text size, see ``slides.figure``), no title
overflows its own box, nothing shows a scrollbar (a title 2 px taller than its line once gave
each its own) or runs past the slide's edges, and a slide that shows a table or a figure fills
at least half the slide's height. Each deck's first slide with a worked example and its smallest
sizes (``<deck>-back-row.json``) are saved under the test artifacts; a screenshot of every slide too
when ``RME_SLIDE_SHOTS=1`` (to look at a deck; they cost about a second a deck).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from browser_support import REPO, artifacts_dir
from browser_support import tab as browser_tab
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
  return {h: window.R.getIndices().h, text: slide.innerText, examples: marked};
}"""


#: The room the decks are made for: a 1280x720 projector seen from the back row.
VIEWPORT = (1280, 720)
#: Smallest rendered size (CSS px at that viewport, after reveal's scaling) of any text or formula on a slide.
MIN_TEXT_PX = 24
#: A slide that shows a table or a figure fills at least this share of the slide's height.
MIN_FILL = 0.5

#: What the back row sees of the current slide, measured as rendered: reveal scales the whole
#: slide (``R.getScale()``), so a font's size on screen is its computed size times that scale.
#: ``text``: every element holding visible text (not inside a formula) with its rendered size;
#: ``math``: every typeset formula's rendered size; ``figures``: each image's smallest text as drawn
#: (its ``data-text-px``, the smallest text in the image's own pixels, times the scale it is shown
#: at; null when the image does not say); ``titles``/``scrollbars``: boxes whose content
#: does not fit them; ``outside``: elements running past the slide's own box (not only the
#: window); ``fill``: the height the content spans against the slide's, and whether the slide
#: shows a table or an image.
BACK_ROW_JS = """() => {
  const slide = window.R.getCurrentSlide(), scale = window.R.getScale();
  const box = document.querySelector('.reveal .slides').getBoundingClientRect();
  const frame = { left: box.left, top: box.top, right: box.left + window.R.getConfig().width * scale,
                  bottom: box.top + window.R.getConfig().height * scale };
  const shown = el => { const b = el.getBoundingClientRect(), s = getComputedStyle(el);
                        return b.width > 0 && b.height > 0 && s.visibility !== 'hidden' && s.opacity !== '0'; };
  const name = el => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string'
                       ? '.' + el.className.trim().split(/\\s+/).join('.') : ''}`;
  const px = el => Math.round(parseFloat(getComputedStyle(el).fontSize) * scale * 10) / 10;
  const skip = 'aside.notes, script, style, .MathJax_CHTML, .MJX_Assistive_MathML, .MathJax_Preview';
  const holders = new Set();
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode())
    if (n.textContent.trim() && !n.parentElement.closest(skip) && shown(n.parentElement)) holders.add(n.parentElement);
  const text = [...holders].map(el => ({px: px(el), what: `${name(el)} "${el.innerText.trim().slice(0, 30)}"`}));
  const math = [...slide.querySelectorAll('.MathJax_CHTML')].filter(shown)
    .map(el => ({px: px(el), what: `formula "${(el.getAttribute('data-mathml') || el.innerText).replace(/<[^>]+>/g, ' ')
                                               .replace(/\\s+/g, ' ').trim().slice(0, 30)}"`}));
  const figures = [...slide.querySelectorAll('img')].filter(shown).map(img => {
    const b = img.getBoundingClientRect(), drawn = Math.min(b.width / img.naturalWidth, b.height / img.naturalHeight);
    return {px: img.dataset.textPx ? Math.round(parseFloat(img.dataset.textPx) * drawn * 10) / 10 : null,
            what: `figure ${img.getAttribute('alt') || ''}`.trim().slice(0, 40)}; });
  const all = [...slide.querySelectorAll('*')].filter(el => !el.closest('aside.notes, .MJX_Assistive_MathML, script, style'))
    .filter(shown);
  const outside = all.filter(el => { const b = el.getBoundingClientRect();
      return b.bottom > frame.bottom + 1 || b.right > frame.right + 1 || b.top < frame.top - 1 || b.left < frame.left - 1; })
    .map(el => `${name(el)} "${(el.innerText || '').trim().slice(0, 30)}"`);
  const titles = [...slide.querySelectorAll('h1, h2, h3')].filter(shown)
    .filter(t => t.scrollHeight > t.clientHeight || t.scrollWidth > t.clientWidth)
    .map(t => `${t.innerText.trim().slice(0, 40)} (${t.scrollWidth}x${t.scrollHeight} in ${t.clientWidth}x${t.clientHeight})`);
  const scrollbars = all.filter(e => { const s = getComputedStyle(e);
      return (['auto', 'scroll'].includes(s.overflowY) && e.scrollHeight > e.clientHeight)
          || (['auto', 'scroll'].includes(s.overflowX) && e.scrollWidth > e.clientWidth); })
    .map(e => `${name(e)} (${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight})`);
  const tops = all.map(el => el.getBoundingClientRect().top), bottoms = all.map(el => el.getBoundingClientRect().bottom);
  const graphic = all.some(el => el.matches('table, img, svg:not(.MathJax_CHTML svg)'));
  return {scale, text, math, figures, outside, titles, scrollbars,
          fill: {graphic, share: all.length ? (Math.max(...bottoms) - Math.min(...tops)) / (frame.bottom - frame.top) : 0}};
}"""


def back_row_problems(seen: dict) -> list[str]:
    """What a person at the back of the room could not read on one slide, from :data:`BACK_ROW_JS`'s measurements."""
    problems = [f"text {t['px']} px < {MIN_TEXT_PX}: {t['what']}" for t in seen["text"] if t["px"] < MIN_TEXT_PX]
    problems += [f"{m['what']} {m['px']} px < {MIN_TEXT_PX}" for m in seen["math"] if m["px"] < MIN_TEXT_PX]
    for figure in seen["figures"]:
        if figure["px"] is None:
            problems.append(f"{figure['what']}: its text size is unknown (show figures with ragmetrics_edu.course.slides.figure)")
        elif figure["px"] < MIN_TEXT_PX:
            problems.append(f"{figure['what']}: its smallest text is {figure['px']} px < {MIN_TEXT_PX}")
    problems += [f"title overflows its box: {t}" for t in seen["titles"]]
    problems += [f"shows a scrollbar: {s}" for s in seen["scrollbars"]]
    if seen["outside"]:
        problems.append(f"runs off the slide: {seen['outside'][-3:]}")
    if seen["fill"]["graphic"] and seen["fill"]["share"] < MIN_FILL:
        problems.append(f"shows a table or figure but fills only {seen['fill']['share']:.0%} of the slide's height")
    return problems


def test_back_row_rules_catch_what_they_should() -> None:
    """Each rule fires on a measurement that breaks it and stays quiet on one that does not."""
    fine = {"text": [{"px": MIN_TEXT_PX, "what": "p"}], "math": [{"px": 30, "what": "formula"}],
            "figures": [{"px": 25.0, "what": "figure"}], "outside": [],
            "titles": [], "scrollbars": [], "fill": {"graphic": True, "share": MIN_FILL}}
    assert back_row_problems(fine) == []
    assert back_row_problems({**fine, "fill": {"graphic": False, "share": 0.1}}) == []
    broken = {"text": [{"px": MIN_TEXT_PX - 0.5, "what": "td"}], "math": [{"px": 17.3, "what": "formula"}],
              "figures": [{"px": 11.0, "what": "figure"}, {"px": None, "what": "figure"}],
              "outside": ["table"], "titles": ["## A long title"], "scrollbars": ["div.jp-Cell"],
              "fill": {"graphic": True, "share": 0.3}}
    found = back_row_problems(broken)
    assert len(found) == 8 and any("30%" in p for p in found) and any("17.3" in p for p in found)
    assert any("11.0 px" in p for p in found) and any("unknown" in p for p in found)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """Every deck built into a temporary folder by ``slides/build.py``, as an instructor runs it."""
    out = tmp_path_factory.mktemp("slides")
    done = subprocess.run([sys.executable, str(SLIDES / "build.py"), "--out", str(out)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"slides/build.py failed:\n{done.stdout}\n{done.stderr}"
    return out, done


def test_a_build_prints_no_kernel_warning(built) -> None:
    """ipykernel warned 'running over TCP without encryption' on every deck build (issue 9)."""
    out, done = built
    assert (out / "02_context_recall.html").is_file()
    assert "WARNING" not in done.stderr.upper() and "Warning" not in done.stderr, done.stderr


@pytest.fixture(scope="module")
def site(built):
    """Every deck built, served on 127.0.0.1 until the module ends."""
    out, _ = built
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
def tab():
    """One browser tab for every deck, as a person opens the decks one after another: the cache keeps
    reveal.js, MathJax and its fonts between decks (a fresh browser context per deck read and compiled
    them anew, about 2 s of CPU a deck). Yields the page and its request log, cleared per deck."""
    with browser_tab(viewport=VIEWPORT) as (page, log):
        yield page, log


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
            value = result.lookup(s.quantity)
            assert s.matches(value), f"{example_id} [{label}]: the library no longer gives the deck's {s.printed}"
            pairs.append((s.shown(value), s.printed))
        if not stated:
            pairs.append((fmt(result.score), None))
    return pairs


#: Each formula on the current slide (speaker notes are never shown, so not theirs) that MathJax has not
#: (yet) drawn with a size, and what hides it.
#: MathJax 2 keeps the TeX in <script id="MathJax-Element-N"> and draws it in #MathJax-Element-N-Frame.
UNDRAWN_MATH_JS = """() => [...window.R.getCurrentSlide().querySelectorAll('script[type^="math/tex"]')]
  .filter(script => !script.closest('aside.notes'))
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


#: RME_SLIDE_SHOTS=1: a screenshot of every slide, not only of each deck's first worked example.
EVERY_SLIDE_SHOT = os.environ.get("RME_SLIDE_SHOTS") == "1"


@pytest.mark.parametrize("deck", DECKS)
def test_deck_in_browser(deck: str, site, tab) -> None:
    base, out = site
    page, log = tab
    log.clear()
    errors: list[str] = []

    def on_error(error) -> None:
        errors.append(str(error))

    page.on("pageerror", on_error)
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
        unreadable: list[str] = []
        sizes: list[dict] = []
        shot = None
        for index in range(total):
            wait_for_math_on_screen(page, f"{deck} slide {index + 1}")
            slide = page.evaluate(SLIDE_JS)
            assert slide["h"] == index
            where = f"{deck} slide {index + 1}"
            for ex in slide["examples"]:
                assert ex["visible"], f"{where}: {ex['id']} runs off the slide"
                for computed, printed in expected_numbers(ex["id"], ex["case"]):
                    assert contains_number(slide["text"], computed), f"{where}: {ex['id']} should show {computed}"
                    if ex["computed"]:
                        assert computed in ex["computed"], f"{where}: {ex['id']} computes {computed}"
                    if printed is not None and ex["stated"]:
                        assert printed in ex["stated"], f"{where}: deck's {printed} not shown"
                seen.append(ex)
            measured = page.evaluate(BACK_ROW_JS)
            unreadable += [f"{where}: {problem}" for problem in back_row_problems(measured)]
            sizes.append({"slide": index + 1, "text_px": min((t["px"] for t in measured["text"]), default=None),
                          "math_px": min((m["px"] for m in measured["math"]), default=None),
                          "figure_px": min((f["px"] or 0 for f in measured["figures"]), default=None),
                          "fill": round(measured["fill"]["share"], 3) if measured["fill"]["graphic"] else None})
            if EVERY_SLIDE_SHOT:
                page.screenshot(path=str(artifacts_dir("slides") / f"{deck}-{index + 1:02d}.png"))
            if slide["examples"] and shot is None:
                shot = artifacts_dir("slides") / f"{deck}.png"
                page.screenshot(path=str(shot))
            if index < total - 1:
                page.keyboard.press("n")
                page.wait_for_function(f"() => R.getIndices().h === {index + 1}", timeout=5_000)
        (artifacts_dir("slides") / f"{deck}-back-row.json").write_text(json.dumps(sizes, indent=1), encoding="utf-8")
        assert unreadable == [], f"{deck}: {len(unreadable)} problems seen from the back row:\n" + "\n".join(unreadable)
        assert seen, f"{deck}: no worked example on any slide"
        assert shot is not None and shot.stat().st_size > 10_000
    finally:
        page.remove_listener("pageerror", on_error)
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


def test_decks_sharing_a_kernel_share_no_names(tmp_path) -> None:
    """The build runs a group of decks in one kernel; a name the first deck defined (an import too)
    is gone when the next deck runs, so a deck that forgets an import fails as it would alone."""
    import nbformat

    first, second = tmp_path / "90_defines.ipynb", tmp_path / "91_forgets_its_import.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import math\nx = math.pi")]), first)
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(math.pi, x)")]), second)
    with pytest.raises(build.BuildError, match="91_forgets_its_import.ipynb"):
        build.export_group([first, second], tmp_path)
    assert (tmp_path / "90_defines.html").is_file() and not (tmp_path / "91_forgets_its_import.html").exists()


def test_the_browser_sends_nothing_beyond_the_machine(site, tab) -> None:
    """The guard every browser test relies on: a page on 127.0.0.1 asking for a named host and for a
    bare address (192.0.2.1, TEST-NET-1) gets neither, at once, and the request log names both."""
    base, _ = site
    page, log = tab
    log.clear()
    failures: list[tuple[str, str]] = []

    def on_failed(request) -> None:
        failures.append((request.url, request.failure or ""))

    page.on("requestfailed", on_failed)
    outside = ["http://example.com/logo.png", "http://192.0.2.1/logo.png"]
    try:
        page.goto(f"{base}/index.html")
        start = time.monotonic()
        sent = page.evaluate("urls => Promise.all(urls.map(url => fetch(url).then(() => 'sent', () => 'refused')))",
                             outside)
        seconds = time.monotonic() - start
    finally:
        page.remove_listener("requestfailed", on_failed)
    assert sent == ["refused", "refused"] and seconds < 5, (sent, seconds)
    assert sorted(log.outside) == sorted(outside), log.outside
    # Refused by the dead proxy (no route out was even tried), not by a network that happens to be missing.
    assert sorted(failures) == sorted((url, "net::ERR_PROXY_CONNECTION_FAILED") for url in outside), failures
    assert any(url.startswith(f"{base}/index.html") for url in log.urls) and log.failed == []
