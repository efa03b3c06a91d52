"""Exercises of notebook 01 (context precision) and 08 (ranking measures)."""

from __future__ import annotations

from typing import Any

from .. import metrics
from . import Exercise, _as_number, register


def _diagnose_cp(verdicts: list[int]):
    """Recognise the usual slips on a context-precision sum for these verdicts."""

    def diagnose(given: Any, correct: float) -> str | None:
        g = _as_number(given)
        if g is None:
            return None
        r = metrics.context_precision(verdicts)
        total, relevant, n = r.values["sum_of_terms"], r.values["relevant_count"], len(verdicts)
        mean_p = sum(row["precision_at_k"] for row in r.rows) / n
        if abs(g - total / n) < 1e-3:
            return (f"You divided the sum of terms ({total:.4f}) by the number of nodes ({n}). "
                    f"Context precision divides by the number of relevant nodes ({relevant}).")
        if abs(g - mean_p) < 1e-3:
            return ("You averaged precision@k over every rank. Only ranks holding a relevant node "
                    "contribute a term (precision@k × r_k).")
        if abs(g - total) < 1e-3:
            return f"That is the sum of the terms; divide it by the number of relevant nodes ({relevant})."
        return None

    return diagnose


register(
    Exercise(
        id="cp-1",
        question="Verdicts [no, yes, no, yes] (DeepEval). What is the context precision?",
        answer=lambda: metrics.context_precision([0, 1, 0, 1]).score,
        hint="Terms only at the relevant ranks: precision@2 and precision@4; then divide by 2.",
        explanation="Terms 1/2 (k=2) and 2/4 (k=4) sum to 1; divided by the 2 relevant nodes: 0.5.",
        diagnose=_diagnose_cp([0, 1, 0, 1]),
    ),
    Exercise(
        id="cp-2",
        question="Reorder [no, no, yes, yes, no] to reach the highest possible score. Give the best order as a list of 0/1.",
        answer=lambda: [1, 1, 0, 0, 0],
        kind="list",
        hint="Context precision rewards relevant nodes that come first.",
        explanation="Both relevant nodes first gives precision 1 at k=1 and k=2: score 1.",
    ),
    Exercise(
        id="cp-3",
        question="Same verdicts [yes, no, yes], Ragas variant: is the score exactly 5/6? Answer True or False.",
        answer=lambda: metrics.context_precision([1, 0, 1], "ragas").score == 5 / 6,
        kind="bool",
        hint="Look at the denominator Ragas uses.",
        explanation="Ragas divides by (2 + 1e-10), so the score is a hair below 5/6.",
    ),
    Exercise(
        id="cp-4",
        question="Verdicts [yes, no, yes], but the corpus holds 4 relevant documents. Classic average precision?",
        answer=lambda: metrics.context_precision([1, 0, 1], "average_precision", total_relevant=4).score,
        hint="Same terms as context precision; the denominator is every relevant document, found or not.",
        explanation="Terms 1 and 2/3 sum to 5/3; divided by 4 gives 5/12 ≈ 0.4167.",
        diagnose=lambda g, c: ("That is the DeepEval score, which divides by the 2 relevant nodes retrieved; "
                               "average precision divides by all 4.") if _as_number(g) is not None and abs(_as_number(g) - 5 / 6) < 1e-3 else None,
    ),
)
