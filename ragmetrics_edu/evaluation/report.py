"""A table from :func:`~ragmetrics_edu.evaluate` as one self-contained HTML page, to look at.

Per metric: its mean with the bootstrap interval (:mod:`~ragmetrics_edu.evaluation.summary`), a
histogram of the cases' scores with the mean and the interval drawn on it, and the lowest-scoring
cases (the worst, for a metric where lower is better: the highest) with their step-by-step
explanation; then the cases a metric could not score, and what the judge did (calls, tokens, cache
hits). The figures are inline SVG written here (no matplotlib, no script, no font or style sheet
fetched): the file opens offline, anywhere, and can be mailed as it is.
"""

from __future__ import annotations

import html
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from .. import __version__, validate
from ..errors import InputError
from ..metrics.specs import SPECS
from ..results import fmt, html_table
from ..stats import inputs as stats_inputs
from .case_results import CaseResults
from .known_agreement import word_overlap_agreement
from .report_cases import case_name, case_texts, marked_answer, num
from .summary import CALL_COLUMNS, MetricSummary, scored_mask, scored_metrics, summarize

__all__ = ["render_report", "write_report", "histogram_svg", "intervals_svg"]

TEAL, INK, SAND, CORAL, GRID = "#2a9d8f", "#264653", "#e9c46a", "#e76f51", "#d9dee3"
#: The most step-table rows an explanation shows in the report (the rest are counted).
MAX_STEP_ROWS = 25

STYLE = """
* { box-sizing: border-box; }
body { margin: 0; background: #f4f6f8; color: #1d2a33; font: 15px/1.5 system-ui, -apple-system, "Segoe UI",
       Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 24px 48px; }
header h1 { margin: 0; font-size: 26px; color: #264653; }
header p { margin: 4px 0 0; color: #5b6b77; }
h2 { margin: 0 0 12px; font-size: 19px; color: #264653; }
h3 { margin: 18px 0 8px; font-size: 15px; color: #264653; }
section { background: #fff; border: 1px solid #e3e8ec; border-radius: 10px; padding: 18px 20px; margin-top: 18px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 12px;
         background: none; border: 0; padding: 0; }
.card { background: #fff; border: 1px solid #e3e8ec; border-radius: 10px; padding: 14px 16px;
        border-top: 4px solid #2a9d8f; }
.card.failed { border-top-color: #e76f51; }
.card .name { font-weight: 600; color: #264653; }
.card .big { font-size: 30px; font-weight: 700; color: #1d2a33; margin: 2px 0; }
.card .small, .muted { color: #5b6b77; font-size: 13px; }
figure { margin: 0; }
figcaption { color: #5b6b77; font-size: 13px; margin-top: 4px; }
svg { display: block; width: 100%; height: auto; }
details { border: 1px solid #e3e8ec; border-radius: 8px; margin: 8px 0; background: #fbfcfd; }
summary { cursor: pointer; padding: 8px 12px; }
summary .score { display: inline-block; min-width: 64px; font-weight: 700; color: #e76f51; }
details .body { padding: 4px 14px 12px; }
.qa { margin: 6px 0; }
.qa b { color: #264653; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border: 1px solid #e3e8ec; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #eef2f4; }
.error { color: #b2432a; }
.metric-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
footer { color: #5b6b77; font-size: 13px; margin-top: 20px; }
mark { background: #cfeee9; color: inherit; padding: 0 1px; border-radius: 2px; }
.miss { background: #fbd9cf; padding: 0 1px; border-radius: 2px; }
.contexts { margin: 4px 0 4px 18px; padding: 0; }
.contexts li { margin: 2px 0; overflow-wrap: anywhere; }
.qa, .note { overflow-wrap: anywhere; }
.note { background: #fff8e6; border-left: 4px solid #e9c46a; padding: 8px 12px; margin: 10px 0; }
.tag { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 8px; background: #eef2f4; color: #264653; }
"""


