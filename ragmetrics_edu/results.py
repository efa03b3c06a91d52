"""Results: one vocabulary for every number the library returns, and MetricResult.

:class:`Result` is the base of every result class (a metric's :class:`MetricResult`, a
statistic's ``StatResult``, an agreement's ``AgreementResult``, the regression gate's
``GateResult``), so they read alike:

- ``metric``: what was computed; ``score``: its number; ``ci``: the interval ``(low, high)`` (always
  an interval, never a level) at confidence ``level`` (both None where no interval is given; a
  subclass declares them);
- ``values``: the named intermediates; ``steps``: the step table as a pandas DataFrame; ``notes``;
- ``lookup(quantity)``: ``"score"``, ``"value:<name>"`` or ``"step:<column>:<row>"``;
- ``headline()``, ``explain()`` (Markdown), ``to_dict()`` (the keys of :data:`RESULT_KEYS` first, then
  the kind's own), ``plot()``.

A metric function fills in the rows of its step table, the named scalars it used
(``values``), the formula with this case's numbers substituted and a short narrative.
The pandas DataFrame behind ``steps`` is built only when asked for, so scoring stays
fast and importing the library does not import pandas.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

from .errors import InputError
from .validate import as_list, integer, text, text_list

__all__ = ["RESULT_KEYS", "Result", "MetricResult", "TEXT_COLUMNS", "fmt", "same_decimals", "exact", "cut", "display_math",
           "bullets_html", "markdown_table", "html_table", "steps_html"]


def same_decimals(*texts: str) -> tuple[str, ...]:
    """Numbers written by :func:`fmt`, padded with trailing zeros to one count of decimals, so a value and
    its interval read alike ("0.786 [0.7294, 0.838]" becomes "0.7860 [0.7294, 0.8380]"); other texts
    ("NaN", "–") are left as they are."""
    numbers = [t for t in texts if t.lstrip("-").replace(".", "", 1).isdigit()]
    width = max((len(t.partition(".")[2]) for t in numbers), default=0)
    return tuple(f"{float(t):.{width}f}" if t in numbers and width else t for t in texts)


def fmt(x: Any, digits: int = 4) -> str:
    """Format a number the way it is written on a board: at most ``digits`` decimals."""
    if type(digits) is not int or not 0 <= digits <= 17:  # the check itself, only when it can fail
        digits = integer("digits", digits, low=0, high=17)
    if x is None:
        return "–"
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if math.isnan(x):
            return "NaN"
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        if x == int(x) and abs(x) < 1e15:
            return str(int(x))
        text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    return str(x)


def exact(x: Any) -> str:
    """The full value to write beside a rounded one (``repr``), or "" where :func:`fmt` loses nothing."""
    if isinstance(x, float) and not math.isnan(x) and fmt(x, 12) != fmt(x):
        return repr(x)
    return ""


def cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the last one an ellipsis when anything was dropped."""
    text = _text("text", text)
    width = integer("width", width, low=1, high=1_000_000)
    return text if len(text) <= width else text[: width - 1] + "…"


def display_math(tex: str) -> str:
    """TeX as display math for MathJax (HTML-escaped, so ``<`` in a formula cannot open a tag)."""
    tex = _text("tex", tex)
    return f"$${html.escape(tex, quote=False)}$$"


_text = text  # cut()'s parameter ``text`` shadows the check


def bullets_html(items: Sequence[str]) -> str:
    """Plain-text items as an HTML bullet list; "" for none."""
    items = text_list("items", items)
    return "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>" if items else ""


#: the keys every result's ``to_dict()`` starts with, in this order
RESULT_KEYS = ("kind", "metric", "score", "ci", "level", "values", "steps", "notes")


