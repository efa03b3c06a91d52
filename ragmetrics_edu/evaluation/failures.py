"""Failure analysis of a RAG system's scored rows: a fixed taxonomy of tags, then one blame per row.

A row is one question answered by one system: ``question``, ``kind``, ``system``, ``passages`` (retrieved
ids, best first), ``grades`` (the corpus's relevance grade of each: 2 answers the question, 1 partly
relevant, 0 not relevant), ``contexts``, ``answer``, ``scores`` (faithfulness, context precision, context
recall, answer relevancy: a metric the judge failed on is missing), ``verdicts``, ``items`` and ``errors``.

The taxonomy (:data:`RULES`, :func:`tag_row`); a row can carry several tags, or none:

=====================  ======================================================================
tag                    fires when
=====================  ======================================================================
retrieval_miss         the question is answerable and no grade-2 passage was retrieved
bad_ranking            a grade-2 passage was retrieved below a grade-0 one
unsupported_claim      faithfulness < 1 (the judge found a claim the contexts do not support)
incomplete_answer      under half of the reference's content words occur in the answer
                       (:func:`ragmetrics_edu.baselines.coverage`)
judge_error            the judge failed on a metric (a recorded error), or its verdicts contradict
                       the corpus's grades: context precision "no" on a grade-2 passage or
                       "yes" on a grade-0 passage, or context recall 1.0 when every retrieved
                       passage is graded 0
=====================  ======================================================================

Counting tags is not attribution: a retrieval miss drags generator tags behind it. :func:`blame`
puts each row on one component, trying its lines top to bottom (notebook 16 computes the same rule in
view and checks it against this one). Before an incomplete answer is blamed on the generator, the
retrieved passages must hold the reference: :func:`source_recall`, the share of the passages the
reference was written from that were retrieved, at least :data:`RECALL_CUT`; under it the blame is
"retriever (partial recall)".

Edge cases: a NaN or missing score fires no score rule (nothing to judge by); a recorded judge error
tags the row ``judge_error``; a row without a reference gets no ``incomplete_answer`` and a
``source_recall`` of None.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Mapping, Sequence

from ..baselines import coverage
from ..errors import InputError
from ..validate import as_list, flag, mapping, number

__all__ = ["TAGS", "RULES", "COMPONENT", "COVERAGE_CUT", "RECALL_CUT", "RELEVANT", "IRRELEVANT", "BLAME",
           "check_rows", "overall", "tag_row", "source_recall", "blame"]

TAGS = ("retrieval_miss", "bad_ranking", "unsupported_claim", "incomplete_answer", "judge_error")
RULES = {
    "retrieval_miss": "answerable question, no grade-2 passage retrieved",
    "bad_ranking": "a grade-2 passage retrieved below a grade-0 passage",
    "unsupported_claim": "faithfulness < 1",
    "incomplete_answer": "under half of the reference's content words are in the answer",
    "judge_error": "judge failed, or its verdicts contradict the grades",
}
#: the component each tag points at: what to change first when the tag dominates
COMPONENT = {"retrieval_miss": "retriever", "bad_ranking": "retriever", "unsupported_claim": "generator",
             "incomplete_answer": "generator", "judge_error": "judge"}
#: the share of the reference's content words the answer must contain not to be called incomplete
COVERAGE_CUT = 0.5
#: the share of the reference's source passages retrieval must return before an incomplete answer is the generator's
RECALL_CUT = 0.5
RELEVANT, IRRELEVANT = 2, 0
#: where :func:`blame` puts a row, in the order its lines try them
BLAME = ("retriever", "retriever (partial recall)", "generator", "generator or judge", "judge", "no failure")


# -- checking rows ------------------------------------------------------------------------------
def _is_list(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _score(field: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(field, "a number between 0 and 1, or NaN", value)
    x = float(value)
    if not math.isnan(x) and not 0 <= x <= 1:
        raise InputError(field, "a number between 0 and 1, or NaN", value)
    return x


def _check_row(i: int, row: Any) -> dict[str, Any]:
    where = f"rows[{i}]"
    if not isinstance(row, Mapping):
        raise InputError(where, "a dict like capstone.scored() returns", row)
    for name in ("question", "kind", "system", "answer"):
        if not isinstance(row.get(name), str):
            raise InputError(f"{where}.{name}", "a string", row.get(name))
    passages: Any = row.get("passages")
    grades: Any = row.get("grades")
    if not _is_list(passages) or not all(isinstance(p, str) for p in passages):
        raise InputError(f"{where}.passages", "a list of passage ids", passages)
    if not _is_list(grades) or not all(isinstance(g, int) and not isinstance(g, bool) and g in (0, 1, 2)
                                       for g in grades):
        raise InputError(f"{where}.grades", "a list of relevance grades 0, 1 or 2", grades)
    if len(grades) != len(passages):
        raise InputError(f"{where}.grades", f"one grade per retrieved passage ({len(passages)})", grades)
    for name in ("scores", "verdicts", "errors"):
        if not isinstance(row.get(name, {}), Mapping):
            raise InputError(f"{where}.{name}", "a dict keyed by metric", row.get(name))
    scores = {m: _score(f"{where}.scores.{m}", v) for m, v in row.get("scores", {}).items()}
    verdicts = row.get("verdicts", {})
    cp = verdicts.get("context_precision")
    if cp is not None and (not _is_list(cp) or len(cp) != len(grades)):
        raise InputError(f"{where}.verdicts.context_precision", f"one verdict per retrieved passage ({len(grades)})",
                         cp)
    return dict(row, scores=scores, verdicts=dict(verdicts), errors=dict(row.get("errors", {})))


def check_rows(rows: Any) -> list[dict[str, Any]]:
    """The rows as checked copies (scores as floats); a bad field raises InputError naming it."""
    items = as_list("rows", rows, "a list of scored rows (capstone.scored())")
    return [_check_row(i, row) for i, row in enumerate(items)]


def overall(row: Mapping[str, Any]) -> float:
    """The mean of the row's finite scores (NaN when it has none)."""
    scores = mapping("row.scores", mapping("row", row, "a scored row (a dict)").get("scores", {}), "a dict keyed by metric")
    values = [x for m, v in scores.items() if not math.isnan(x := _score(f"row.scores.{m}", v))]
    return math.fsum(values) / len(values) if values else math.nan