def _count(n: int, noun: str) -> str:
    """``n`` and its noun, singular for one: 1 metric, 2 metrics."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def _ticks(lo: float, hi: float) -> list[float]:
    step = 0.2 if hi - lo <= 1.0 + 1e-9 else max(0.1, round((hi - lo) / 5, 1))
    first = math.ceil(lo / step - 1e-9)
    return [round(k * step, 10) for k in range(first, int(math.floor(hi / step + 1e-9)) + 1)]


def histogram_svg(scores: Sequence[float], mean: float | None, ci: tuple[float, float] | None, *, label: str,
                  bins: int = 10, width: int = 960, height: int = 270) -> str:
    """The scores as a histogram over [0, 1] (wider when a score is outside), with the mean as a line and the
    interval as a band: an inline ``<svg>`` element."""
    given = validate.as_list("scores", scores, "a list of finite scores (none: an empty histogram)")
    values = stats_inputs.scores("scores", given) if given else []
    if mean is not None:
        mean = validate.number("mean", mean, "the mean score (a finite number) or None")
    if ci is not None:
        pair = validate.as_list("ci", ci, "the interval (low, high) or None")
        if len(pair) != 2:
            raise InputError("ci", "the interval (low, high) or None", ci)
        ci = (validate.number("ci", pair[0], "a finite low end"), validate.number("ci", pair[1], "a finite high end"))
    label = validate.text("label", label)
    bins = validate.integer("bins", bins, low=1, high=100)
    width, height = validate.integer("width", width, low=200, high=4000), validate.integer("height", height, low=100,
                                                                                              high=4000)
    lo, hi = min([0.0, *values]), max([1.0, *values])
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / (hi - lo) * bins))] += 1
    left, right, top, bottom = 46, 16, 30, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max(counts + [1])

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * plot_w

    def y(c: float) -> float:
        return top + plot_h - c / peak * plot_h

    parts = [f'<svg class="figure" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(label)}"><title>{_esc(label)}</title>']
    step = max(1, math.ceil(peak / 5))
    for c in range(0, peak + 1, step):
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(c):.1f}" y2="{y(c):.1f}" stroke="{GRID}"/>'
                     f'<text x="{left - 8}" y="{y(c) + 4:.1f}" font-size="11" text-anchor="end" fill="#5b6b77">{c}</text>')
    if ci is not None:
        parts.append(f'<rect x="{x(ci[0]):.1f}" y="{top}" width="{max(2.0, x(ci[1]) - x(ci[0])):.1f}" '
                     f'height="{plot_h}" fill="{SAND}" opacity="0.45"><title>interval [{fmt(ci[0])}, {fmt(ci[1])}]'
                     '</title></rect>')
    bar_w = plot_w / bins
    for k, c in enumerate(counts):
        if c:
            parts.append(f'<rect class="bar" x="{left + k * bar_w + 1.5:.1f}" y="{y(c):.1f}" width="{bar_w - 3:.1f}" '
                         f'height="{top + plot_h - y(c):.1f}" rx="2" fill="{TEAL}"><title>{c} case(s) from '
                         f'{fmt(lo + k * (hi - lo) / bins)} to {fmt(lo + (k + 1) * (hi - lo) / bins)}</title></rect>')
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#8a99a6"/>')
    for t in _ticks(lo, hi):
        parts.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{top + plot_h}" y2="{top + plot_h + 4}" '
                     f'stroke="#8a99a6"/><text x="{x(t):.1f}" y="{top + plot_h + 17}" font-size="11" '
                     f'text-anchor="middle" fill="#5b6b77">{fmt(t)}</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 4}" font-size="12" text-anchor="middle" '
                 f'fill="#1d2a33">score</text><text x="12" y="{top + plot_h / 2:.1f}" font-size="12" '
                 f'text-anchor="middle" fill="#1d2a33" transform="rotate(-90 12 {top + plot_h / 2:.1f})">cases</text>')
    if mean is not None:
        anchor = "end" if x(mean) > left + plot_w * 0.8 else "start"
        nudge = -6 if anchor == "end" else 6
        parts.append(f'<line x1="{x(mean):.1f}" x2="{x(mean):.1f}" y1="{top}" y2="{top + plot_h}" stroke="{INK}" '
                     f'stroke-width="2.5"/><text x="{x(mean) + nudge:.1f}" y="{top - 10}" font-size="12" '
                     f'font-weight="600" text-anchor="{anchor}" fill="{INK}">mean {fmt(mean)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def intervals_svg(summaries: Sequence[MetricSummary], *, width: int = 960) -> str:
    """Every metric's mean (a dot) and interval (a bar) on one [0, 1] axis: an inline ``<svg>`` element."""
    given = validate.as_list("summaries", summaries, "the list summarize() returns")
    if not all(isinstance(s, MetricSummary) for s in given):
        raise InputError("summaries", "the list summarize() returns", summaries)
    width = validate.integer("width", width, low=400, high=4000)
    items = [s for s in given if s.mean is not None]
    if not items:
        raise InputError("summaries", "at least one metric with a scored case", summaries)
    lo = min([0.0, *(s.ci[0] if s.ci else s.mean for s in items)])
    hi = max([1.0, *(s.ci[1] if s.ci else s.mean for s in items)])
    left, right, row, top = 200, 200, 34, 12
    height = top + row * len(items) + 34
    plot_w = width - left - right

    def x(v: float) -> float:
        return left + (v - lo) / (hi - lo) * plot_w

    label = "each metric's mean with its interval"
    parts = [f'<svg class="figure" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{label}"><title>{label}</title>']
    base = top + row * len(items)
    for t in _ticks(lo, hi):
        parts.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="{top}" y2="{base}" stroke="{GRID}"/>'
                     f'<text x="{x(t):.1f}" y="{base + 16}" font-size="11" text-anchor="middle" '
                     f'fill="#5b6b77">{fmt(t)}</text>')
    for i, s in enumerate(items):
        cy = top + row * i + row / 2
        low, high = s.ci or (s.mean, s.mean)
        parts.append(f'<text x="{left - 12}" y="{cy + 4:.1f}" font-size="13" text-anchor="end" fill="#1d2a33">'
                     f'{_esc(s.metric)}</text><line x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{cy:.1f}" y2="{cy:.1f}" '
                     f'stroke="{TEAL}" stroke-width="6" stroke-linecap="round" opacity="0.55"/>'
                     f'<circle cx="{x(s.mean):.1f}" cy="{cy:.1f}" r="6" fill="{INK}"><title>{_esc(s.metric)}: mean '
                     f'{fmt(s.mean)}, {_esc(s.interval_text())}</title></circle>'
                     f'<text x="{width - right + 14}" y="{cy + 4:.1f}" font-size="12" fill="#5b6b77">{fmt(s.mean)} '
                     + (f'[{fmt(low)}, {fmt(high)}]' if s.ci else "(no interval)") + '</text>')
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 2}" font-size="12" text-anchor="middle" '
                 'fill="#1d2a33">mean score (dot) and interval (bar)</text></svg>')
    return "".join(parts)


