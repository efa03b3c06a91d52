"""Permutation explorer: how good is this ranking compared with every other ordering?

For the current verdicts it scores every ordering of the nodes (exactly up to
``exact_limit`` nodes, a seeded sample above), draws the histogram of those scores,
and reports the best, the worst, the expected score of a random order and where the
current order stands. The nodes can be reordered and their verdicts flipped as in the
reorder explorer; "best order" and "worst order" jump to the extremes.
"""

from __future__ import annotations

import html
from typing import Any, Sequence

import ipywidgets as widgets

from ..results import fmt
from ._common import Explorer, Reorderable, classed, model_of, reset_button, side_by_side
from .permutations_model import PermutationModel, PermutationSummary
from .plots import ACCENT, MARKER, BarChart, shared_chart
from .reorder import NodeList, NodeListAccess, RankingControls, node_texts_html

BINS = 20
_BAR = "#9cc3e6"
_BAR_CURRENT = "#f4a261"
_YTOPS = (0.1, 0.2, 0.35, 0.5, 0.75, 1.05)  # few y ranges, so their backgrounds are drawn once each


def summary_html(summary: PermutationSummary) -> str:
    """Best, worst, expected and this order's score, and the share of orderings above and below it."""
    how = (f"exact: all {summary.orderings:,} orderings of {summary.n} nodes "
           f"({summary.evaluated} distinct patterns of {summary.relevant} relevant nodes scored)"
           if summary.exact else
           f"estimated from {summary.evaluated:,} random orderings (seeded) of the {summary.orderings:,}")
    rows = [("best order", summary.best), ("worst order", summary.worst),
            ("expected (random order)", summary.expected), ("this order", summary.current)]
    table = "".join(f"<tr><td class='rme-text'>{label}</td><td>{fmt(value)}</td></tr>" for label, value in rows)
    standing = (f"This order beats {_pct(summary.share_worse)} of orderings, ties with {_pct(summary.share_tied)} "
                f"and is beaten by {_pct(summary.share_better)}.")
    return (f"<div class='rme-table'><table><tbody>{table}</tbody></table></div>"
            f"<p class='rme-standing'>{html.escape(standing)}<br><small>{html.escape(how)}</small></p>")


def _pct(share: float) -> str:
    return f"{fmt(100 * share, 1)}%"


class PermutationExplorer(NodeListAccess, Reorderable, Explorer):
    """The score of every ordering of the current verdicts, and where this order stands.

    ``PermutationExplorer(nodes=[...], verdicts=[0, 1, 1, 0, 0])`` or
    ``PermutationExplorer.from_example("A-cp-what-is-ai")``; ``exact_limit``, ``samples``
    and ``seed`` go to the :class:`PermutationModel` in ``explorer.model``.
    """

    def __init__(
        self,
        nodes: Sequence[str] | None = None,
        verdicts: Sequence[Any] | None = None,
        metric: str = "context_precision",
        variant: str | None = None,
        *,
        model: PermutationModel | None = None,
        **options: Any,
    ) -> None:
        if model is None:
            model = PermutationModel(nodes, verdicts, metric, variant, **options)
        model = model_of(model, PermutationModel)
        self.controls = RankingControls(model, self._guard)
        self.node_list = NodeList(model, self._guard)
        compact = widgets.Layout(width="auto", flex="0 0 auto")
        self.best_button = classed(widgets.Button(description="Best order", tooltip="Relevant nodes first",
                                                  layout=compact), "rme-best")
        self.worst_button = classed(widgets.Button(description="Worst order", tooltip="Relevant nodes last",
                                                   layout=compact), "rme-worst")
        self.reset_button = reset_button("Back to the starting order, verdicts and metric")
        self.best_button.on_click(lambda _b: self._guard(model.sort_best))
        self.worst_button.on_click(lambda _b: self._guard(model.sort_worst))
        self.reset_button.on_click(lambda _b: self._guard(model.reset))
        self.score = classed(widgets.HTML(), "rme-score")
        self.summary = classed(widgets.HTML(), "rme-summary")
        self.image = classed(widgets.Image(format="png"), "rme-plot")
        self._chart: BarChart | None = None
        self.controls.children = (*self.controls.children, self.best_button, self.worst_button, self.reset_button)
        self.node_texts = node_texts_html(model)
        # Controls, rows and score beside the histogram (or above it, on a narrow notebook): all on one screen.
        top = side_by_side([self.controls, self.node_list, self.score], self.image)
        super().__init__(model, [top, self.summary, self.node_texts], "rme-permutations")
        self.refresh()

    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "PermutationExplorer":
        """The explorer of a worked example of the catalogue (a context-precision case)."""
        return cls(model=PermutationModel.from_example(example_id, case, **overrides))

    def refresh(self, what: str = "all") -> None:
        """Redraw from the model: the rows and controls, then the score of that order (each change is
        one message, shown in the order sent: the score never arrives before its rows), then the
        summary and the histogram."""
        result = self.model.result
        self.node_list.sync()
        self.controls.sync()
        self.score.value = (f"<span style='font-size:1.3em'>{html.escape(result.name)}, this order: "
                            f"<b class='rme-score-value'>{fmt(result.score)}</b></span>")
        summary = self.model.summary
        self.summary.value = summary_html(summary)
        self.image.value = self._draw(summary)

    def _draw(self, summary: PermutationSummary) -> bytes:
        shares = summary.histogram(BINS)
        if self._chart is None:
            centres = [(b + 0.5) / BINS for b in range(BINS)]
            self._chart = shared_chart(
                centres, width=1 / BINS * 0.92, xlim=(-0.01, 1.01), ypercent=True, xticks=[t / 5 for t in range(6)],
                xlabel="score", ylabel="share of orderings", title="Scores of every ordering",
                legend=[("orderings", _BAR)],
                lines={"current": ("v", MARKER, "-", "this order"), "expected": ("v", ACCENT, "--", "expected")})
        chart = self._chart
        top = max(shares) * 1.05
        chart.set_axes(ylim=(0.0, next(step for step in _YTOPS if step >= top)),
                       title="Scores of every ordering" if summary.exact else "Scores of sampled orderings")
        current_bin = min(BINS - 1, max(0, int(summary.current * BINS)))
        chart.set_bars(shares, [_BAR_CURRENT if b == current_bin else _BAR for b in range(BINS)])
        chart.set_line("current", summary.current)
        chart.set_line("expected", summary.expected)
        return chart.png()
