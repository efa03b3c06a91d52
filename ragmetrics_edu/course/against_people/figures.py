"""The figures and views of lessons 13 and 14: a G-Eval score distribution, ROC curves with intervals,
per-model AUC as dots with whiskers, and one answer with people's spans beside the judge's flags."""

from __future__ import annotations

import html
import math
from typing import Any, Sequence

from ...agreement import plot_roc, roc_auc, validation_report
from ...data import ragtruth
from ...errors import InputError
from ...plots import figure_and_axes
from ...results import MetricResult, fmt
from ...text import tokenize
from ...validate import as_list
from .study import breakdown, checked_log, complete

__all__ = ["score_distribution", "roc_curves", "auc_by_group", "span_view", "SpanView"]


def score_distribution(result: MetricResult, ax: Any = None):
    """G-Eval's probability for each score as bars, with the weighted score and the most likely one marked."""
    if not isinstance(result, MetricResult) or result.metric != "g_eval":
        raise InputError("result", "a G-Eval result (designs.g_eval)", result)
    fig, ax = figure_and_axes(ax, figsize=(5.0, 2.8))
    scores = [r["score"] for r in result.rows]
    shares = [r["share"] for r in result.rows]
    ax.bar(scores, shares, color="#7aa6c2", width=0.6, label="share of probability")
    weighted, likely = result.values["weighted"], result.values["most_likely"]
    ax.axvline(weighted, color="#c0392b", linewidth=2, label=f"weighted {fmt(weighted, 3)}")
    ax.axvline(likely, color="0.3", linestyle=":", linewidth=1.5, label=f"most likely {likely}")
    ax.set_xticks(scores)
    ax.set_xlabel("score")
    ax.set_ylabel("probability (renormalised)")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def _part(log: Any, part: str) -> dict[str, Any]:
    log = checked_log(log)
    if not isinstance(part, str) or part not in log["parts"]:
        raise InputError("part", "one of " + ", ".join(log["parts"]), part)
    return log["parts"][part]


def _complete(p: dict[str, Any], names: Sequence[str]) -> list[int]:
    return [i for i in range(len(p["items"])) if all(not math.isnan(p["scores"][d][i]) for d in names)]


def roc_curves(log: dict[str, Any], designs: Sequence[str], part: str = "ragtruth-dev", ax: Any = None):
    """ROC curves of several designs on the same answers of a part, each labelled with its AUC and interval."""
    p = _part(log, part)
    designs = as_list("designs", designs, "a list of design names")
    unknown = [d for d in designs if not isinstance(d, str) or d not in p["scores"]]
    if unknown:
        raise InputError("designs", "designs of this part: " + ", ".join(p["scores"]), unknown[0])
    idx = _complete(p, designs)
    failed = [p["items"][i]["failed"] for i in idx]
    groups = [p["items"][i]["group"] for i in idx]
    curves = []
    for d in designs:
        values = [p["scores"][d][i] for i in idx]
        ci = validation_report(failed, values, groups=groups, threshold=0.5).ci
        curves.append((d, failed, values, ci))
    return plot_roc(curves, ax, title=f"{part}: {len(idx)} answers, {len(set(groups))} sources")


def auc_by_group(log: dict[str, Any], design: str, by: str = "model", part: str = "ragtruth-dev", ax: Any = None):
    """AUC of one design within each generating model (or span kind): dots with their interval as whiskers, beside
    a line at its pooled AUC over every answer of the part (the reading the groups are compared with)."""
    log = checked_log(log)
    table = breakdown(design, by, part, log)
    scored = log["parts"][part]
    idx = complete(scored, [design])
    pooled = roc_auc([scored["items"][i]["failed"] for i in idx], [scored["scores"][design][i] for i in idx])
    fig, ax = figure_and_axes(ax, figsize=(6.0, 0.45 * len(table) + 1.2))
    ax.axvline(pooled, color="#c0392b", linewidth=1.5, label=f"pooled over every answer: {pooled:.3f}")
    for row_number, row in enumerate(table.itertuples()):
        if not math.isnan(row.auc_low):
            ax.plot([row.auc_low, row.auc_high], [row_number, row_number], color="0.4", linewidth=1.5)
        ax.plot([row.auc], [row_number], "o", color="#2b6f9e")
    ax.axvline(0.5, color="0.7", linestyle="--", linewidth=1)
    counts = table["answers"] if "answers" in table else table["hallucinated"]
    ax.set_yticks(range(len(table)), [f"{g} ({n})" for g, n in zip(table["group"], counts, strict=True)], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"ROC AUC of {design} within the group (dashed: chance)")
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0), frameon=False)   # above the axes: no dot hidden
    fig.tight_layout()
    return fig


