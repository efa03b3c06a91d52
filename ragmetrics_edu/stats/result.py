"""StatResult: an estimate, its interval and p-value, with the table and distribution behind them.

It extends :class:`~ragmetrics_edu.MetricResult` (``steps``, ``lookup()``, ``explain()``, ``table_text()``
and the Markdown display come from there, the vocabulary of :class:`~ragmetrics_edu.results.Result`): ``score`` is the estimate (a mean, or a mean
difference), ``rows`` the per-question table and ``distribution`` the resampled means or the
null distribution, kept as a numpy array. ``summary`` describes that distribution in a few rows.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..results import MetricResult, bullets_html, display_math, fmt, html_table, jsonable, markdown_table
from .figures import plot_stat_result


@dataclass
class StatResult(MetricResult):
    """The outcome of a bootstrap interval or a paired test.

    ``ci`` is the interval ``(low, high)`` at confidence ``level`` for the quantity named in
    ``interval_of`` (None where no interval is given);
    ``p_value`` is two-sided (None for a plain interval); ``effect_size`` is named by
    ``effect_name``; ``method`` says how the interval and p-value were computed.
    """

    method: str = ""
    level: float = 0.95
    ci: tuple[float, float] | None = None
    interval_of: str = ""
    p_value: float | None = None
    effect_size: float | None = None
    effect_name: str = ""
    distribution: Any = field(default=None, repr=False, compare=False)
    distribution_of: str = ""
    summary_rows: list[dict[str, Any]] = field(default_factory=list)
    kind: ClassVar[str] = "statistic"

    @property
    def estimate(self) -> float:
        """The mean (bootstrap_ci) or the mean difference a − b (paired functions)."""
        return self.score

    @property
    def summary(self):
        """The distribution's summary (and its first draws) as a pandas DataFrame."""
        import pandas as pd  # lazy: pandas loads only when a table is asked for

        return pd.DataFrame(self.summary_rows, columns=["quantity", "value"])

    def plot(self, ax: Any = None):
        """A histogram of the resampled means or the null distribution (PNG in notebooks)."""
        return plot_stat_result(self, ax)

    figure = plot

    def headline(self) -> str:
        """One sentence with the estimate, the interval, the p-value and the effect size."""
        parts = [f"{self.metric}: {_estimate_name(self)} = {fmt(self.score)}"]
        if self.ci is not None:
            parts.append(f"{fmt(100 * self.level)}% interval of the {self.interval_of} "
                         f"[{fmt(self.ci[0])}, {fmt(self.ci[1])}]")
        if self.p_value is not None:
            parts.append(f"p = {fmt(self.p_value)}")
        if self.effect_name:
            parts.append(f"{self.effect_name} = {fmt(self.effect_size)}")
        return "; ".join(parts) + "."

    def _title(self) -> str:
        return f"**{self.name}** ({self.method})"

    def _result_lines(self) -> list[str]:
        lines = [self.headline()]
        if self.summary_rows:
            lines += ["", f"Distribution of the {self.distribution_of}:", "",
                      markdown_table(("quantity", "value"), self.summary_rows)]
        return lines

    def _own_dict(self) -> dict[str, Any]:
        return {"method": self.method, "interval_of": self.interval_of, "p_value": jsonable(self.p_value),
                "effect_size": jsonable(self.effect_size), "effect_name": self.effect_name,
                "summary": [{k: jsonable(v) for k, v in row.items()} for row in self.summary_rows]}

    def __repr__(self) -> str:
        return f"StatResult({self.headline()})"

    def _repr_markdown_(self) -> str:
        table = markdown_table(self.columns, self.rows)
        return self.explain() + ("\n\nPer question:\n\n" + table if table else "")

    def _repr_html_(self) -> str:
        parts = [f"<div class='ragmetrics-result'><p><b>{html.escape(self.name)}</b> "
                 f"<small>({html.escape(self.method)})</small></p>",
                 f"<p>{html.escape(self.headline())}</p>"]
        if self.formula:
            parts.append(f"<p>{display_math(self.formula)}</p>")
        if self.summary_rows:
            parts.append(f"<p>Distribution of the {html.escape(self.distribution_of)}:</p>")
            parts.append(html_table(("quantity", "value"), self.summary_rows))
        if self.rows:
            parts.append("<p>Per question:</p>" + html_table(self.columns, self.rows))
        parts.append(bullets_html(self.notes))
        parts.append("</div>")
        return "".join(parts)


def _estimate_name(result: StatResult) -> str:
    return "mean" if result.metric == "bootstrap CI" else "mean difference"