def _explanation(result: Any) -> str:
    """A result's steps as HTML: its narrative, its step table (at most MAX_STEP_ROWS rows) and its notes."""
    parts = []
    narrative = list(getattr(result, "narrative", []) or [])
    if narrative:
        parts.append("<ol>" + "".join(f"<li>{_esc(line)}</li>" for line in narrative) + "</ol>")
    columns, rows = tuple(getattr(result, "columns", ()) or ()), list(getattr(result, "rows", []) or [])
    if columns and rows:
        parts.append(f'<div class="scroll">{html_table(columns, rows[:MAX_STEP_ROWS])}</div>')
        if len(rows) > MAX_STEP_ROWS:
            parts.append(f'<p class="muted">… and {len(rows) - MAX_STEP_ROWS} more rows (the table has them all).</p>')
    notes = list(getattr(result, "notes", []) or [])
    if notes:
        parts.append('<ul class="muted">' + "".join(f"<li>{_esc(n)}</li>" for n in notes) + "</ul>")
    return "".join(parts)


def _case_label(row: dict[str, Any]) -> str:
    """A case's name: its id, or its 1-based row (what ``--explain`` takes)."""
    return _esc(case_name(row, int(row["case"])))


def _rule(frame: Any, metric: str) -> str:
    """Which rule scored a metric: the design (and variant) its rows name, else its spec's description."""
    column = f"{metric}_design"
    designs = sorted({d for d in frame[column] if isinstance(d, str)}) if column in frame.columns else []
    spec = SPECS.get(metric)
    described = spec.design if spec is not None and spec.design else ""
    return ", ".join(designs) + (f": {described}" if described else "") if designs else described or metric


def _needs_judge(metric: str) -> bool:
    spec = SPECS.get(metric)
    return bool(spec is not None and spec.judged)


