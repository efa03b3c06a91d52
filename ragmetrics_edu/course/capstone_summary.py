"""The capstone's take-away and its paired tests, computed once for notebook 15 and deck 15.

Both the notebook and the deck print the take-away from :func:`takeaway` and :func:`takeaway_lines`,
so the two cannot say different things; every number in it is computed from the recorded rows.

* :func:`paired` - one metric, system ``a`` against ``b`` question by question: how many questions
  each wins, the mean difference, exact permutation and sign-test p-values, and an interval that
  resamples the questions (:func:`ragmetrics_edu.stats.grouped_bootstrap_ci`), which is None under
  ten questions: then the verdict is "too few to tell".
* :func:`component_counts` - the failure tags counted by the component they point at.
* :func:`tag_table` - :func:`ragmetrics_edu.course.diagnosis.count_table` turned on its side: one row
  per tag (then "untagged" and "rows"), one column per system and "all", so it fits 100 columns.
* :func:`takeaway` / :func:`takeaway_lines` - the numbers and the sentences of the take-away.
* :func:`plot_paired` - each question's two scores joined by a line, one panel per metric.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from .. import stats
from ..errors import InputError
from ..plots import new_figure
from ..validate import as_list, mapping, text
from . import diagnosis as dg

__all__ = ["MIN_UNITS", "paired", "component_counts", "tag_table", "takeaway", "takeaway_lines", "plot_paired"]

#: Under this many independent units (questions) no interval is given: too few to tell.
MIN_UNITS = 10


def paired(rows: Any, metric: str, a: str = "minilm", b: str = "bm25", seed: int = 0) -> dict[str, Any]:
    """``a`` − ``b`` on ``metric`` over the questions both systems scored, with its verdict."""
    pairs = dg.paired_scores(rows, metric, a, b)
    ids, xs, ys = pairs["ids"], pairs["a"], pairs["b"]
    d = [x - y for x, y in zip(xs, ys, strict=True)]
    n = len(d)
    out: dict[str, Any] = {"metric": metric, "n": n, "a": a, "b": b, "ids": ids, "differences": d,
                           "better": sum(v > 0 for v in d), "worse": sum(v < 0 for v in d),
                           "same": sum(v == 0 for v in d), "dropped": pairs["dropped"]}
    if not n:
        return dict(out, **{f"mean {a}": math.nan, f"mean {b}": math.nan, "difference": math.nan,
                            "interval": None, "p perm": math.nan, "p sign": math.nan, "verdict": "nothing to compare"})
    interval = stats.grouped_bootstrap_ci(d, ids, seed=seed, min_groups=MIN_UNITS).ci
    perm = stats.permutation_test(xs, ys, labels=(a, b), ids=ids, seed=seed)
    sign = stats.sign_test(xs, ys, labels=(a, b), ids=ids)
    if interval is None:
        verdict = f"too few to tell ({n} questions, under {MIN_UNITS})"
    elif interval[0] <= 0 <= interval[1]:
        verdict = "the data cannot tell them apart (the interval includes 0)"
    else:
        verdict = f"{a if interval[0] > 0 else b} is better"
    return dict(out, **{f"mean {a}": math.fsum(xs) / n, f"mean {b}": math.fsum(ys) / n,
                        "difference": math.fsum(d) / n, "interval": interval, "p perm": perm.p_value,
                        "p sign": sign.p_value, "verdict": verdict})


def component_counts(tagged: Any) -> dict[str, int]:
    """How many tags (not rows) point at each component: a row with two tags counts twice."""
    out = {component: 0 for component in dict.fromkeys(dg.COMPONENT.values())}
    for row in dg.tagged_rows(tagged):
        for tag in row["tags"]:
            out[dg.COMPONENT[tag]] += 1
    return out


def tag_table(tagged: Any, by: str = "system") -> list[dict[str, Any]]:
    """The tag counts of :func:`~ragmetrics_edu.course.diagnosis.count_table`, one row per tag."""
    table = dg.count_table(tagged, by)
    return [{"tag": name, **{str(entry[by]): entry[name] for entry in table}}
            for name in (*dg.TAGS, "untagged", "rows")]


def takeaway(rows: Any, reading: Any = None) -> dict[str, Any]:
    """The take-away's numbers: tags by component, the retriever change paired, the metric that never
    falls, and how far the rules agree with the project annotator's reading."""
    tagged = dg.tag_rows(rows)
    scored_ar = [r["scores"]["answer_relevancy"] for r in rows if "answer_relevancy" in r["scores"]]
    comparison = dg.rules_vs_annotator(tagged, dg.annotator_diagnosis() if reading is None else reading)
    return {"rows": len(tagged), "components": component_counts(tagged),
            "context_precision": paired(rows, "context_precision"),
            "ar_rows": len(scored_ar), "ar_full": sum(v == 1.0 for v in scored_ar),
            "read": len(comparison), "agree": sum(c["agree"] for c in comparison)}


