"""The per-question table every paired function starts from, and the paired effect size.

One row per question: system a's score, system b's score, the difference a − b and which
system did better. Ties (difference 0) are kept and counted; a tie where both scores are
0 is marked separately, because it usually means a question neither system answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..results import fmt


@dataclass
class Pairs:
    """The differences a − b with their table, counts and notes."""

    labels: tuple[str, str]
    differences: list[float]
    columns: tuple[str, ...]
    rows: list[dict[str, Any]]
    counts: dict[str, int]
    notes: list[str] = field(default_factory=list)

    @property
    def mean(self) -> float:
        return math.fsum(self.differences) / len(self.differences)


def pair_table(a: list[float], b: list[float], labels: tuple[str, str], ids: list[Any]) -> Pairs:
    """Build the table of differences and count wins, ties and both-zero ties."""
    la, lb = labels
    rows, diffs = [], []
    counts = {f"{la}_better": 0, f"{lb}_better": 0, "ties": 0, "both_zero": 0}
    for qid, x, y in zip(ids, a, b, strict=True):
        d = x - y
        if d > 0:
            outcome = f"{la} better"
            counts[f"{la}_better"] += 1
        elif d < 0:
            outcome = f"{lb} better"
            counts[f"{lb}_better"] += 1
        else:
            counts["ties"] += 1
            outcome = "tie"
            if x == 0 and y == 0:
                counts["both_zero"] += 1
                outcome = "tie: both 0"
        diffs.append(d)
        rows.append({"question": qid, la: x, lb: y, "difference": d, "outcome": outcome})
    notes = []
    if counts["ties"]:
        notes.append(f"{counts['ties']} of {len(a)} questions are ties (difference 0); they stay in the mean "
                     "difference and its interval, and pull both toward 0.")
    if counts["both_zero"]:
        notes.append(f"{counts['both_zero']} of these ties score 0 for both systems: questions neither system "
                     "answers. Report them separately; no comparison of a and b can tell them apart.")
    return Pairs(labels, diffs, ("question", la, lb, "difference", "outcome"), rows, counts, notes)


def cohens_dz(differences: list[float]) -> tuple[float | None, str]:
    """Paired Cohen's d (d_z): mean difference / standard deviation of the differences (n − 1).

    Returns ``(value, note)``; the value is None where d_z is undefined and the note says why:
    fewer than two questions, or every difference the same non-zero number (sd 0). When every
    difference is 0 the effect is 0."""
    n = len(differences)
    mean = math.fsum(differences) / n
    if n < 2:
        return None, "Cohen's d_z needs at least two questions (a standard deviation); it is left undefined."
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in differences) / (n - 1))
    if sd == 0:
        if mean == 0:
            return 0.0, "Every difference is 0, so the effect size is 0."
        return None, (f"Every difference equals {fmt(mean)} (standard deviation 0): Cohen's d_z would be "
                      "infinite and is left undefined; the systems differ by the same amount on every question.")
    return mean / sd, ""