# -- the taxonomy --------------------------------------------------------------------------------
def _verdict(value: Any) -> str:
    """A context-precision verdict as "yes"/"no" (scored rows hold the metric's 1/0; a judge says yes/no)."""
    if isinstance(value, bool) or (isinstance(value, (int, float)) and value in (0, 1)):
        return "yes" if value else "no"
    return str(value).strip().lower()


def tag_row(row: Mapping[str, Any], reference: str | None = None, is_answerable: bool = True) -> dict[str, str]:
    """The tags that fire on one row, each with the reason it fired (an empty dict: no tag)."""
    row = _check_row(0, row)
    if reference is not None and not isinstance(reference, str):
        raise InputError("reference", "a string or None", reference)
    is_answerable = flag("is_answerable", is_answerable)
    grades, passages, reasons = row["grades"], row["passages"], {}
    if is_answerable and RELEVANT not in grades:
        reasons["retrieval_miss"] = f"grades of the top {len(grades)}: {grades}, no grade 2"
    for low, grade in enumerate(grades):
        if grade == IRRELEVANT and RELEVANT in grades[low + 1:]:
            high = grades.index(RELEVANT, low + 1)
            reasons["bad_ranking"] = f"grade-2 {passages[high]} at rank {high + 1} below grade-0 " \
                                     f"{passages[low]} at rank {low + 1}"
            break
    faith = row["scores"].get("faithfulness", math.nan)
    if not math.isnan(faith) and faith < 1:
        reasons["unsupported_claim"] = f"faithfulness {faith:.2f}"
    if reference:
        share = coverage(reference, row["answer"])
        if share < COVERAGE_CUT:
            reasons["incomplete_answer"] = f"the answer holds {share:.0%} of the reference's content words"
    judge = [f"{metric} failed" for metric in row["errors"]]
    precision = row["verdicts"].get("context_precision")
    for rank, (verdict, grade) in enumerate(zip(precision or [], grades if precision else [], strict=True), 1):
        if (grade == RELEVANT and _verdict(verdict) == "no") or (grade == IRRELEVANT and _verdict(verdict) == "yes"):
            judge.append(f"context precision said {_verdict(verdict)!r} on grade-{grade} rank {rank}")
    recall = row["scores"].get("context_recall", math.nan)
    if grades and all(g == IRRELEVANT for g in grades) and recall == 1:
        judge.append("context recall 1.00 though every retrieved passage is graded 0")
    if judge:
        reasons["judge_error"] = "; ".join(judge)
    return {tag: reasons[tag] for tag in TAGS if tag in reasons}



# -- one blame per row ---------------------------------------------------------------------------
def source_recall(passages: Sequence[str], sources: Sequence[str]) -> float | None:
    """The share of ``sources`` (the passages a reference was written from) among the retrieved
    ``passages``; None when there are no sources (nothing to recall)."""
    passages = as_list("passages", passages, "a list of retrieved passage ids")
    sources = as_list("sources", sources, "a list of passage ids (the reference's supported_by)")
    return sum(p in passages for p in sources) / len(sources) if sources else None


def blame(row: Mapping[str, Any], recall_cut: float = RECALL_CUT) -> str:
    """The one component a tagged row's failure is blamed on (one of :data:`BLAME`), the first line that holds:

    1. "retriever": a retrieval miss, whatever else the row carries (the answer never reached the generator);
    2. "retriever (partial recall)": an incomplete answer, and ``row["source_recall"]`` under ``recall_cut``
       (by default :data:`RECALL_CUT`: the passages did not hold most of what the reference says either);
    3. "generator": an incomplete answer (a word count against the reference, no judge involved);
    4. an unsupported claim: "generator" when someone read the answer (``row["read"]`` True), else
       "generator or judge" (only the judge's faithfulness verdict, which no rule checks);
    5. "judge" when only its tag fires; "no failure" otherwise (a badly ranked answer passage still
       reached the generator).
    """
    row = mapping("row", row, "a tagged row", keys=("tags",))
    tags = set(as_list("row['tags']", row["tags"], "a list of tag names"))
    if unknown := tags - set(TAGS):
        raise InputError("row['tags']", f"tag names from {', '.join(TAGS)}", sorted(unknown))
    read = flag("row['read']", row.get("read", False))
    recall_cut = number("recall_cut", recall_cut, "a share between 0 and 1", low=0.0, high=1.0)
    given = row.get("source_recall")
    if given is not None and (isinstance(given, bool) or not isinstance(given, numbers.Real)
                              or not 0 <= float(given) <= 1):
        raise InputError("row['source_recall']", "a share between 0 and 1, or None (no reference)", given)
    recall = None if given is None else float(given)
    if "retrieval_miss" in tags:
        return "retriever"
    if "incomplete_answer" in tags and recall is not None and recall < recall_cut:
        return "retriever (partial recall)"
    if "incomplete_answer" in tags:
        return "generator"
    if "unsupported_claim" in tags:
        return "generator" if read else "generator or judge"
    return "judge" if "judge_error" in tags else "no failure"
