"""Two versions compared on one self-contained HTML page (``ragmetrics-edu compare A B --report compare.html``).

The page answers "is B better than A, by how much, how sure, and how many more questions would settle it":
per metric both means, the paired difference B − A with its bootstrap interval, the permutation and sign
tests' p-values and the permutation p adjusted across the metrics shown (Holm), each labelled; a figure of the
per-case differences; the cases that changed most with their question, both answers, the contexts and the
reference; the planning count for a difference of ``--detect``; the regression gate's verdict with its margin
and the judge's noise; the judge's identity and cost; and, with ``--labels``, people's pass rates. Every number
comes from :mod:`.compare_numbers` (the same the Python API returns). Figures are inline SVG: no request.
"""

from __future__ import annotations

import html
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping, Sequence

from .. import __version__, validate
from ..errors import InputError
from ..results import fmt
from .compare_numbers import PLANNING_RULE, MetricNumbers, paired_values
from .datasets import Dataset
from .pairing import Pairing
from .report import CORAL, GRID, INK, SAND, STYLE, TEAL
from .report_cases import case_texts, marked_answer, num

#: The compare and evaluate pages' own parts: their public way in is `ragmetrics-edu compare --report` (and
#: `evaluate --report`); these names are not a library API.
__all__: list[str] = []

#: Cases shown per metric under "changed most".
CHANGED_SHOWN = 3


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def differences_svg(diffs: Sequence[float], mean: float, ci: tuple[float, float], *, label: str,
                    width: int = 960, height: int = 240) -> str:
    """Each pair's difference B − A as a bar from 0 (sorted; up: B higher, down: B lower), the mean as a line
    and the interval as a band: an inline ``<svg>`` element."""
    values = sorted(validate.number("diffs", d, "finite differences", low=-1e6, high=1e6)
                    for d in validate.as_list("diffs", diffs, "a list of differences"))
    if not values:
        raise InputError("diffs", "at least one difference", diffs)
    mean = validate.number("mean", mean, "the mean difference", low=-1e6, high=1e6)
    pair = validate.as_list("ci", ci, "the interval (low, high)")
    if len(pair) != 2:
        raise InputError("ci", "the interval (low, high)", ci)
    ci = (validate.number("ci", pair[0], "a finite low end", low=-1e6, high=1e6),
          validate.number("ci", pair[1], "a finite high end", low=-1e6, high=1e6))
    label = validate.text("label", label)
    width, height = validate.integer("width", width, low=200, high=4000), validate.integer("height", height, low=100,
                                                                                              high=4000)
    top_v = max([abs(v) for v in values] + [abs(ci[0]), abs(ci[1]), 1e-9])
    left, right, top, bottom = 52, 16, 20, 34
    plot_w, plot_h = width - left - right, height - top - bottom

    def y(v: float) -> float:
        return top + plot_h / 2 - v / top_v * plot_h / 2

    parts = [f'<svg class="figure" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="{_esc(label)}"><title>{_esc(label)}</title>',
             f'<rect x="{left}" y="{y(ci[1]):.1f}" width="{plot_w}" height="{max(1.0, y(ci[0]) - y(ci[1])):.1f}" '
             f'fill="{SAND}" opacity="0.45"><title>interval [{fmt(ci[0])}, {fmt(ci[1])}]</title></rect>']
    for t in (-top_v, -top_v / 2, 0.0, top_v / 2, top_v):
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="{GRID}"/>'
                     f'<text x="{left - 6}" y="{y(t) + 4:.1f}" font-size="11" text-anchor="end" fill="#5b6b77">'
                     f"{fmt(t, 2)}</text>")
    step = plot_w / len(values)
    for k, v in enumerate(values):
        y0, y1 = sorted((y(0.0), y(v)))
        parts.append(f'<rect class="bar" x="{left + k * step + step * 0.1:.2f}" y="{y0:.1f}" '
                     f'width="{max(0.6, step * 0.8):.2f}" height="{max(0.8, y1 - y0):.1f}" '
                     f'fill="{TEAL if v > 0 else CORAL if v < 0 else "#8a99a6"}"><title>{fmt(v)}</title></rect>')
    parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#8a99a6"/>'
                 f'<line x1="{left}" x2="{width - right}" y1="{y(mean):.1f}" y2="{y(mean):.1f}" stroke="{INK}" '
                 f'stroke-width="2" stroke-dasharray="6 4"/><text x="{width - right - 4}" y="{y(mean) - 6:.1f}" '
                 f'font-size="12" text-anchor="end" fill="{INK}">mean {fmt(mean)}</text>'
                 f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" font-size="12" text-anchor="middle" '
                 f'fill="#1d2a33">paired cases, sorted by difference B − A ({len(values)})</text></svg>')
    return "".join(parts)


