"""HTML fragments for the classroom slide decks in ``slides/``, sized for a projector.

A deck's code cells call these while the deck is built, so every number on a slide is
computed by the library: a worked example's inputs, its step table, the formula with the
numbers put in, the score, and the deck's printed number beside the computed one (with the
exact value, and what differs where the deck rounds or truncates).

Each fragment is plain HTML with a ``_repr_html_``, so it also displays in a notebook. An
example's block carries ``data-example`` and ``data-case`` attributes; the browser test uses
them to find the slide an example is on.
"""

from __future__ import annotations

import base64
import html
import io
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .. import examples
from ..errors import InputError
from ..plots import PNG_OPTIONS
from ..results import MetricResult, cut, display_math, exact, fmt
from ..results import steps_html as _steps_html
from ..validate import as_list, flag, identifier, instance, integer, mapping, number, optional_flag, text_list
from ..validate import text as checked_text
from . import metric_map as mm
from .display import is_derived
from .embedding_texts import embedder_source

__all__ = ["Fragment", "case_inputs", "columns", "differs", "embedder_sources", "example_block", "example_line",
           "exact", "figure", "fmt", "formula", "metric_map", "note", "score", "scores_table", "steps_html", "table"]

#: Inputs worth showing above the step table, with the label a slide gives them.
_INPUT_LABELS = (("question", "Question"), ("reference", "Reference"), ("answer", "Answer"), ("context", "Context"))

#: Which step-table rows count towards the score (tinted on the slide).
_HIT_COLUMNS = ("term", "attributable", "relevant", "counts", "in_context")

#: A table of at most ``FEW_ROWS`` body rows, ``FEW_COLUMNS`` columns and cells of at most
#: ``SHORT_CELL`` characters is set larger (class ``rme-few``) so it fills its slide; any other
#: table of as few rows gets taller rows instead (class ``rme-airy``: set larger, it would wrap
#: its cells); one of more than ``MANY_ROWS`` rows gets tighter rows (class ``rme-many``) so it
#: fits on one slide.
FEW_ROWS = 5
FEW_COLUMNS = 5
SHORT_CELL = 24
MANY_ROWS = 7


def _size_class(rows: int, columns: int, longest: int = 0, large: bool | None = None) -> str:
    """The size class of a slide table of ``rows`` by ``columns`` whose longest cell has ``longest``
    characters; ``large`` overrides the rule (True: set larger; False: the slide's size)."""
    large = optional_flag("large", large)
    if large is True or (large is None and rows <= FEW_ROWS and columns <= FEW_COLUMNS and longest <= SHORT_CELL):
        return " rme-few"
    if rows <= FEW_ROWS:
        return " rme-airy" if large is None else ""
    return " rme-many" if rows > MANY_ROWS else ""


#: The box a slide shows a figure in (slide px; templates/ragmetrics-slides.css): the slide's
#: width inside reveal's margin, and at most 480 px tall so a title and a line of text fit.
FIGURE_BOX = (1228, 480)
#: The smallest text a slide figure gets, in slide px (25 px on a 1280x720 screen, as the prose).
FIGURE_TEXT_PX = 26
#: Pixels per inch the figure's PNG is drawn at: about twice what the slide shows, so it stays sharp.
FIGURE_DPI = 200

_HEADER_CELL = re.compile(r"(<th[^>]*>)([^<]*)(</th>)")


def _wrapping_headers(table_html: str) -> str:
    """Column names with spaces for underscores (``precision at k``), so a header may wrap onto two lines.

    At the slides' 26 px a step table's one-word headers (``relevant_so_far``) set the
    column widths and push the table off the slide; the cells themselves are unchanged.
    """
    return _HEADER_CELL.sub(lambda m: m.group(1) + m.group(2).replace("_", " ") + m.group(3), table_html)


