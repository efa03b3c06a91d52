"""AgreementResult: an agreement measure with its interval and every table it was computed from.

It shares the vocabulary of :class:`~ragmetrics_edu.results.Result`: ``metric`` names the measure,
``score`` is its value (kappa, F1, pairwise accuracy, MAE; ``measure`` and ``value`` are the old
names, which warn); ``ci`` its percentile bootstrap
interval as ``(low, high)`` at level ``level`` (None where there is none); ``values`` holds the
named intermediates (p_o, p_e, counts, precision, recall...); ``tables`` holds every table
(the confusion matrix, the per-item rows, the similarity matrix...), ``steps`` the first of
them as a pandas DataFrame, built on first access so scoring never imports pandas.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import InputError
from ..results import Result, bullets_html, display_math, html_table, jsonable, markdown_table
from .figures import plot_agreement


@dataclass
class AgreementResult(Result):
    """The outcome of one agreement measure.

    ``tables`` maps a name to ``(columns, rows)``; the first one is ``steps``. ``narrative``
    is the worked arithmetic in order; ``notes`` name any edge case or convention that
    decided the value.
    """

    metric: str
    score: float
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
    kind: ClassVar[str] = "agreement"

    def _step_table(self) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
        if not self.tables:
            return (), []
        columns, rows = next(iter(self.tables.values()))
        return tuple(str(c) for c in columns), list(rows)

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
            table = pd.DataFrame(rows, columns=list(columns))
            if columns and columns[0] == "" and len(table):
                table = table.set_index("")
                table.index.name = None
            self._frames[name] = table
        return self._frames[name]

    def headline(self) -> str:
        """One sentence: the value and, when there is one, its interval and how it was computed."""
        text = super().headline()
        return text[:-1] + f" ({self.method})." if self.ci is not None else text

    def _own_dict(self) -> dict[str, Any]:
        return {"method": self.method, "tables": {name: [{str(k): jsonable(v) for k, v in row.items()} for row in rows]
                                                  for name, (_, rows) in self.tables.items()},
                "formula": self.formula, "narrative": list(self.narrative)}

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
        parts = [f"<div class='ragmetrics-result'><p><b>{html.escape(self.metric)}</b></p>",
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