class SpanView:
    """One answer with people's hallucinated spans marked, beside what a judge flagged (shows as HTML)."""

    def __init__(self, answer: ragtruth.RagAnswer, flagged: Sequence[str], judge: str = "the judge") -> None:
        if not isinstance(answer, ragtruth.RagAnswer):
            raise InputError("answer", "a RagAnswer (data.ragtruth.answers())", answer)
        flagged = as_list("flagged", flagged, "a list of the texts the judge flagged")
        if not all(isinstance(f, str) for f in flagged):
            raise InputError("flagged", "a list of the texts the judge flagged", flagged)
        if not isinstance(judge, str):
            raise InputError("judge", "who flagged them, in words", judge)
        self.answer = answer
        self.flagged = list(flagged)
        self.judge = judge

    def caught(self) -> list[tuple[str, bool]]:
        """Each human span, and whether some flag shares most of its content words."""
        flags = [set(tokenize(f)) for f in self.flagged]
        out = []
        for span in self.answer.spans:
            words = set(tokenize(span.text))
            out.append((span.text, any(words and len(words & f) / len(words) >= 0.5 for f in flags)))
        return out

    def flag_offsets(self, flag: str) -> tuple[int, int] | None:
        """Where ``flag`` stands in the answer (start, end character), or None when the judge reworded it."""
        if not isinstance(flag, str):
            raise InputError("flag", "the text of a flag", flag)
        start = self.answer.answer.find(flag.strip())
        return None if start < 0 or not flag.strip() else (start, start + len(flag.strip()))

    def unmarked_flags(self) -> list[str]:
        """Flags whose characters overlap no human span: flagged, but people did not mark them.

        A flag found word for word in the answer is compared by character offsets; a reworded flag (a claim the
        judge rephrased) counts as marked when at least half of its content words lie in one span, the rule of
        :meth:`caught` turned round."""
        out = []
        for flag in self.flagged:
            where = self.flag_offsets(flag)
            if where is not None:
                marked = any(s.start < where[1] and where[0] < s.end for s in self.answer.spans)
            else:
                words = set(tokenize(flag))
                marked = any(words and len(words & set(tokenize(s.text))) / len(words) >= 0.5
                             for s in self.answer.spans)
            if not marked:
                out.append(flag)
        return out

    def _repr_html_(self) -> str:
        text, cursor, parts = self.answer.answer, 0, []
        for span in sorted(self.answer.spans, key=lambda s: s.start):
            if span.start < cursor:
                continue
            parts.append(html.escape(text[cursor:span.start]))
            kind = html.escape(span.label_type + (", true but not in the passages" if span.implicit_true else ""))
            parts.append(f"<mark style='background:#f5b7b1' title='{kind}'>{html.escape(text[span.start:span.end])}</mark>")
            cursor = span.end
        parts.append(html.escape(text[cursor:]))
        flags = "".join(f"<li>{html.escape(f)}</li>" for f in self.flagged) or "<li>(nothing flagged)</li>"
        return (f"<div style='display:flex;gap:1.5em'><div style='flex:3'><b>The answer ({html.escape(self.answer.model)})"
                f", people's spans in red</b><p>{''.join(parts)}</p></div><div style='flex:2'><b>Flagged by "
                f"{html.escape(self.judge)}</b><ul>{flags}</ul></div></div>")

    def __repr__(self) -> str:
        spans = "; ".join(f"[{s.label_type}] {s.text}" for s in self.answer.spans) or "(none)"
        return f"answer by {self.answer.model}: people's spans: {spans}; flagged by {self.judge}: {self.flagged}"


def span_view(answer: ragtruth.RagAnswer, flagged: Sequence[str], judge: str = "the judge") -> SpanView:
    """A side-by-side view of one answer: people's spans, and the claims or sentences a judge flagged."""
    return SpanView(answer, flagged, judge)
