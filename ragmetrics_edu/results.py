"""MetricResult: a score together with every number a teacher writes on the board.

A metric function fills in the rows of its step table, the named scalars it used
(``values``), the formula with this case's numbers substituted and a short narrative.
The pandas DataFrame behind ``steps`` is built only when asked for, so scoring stays
fast and importing the library does not import pandas.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .errors import InputError
from .validate import as_list, integer, text, text_list


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


@dataclass
class MetricResult:
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
    inputs: dict[str, Any] = field(default_factory=dict)
    calls: list[Any] = field(default_factory=list)
    _frame: Any = field(default=None, init=False, repr=False, compare=False)

    # -- derived -------------------------------------------------------------------
    @property
    def success(self) -> bool | None:
        """``score >= threshold`` when a threshold was given (as DeepEval reports it)."""
        if self.threshold is None:
            return None
        return (not math.isnan(self.score)) and self.score >= self.threshold

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

    @property
    def steps(self):
        """The step table as a pandas DataFrame (built on first access)."""
        if self._frame is None:
            import pandas as pd  # lazy: pandas loads only when a table is asked for

            frame = pd.DataFrame(self.rows, columns=list(self.columns))
            for column in self.columns:  # keep 1, 2, <NA> as integers rather than 1.0, 2.0, NaN
                cells = [row.get(column) for row in self.rows]
                if None in cells and all(c is None or (isinstance(c, int) and not isinstance(c, bool)) for c in cells):
                    frame[column] = pd.array(cells, dtype="Int64")
            if "k" in frame.columns and len(frame):
                frame.index = range(1, len(frame) + 1)
            self._frame = frame
        return self._frame

    def value(self, quantity: str) -> Any:
        """Look up ``score``, ``value:<name>`` or ``step:<column>:<row>`` (1-based row)."""
        if not isinstance(quantity, str):
            raise InputError("quantity", "'score', 'value:<name>' or 'step:<column>:<row>' (a string)", quantity)
        if quantity == "score":
            return self.score
        kind, _, rest = quantity.partition(":")
        if kind == "value" and rest in self.values:
            return self.values[rest]
        if kind == "step":
            column, _, row = rest.rpartition(":")
            if column in self.columns and row.isdigit() and 1 <= int(row) <= len(self.rows):
                return self.rows[int(row) - 1][column]

        raise InputError("quantity", f"'score', 'value:<{'|'.join(self.values)}>' or 'step:<column>:<row>'", quantity)

    # -- text ----------------------------------------------------------------------
    def explain(self) -> str:
        """A Markdown narrative of this case: the steps, the arithmetic and the result."""
        lines = [f"**{self.name}**", ""]
        lines += [f"{i}. {step}" for i, step in enumerate(self.narrative, 1)]
        if self.formula:
            lines += ["", f"$${self.formula}$$"]
        lines += ["", f"Score: **{fmt(self.score)}**" + (f" (exact value {exact(self.score)})" if exact(self.score) else "")]
        if self.threshold is not None:
            verdict = "passes" if self.success else "fails"
            lines.append(f"Threshold {fmt(self.threshold)}: the case {verdict} (success = {self.success}).")
        if self.notes:
            lines += ["", "Notes:"] + [f"- {n}" for n in self.notes]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-able dict (NaN becomes None)."""
        return {
            "metric": self.metric,
            "variant": self.variant,
            "score": _plain(self.score),
            "threshold": self.threshold,
            "success": self.success,
            "values": {k: _plain(v) for k, v in self.values.items()},
            "steps": [{k: _plain(v) for k, v in row.items()} for row in self.rows],
            "formula": self.formula,
            "reason": self.reason,
            "notes": list(self.notes),
        }

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


def _plain(v: Any) -> Any:
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


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