def _table(numbers: Sequence[MetricNumbers]) -> str:
    head = ("<tr><th>metric</th><th>pairs</th><th>mean A</th><th>mean B</th><th>difference B − A [interval]</th>"
            "<th>permutation p</th><th>sign test p</th><th>Holm-adjusted p</th></tr>")
    rows = []
    for m in numbers:
        k = m.metric
        rows.append(f"<tr><td>{_esc(k)}</td><td>{m.n}</td><td>{num(k + '.mean_a', m.mean_a)}</td>"
                    f"<td>{num(k + '.mean_b', m.mean_b)}</td><td>{num(k + '.difference', m.difference)} "
                    f"[{num(k + '.ci_low', m.ci[0])}, {num(k + '.ci_high', m.ci[1])}]</td>"
                    f"<td>{num(k + '.permutation_p', m.permutation_p)}</td><td>{num(k + '.sign_p', m.sign_p)}</td>"
                    f"<td>{num(k + '.holm_p', m.holm_p)}</td></tr>")
    level = fmt(100 * numbers[0].level)
    return (f'<div class="scroll"><table>{head}{"".join(rows)}</table></div><p class="muted">Means over the pairs '
            f"both versions scored. Difference: mean of B − A per pair, with its {level}% percentile bootstrap "
            "interval over pairs. Permutation p: two-sided sign-flip test of the mean difference. Sign test p: "
            "exact binomial test of how many pairs B won. Holm-adjusted p: the permutation p corrected for testing "
            f"{len(numbers)} metric{'' if len(numbers) == 1 else 's'} at once (Holm's step-down).</p>")


def _changed(numbers: MetricNumbers, pairing: Pairing, data: tuple[Dataset, Dataset],
             scores: tuple[dict[str, list[float | None]], dict[str, list[float | None]]]) -> str:
    pairs = paired_values(pairing, scores[0], scores[1], numbers.metric)
    pairs.sort(key=lambda p: (-abs(p[4] - p[3]), str(p[0])))
    parts = [f"<h3>The {min(CHANGED_SHOWN, len(pairs))} cases whose {_esc(numbers.metric)} changed most</h3>"]
    for n, (label, i, j, a, b) in enumerate(pairs[:CHANGED_SHOWN]):
        case_a, case_b = data[0].cases[i], data[1].cases[j]
        name = f"id {label}" if pairing.key == "id" else f"A row {i + 1}, B row {j + 1}"
        same = case_a.get("contexts") == case_b.get("contexts")
        body = case_texts(case_a, answer_html=marked_answer(case_a.get("answer"), case_a.get("contexts")),
                          label=f"A's answer ({fmt(a)})")
        body += (f'<p class="qa"><b>B\'s answer ({fmt(b)}):</b> '
                 f"{marked_answer(case_b.get('answer'), case_b.get('contexts'))}</p>")
        if not same:
            body += ("<div class=\"qa\"><b>B's contexts:</b><ol class=\"contexts\">"
                     + "".join(f"<li>{_esc(c)}</li>" for c in case_b.get("contexts") or []) + "</ol></div>")
        parts.append(f'<details{" open" if n == 0 else ""}><summary><span class="score">{b - a:+.3f}</span> '
                     f"{_esc(name)}: {_esc(case_a.get('question'))}</summary><div class=\"body\">{body}"
                     + "</div></details>")
    return "".join(parts)


