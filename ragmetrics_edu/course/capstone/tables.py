"""Lesson 16's printed tables: one flat dict per capstone row, with the metric map's short names, for
:func:`~ragmetrics_edu.course.display.text_table`."""

from __future__ import annotations

import math
from typing import Any

from ...studies.capstone.diagnosis import METRICS, SHORT, check_rows, overall
from ..display import text_table
from ..metric_map import MAP

__all__ = ["flat", "text_table"]


def flat(rows: Any) -> list[dict[str, Any]]:
    """One printable dict per row: question, system, kind, grades (one digit per retrieved passage),
    the four scores (short names faith, cp, cr, ar), their mean and the tags (when the rows are tagged,
    by their ``diagnosis.SHORT`` names)."""
    out = []
    for row in check_rows(rows):
        entry: dict[str, Any] = {"question": row["question"], "system": row["system"], "kind": row["kind"],
                                 "grades": "".join(str(g) for g in row["grades"]) or "-",
                                 **{MAP[m].short: row["scores"].get(m, math.nan) for m in METRICS}, "mean": overall(row)}
        if "tags" in row:
            entry["tags"] = " ".join(SHORT[t] for t in row["tags"]) or "-"
        out.append(entry)
    return out
