"""The shared shape of the 'count the verdicts' metrics.

Context recall, contextual relevancy, faithfulness and answer relevancy (statement form)
all score ``counted items / all items``; they differ in what the items are, which
verdicts count, and what an empty list is worth. This module does that arithmetic once.
"""

from __future__ import annotations

import math
from typing import Any

from ..results import MetricResult, fmt


def ratio_result(
    *,
    metric: str,
    variant: str | None,
    rows: list[dict[str, Any]],
    columns: tuple[str, ...],
    counted: int,
    total: int,
    numerator_name: str,
    numerator_label: str,
    item_word: str,
    count_rule: str,
    empty_score: float,
    empty_note: str,
    narrative: list[str],
    notes: list[str],
    threshold: float | None,
    inputs: dict[str, Any],
) -> MetricResult:
    """Build the MetricResult of ``counted / total`` with its formula and narrative."""
    if total == 0:
        score = empty_score
        notes = [empty_note] + notes
        formula = rf"\text{{no {item_word}s}} \Rightarrow {fmt(score)}"
    else:
        score = counted / total
        formula = rf"\frac{{{counted}}}{{{total}}} = {fmt(score)}"
    narrative = narrative + [
        f"Count the {item_word}s that {count_rule}: {counted} of {total}.",
        f"Score = {counted} / {total} = {fmt(score)}." if total else f"There are no {item_word}s; the score is {fmt(score)}.",
    ]
    general = rf"\frac{{\text{{{numerator_label}}}}}{{\text{{all {item_word}s}}}}"
    return MetricResult(
        metric=metric, variant=variant, score=score, columns=columns, rows=rows,
        values={numerator_name: counted, "total": total},
        formula=formula, formula_general=general, narrative=narrative, notes=notes,
        threshold=threshold, inputs=inputs,
    )


NAN = math.nan