def render_compare(numbers: Sequence[MetricNumbers], pairing: Pairing, data: tuple[Dataset, Dataset],
                   scores: tuple[dict[str, list[float | None]], dict[str, list[float | None]]], *,
                   judge: Mapping[str, Any] | None = None, noise: float | None = None,
                   labels_html: str = "", title: str | None = None) -> str:
    """The page as HTML text (see the module)."""
    items = validate.as_list("numbers", numbers, "the list comparison_numbers() returns")
    if not items or not all(isinstance(m, MetricNumbers) for m in items):
        raise InputError("numbers", "the list comparison_numbers() returns", numbers)
    names = (data[0].source, data[1].source)
    heading = title if isinstance(title, str) and title.strip() else f"{names[1]} against {names[0]}"
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_esc(heading)}</title>'
           f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head><body>'
           f"<main><header><h1>{_esc(heading)}</h1><p>A = {_esc(names[0])} (accepted) · B = {_esc(names[1])} "
           f"(candidate) · every difference is B − A · ragmetrics-edu {__version__} · {when}</p></header>",
           f"<section><h2>Did B change the scores?</h2><p>{_esc(pairing.describe(('A', 'B')).splitlines()[0])}</p>"
           f"{_table(items)}</section>"]
    for m in items:
        pairs = paired_values(pairing, scores[0], scores[1], m.metric)
        diffs = [b - a for *_, a, b in pairs]
        gate = (f"<p><b>Regression gate:</b> {_esc(m.verdict)}"
                + (f" (margin {num(m.metric + '.margin', m.margin)}: the largest drop accepted as no regression)"
                   if m.margin is not None else "") + f". {_esc(m.gate_reason[:1].upper() + m.gate_reason[1:])}.</p>")
        out.append(f'<section><div class="metric-head"><h2>{_esc(m.metric)}</h2><span class="muted">{m.n} pairs'
                   f"</span></div><figure>{differences_svg(diffs, m.difference, m.ci, label=f'{m.metric}: B − A per case')}"
                   f"<figcaption>Each bar is one pair's difference B − A (up: B scored higher). Dashed line: the mean "
                   f"difference {fmt(m.difference)}; band: its interval [{fmt(m.ci[0])}, {fmt(m.ci[1])}].</figcaption>"
                   f'</figure><p class="note"><b>Planning:</b> the differences have standard deviation '
                   f"{num(m.metric + '.sd', m.sd)}; telling apart a difference of {num(m.metric + '.detect', m.detect)} "
                   f"at 80% power (two-sided, {fmt(100 * m.level)}%) needs about "
                   f"<b>{num(m.metric + '.needed', m.needed, 6)}</b> paired questions: n ≈ ((z<sub>0.975</sub> + "
                   f"z<sub>0.8</sub>) · sd / δ)². {_esc(PLANNING_RULE)}</p>{gate}"
                   f"{_changed(m, pairing, data, scores)}</section>")
    out.append(_judge_section(judge, noise))
    if labels_html:
        out.append(labels_html)
    out.append("<footer>Made by <code>ragmetrics-edu compare --report</code>. Every number is the library's own "
               "arithmetic (stats.paired_bootstrap, stats.permutation_test, stats.sign_test, "
               "regression_gate.gate).</footer></main></body></html>")
    return "".join(out)


def _judge_section(judge: Mapping[str, Any] | None, noise: float | None) -> str:
    noise_text = ("The judge's noise (per-run shift sd, given with --noise): " + num("judge.noise", noise)
                  if noise is not None else "No judge noise was given: a judged metric's gate is not run.")
    if not judge:
        return ("<section><h2>The judge</h2><p>No judge was used: every metric here is computed without a model "
                "(0 calls, 0 tokens), so its gate counts no judge noise.</p></section>")
    rows = "".join(f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>" for k, v in judge.items())
    return (f'<section><h2>The judge</h2><div class="scroll"><table>{rows}</table></div><p>{noise_text}</p>'
            "</section>")


def write_compare(path: Any, text: str) -> Path:
    """Write the page ``text`` to ``path`` (an ``.html`` file)."""
    target = validate.path("--report", path, exists=False, expected="a file path ending in .html")
    if target.suffix.lower() not in (".html", ".htm"):
        raise InputError("--report", "a file path ending in .html", str(path))
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError("--report", "a file that can be written", str(path), hint=str(exc.strerror or exc)) from None
    return target
