"""Two checks of the capstone judge's answer-relevancy and context-recall verdicts (lesson 16).

Both metrics score nearly every capstone row 1.0, even rows a reader sees failing. Two checks,
each a rule a reader can repeat by hand, show where the 1.0 comes from:

* **answer relevancy** (DeepEval's statement form) counts a statement the judge called ``idk``
  as relevant; :func:`check_rows` gives the share of statements called ``yes`` beside it, the
  score a reader gets by reading ``idk`` as "not shown to be relevant";
* **context recall** should split the *reference* into statements. A statement whose content
  words come from a retrieved passage more than from the reference
  (:func:`ragmetrics_edu.studies.judge_study.failures.from_wrong_text`, the "wrong text" rule of notebook 10) was
  taken from the wrong text; and a recall of 1.0 when every retrieved passage is graded 0 (not
  relevant) contradicts the corpus.

Edge cases: a row without a score for a metric gets NaN for that metric's checks; a row with no
statements gets NaN for the share.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from ...errors import InputError
from ...validate import as_list
from ..judge_study.failures import from_wrong_text as wrong_text
from .diagnosis import IRRELEVANT, reference_texts
from .diagnosis import check_rows as checked_rows

__all__ = ["yes_share", "from_wrong_text", "check_rows"]


def yes_share(verdicts: Sequence[Any]) -> float:
    """The share of verdicts that are "yes" (NaN for none): relevancy with ``idk`` read as not relevant."""
    marks = [str(v).strip().lower() for v in as_list("verdicts", verdicts, "a list of verdicts")]
    return sum(m == "yes" for m in marks) / len(marks) if marks else math.nan


def from_wrong_text(statements: Sequence[str], reference: str, contexts: Sequence[str]) -> list[int]:
    """The 1-based positions of the statements taken from a passage rather than from ``reference``
    (:func:`ragmetrics_edu.studies.judge_study.failures.from_wrong_text`, at its default share)."""
    if not isinstance(reference, str):
        raise InputError("reference", "a string", reference)
    return [j + 1 for j, _, _ in wrong_text(statements, reference, contexts)]


def check_rows(rows: Any, references: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Per row: answer relevancy and its ``yes`` share with the ``idk`` count; context recall, how many
    of the judge's statements came from a passage instead of the reference, and whether every retrieved
    passage is graded 0. ``references`` maps question id to reference text (or ``{"reference": ...}``),
    by default the capstone's."""
    checked = checked_rows(rows)
    texts = reference_texts(references)
    out = []
    for row in checked:
        ref = texts.get(row["question"])
        relevancy = row["verdicts"].get("answer_relevancy") or []
        statements = (row.get("items") or {}).get("context_recall") or []
        wrong = from_wrong_text(statements, ref, row.get("contexts") or []) if ref else []
        has_recall = "context_recall" in row["scores"]
        out.append({"question": row["question"], "system": row["system"],
                    "ar": row["scores"].get("answer_relevancy", math.nan),
                    "ar idk": sum(str(v).strip().lower() == "idk" for v in relevancy),
                    "ar yes share": yes_share(relevancy),
                    "cr": row["scores"].get("context_recall", math.nan),
                    "cr statements": len(statements) if has_recall else 0,
                    "cr from a passage": len(wrong) if has_recall else 0,
                    "all grade 0": bool(row["grades"]) and all(g == IRRELEVANT for g in row["grades"])})
    return out