def _sees(frame: Any, metric: str) -> str:
    """What a metric's number is and cannot see, with word overlap's measured agreement with people."""
    spec = SPECS.get(metric)
    judged = _needs_judge(metric)
    what = (spec.design if spec is not None and spec.design else metric) + (" (asks the judge)" if judged else "")
    blind = spec.cannot_see if spec is not None and spec.cannot_see else ""
    if judged and not blind:
        blind = ("Its verdicts are the judge's: check the judge against people's labels (ragmetrics-edu "
                 "validate-judge) before trusting it.")
    parts = [f"<p><b>{_esc(metric)}</b> is {_esc(what)}. {_esc(blind)}</p>"]
    if metric == "word_overlap":
        found = word_overlap_agreement()
        parts.append(f'<p class="agreement">Measured agreement with people: ROC AUC <b>{num("word_overlap.auc", found.auc)}</b> '
                     f"({fmt(100 * found.level)}% interval [{num('word_overlap.auc_low', found.ci[0])}, "
                     f"{num('word_overlap.auc_high', found.ci[1])}]) on "
                     f"{found.answers} answers from {found.sources} sources: {_esc(found.source)}. An AUC of 0.5 is "
                     "chance, 1 a perfect ranking of hallucinated answers below faithful ones.</p>")
    return '<div class="note">' + "".join(parts) + "</div>"


def _worst(frame: Any, summary: MetricSummary, k: int) -> str:
    """The k lowest-scoring cases (highest where lower is better), each with its explanation; the first open."""
    results = frame.attrs["results"]
    mask = scored_mask(frame, summary.metric)
    scored = [(float(v), i) for i, v in enumerate(frame[summary.metric]) if mask[i] and not math.isnan(float(v))]
    scored.sort(key=lambda p: (p[0] if summary.higher_is_better else -p[0], p[1]))
    if not scored:
        return ""
    which = "lowest" if summary.higher_is_better else "highest (lower is better)"
    parts = [f"<h3>The {min(k, len(scored))} {which} scores, step by step</h3>"]
    for n, (score, i) in enumerate(scored[:k]):
        row = frame.iloc[i].to_dict()
        case = results.case(i) if isinstance(results, CaseResults) else {}
        case = case or {"question": row.get("question"), "answer": row.get("answer")}
        marked = marked_answer(case.get("answer"), case.get("contexts"))
        parts.append(f'<details{" open" if n == 0 else ""}><summary><span class="score">{fmt(score)}</span> '
                     f"{_case_label(row)}: {_esc(row.get('question'))}</summary><div class=\"body\">"
                     f"{case_texts(case, answer_html=marked)}"
                     '<p class="muted">Marked: the answer\'s content words found in the contexts (<mark>found</mark>, '
                     '<span class="miss">not found</span>); plain words are stop words, not counted.</p>'
                     f"{_explanation(results[i][summary.metric])}</div></details>")
    return "".join(parts)


def _judge_section(frame: Any) -> str:
    judge = frame.attrs.get("judge")
    if not judge:
        return ("<section><h2>The judge</h2><p>No judge was used: every score above was computed without a model "
                "(0 calls, 0 tokens).</p></section>")
    totals = {c: int(frame[c].sum()) if c in frame.columns else 0 for c in CALL_COLUMNS}
    for stage in (frame.attrs.get("once") or {}).values():
        spent = stage.get("calls") if isinstance(stage, dict) else None
        for c in CALL_COLUMNS:
            totals[c] += int(getattr(spent, c, 0) or 0)
    cards = [("calls", totals["calls"], f"{totals['repairs']} of them repairs"),
             ("cache hits", totals["cache_hits"], "answered from the on-disk cache: no call, no token"),
             ("prompt tokens", totals["prompt_tokens"], "sent to the judge"),
             ("completion tokens", totals["completion_tokens"], "written by the judge")]
    body = "".join(f'<div class="card"><div class="name">{name}</div><div class="big">{value:,}</div>'
                   f'<div class="small">{_esc(note)}</div></div>' for name, value, note in cards)
    return (f"<section><h2>The judge</h2><p class=\"muted\">{_esc(judge)}</p>"
            f'<div class="cards">{body}</div></section>')


