"""Issue 43 §3: the evaluate report is one self-contained HTML file. Opened in headless Chromium with every
request beyond the file refused, it asks for nothing, every figure is drawn, and it fits a laptop's width
and a phone's. A screenshot goes to ``test-artifacts/report/``."""

from __future__ import annotations

from evaluate_cases import CASES

from browser_support import artifacts_dir, launch, new_context
from ragmetrics_edu import evaluate, judges
from ragmetrics_edu.evaluation.report import write_report

FIGURES_JS = """() => Array.from(document.querySelectorAll('svg, img')).map(e => {
  const box = e.getBoundingClientRect();
  if (e.tagName.toLowerCase() === 'img') return {kind: 'img', drawn: e.complete && e.naturalWidth > 0};
  return {kind: 'svg', width: box.width, height: box.height, inner: e.getBBox().width,
          marks: e.querySelectorAll('rect.bar, circle').length, label: e.getAttribute('aria-label')};
})"""
WIDE_JS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_the_report_opens_offline_with_every_figure_drawn(tmp_path):
    # context_precision is given two verdicts: the cases with one passage fail, and the report lists them
    judge = judges.GivenJudge({"context_precision": ["yes", "no"]})
    names = ["context_precision", "word_overlap", "semantic_similarity"]
    table = evaluate(CASES, metrics=names, judge=judge, progress=False)
    assert table["error"].notna().sum() == 2
    path = write_report(table, tmp_path / "report.html")
    asked: list[str] = []

    def refuse(route) -> None:
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    with launch() as browser:
        context, log = new_context(browser, (1280, 900))
        context.route("**/*", refuse)
        page = context.new_page()
        page.goto(path.resolve().as_uri(), wait_until="load")
        figures = page.evaluate(FIGURES_JS)
        too_wide = page.evaluate(WIDE_JS)
        page.screenshot(path=str(artifacts_dir("report") / "report.png"), full_page=True)
        page.set_viewport_size({"width": 420, "height": 900})
        too_wide_on_a_phone = page.evaluate(WIDE_JS)
        context.close()
    assert asked == [] and log.outside == [] and log.failed == []
    assert [f["kind"] for f in figures] == ["svg"] * (1 + len(names))      # the intervals, one histogram a metric
    for figure in figures:
        assert figure["width"] > 100 and figure["height"] > 50 and figure["inner"] > 0 and figure["marks"] > 0, figure
    assert too_wide <= 0 and too_wide_on_a_phone <= 0
    page_text = path.read_text(encoding="utf-8")
    assert "Cases a metric could not score (2)" in page_text
    # each case asked the judge once, the failed ones too (a failed case's calls still count)
    assert f'<div class="name">calls</div><div class="big">{len(CASES)}</div>' in page_text
