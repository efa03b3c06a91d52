"""AgreementResult: an agreement measure with its interval and every table it was computed from.

``value`` is the measure (kappa, F1, pairwise accuracy, MAE); ``ci`` its percentile bootstrap
interval as ``(low, high)`` at level ``level`` (None where there is none); ``values`` holds the
named intermediates (p_o, p_e, counts, precision, recall...); ``tables`` holds every table
(the confusion matrix, the per-item rows, the similarity matrix...), ``steps`` the first of
them as a pandas DataFrame, built on first access so scoring never imports pandas.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..results import bullets_html, display_math, fmt, html_table, markdown_table
from .figures import plot_agreement


@dataclass
class AgreementResult:
    """The outcome of one agreement measure.

    ``tables`` maps a name to ``(columns, rows)``; the first one is ``steps``. ``narrative``
    is the worked arithmetic in order; ``notes`` name any edge case or convention that
    decided the value.
    """

    measure: str
    value: float
    tables: dict[str, tuple[tuple[str, ...], list[dict[str, Any]]]] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    formula: str = ""
    narrative: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ci: tuple[float, float] | None = None
    level: float = 0.95
    method: str = ""
    distribution: Any = field(default=None, repr=False, compare=False)
    figure_kind: str = ""
    _frames: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def score(self) -> float:
        """The same number as ``value`` (the name every other result in the library uses)."""
        return self.value

    @property
    def steps(self):
        """The first table (see ``tables``) as a pandas DataFrame."""
        return self.table(next(iter(self.tables))) if self.tables else None

    def table(self, name: str):
        """One of ``tables`` as a pandas DataFrame (built on first access)."""
        if not isinstance(name, str) or name not in self.tables:
            raise InputError("name", f"one of {sorted(self.tables)}", name)
        if name not in self._frames:
            import pandas as pd  # lazy: pandas loads only when a table is asked for

            columns, rows = self.tables[name]
            frame = pd.DataFrame(rows, columns=list(columns))
            if columns and columns[0] == "" and len(frame):
                frame = frame.set_index("")
                frame.index.name = None
            self._frames[name] = frame
        return self._frames[name]

    def headline(self) -> str:
        """One sentence: the value and, when there is one, its interval."""
        text = f"{self.measure} = {fmt(self.value)}"
        if self.ci is not None:
            text += f"; {fmt(100 * self.level)}% interval [{fmt(self.ci[0])}, {fmt(self.ci[1])}] ({self.method})"
        return text + "."

    def explain(self) -> str:
        """A Markdown narrative: each step with its numbers, the formula, the result and notes."""
        lines = [f"**{self.measure}**", ""]
        lines += [f"{i}. {step}" for i, step in enumerate(self.narrative, 1)]
        if self.formula:
            lines += ["", f"$${self.formula}$$"]
        lines += ["", self.headline()]
        if self.notes:
            lines += ["", "Notes:"] + [f"- {n}" for n in self.notes]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A plain, JSON-able dict (NaN and infinities become None, tuples lists)."""
        return {
            "measure": self.measure,
            "value": _plain(self.value),
            "ci": None if self.ci is None else [_plain(x) for x in self.ci],
            "level": self.level,
            "method": self.method,
            "values": {k: _plain(v) for k, v in self.values.items()},
            "tables": {name: [{str(k): _plain(v) for k, v in row.items()} for row in rows]
                       for name, (_, rows) in self.tables.items()},
            "formula": self.formula,
            "narrative": list(self.narrative),
            "notes": list(self.notes),
        }

    def plot(self, ax: Any = None):
        """The figure of this measure: a confusion-matrix or similarity heatmap, or the bootstrap histogram."""
        return plot_agreement(self, ax)

    figure = plot

    def __repr__(self) -> str:
        return f"AgreementResult({self.headline()})"

    def _repr_markdown_(self) -> str:
        parts = [self.explain()]
        for name, (columns, rows) in self.tables.items():
            if rows:
                parts.append(f"{name}:\n\n{markdown_table(tuple(str(c) for c in columns), rows)}")
        return "\n\n".join(parts)

    def _repr_html_(self) -> str:
        parts = [f"<div class='ragmetrics-result'><p><b>{html.escape(self.measure)}</b></p>",
                 f"<p>{html.escape(self.headline())}</p>"]
        parts += [f"<p>{html.escape(step)}</p>" for step in self.narrative]
        if self.formula:
            parts.append(f"<p>{display_math(self.formula)}</p>")
        for name, (columns, rows) in self.tables.items():
            if rows:
                parts.append(f"<p>{html.escape(name)}:</p>" + html_table(tuple(str(c) for c in columns), rows))
        parts.append(bullets_html(self.notes))
        parts.append("</div>")
        return "".join(parts)


def _plain(v: Any) -> Any:
    """Python scalars for JSON: numpy numbers converted, NaN and ±inf as None, tuples as lists."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, (int, float)):
        return v
    return str(v)