def takeaway_lines(summary: Mapping[str, Any]) -> list[str]:
    """The take-away in four sentences, every number from ``summary`` (see :func:`takeaway`)."""
    expected = "the take-away's numbers (takeaway(rows))"
    summary = mapping("summary", summary, expected, keys=("rows", "components", "context_precision", "ar_rows",
                                                          "ar_full", "read", "agree"))
    parts = mapping("summary.components", summary["components"], "tag counts by component")
    if not all(isinstance(v, int) for v in parts.values()):
        raise InputError("summary.components", "tag counts by component (whole numbers)", parts)
    total = sum(parts.values())
    cp = mapping("summary.context_precision", summary["context_precision"], "paired(rows, 'context_precision')",
                 keys=("better", "worse", "n", "p perm", "p sign", "verdict"))
    others = total - parts.get("retriever", 0)
    most = "Most" if others > total / 2 else "Not all"
    return [
        f"{most} failures are not the retriever's: of the {total} failure tags on the {summary['rows']} rows, "
        f"{parts.get('retriever', 0)} point at the retriever, {parts.get('generator', 0)} at the generator and "
        f"{parts.get('judge', 0)} at the judge, so a better retriever alone cannot fix them.",
        f"Swapping BM25 for MiniLM raised context precision on {cp['better']} of {cp['n']} questions and "
        f"lowered it on {cp['worse']} (exact permutation p = {cp['p perm']:.2f}, sign test p = {cp['p sign']:.2f}): "
        f"{cp['verdict']}; this recording does not show which retriever is better.",
        f"Answer relevancy gave {summary['ar_full']} of {summary['ar_rows']} rows a full 1.0, an off-topic "
        "answer included: read a judge's verdicts before trusting its means.",
        f"The rules and the project annotator's reading (a language model's) gave the same tags on "
        f"{summary['agree']} of {summary['read']} rows: use the rules to find rows, read them before acting.",
    ]


def plot_paired(rows: Any, metrics: Sequence[str], a: str = "minilm", b: str = "bm25", title: str = ""):
    """One panel per metric: each question's ``b`` and ``a`` scores as two dots joined by a line
    (green when ``a`` is higher, red when lower, grey when equal)."""
    metrics, title = as_list("metrics", metrics, "a list of metric names"), text("title", title)
    for metric in metrics:
        dg.paired_scores(rows, metric, a, b)  # checks the rows, the metric and the systems before drawing
    fig = new_figure(figsize=(2.2 * max(len(metrics), 1) + 0.6, 3.2))
    axes = fig.subplots(1, max(len(metrics), 1), sharey=True, squeeze=False)[0]
    for ax, metric in zip(axes, metrics, strict=False):
        test = paired(rows, metric, a, b)
        pairs = dg.paired_scores(rows, metric, a, b)
        for x, y in zip(pairs["b"], pairs["a"], strict=True):
            colour = "#2a9d8f" if y > x else "#e76f51" if y < x else "#9e9e9e"
            ax.plot([0, 1], [x, y], color=colour, marker="o", markersize=4, linewidth=1.2, alpha=0.8)
        ax.set_xticks([0, 1])
        ax.set_xticklabels([b, a], fontsize=9)
        ax.set_xlim(-0.3, 1.3)
        ax.set_ylim(-0.05, 1.05)
        ax.set_title(f"{metric.replace('_', ' ')}\nhigher {test['better']} · lower {test['worse']} · "
                     f"same {test['same']}", fontsize=9)
    axes[0].set_ylabel("score per question")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