def steps_html(result: MetricResult, hit: Any = None, width: int = 60, columns: Sequence[str] | None = None) -> str:
    """A result's step table for a slide: :func:`ragmetrics_edu.results.steps_html` with wrapping headers."""
    return _wrapping_headers(_steps_html(result, hit=hit, width=width, columns=columns))


@dataclass(frozen=True)
class Fragment:
    """A piece of slide HTML (shown as such by Jupyter and nbconvert)."""

    html: str

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.html

    def __add__(self, other: "Fragment") -> "Fragment":
        return Fragment(self.html + other.html)


def case_inputs(example: Any, label: str | None = None) -> dict[str, str]:
    """The texts a slide shows for one case: question, reference, answer, context (where present).

    The case's own arguments win over the example's shared inputs; ``answer_<label>`` and
    ``context_<label>`` inputs belong to the case of that label.
    """
    example = instance("example", example, examples.Example, "a worked example (examples.load(...))")
    case = example.case(label)
    kwargs, inputs = case.kwargs, example.inputs
    suffix = case.label.lower()

    def first(*keys: str) -> Any:
        for source, key in [(s, k) for k in keys for s in (kwargs, inputs)]:
            if source.get(key):
                return source[key]
        return None

    found = {
        "question": first("question"),
        "reference": first("expected_output", "ground_truth"),
        "answer": first("answer", "actual_output", f"answer_{suffix}"),
        "context": first("context", f"context_{suffix}"),
    }
    shown = {}
    for key, value in found.items():
        if isinstance(value, list):
            value = " · ".join(str(v) for v in value)
        if value:
            shown[key] = str(value)
    return shown


def _deck_lines(example: Any, label: str, result: MetricResult) -> list[str]:
    """One line per headline number the deck prints for this case: printed, computed, exact."""
    headline = example.case(label).headline
    lines = []
    for s in headline:
        value = result.lookup(s.quantity)
        shown = s.shown(value)
        what = "score" if s.quantity == "score" else s.quantity.split(":")[-1].replace("_", " ")
        mark = "✓" if s.matches(value) else "✗"
        extra = exact(value)
        if s.rule == "truncate":
            how = (f"the deck <b>truncates</b> to {s.decimals} places where rounding gives "
                   f"<b>{value:.{s.decimals}f}</b>")
            lines.append(f"Deck {example.deck} prints {what} <b class='rme-stated'>{html.escape(s.printed)}</b> "
                         f"{mark} library <b class='rme-computed'>{html.escape(shown)}</b> at the deck's precision: "
                         f"{how}; exact {html.escape(extra or fmt(value, 12))}")
        else:
            tail = f" (exact {html.escape(extra)})" if extra else ""
            source = ("Derived by the project (the deck prints none):" if is_derived(s.text)
                      else f"Deck {example.deck} prints")
            lines.append(f"{source} {what} <b class='rme-stated'>{html.escape(s.printed)}</b> "
                         f"{mark} library <b class='rme-computed'>{html.escape(shown)}</b>{tail}")
    if not headline:
        tail = f" (exact {html.escape(exact(result.score))})" if exact(result.score) else ""
        lines.append(f"Deck {example.deck} prints no number here; library "
                     f"<b class='rme-computed'>{html.escape(fmt(result.score))}</b>{tail}")
    return lines


def _hit(result: MetricResult):
    """Which rows count towards the score; for entities, those in both sets."""
    if {"in_reference", "in_context"} <= set(result.columns):
        return lambda row: bool(row.get("in_reference") and row.get("in_context"))
    column = next((c for c in _HIT_COLUMNS if c in result.columns), None)
    if column is None:
        return None
    return lambda row: bool(row.get(column))


