"""Every explorer the course shows fits a small laptop screen: 1024x700, in a real JupyterLab.

Each notebook below is opened and run (Run All) in JupyterLab with headless Chromium at 1024x700.
For each explorer it shows, the page is scrolled so that the explorer's controls start at the top
of the notebook's visible area, and then the boxes are measured:

- the controls: every visible button, menu, slider, checkbox, text box and chip list in it;
- the score (``.rme-score``);
- the chart (``.rme-plot``), for the explorers that draw one.

All three must lie inside the notebook's visible area together (a student clicking ↑/↓ sees the
score and the chart move without scrolling), inside the window's width, and no row of a node,
statement or table may wrap onto a second line. A screenshot of each explorer goes to
``artifacts_dir("fit")`` (``test-artifacts/fit/`` unless ``RME_ARTIFACTS`` says otherwise).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from browser_support import FRONT, artifacts_dir
from lab_server import ACTION_TIMEOUT_MS, UI_TIMEOUT_MS, open_and_run_all

WIDTH, HEIGHT = 1024, 700
#: The k slider's track per position (px): room to drag the handle to each k.
MIN_PX_PER_K = 24

#: Notebook -> the explorers it shows, in order (CSS class of each explorer's root), and whether it has a chart.
SHOWN: dict[str, list[tuple[str, bool]]] = {
    "00_start_here.ipynb": [(".rme-reorder", True)],
    "01_context_precision.ipynb": [(".rme-reorder", True), (".rme-permutations", True)],
    "02_context_recall.ipynb": [(".rme-decompose", False), (".rme-statements", False)],
    "03_contextual_relevancy.ipynb": [(".rme-statements", False)],
    "04_context_entity_recall.ipynb": [(".rme-entities", False)],
    "05_faithfulness.ipynb": [(".rme-statements", False)],
    "06_answer_relevancy.ipynb": [(".rme-statements", False)],
    "08_ranking_measures.ipynb": [(".rme-reorder", True)],
    "09_evaluate_a_retriever.ipynb": [(".rme-reorder", True), (".rme-reorder", True)],
}

#: Scrolls explorer ``index`` of its kind (in the notebook in front) so its controls start at the top of
#: the notebook's visible area, then returns the boxes (px, relative to that area) of its controls,
#: score and chart, the area's size, the explorer's height, and every row that wraps onto two lines.
MEASURE_JS = """async ([front, selector, index]) => {
  const root = document.querySelectorAll(`${front} ${selector}`)[index];
  const scroller = root.closest('.jp-WindowedPanel-outer');
  const shown = e => e.offsetParent !== null && e.getClientRects().length > 0;
  const controlsOf = () => [...root.querySelectorAll(
      'button, select, textarea, input[type=checkbox], input[type=number], .rme-tags, .widget-slider .slider-container')]
    .filter(e => shown(e) && !e.closest('.rme-table'));
  const union = els => {
    const rects = els.map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0);
    if (!rects.length) return null;
    return {top: Math.min(...rects.map(r => r.top)), bottom: Math.max(...rects.map(r => r.bottom)),
            left: Math.min(...rects.map(r => r.left)), right: Math.max(...rects.map(r => r.right))};
  };
  const first = union(controlsOf());
  const area0 = scroller.getBoundingClientRect();
  scroller.scrollTop += first.top - area0.top - 4;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const area = scroller.getBoundingClientRect();
  const rel = box => box && {top: Math.round(box.top - area.top), bottom: Math.round(box.bottom - area.top),
                             left: Math.round(box.left - area.left), right: Math.round(box.right - area.left)};
  const score = root.querySelector('.rme-score');
  const plot = root.querySelector('.rme-plot');
  const wraps = el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = [...range.getClientRects()].filter(r => r.width > 0).map(r => r.top);
    return tops.length > 0 && Math.max(...tops) - Math.min(...tops) > 6;  // a second line, not a bold word's offset
  };
  // A node's or statement's row (one line each: its whole text is in the tooltip and below), a row of
  // a ranking explorer's table, and a verdict's buttons (side by side, not stacked).
  const rows = [...root.querySelectorAll('.rme-node-text, .rme-statement-text')].filter(shown)
    .filter(wraps).map(e => e.textContent.trim().slice(0, 60));
  const tableRows = ['.rme-reorder', '.rme-permutations'].includes(selector)
    ? [...root.querySelectorAll('.rme-table tr')].filter(shown).filter(tr => [...tr.children].some(wraps))
        .map(tr => tr.textContent.trim().slice(0, 60))
    : [];
  const stacked = [...root.querySelectorAll('.rme-verdict')].filter(shown).filter(group =>
    new Set([...group.querySelectorAll('button')].map(b => Math.round(b.getBoundingClientRect().top))).size > 1)
    .map(group => `verdict buttons stacked: ${group.textContent.trim()}`);
  const lineRows = [...rows, ...tableRows, ...stacked];
  const track = root.querySelector('.rme-k .slider-container');
  const kTrack = track && shown(track) ? Math.round(track.getBoundingClientRect().width) : null;
  const box = root.getBoundingClientRect();
  return {controls: rel(union(controlsOf())), score: rel(score && union([score])), chart: rel(plot && union([plot])),
          area: {height: Math.round(area.height), width: Math.round(area.width)},
          explorer: {height: Math.round(box.height), width: Math.round(box.width)}, wrapped: lineRows, kTrack,
          positions: track ? root.querySelectorAll('.rme-row').length : null};
}"""


def fit_faults(name: str, boxes: dict, chart: bool) -> list[str]:
    """What does not fit: a part outside the visible area, or a wrapped row."""
    area = boxes["area"]
    faults = []
    for part in ("controls", "score") + (("chart",) if chart else ()):
        box = boxes[part]
        if box is None:
            faults.append(f"{name}: no {part} shown")
        elif box["top"] < 0 or box["bottom"] > area["height"] or box["left"] < 0 or box["right"] > area["width"]:
            faults.append(f"{name}: the {part} {box} is not inside the visible {area['width']}x{area['height']} area")
    faults += [f"{name}: a row wraps onto two lines: {text!r}" for text in boxes["wrapped"]]
    if boxes["kTrack"] is not None and boxes["kTrack"] < MIN_PX_PER_K * boxes["positions"]:
        faults.append(f"{name}: the k slider's track is {boxes['kTrack']} px for {boxes['positions']} positions")
    return faults


@pytest.mark.parametrize("notebook", list(SHOWN))
def test_explorers_fit_1024x700(lab: str, lab_tab, notebook: str, record_property) -> None:
    page, log = lab_tab
    log.clear()
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    open_and_run_all(page, lab, notebook)
    faults: list[str] = []
    seen: dict[str, int] = {}
    for selector, chart in SHOWN[notebook]:
        index = seen.get(selector, 0)
        seen[selector] = index + 1
        expect(page.locator(f"{FRONT} {selector} .rme-score-value").nth(index)).to_have_text(
            re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
        page.evaluate(MEASURE_JS, [FRONT, selector, index])  # scrolls there; JupyterLab may still move cells
        page.wait_for_timeout(300)
        boxes = page.evaluate(MEASURE_JS, [FRONT, selector, index])
        name = f"{notebook[:2]}{selector.replace('.rme-', '_')}_{index}"
        record_property(name, boxes)
        folder = artifacts_dir("fit")
        page.screenshot(path=folder / f"{name}.png")
        with (folder / "boxes.jsonl").open("a", encoding="utf-8") as out:
            out.write(json.dumps({"name": name, **boxes}) + "\n")
        faults += fit_faults(name, boxes, chart)
    assert faults == [], "\n".join(faults)
    assert log.outside == [] and log.failed == [], (log.outside, log.failed)


#: The bytes of the explorer's chart as the page shows it (the Image widget's blob), as a short digest.
CHART_BYTES_JS = """async img => {
  const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
  let hash = 0;
  for (const b of bytes) hash = (hash * 31 + b) >>> 0;
  return `${bytes.length}:${hash}`;
}"""


def test_k_slider_drags_and_the_chart_forgets_the_cut_off(lab: str, lab_tab) -> None:
    # Notebook 01 at 1024x700: Precision@k shows the k slider, wide enough to drag to k=1 (the score is the
    # library's precision@1); back on context precision the chart is the one it showed at the start (no rank
    # faded past a cut-off it does not have); Reset brings back the starting metric and score.
    from ragmetrics_edu import metrics
    from ragmetrics_edu.results import fmt

    page, log = lab_tab
    log.clear()
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    open_and_run_all(page, lab, "01_context_precision.ipynb")
    root = page.locator(f"{FRONT} .rme-reorder").first
    score = root.locator(".rme-score-value")
    expect(score).to_have_text(re.compile(r"\S"), timeout=UI_TIMEOUT_MS)
    root.scroll_into_view_if_needed()
    start_score, start_chart = score.text_content().strip(), root.locator(".rme-plot").evaluate(CHART_BYTES_JS)
    toggles = root.locator(".rme-toggle").all_text_contents()
    verdicts = [1 if text.strip() == "relevant" else 0 for text in toggles]

    root.locator(".rme-metric select").select_option(label="Precision@k")
    track = root.locator(".rme-k .slider-container")
    expect(track).to_be_visible(timeout=ACTION_TIMEOUT_MS)
    width = track.bounding_box()["width"]
    assert width >= MIN_PX_PER_K * len(verdicts), f"the k slider's track is {width:.0f} px for {len(verdicts)} positions"
    handle = root.locator(".rme-k .noUi-handle").bounding_box()
    box = track.bounding_box()
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    expect(root.locator(".rme-k .widget-readout")).to_have_text("1", timeout=ACTION_TIMEOUT_MS)
    expect(score).to_have_text(fmt(metrics.precision_at_k(verdicts, k=1).score), timeout=ACTION_TIMEOUT_MS)
    page.screenshot(path=artifacts_dir("fit") / "01_reorder_precision_at_1.png")

    root.locator(".rme-metric select").select_option(label="Context precision (DeepEval)")
    expect(score).to_have_text(start_score, timeout=ACTION_TIMEOUT_MS)
    page.wait_for_timeout(500)  # the chart's image arrives after the score
    assert root.locator(".rme-plot").evaluate(CHART_BYTES_JS) == start_chart, \
        "context precision's chart changed after k=1 was set for precision@k"

    root.locator(".rme-metric select").select_option(label="Precision@k")
    expect(score).to_have_text(fmt(metrics.precision_at_k(verdicts, k=1).score), timeout=ACTION_TIMEOUT_MS)
    root.locator(".rme-reset").click()
    expect(score).to_have_text(start_score, timeout=ACTION_TIMEOUT_MS)
    chosen = root.locator(".rme-metric select option:checked").text_content().replace("\xa0", " ")
    assert chosen == "Context precision (DeepEval)", chosen
    assert log.outside == [] and log.failed == [], (log.outside, log.failed)
