"""What lesson 16 and its deck read for the blame and the comparison, and the deck's paired figure.

The lesson computes its figures in view (the blame rule, the counts, the sign test, the bootstrap) and
checks them against the library (:func:`ragmetrics_edu.evaluation.failures.blame`, :mod:`ragmetrics_edu.stats`,
:func:`ragmetrics_edu.retrieval.compare_retrievers`). This module gives the inputs and draws:

* :func:`reading_rows` - the project annotator's reading as tagged rows, each with the retrieval facts of
  its recorded row, so the same blame rule applies to it;
* :func:`retrieved` - each retriever's rows on every answerable lab question (the set is fixed before any
  outcome is seen), with ``answer_retrieved`` (1 when a grade-2 passage is in the top ``k``), and each
  question's kind;
* :func:`plot_paired` - each question's two scores joined by a line, one panel per metric.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from ...errors import InputError
from ...plots import new_figure
from ...retrieval import evaluate_retriever, load_corpus
from ...validate import as_list, integer, mapping, text
from . import diagnosis as dg
from . import systems as capstone

__all__ = ["MIN_UNITS", "reading_rows", "retrieved", "plot_paired"]

#: Under this many independent units (questions) no interval is given: too few to tell.
MIN_UNITS = 10


def reading_rows(reading: Mapping[tuple[str, str], Mapping[str, Any]], tagged: Any) -> list[dict[str, Any]]:
    """The annotator's reading (as ``course.capstone.systems.annotator_diagnosis`` loads it) as tagged
    rows: its tags, ``read`` True (its ``unsupported_claim`` is its own reading of the answer, not the judge's
    verdict) and the ``passages`` and ``source_recall`` of the same (question, system) row of ``tagged``."""
    reading = mapping("reading", reading, "the annotator's reading (systems.annotator_diagnosis())")
    rows = {(r["question"], r["system"]): r for r in dg.tagged_rows(tagged, keys=("question", "system"))}
    out = []
    for key, value in reading.items():
        if key not in rows:
            raise InputError("reading", "keys (question, system) of the tagged rows", key)
        tags = list(mapping(f"reading[{key!r}]", value, keys=("tags",))["tags"])
        out.append({"question": key[0], "system": key[1], "read": True, "tags": tags,
                    "passages": rows[key]["passages"], "source_recall": rows[key].get("source_recall")})
    return out


def retrieved(k: int = 3) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """Each answerable question's kind, and each retriever's rows on them (``evaluate_retriever``) with
    ``answer_retrieved`` (1.0 or 0.0). The corpus and the recorded embeddings do not change, so the rows are
    computed once per ``k``; each call gets its own copies."""
    kinds, found = _retrieved(integer("k", k, low=1, high=100))
    return dict(kinds), {name: [dict(r) for r in rows] for name, rows in found.items()}


@lru_cache(maxsize=4)
def _retrieved(k: int) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    known = dg.answerable()
    questions = [q for q in load_corpus().questions if q.id in known]
    found = {name: evaluate_retriever(r, questions, k=k) for name, r in capstone.retrievers().items()}
    for rows in found.values():
        for row in rows:
            row["answer_retrieved"] = float(dg.RELEVANT in row["grades"])
    return {q.id: q.kind for q in questions}, found


def plot_paired(rows: Any, metrics: Sequence[str], a: str = "minilm", b: str = "bm25", title: str = ""):
    """One panel per metric: each question's ``b`` and ``a`` scores as two dots joined by a line
    (green when ``a`` is higher, red when lower, grey when equal)."""
    metrics, title = as_list("metrics", metrics, "a list of metric names"), text("title", title)
    pairs = [dg.paired_scores(rows, metric, a, b) for metric in metrics]  # checks everything before drawing
    fig = new_figure(figsize=(2.2 * max(len(metrics), 1) + 0.6, 3.2))
    axes = fig.subplots(1, max(len(metrics), 1), sharey=True, squeeze=False)[0]
    for ax, metric, pair in zip(axes, metrics, pairs, strict=False):
        for x, y in zip(pair["b"], pair["a"], strict=True):
            colour = "#2a9d8f" if y > x else "#e76f51" if y < x else "#9e9e9e"
            ax.plot([0, 1], [x, y], color=colour, marker="o", markersize=4, linewidth=1.2, alpha=0.8)
        ax.set_xticks([0, 1])
        ax.set_xticklabels([b, a], fontsize=9)
        ax.set_xlim(-0.3, 1.3)
        ax.set_ylim(-0.05, 1.05)
        higher = sum(y > x for x, y in zip(pair["b"], pair["a"], strict=True))
        lower = sum(y < x for x, y in zip(pair["b"], pair["a"], strict=True))
        ax.set_title(f"{metric.replace('_', ' ')}\nhigher {higher} · lower {lower} · "
                     f"same {len(pair['a']) - higher - lower}", fontsize=9)
    axes[0].set_ylabel("score per question")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