def example_block(example_id: str, case: str | None = None, *, width: int = 64,
                  columns: Sequence[str] | None = None, inputs: Iterable[str] = ("question", "reference", "answer"),
                  embedder: Any = None) -> Fragment:
    """A worked example on one slide: inputs, step table, formula, score and the deck's number.

    ``columns`` narrows the step table; ``inputs`` picks which of question, reference,
    answer and context are printed above it; ``width`` cuts long texts.
    """
    width = integer("width", width, low=8, high=10_000, expected="a text width (characters)")
    inputs = text_list("inputs", inputs)
    example = examples.load(example_id)
    label = example.case(case).label
    result = example.compute(label, embedder=embedder)
    texts = case_inputs(example, label)
    wanted = set(inputs)
    rows = "".join(
        f"<tr><th>{name}</th><td>{html.escape(cut(texts[key], 2 * width))}</td></tr>"
        for key, name in _INPUT_LABELS if key in wanted and key in texts)
    parts = [f"<div class='rme-example' data-example='{html.escape(example.id)}' data-case='{html.escape(label)}'>",
             f"<p class='rme-source'>Deck {example.deck} · {html.escape(example.title)}"
             + (f" · <i>{html.escape(label)}</i>" if len(example.cases) > 1 else "") + "</p>"]
    if rows:
        parts.append(f"<table class='rme-inputs tex2jax_ignore'>{rows}</table>")
    many = " rme-many" if len(result.rows) > MANY_ROWS else ""
    parts.append(f"<div class='rme-steps{many}'>"
                 f"{steps_html(result, hit=_hit(result), width=width, columns=columns)}</div>")
    if result.formula:
        parts.append(formula(result).html)
    parts.append("<ul class='rme-deck'>" + "".join(f"<li>{line}</li>" for line in _deck_lines(example, label, result))
                 + "</ul></div>")
    return Fragment("".join(parts))


