"""Lesson 16's failure analysis: the rows tagged by :mod:`ragmetrics_edu.evaluation.failures` with the capstone's
references and corpus, sorted, paired by question, and set against the project annotator's reading.

A row is one question answered by one system, shaped like :func:`.systems.score_rows` returns it (see :mod:`ragmetrics_edu.evaluation.failures` for the fields and the taxonomy). :func:`tag_rows` adds each
row's tags, with the capstone's references and the corpus's answerable questions as defaults.

Edge cases: no rows give an empty list; a NaN or missing score sorts first (an unscored row is read
before any other).
"""

from __future__ import annotations

import math
import textwrap
from typing import Any, Collection, Mapping, Sequence

from ...baselines import coverage
from ...errors import InputError
from ...evaluation.failures import (
    COMPONENT,
    COVERAGE_CUT,
    IRRELEVANT,
    RELEVANT,
    RULES,
    TAGS,
    check_rows,
    overall,
    source_recall,
    tag_row,
)
from ...retrieval.corpus import load_corpus
from ...validate import as_list, choice, identifier, mapping, records
from .systems import references as capstone_references

__all__ = ["TAGS", "RULES", "SHORT", "COMPONENT", "METRICS", "COVERAGE_CUT", "RELEVANT", "IRRELEVANT", "check_rows",
           "overall", "tag_row", "tagged_rows", "reference_texts", "present_metrics", "sort_rows", "answerable",
           "tag_rows", "paired_scores", "rules_vs_annotator", "describe_row"]

#: short names for tables
SHORT = {"retrieval_miss": "miss", "bad_ranking": "rank", "unsupported_claim": "unsup",
         "incomplete_answer": "incompl", "judge_error": "judge"}
METRICS = ("faithfulness", "context_precision", "context_recall", "answer_relevancy")


def present_metrics(rows: Any) -> tuple[str, ...]:
    """The metrics of :data:`METRICS` that at least one row has a score for, in that order."""
    checked = check_rows(rows)
    return tuple(m for m in METRICS if any(m in r["scores"] for r in checked))


def sort_rows(rows: Any, by: str = "mean") -> list[dict[str, Any]]:
    """Lowest first by ``by`` (a metric name, or "mean" of the row's scores); NaN or missing first,
    ties kept in their given order."""
    by = choice("by", by, ("mean", *METRICS))
    checked = check_rows(rows)

    def key(row: dict[str, Any]) -> tuple[int, float]:
        value = overall(row) if by == "mean" else row["scores"].get(by, math.nan)
        return (0, 0.0) if math.isnan(value) else (1, value)

    return sorted(checked, key=key)


def answerable() -> set[str]:
    """The lab questions the corpus can answer: those with at least one grade-2 passage."""
    return {q.id for q in load_corpus().questions if any(g == RELEVANT for g in q.qrels.values())}


def _reference_text(value: Any) -> str | None:
    if isinstance(value, Mapping):
        value = value.get("reference")
    return value if isinstance(value, str) and value else None