def jsonable(v: Any) -> Any:
    """(Used by the result classes, not part of the API.) Python values for JSON: numpy numbers converted, NaN and ±inf as None, tuples as lists."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, (int, float)):
        return v
    return str(v)


def _step_frame(columns: Sequence[str], rows: list[dict[str, Any]]):
    """A step table as a pandas DataFrame (integer columns with gaps stay integers)."""
    import pandas as pd  # lazy: pandas loads only when a table is asked for

    table = pd.DataFrame(rows, columns=list(columns))
    for column in columns:  # keep 1, 2, <NA> as integers rather than 1.0, 2.0, NaN
        cells = [row.get(column) for row in rows]
        if None in cells and all(c is None or (isinstance(c, int) and not isinstance(c, bool)) for c in cells):
            table[column] = pd.array(cells, dtype="Int64")
    if "k" in table.columns and len(table):
        table.index = range(1, len(table) + 1)
    return table


class Result:
    """The vocabulary every result shares (see the module). A subclass holds ``metric``, ``score``,
    ``values``, ``notes``, ``narrative`` and ``formula``, and may add ``ci``/``level``; it says what is
    its own through :meth:`_result_lines` (explain), :meth:`_own_dict` (to_dict) and :meth:`_step_table`."""

    kind: ClassVar[str] = "result"

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Result:
            raise InputError("Result", "one of its kinds (MetricResult, StatResult, AgreementResult, GateResult): "
                             "the base only gives them their shared names", "Result()")
        return super().__new__(cls)

    @property
    def name(self) -> str:
        return str(getattr(self, "metric"))

    def _step_table(self) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
        return tuple(getattr(self, "columns", ())), list(getattr(self, "rows", []))

    @property
    def steps(self):
        """The step table as a pandas DataFrame (built on first access)."""
        cache = self.__dict__.get("_frame")
        if cache is None:
            cache = _step_frame(*self._step_table())
            self.__dict__["_frame"] = cache   # also on frozen dataclasses: the table is derived, not state
        return cache

    def lookup(self, quantity: str) -> Any:
        """``score``, ``value:<name>`` (a named intermediate) or ``step:<column>:<row>`` (1-based row)."""
        columns, rows = self._step_table()
        values = getattr(self, "values", {})
        if isinstance(quantity, str):
            if quantity == "score":
                return getattr(self, "score")
            kind, _, rest = quantity.partition(":")
            if kind == "value" and rest in values:
                return values[rest]
            if kind == "step":
                column, _, row = rest.rpartition(":")
                if column in columns and row.isdigit() and 1 <= int(row) <= len(rows):
                    return rows[int(row) - 1][column]
        raise InputError("quantity", f"'score', 'value:<{'|'.join(values)}>' or 'step:<column>:<row>'", quantity)

    def headline(self) -> str:
        """One sentence: the score and, when there is one, its interval."""
        ci, level = getattr(self, "ci", None), getattr(self, "level", None)
        if ci is None or level is None:
            return f"{self.name} = {fmt(getattr(self, 'score'))}."
        score, low, high = same_decimals(fmt(getattr(self, "score")), fmt(ci[0]), fmt(ci[1]))
        return f"{self.name} = {score}; {fmt(100 * level)}% interval [{low}, {high}]."

    def _title(self) -> str:
        return f"**{self.name}**"

    def _result_lines(self) -> list[str]:
        return [self.headline()]

    def explain(self) -> str:
        """A Markdown narrative: each step with its numbers, the formula, the result and the notes."""
        lines = [self._title(), ""]
        lines += [f"{i}. {step}" for i, step in enumerate(getattr(self, "narrative", []), 1)]
        if getattr(self, "formula", ""):
            lines += ["", f"$${getattr(self, 'formula')}$$"]
        lines += ["", *self._result_lines()]
        notes = list(getattr(self, "notes", []))
        if notes:
            lines += ["", "Notes:"] + [f"- {n}" for n in notes]
        return "\n".join(lines)

    def _own_dict(self) -> dict[str, Any]:
        return {}

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-able dict: the keys of :data:`RESULT_KEYS`, then this kind's own."""
        _, rows = self._step_table()
        common = {"kind": self.kind, "metric": getattr(self, "metric"), "score": jsonable(getattr(self, "score")),
                  "ci": jsonable(getattr(self, "ci", None)), "level": getattr(self, "level", None),
                  "values": {str(k): jsonable(v) for k, v in getattr(self, "values", {}).items()},
                  "steps": [{str(k): jsonable(v) for k, v in row.items()} for row in rows],
                  "notes": list(getattr(self, "notes", []))}
        return {**common, **self._own_dict()}

    def plot(self, ax: Any = None):
        """The result's figure; a kind without one says so."""
        raise InputError("plot", f"a result with a figure (a {self.kind} result has none; its steps are in .steps)",
                         self.name)