def scores_table(results: dict[str, MetricResult], *, example_id: str | None = None, caption: str = "",
                 formula: bool = False) -> Fragment:
    """Several cases side by side: label, score, exact value and (for an example) the deck's number.

    Used where a deck compares orderings or variants (deck D's order table, high against low).
    """
    results = _results("results", results)
    caption, formula = checked_text("caption", caption), flag("formula", formula)
    if example_id is not None:
        example_id = identifier("example_id", example_id, "a catalogue example id, or None")
    example = examples.load(example_id) if example_id else None
    head = "<tr><th class='rme-text'>case</th><th>score</th><th>exact</th>"
    head += "<th>deck prints</th><th></th></tr>" if example else "</tr>"
    body = []
    for label, result in results.items():
        cells = [f"<td class='rme-text'>{html.escape(label)}</td>", f"<td><b>{fmt(result.score)}</b></td>",
                 f"<td>{html.escape(exact(result.score))}</td>"]
        if example:
            stated = [s for s in example.case(label).stated if s.quantity == "score"]
            if stated:
                s = stated[0]
                cells.append(f"<td class='rme-stated'>{html.escape(s.printed)}</td>"
                             f"<td>{'✓' if s.matches(result.score) else '✗'} {html.escape(s.shown(result.score))}</td>")
            else:
                cells.append("<td>–</td><td></td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
        if formula and result.formula:
            span = 5 if example else 3
            body.append(f"<tr class='rme-formula-row'><td colspan='{span}'>{display_math(result.formula)}</td></tr>")
    attrs = f" data-example='{html.escape(example.id)}'" if example else ""
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    size = _size_class(len(results), 3) if not formula else ""  # its columns are short numbers
    return Fragment(f"<div class='rme-scores'{attrs}><table class='{size.strip()}'>{cap}<thead>{head}</thead>"
                    f"<tbody>{''.join(body)}</tbody></table></div>")


def formula(result: MetricResult, general: bool = False) -> Fragment:
    """The formula as display math: with this case's numbers, or the general form."""
    result, general = _result(result), flag("general", general)
    tex = result.formula_general if general else result.formula
    return Fragment(f"<div class='rme-formula'>{display_math(tex)}</div>")


def score(result: MetricResult, label: str = "") -> Fragment:
    """The score in large type, with the exact value where the shown one is rounded."""
    result, label = _result(result), checked_text("label", label)
    tail = f" <small>(exact {html.escape(exact(result.score))})</small>" if exact(result.score) else ""
    name = html.escape(label or result.name)
    return Fragment(f"<p class='rme-score'>{name}: <b>{fmt(result.score)}</b>{tail}</p>")


def _result(result: Any, field: str = "result") -> MetricResult:
    return instance(field, result, MetricResult, "a MetricResult (what a metric returns)")


def _results(field: str, results: Any) -> dict[str, MetricResult]:
    """Results by case label (strings), each a MetricResult."""
    found = mapping(field, results, "a dict case label -> MetricResult")
    for label, result in found.items():
        if not isinstance(label, str):
            raise InputError(field, "a dict whose keys are case labels (strings)", label)
        _result(result, f"{field}[{label!r}]")
    return dict(found)


def columns(*fragments: Fragment) -> Fragment:
    """Fragments side by side, one column each (two fit a slide)."""
    inner = "".join(f"<div>{f.html}</div>" for f in fragments)
    return Fragment(f"<div class='rme-cols' style='grid-template-columns: repeat({len(fragments)}, 1fr)'>{inner}</div>")


def differs(text: str) -> Fragment:
    """A boxed remark on what a deck's text gets wrong or leaves out (its numbers computed by the caller)."""
    return Fragment(f"<div class='rme-differs'>{text}</div>")


def table(header: Sequence[str], rows: Iterable[Sequence[Any]], caption: str = "", *,
          large: bool | None = None) -> Fragment:
    """A plain table of computed values (numbers written with :func:`fmt`).

    A short, narrow table is set larger so it fills its slide; ``large=True`` or ``False``
    decides that for a slide where the rule guesses wrong (it checks only the table's shape).
    """
    header, caption = as_list("header", header, "a list of column names"), checked_text("caption", caption)
    rows = [as_list(f"rows[{i}]", row, "a row (a list of cells)")
            for i, row in enumerate(as_list("rows", rows, "a list of rows", iterators=True))]
    text = [bool(rows) and all(isinstance(row[i], str) for row in rows) for i in range(len(header))]
    cls = [" class='rme-text'" if t else "" for t in text]
    head = "".join(f"<th{c}>{html.escape(str(h))}</th>" for h, c in zip(header, cls, strict=True))
    body = "".join("<tr>" + "".join(f"<td{c}>{html.escape(v if isinstance(v, str) else fmt(v))}</td>"
                                    for v, c in zip(row, cls, strict=False)) + "</tr>" for row in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    longest = max((len(v if isinstance(v, str) else fmt(v)) for row in rows for v in row), default=0)
    size = _size_class(len(rows), len(header), longest, large)
    return Fragment(f"<table class='rme-plain{size} tex2jax_ignore'>{cap}<thead><tr>{head}</tr></thead>"
                    f"<tbody>{body}</tbody></table>")


def note(example_id: str) -> str:
    """The catalogue's note and assumption for an example, as speaker-notes Markdown."""
    example = examples.load(example_id)
    parts = [f"**{example.id}**: {example.citation}."]
    if example.assumed:
        parts.append(f"Assumed: {example.assumed}")
    if example.note:
        parts.append(f"Note: {example.note}")
    return "\n\n".join(parts)


def embedder_sources(embedders: Any) -> Fragment:
    """A small line naming where each embedder's numbers come from (``{column name: embedder}``)."""
    embedders = mapping("embedders", embedders, "a dict column name -> embedder")
    parts = [f"<b>{html.escape(str(name))}</b>: {html.escape(embedder_source(e))}" for name, e in embedders.items()]
    return Fragment(f"<p class='rme-small'>{' · '.join(parts)}</p>")


def example_line(example_id: str, case: str | None = None) -> Fragment:
    """A worked example in one or two lines: its source and the deck's number beside the library's.

    For slides that cite an example without room for its step table; it carries the same
    ``data-example`` and ``data-case`` marks as :func:`example_block`.
    """
    example = examples.load(example_id)
    label = example.case(case).label
    result = example.compute(label)
    title = f"Deck {example.deck} · {html.escape(example.title)}" + (
        f" · <i>{html.escape(label)}</i>" if len(example.cases) > 1 else "")
    lines = "".join(f"<li>{line}</li>" for line in _deck_lines(example, label, result))
    return Fragment(f"<div class='rme-example' data-example='{html.escape(example.id)}' data-case='{html.escape(label)}'>"
                    f"<p class='rme-source'>{title}</p><ul class='rme-deck'>{lines}</ul></div>")


def metric_map(costs: Any = None) -> Fragment:
    """The metric map (``ragmetrics_edu.course.metric_map``) as a slide table: what each metric reads and judges.

    With ``costs`` (from :func:`ragmetrics_edu.course.metric_map.measure`) it adds the measured judge
    calls and prompt tokens per case; "-" where no case was measured, 0 where no judge is asked.
    """
    costs = None if costs is None else mm.check_costs(costs)
    header = ["metric", "needs", "reference-free", "judges"] + (["calls / case", "prompt tokens / case"] if costs else [])
    rows = []
    for row in mm.rows(costs):
        cells: list[Any] = [row["metric"], row["needs"], "yes" if row["reference_free"] else "no", row["component"]]
        if costs:
            cells += ["-" if row["calls"] is None else round(row["calls"], 2),
                      "-" if row["prompt_tokens"] is None else round(row["prompt_tokens"])]
        rows.append(cells)
    return table(header, rows, caption="needs: Q question · C contexts · A answer · R reference · L relevance labels")


def figure(fig: Any, width: float, height: float, *, text_px: float = FIGURE_TEXT_PX, alt: str = "") -> Fragment:
    """A matplotlib figure as a slide image whose every text reads from the back row.

    The figure is set to ``width`` x ``height`` inches and shown as large as the slide's
    figure box (:data:`FIGURE_BOX`) allows, so an inch becomes ``min(box width / width, box
    height / height)`` slide px; every text (titles, labels, ticks, legends, annotations)
    smaller than ``text_px`` at that scale is enlarged to it and the layout redone. The image
    carries ``data-text-px``, its smallest text in its own pixels, for the browser test to
    scale by the size it is drawn at. The figure is closed by nothing: it is the caller's.
    """
    from matplotlib.figure import Figure  # lazy: matplotlib loads only when drawing
    from matplotlib.text import Text

    fig = instance("fig", fig, Figure, "a matplotlib figure")
    width, height = (number(name, value, "a positive number of inches, at most 100", low=0.0, high=100.0, low_open=True)
                     for name, value in (("width", width), ("height", height)))
    text_px = number("text_px", text_px, "a positive text size in px, at most 200", low=0.0, high=200.0, low_open=True)
    alt = checked_text("alt", alt)
    fig.set_size_inches(width, height)
    px_per_inch = min(FIGURE_BOX[0] / width, FIGURE_BOX[1] / height)
    smallest_pt = text_px * 72 / px_per_inch
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = axis.get_ticklabels()
            if labels and labels[0].get_fontsize() < smallest_pt:
                axis.set_tick_params(labelsize=smallest_pt)
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    for text in texts:
        if text.get_fontsize() < smallest_pt:
            text.set_fontsize(smallest_pt)
    fig.set_layout_engine("constrained")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=FIGURE_DPI, pil_kwargs=PNG_OPTIONS)
    smallest = min((t.get_fontsize() for t in texts), default=smallest_pt) * FIGURE_DPI / 72
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return Fragment(f"<img class='rme-figure' alt='{html.escape(alt)}' data-text-px='{smallest:.1f}' "
                    f"src='data:image/png;base64,{data}'>")