def render_report(frame: Any, *, summaries: list[MetricSummary] | None = None, worst: int = 3,
                  title: str | None = None) -> str:
    """The report as HTML text (see the module); ``summaries`` from :func:`summarize` (computed when None)."""
    names = scored_metrics(frame)
    found = summarize(frame) if summaries is None else validate.as_list("summaries", summaries,
                                                                        "the list summarize() returns")
    if [getattr(s, "metric", None) for s in found] != names:
        raise InputError("summaries", "summarize(frame) of this table, one per metric: " + ", ".join(names), summaries)
    worst = validate.integer("worst", worst, low=0, high=100)
    source = frame.attrs.get("source") or "data"
    heading = title if isinstance(title, str) and title.strip() else f"Evaluation of {source}"
    judge = frame.attrs.get("judge") or "none (judge-free metrics only)"
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_esc(heading)}</title>'
           f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head><body><main>',
           f"<header><h1>{_esc(heading)}</h1><p>{_count(len(frame), 'case')} · {_count(len(names), 'metric')} · judge: {_esc(judge)} · "
           f"ragmetrics-edu {__version__} · {when}</p></header>", '<section class="cards">']
    for s in found:
        if s.mean is None:
            out.append(f'<div class="card failed"><div class="name">{_esc(s.metric)}</div><div class="big">–</div>'
                       f'<div class="small">no case scored; {s.failed} failed</div></div>')
            continue
        judge_tag = "needs a judge" if _needs_judge(s.metric) else "no judge"
        shown = (_esc(s.interval_text()) if s.ci is None else f"{fmt(100 * s.level)}% interval "
                 f"[{num(s.metric + '.ci_low', s.ci[0])}, {num(s.metric + '.ci_high', s.ci[1])}]")
        out.append(f'<div class="card{" failed" if s.failed else ""}"><div class="name">{_esc(s.metric)}</div>'
                   f'<div class="big">{num(s.metric + ".mean", s.mean)}</div><div class="small">{shown}<br>{s.scored} '
                   f"scored · {s.failed} failed" + (f" · {s.undefined} undefined" if s.undefined else "")
                   + f'<br><span class="tag">{judge_tag}</span> rule: {_esc(_rule(frame, s.metric))}</div></div>')
    out.append("</section>")
    if any(s.mean is not None for s in found):
        how = next((f" ({_esc(x.resampling)}, seed {x.interval.values['seed']})" for x in found
                    if x.interval is not None and x.resampling), "")
        out.append(f"<section><h2>Means and intervals</h2><figure>{intervals_svg(found)}<figcaption>Each interval is "
                   f"a percentile bootstrap over the cases{how}: how far the mean could move with another set of "
                   "cases like these.</figcaption></figure></section>")
    for s in found:
        scores = [float(v) for v in frame[s.metric] if not math.isnan(float(v))]
        caption = (f"{s.scored} case{'' if s.scored == 1 else 's'} scored, {s.failed} failed" + (f", {s.undefined} undefined" if s.undefined else "")
                   + ("" if s.mean is None else f"; mean {fmt(s.mean)}, {s.interval_text()}"
                      + ("" if s.ci is None else " (the band)")))
        direction = "higher is better" if s.higher_is_better else "lower is better"
        out.append(f'<section><div class="metric-head"><h2>{_esc(s.metric)}</h2><span class="muted">{direction}'
                   f"</span></div>{_sees(frame, s.metric)}<figure>{histogram_svg(scores, s.mean, s.ci, label=f'{s.metric}: scores of the cases')}"
                   f"<figcaption>{_esc(caption)}</figcaption></figure>{_worst(frame, s, worst)}</section>")
    failed = [(int(r["case"]), r) for r in frame.to_dict(orient="records") if isinstance(r.get("error"), str)]
    if failed:
        items = "".join(f'<li>{_case_label(r)}: <span class="error">{_esc(r["error"])}</span></li>' for _, r in failed)
        out.append(f"<section><h2>Cases a metric could not score ({len(failed)})</h2><ul>{items}</ul></section>")
    left_out = frame.attrs.get("left_out") or {}
    if left_out:
        items = "".join(f"<li><b>{_esc(n)}</b> {_esc(why)}</li>" for n, why in left_out.items())
        out.append(f"<section><h2>Default metrics left out</h2><ul>{items}</ul></section>")
    out.append(_judge_section(frame))
    out.append("<footer>Made by <code>ragmetrics-edu evaluate</code>. Every score is the library's own arithmetic; "
               "the explanations are each result's steps (<code>explain()</code>).</footer></main></body></html>")
    return "".join(out)


def write_report(frame: Any, path: Any, **options: Any) -> Path:
    """Write :func:`render_report` to ``path`` (an ``.html`` file) and return the path."""
    target = validate.path("report", path, exists=False, expected="a file path ending in .html")
    if target.suffix.lower() not in (".html", ".htm"):
        raise InputError("report", "a file path ending in .html", str(path))
    text = render_report(frame, **options)
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError("report", "a file that can be written", str(path), hint=str(exc.strerror or exc)) from None
    return target