@dataclass
class MetricResult(Result):
    """The outcome of one metric on one case.

    ``score`` is the metric's value; ``rows``/``columns`` hold the step table (see
    ``steps``); ``values`` the named intermediate scalars (counts, sums, denominators);
    ``formula`` is LaTeX with the numbers substituted; ``notes`` name any edge case or
    convention that decided the score.
    """

    metric: str
    score: float
    variant: str | None = None
    columns: tuple[str, ...] = ()
    rows: list[dict[str, Any]] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)
    formula: str = ""
    formula_general: str = ""
    narrative: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    threshold: float | None = None
    higher_is_better: bool = True  # False: a lower score is better (success is score <= threshold)
    inputs: dict[str, Any] = field(default_factory=dict)
    calls: list[Any] = field(default_factory=list)
    ci: tuple[float, float] | None = None      # a metric on one case has no interval; StatResult's has
    level: float | None = None
    kind: ClassVar[str] = "metric"

    # -- derived -------------------------------------------------------------------
    @property
    def success(self) -> bool | None:
        """Whether the score is on the right side of the threshold, when one was given: ``score >= threshold`` for a
        higher-is-better metric (as DeepEval reports it), ``score <= threshold`` for a lower-is-better one
        (DeepEval's hallucination, bias and toxicity pass at or below their threshold). A NaN score fails."""
        if self.threshold is None:
            return None
        if math.isnan(self.score):
            return False
        return self.score >= self.threshold if self.higher_is_better else self.score <= self.threshold

    @property
    def reason(self) -> str:
        """A one-paragraph reason for the score, written from the steps (no LLM call).

        Deck D's DeepEval result carries a reason produced by an extra LLM request; here
        it is generated from the same numbers the step table shows."""
        parts = [f"{self.name} = {fmt(self.score)}."]
        parts += self.narrative[-2:]
        if self.notes:
            parts.append(self.notes[0])
        return " ".join(parts)

    @property
    def name(self) -> str:
        return f"{self.metric} ({self.variant})" if self.variant else self.metric

    # -- text ----------------------------------------------------------------------
    def _result_lines(self) -> list[str]:
        lines = [f"Score: **{fmt(self.score)}**" + (f" (exact value {exact(self.score)})" if exact(self.score) else "")]
        if self.threshold is not None:
            verdict = "passes" if self.success else "fails"
            side = "" if self.higher_is_better else " (lower is better: it passes at or below the threshold)"
            lines.append(f"Threshold {fmt(self.threshold)}{side}: the case {verdict} (success = {self.success}).")
        return lines

    def _own_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "threshold": self.threshold, "higher_is_better": self.higher_is_better,
                "success": self.success,
                "formula": self.formula, "reason": self.reason}

    def table_text(self) -> str:
        """The step table as aligned plain text (for terminals; no pandas needed)."""
        cols = list(self.columns)
        cells = [[_cell(row.get(c)) for c in cols] for row in self.rows]
        widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]
        head = "  ".join(c.rjust(w) for c, w in zip(cols, widths, strict=True))
        body = ["  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
        return "\n".join([head] + body)

    def __repr__(self) -> str:
        extra = f", success={self.success}" if self.threshold is not None else ""
        return f"MetricResult({self.name}: score={fmt(self.score)}{extra}, {len(self.rows)} steps)"

    def _repr_markdown_(self) -> str:
        table = markdown_table(self.columns, self.rows)
        return self.explain() + ("\n\n" + table if table else "")

    def _repr_html_(self) -> str:
        parts = [f"<div class='ragmetrics-result'><p><b>{html.escape(self.name)}</b>: score "
                 f"<b>{fmt(self.score)}</b>"]
        if exact(self.score):
            parts.append(f" <small>(exact {exact(self.score)})</small>")
        if self.threshold is not None:
            parts.append(f"; threshold {fmt(self.threshold)} → success = {self.success}")
        parts.append("</p>")
        if self.formula:
            parts.append(f"<p>{display_math(self.formula)}</p>")
        if self.rows:
            parts.append(html_table(self.columns, self.rows))
        parts.append(bullets_html(self.notes))
        parts.append("</div>")
        return "".join(parts)


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return fmt(v)
    if isinstance(v, str) and len(v) > 48:
        return v[:45] + "..."
    return fmt(v) if v is not None else ""


def markdown_table(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """A step table as a Markdown table ("" for no rows)."""
    columns, rows = _table("columns", columns), _rows("rows", rows)
    if not rows:
        return ""
    head = "| " + " | ".join(columns) + " |"
    rule = "|" + "|".join("---" for _ in columns) + "|"
    body = ["| " + " | ".join(_cell(r.get(c)).replace("|", "\\|") for c in columns) + " |" for r in rows]
    return "\n".join([head, rule] + body)


#: A table cell holding a number never wraps (a narrow column once showed "0.5" above "833").
_NUMBER_CELL = "<td style='white-space:nowrap'>"


def _table(field: str, columns: Any) -> tuple[str, ...]:
    return tuple(text_list(field, columns))


def _rows(field: str, rows: Any) -> list[Any]:
    """A list of rows, each a dict (column -> value)."""
    items = as_list(field, rows, "a list of rows (dicts)")
    for i, row in enumerate(items):
        if not isinstance(row, dict):
            raise InputError(f"{field}[{i}]", "a dict (column -> value)", row)
    return items


def _html_cell(value: Any, shown: str) -> str:
    """One <td>: numbers (and empty cells) unbreakable, text free to wrap."""
    opening = "<td>" if isinstance(value, str) else _NUMBER_CELL
    return f"{opening}{html.escape(shown)}</td>"


def html_table(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    """A step table as an HTML table."""
    columns, rows = _table("columns", columns), _rows("rows", rows)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(_html_cell(r.get(c), _cell(r.get(c))) for c in columns) + "</tr>" for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


#: Step-table columns that hold text (left-aligned in HTML tables).
TEXT_COLUMNS = frozenset({"node", "statement", "claim", "entity", "key", "context_form", "verdict", "kind",
                          "generated_question", "quantity"})


def steps_html(result: MetricResult, hit: Callable[[dict[str, Any]], bool] | None = None, width: int = 60,
               columns: Sequence[str] | None = None) -> str:
    """The step table as a small HTML table (explorers and slides); rows where ``hit(row)`` is true are tinted.

    Text longer than ``width`` characters is cut with an ellipsis (the full text is the cell's
    tooltip); ``columns`` picks and orders the columns shown (all by default). The table is
    marked ``tex2jax_ignore`` so a ``$`` in a node's text is never read as math.
    """
    if not isinstance(result, MetricResult):
        raise InputError("result", "a MetricResult", result)
    if hit is not None and not callable(hit):
        raise InputError("hit", "a function of a step-table row returning True or False, or None", hit)
    width = integer("width", width, low=1, high=1_000_000)
    columns = tuple(text_list("columns", columns)) if columns is not None else result.columns
    head = "".join(f"<th class='rme-text'>{html.escape(c)}</th>" if c in TEXT_COLUMNS else f"<th>{html.escape(c)}</th>"
                   for c in columns)
    body = []
    for row in result.rows:
        cells = []
        for c in columns:
            value = row.get(c)
            if isinstance(value, str):
                cells.append(f"<td class='rme-text' title='{html.escape(value)}'>{html.escape(cut(value, width))}</td>")
            else:
                cells.append(_html_cell(value, fmt(value) if value is not None else ""))
        tint = " class='rme-hit'" if hit is not None and hit(row) else ""
        body.append(f"<tr{tint}>{''.join(cells)}</tr>")
    return (f"<table class='tex2jax_ignore'><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")