def reference_texts(references: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Question id → reference text, from a mapping of id → text (or ``{"reference": ...}``); by default
    the capstone's. Questions without a reference text are left out."""
    if references is None:
        references = capstone_references()
    if not isinstance(references, Mapping):
        raise InputError("references", "a dict question id -> reference text", references)
    return {qid: text for qid, value in references.items() if (text := _reference_text(value)) is not None}


def _sources(value: Any) -> list[str]:
    sources = value.get("supported_by") if isinstance(value, Mapping) else None
    return list(as_list("references[...].supported_by", sources, "a list of passage ids")) if sources else []


def tag_rows(rows: Any, references: Mapping[str, Any] | None = None,
             answerable_ids: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Each row with ``tags`` (list), ``reasons`` (tag → why), ``overall`` (mean score), ``coverage`` (of the
    reference by the answer, None without a reference) and ``source_recall`` (the share of the reference's
    ``supported_by`` passages retrieved, :func:`ragmetrics_edu.evaluation.failures.source_recall`; None without them).

    ``references`` maps question id → reference text (or ``{"reference": ..., "supported_by": [...]}``), by
    default the capstone's; ``answerable_ids`` the answerable questions, by default :func:`answerable`.
    """
    checked = check_rows(rows)
    references = capstone_references() if references is None else references
    texts = reference_texts(references)
    known = answerable() if answerable_ids is None else answerable_ids
    if isinstance(known, (str, bytes)) or not isinstance(known, Collection):
        raise InputError("answerable_ids", "a collection of question ids", answerable_ids)
    out = []
    for row in checked:
        ref = texts.get(row["question"])
        reasons = tag_row(row, ref, row["question"] in known)
        out.append(dict(row, tags=list(reasons), reasons=reasons, overall=overall(row),
                        coverage=None if ref is None else coverage(ref, row["answer"]),
                        source_recall=source_recall(row["passages"], _sources(references.get(row["question"])))))
    return out


def tagged_rows(rows: Any, keys: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The rows of :func:`tag_rows` checked: a list of dicts holding ``keys``, each with a list of known ``tags``."""
    rows = records("rows", rows, "a list of tagged rows (diagnosis.tag_rows())", keys=keys)
    for i, row in enumerate(rows):
        if not isinstance(row.get("tags"), (list, tuple)):
            raise InputError(f"rows[{i}].tags", "a list of tags (run diagnosis.tag_rows() first)", row.get("tags"))
        unknown = [t for t in row["tags"] if not isinstance(t, str) or t not in TAGS]
        if unknown:
            raise InputError(f"rows[{i}].tags", "tags from " + ", ".join(TAGS), unknown[0])
    return list(rows)


# -- the paired comparison of two systems ---------------------------------------------------------
def paired_scores(rows: Any, metric: str, a: str = "minilm", b: str = "bm25") -> dict[str, Any]:
    """The questions both systems have a finite ``metric`` score for, their scores, and the
    questions dropped (with why)."""
    metric = choice("metric", metric, METRICS)
    a, b = identifier("a", a, "a system's name"), identifier("b", b, "a system's name")
    checked = check_rows(rows)
    systems = {r["system"] for r in checked}
    for field, name in (("a", a), ("b", b)):
        if name not in systems:
            raise InputError(field, "a system in the rows (" + ", ".join(sorted(systems)) + ")", name)
    by = {(r["system"], r["question"]): r["scores"].get(metric, math.nan) for r in checked}
    questions = list(dict.fromkeys(r["question"] for r in checked))
    ids, left, right, dropped = [], [], [], {}
    for q in questions:
        x, y = by.get((a, q), math.nan), by.get((b, q), math.nan)
        if math.isnan(x) or math.isnan(y):
            dropped[q] = f"no {metric} score for " + " and ".join(s for s, v in ((a, x), (b, y)) if math.isnan(v))
        else:
            ids.append(q)
            left.append(x)
            right.append(y)
    return {"ids": ids, "a": left, "b": right, "dropped": dropped, "labels": (a, b)}


# -- the project annotator's reading, against the rules -----------------------------------------
def rules_vs_annotator(tagged: Any, reading: Mapping[tuple[str, str], Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The project's rules against a language-model annotator's reading (``reading``: its tags per
    (question, system), as ``course.capstone.systems.annotator_diagnosis`` loads it), row by row: the rule tags, the annotator's
    tags, and where they differ (keys ``rules``, ``annotator``, ``only_rules``, ``only_annotator``,
    ``agree``, ``note``). Neither side is ground truth: the rules trust the judge, the reading is a
    model's."""
    rows = {(r["question"], r["system"]): r for r in tagged_rows(tagged, keys=("question", "system"))}
    out = []
    for key, found in mapping("reading", reading, "a dict (question, system) -> reading").items():
        if key not in rows:
            raise InputError("reading", "rows that are among the tagged rows", key)
        if not isinstance(mapping(f"reading[{key!r}]", found, keys=("tags",))["tags"], (list, tuple)):
            raise InputError(f"reading[{key!r}].tags", "a list of tags", found["tags"])
        rule, theirs = set(rows[key]["tags"]), set(found["tags"])
        out.append({"question": key[0], "system": key[1], "rules": sorted(rule, key=TAGS.index),
                    "annotator": sorted(theirs, key=TAGS.index), "only_rules": sorted(rule - theirs, key=TAGS.index),
                    "only_annotator": sorted(theirs - rule, key=TAGS.index), "agree": rule == theirs,
                    "note": found.get("note", "")})
    return out


# -- reading one row ---------------------------------------------------------------------------
def describe_row(row: Mapping[str, Any], width: int = 100) -> str:
    """One row in full, to read: the question, each passage with its grade, the answer, the judge's
    claims, answer statements and reference statements with its verdict on each, every score, and the
    tags with their reasons."""
    checked = check_rows([row])[0]

    def wrap(text: str, indent: str = "    ") -> str:
        return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent)

    lines = [f"{checked['question']} ({checked['kind']}, {checked['system']}): {checked.get('text', '')}"]
    contexts = checked.get("contexts") or [""] * len(checked["passages"])
    for rank, (pid, grade, context) in enumerate(zip(checked["passages"], checked["grades"], contexts, strict=False), 1):
        lines.append(f"  rank {rank}: {pid} (grade {grade})")
        lines.append(wrap(context))
    lines += ["  answer:", wrap(checked["answer"])]
    claims = (checked.get("items") or {}).get("faithfulness") or []
    verdicts = checked["verdicts"].get("faithfulness") or []
    for claim, verdict in zip(claims, verdicts, strict=False):
        lines.append(wrap(f"claim [{verdict}]: {claim}", "    "))
    for metric, label in (("answer_relevancy", "answer statement"), ("context_recall", "reference statement")):
        items = (checked.get("items") or {}).get(metric) or []
        for item, verdict in zip(items, checked["verdicts"].get(metric) or [], strict=False):
            lines.append(wrap(f"{label} [{verdict}]: {item}", "    "))
    scores = ", ".join(f"{m} {v:.3f}" for m, v in checked["scores"].items()) or "none"
    lines.append(wrap(f"scores: {scores}", "  "))
    for metric, error in checked["errors"].items():
        lines.append(wrap(f"judge error on {metric}: {error}", "  "))
    for tag, reason in (row.get("reasons") or {}).items():
        lines.append(wrap(f"tag {tag}: {reason}", "  "))
    return "\n".join(lines)
