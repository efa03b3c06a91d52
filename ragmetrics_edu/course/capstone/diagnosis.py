"""Failure analysis of a RAG system's scored rows (notebook 16): sort, tag, count, slice, compare.

A row is one question answered by one system, shaped like :func:`ragmetrics_edu.course.capstone.systems.scored`
returns it: ``question``, ``text``, ``kind``, ``system``, ``passages`` (retrieved ids, best first),
``grades`` (the corpus's relevance grade of each), ``contexts``, ``answer``, ``scores``
(faithfulness, context_precision, context_recall, answer_relevancy; a metric the judge failed on,
or that needs a reference the question lacks, is missing), ``verdicts``, ``items`` and ``errors``.

The taxonomy (:data:`RULES`); a row can carry several tags, or none:

=====================  ======================================================================
tag                    fires when
=====================  ======================================================================
retrieval_miss         the question is answerable (the corpus has a grade-2 passage for it)
                       and no grade-2 passage is among the retrieved ones
bad_ranking            a grade-2 passage was retrieved below a grade-0 one
unsupported_claim      faithfulness < 1 (the judge found a claim the contexts do not support)
incomplete_answer      the question has a reference and under half of the reference's content
                       words occur in the answer (:func:`ragmetrics_edu.baselines.coverage`)
judge_error            the judge failed on a metric (a recorded error), or its verdicts contradict
                       the corpus's grades: context precision "no" on a grade-2 passage or
                       "yes" on a grade-0 passage, or context recall 1.0 when every retrieved
                       passage is graded 0
=====================  ======================================================================

The first two read only the corpus's relevance judgements; the third reads the judge; the
fourth reads a word count against the project's reference; the fifth sets the judge against
the corpus. Rules are cheap and repeatable, and they are blunt: notebook 16 compares them with
the project's own reading of the lowest rows (``data/capstone_diagnosis.json``).

Edge cases: no rows give zero counts and empty tables; a NaN or missing score fires no
score rule (nothing to judge by) and sorts first (an unscored row is read before any other);
a recorded judge error tags the row ``judge_error``.
"""

from __future__ import annotations

import json
import math
import numbers
import textwrap
from typing import Any, Collection, Mapping, Sequence

from ... import data, stats
from ...baselines import coverage
from ...errors import InputError
from ...plots import figure_and_axes
from ...retrieval.corpus import load_corpus
from ...validate import as_list, choice, flag, identifier, mapping, records
from ..display import text_table
from ..metric_map import MAP
from .systems import references as capstone_references

__all__ = ["TAGS", "RULES", "SHORT", "COMPONENT", "METRICS", "COVERAGE_CUT", "check_rows", "tagged_rows", "reference_texts", "present_metrics", "overall", "sort_rows", "answerable",
           "tag_row", "tag_rows", "counts", "count_table", "slice_table", "paired_scores", "compare",
           "comparison_table", "annotator_diagnosis", "rules_vs_annotator", "flat", "describe_row", "text_table", "plot_counts"]

TAGS = ("retrieval_miss", "bad_ranking", "unsupported_claim", "incomplete_answer", "judge_error")
RULES = {
    "retrieval_miss": "answerable question, no grade-2 passage retrieved",
    "bad_ranking": "a grade-2 passage retrieved below a grade-0 passage",
    "unsupported_claim": "faithfulness < 1",
    "incomplete_answer": "under half of the reference's content words are in the answer",
    "judge_error": "judge failed, or its verdicts contradict the grades",
}
#: short names for tables
SHORT = {"retrieval_miss": "miss", "bad_ranking": "rank", "unsupported_claim": "unsup",
         "incomplete_answer": "incompl", "judge_error": "judge"}
#: the component each tag points at: what to change first when the tag dominates
COMPONENT = {"retrieval_miss": "retriever", "bad_ranking": "retriever", "unsupported_claim": "generator",
             "incomplete_answer": "generator", "judge_error": "judge"}
METRICS = ("faithfulness", "context_precision", "context_recall", "answer_relevancy")
#: the share of the reference's content words the answer must contain not to be called incomplete
COVERAGE_CUT = 0.5
RELEVANT, IRRELEVANT = 2, 0


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


def present_metrics(rows: Any) -> tuple[str, ...]:
    """The metrics of :data:`METRICS` that at least one row has a score for, in that order."""
    checked = check_rows(rows)
    return tuple(m for m in METRICS if any(m in r["scores"] for r in checked))


def overall(row: Mapping[str, Any]) -> float:
    """The mean of the row's finite scores (NaN when it has none)."""
    scores = mapping("row.scores", mapping("row", row, "a scored row (a dict)").get("scores", {}), "a dict keyed by metric")
    values = [x for m, v in scores.items() if not math.isnan(x := _score(f"row.scores.{m}", v))]
    return math.fsum(values) / len(values) if values else math.nan


def sort_rows(rows: Any, by: str = "mean") -> list[dict[str, Any]]:
    """Lowest first by ``by`` (a metric name, or "mean" of the row's scores); NaN or missing first,
    ties kept in their given order."""
    by = choice("by", by, ("mean", *METRICS))
    checked = check_rows(rows)

    def key(row: dict[str, Any]) -> tuple[int, float]:
        value = overall(row) if by == "mean" else row["scores"].get(by, math.nan)
        return (0, 0.0) if math.isnan(value) else (1, value)

    return sorted(checked, key=key)


# -- the taxonomy --------------------------------------------------------------------------------
def answerable() -> set[str]:
    """The lab questions the corpus can answer: those with at least one grade-2 passage."""
    return {q.id for q in load_corpus().questions if any(g == RELEVANT for g in q.qrels.values())}


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


def tag_rows(rows: Any, references: Mapping[str, Any] | None = None,
             answerable_ids: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Each row with ``tags`` (list), ``reasons`` (tag → why), ``overall`` (mean score) and
    ``coverage`` (of the reference by the answer, None without a reference).

    ``references`` maps question id → reference text (or ``{"reference": ...}``), by default the
    capstone's; ``answerable_ids`` the answerable questions, by default :func:`answerable`.
    """
    checked = check_rows(rows)
    texts = reference_texts(references)
    known = answerable() if answerable_ids is None else answerable_ids
    if isinstance(known, (str, bytes)) or not isinstance(known, Collection):
        raise InputError("answerable_ids", "a collection of question ids", answerable_ids)
    out = []
    for row in checked:
        ref = texts.get(row["question"])
        reasons = tag_row(row, ref, row["question"] in known)
        out.append(dict(row, tags=list(reasons), reasons=reasons, overall=overall(row),
                        coverage=None if ref is None else coverage(ref, row["answer"])))
    return out


# -- counting and slicing ------------------------------------------------------------------------
def tagged_rows(rows: Any, keys: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The rows of :func:`tag_rows` checked: a list of dicts holding ``keys``, each with a list of known ``tags``."""
    rows = records("rows", rows, "a list of tagged rows (diagnosis.tag_rows())", keys=keys)
    for i, row in enumerate(rows):
        if not _is_list(row.get("tags")):
            raise InputError(f"rows[{i}].tags", "a list of tags (run diagnosis.tag_rows() first)", row.get("tags"))
        unknown = [t for t in row["tags"] if not isinstance(t, str) or t not in TAGS]
        if unknown:
            raise InputError(f"rows[{i}].tags", "tags from " + ", ".join(TAGS), unknown[0])
    return list(rows)


def counts(tagged: Any) -> dict[str, int]:
    """How many rows carry each tag, plus ``untagged`` and ``rows`` (a row may count under several tags)."""
    rows = tagged_rows(tagged)
    out = {tag: sum(tag in r["tags"] for r in rows) for tag in TAGS}
    out["untagged"] = sum(not r["tags"] for r in rows)
    out["rows"] = len(rows)
    return out


_BY = ("system", "kind", "question")


def _groups(rows: list[dict[str, Any]], by: str) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(str(row[by]), []).append(row)
    return groups


def count_table(tagged: Any, by: str = "system") -> list[dict[str, Any]]:
    """One row per value of ``by`` (system, kind or question) with the tag counts, and an "all" row."""
    by = choice("by", by, _BY)
    rows = tagged_rows(tagged, keys=(by,))
    table = [{by: value, **counts(group)} for value, group in _groups(rows, by).items()]
    return table + [{by: "all", **counts(rows)}]


def _mean(values: list[float]) -> float:
    finite = [v for v in values if not math.isnan(v)]
    return math.fsum(finite) / len(finite) if finite else math.nan


def slice_table(tagged: Any, by: str = "kind") -> list[dict[str, Any]]:
    """Per value of ``by``: the number of rows, each metric's mean over the rows that have it, and the
    number of rows with at least one tag."""
    by = choice("by", by, _BY)
    rows = tagged_rows(tagged, keys=(by, "scores"))
    out = []
    for value, group in _groups(rows, by).items():
        entry: dict[str, Any] = {by: value, "rows": len(group)}
        for metric in METRICS:
            entry[metric] = _mean([float(r["scores"].get(metric, math.nan)) for r in group])
        entry["tagged"] = sum(bool(r["tags"]) for r in group)
        out.append(entry)
    return out


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


def compare(rows: Any, metric: str, a: str = "minilm", b: str = "bm25", test: str = "permutation",
            **options: Any) -> Any:
    """A paired test of ``a`` − ``b`` on ``metric`` over the questions both have scored:
    ``test`` is "permutation", "bootstrap" (paired bootstrap) or "sign" (ragmetrics_edu.stats)."""
    tests: dict[str, Any] = {"permutation": stats.permutation_test, "bootstrap": stats.paired_bootstrap, "sign": stats.sign_test}
    test = choice("test", test, tuple(tests))
    pairs = paired_scores(rows, metric, a, b)
    if not pairs["ids"]:
        raise InputError("rows", f"at least one question with a {metric} score from both {a} and {b}", len(rows))
    return tests[test](pairs["a"], pairs["b"], labels=(a, b), ids=pairs["ids"], **options)


def comparison_table(rows: Any, a: str = "minilm", b: str = "bm25", metrics: Sequence[str] = METRICS,
                     n_resamples: int = 10_000, seed: int = 0) -> list[dict[str, Any]]:
    """Per metric: questions compared, both means, the mean difference a − b with its paired-bootstrap
    interval, and the permutation and sign tests' p-values."""
    a, b = identifier("a", a, "a system's name"), identifier("b", b, "a system's name")
    metrics = [choice(f"metrics[{i}]", m, METRICS) for i, m in enumerate(as_list("metrics", metrics))]
    out = []
    for metric in metrics:
        pairs = paired_scores(rows, metric, a, b)
        n = len(pairs["ids"])
        entry: dict[str, Any] = {"metric": metric, "n": n, "dropped": len(pairs["dropped"])}
        if not n:
            out.append(dict(entry, **{f"mean {a}": math.nan, f"mean {b}": math.nan, "difference": math.nan,
                                      "ci_low": math.nan, "ci_high": math.nan, "p perm": math.nan,
                                      "p sign": math.nan}))
            continue
        boot = compare(rows, metric, a, b, "bootstrap", n_resamples=n_resamples, seed=seed)
        perm = compare(rows, metric, a, b, "permutation", n_resamples=n_resamples, seed=seed)
        sign = compare(rows, metric, a, b, "sign")
        out.append(dict(entry, **{f"mean {a}": _mean(pairs["a"]), f"mean {b}": _mean(pairs["b"]),
                                  "difference": boot.estimate, "ci_low": boot.ci[0],
                                  "ci_high": boot.ci[1], "p perm": perm.p_value, "p sign": sign.p_value}))
    return out


# -- the project annotator's reading, against the rules -----------------------------------------
def annotator_diagnosis() -> dict[tuple[str, str], dict[str, Any]]:
    """The tags and notes of the project's annotator, a language model that read every row
    (``data/capstone_diagnosis.json``), keyed by (question, system). A second reading, not ground truth."""
    with open(data.path("capstone_diagnosis.json"), encoding="utf-8") as handle:
        doc = json.load(handle)
    return {(r["question"], r["system"]): {"tags": list(r["tags"]), "note": r["note"]} for r in doc["rows"]}


def rules_vs_annotator(tagged: Any, reading: Mapping[tuple[str, str], Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The project's rules against a language-model annotator's reading (``reading``: its tags per
    (question, system), see :func:`annotator_diagnosis`), row by row: the rule tags, the annotator's
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


# -- printing ---------------------------------------------------------------------------------------
#: the four scores' short names in flat tables (the metric map's ``short``)
_SHORT = {m: MAP[m].short for m in METRICS}


def flat(rows: Any) -> list[dict[str, Any]]:
    """One printable dict per row: question, system, kind, grades (one digit per retrieved passage),
    the four scores (short names faith, cp, cr, ar), their mean and the tags (when the rows are tagged,
    by their :data:`SHORT` names)."""
    out = []
    for row in check_rows(rows):
        entry: dict[str, Any] = {"question": row["question"], "system": row["system"], "kind": row["kind"],
                                 "grades": "".join(str(g) for g in row["grades"]) or "-"}
        for metric, short in _SHORT.items():
            entry[short] = row["scores"].get(metric, math.nan)
        entry["mean"] = overall(row)
        if "tags" in row:
            entry["tags"] = " ".join(SHORT[t] for t in row["tags"]) or "-"
        out.append(entry)
    return out


def describe_row(row: Mapping[str, Any], width: int = 100) -> str:
    """One row in full, to read: the question, each passage with its grade, the answer, the judge's
    claims, answer statements and reference statements with its verdict on each, every score, and the
    tags with their reasons."""
    checked = _check_row(0, row)

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


def plot_counts(tagged: Any, by: str = "system", ax: Any = None, title: str = ""):
    """Grouped horizontal bars: for each tag, how many rows of each ``by`` value carry it."""
    table = [t for t in count_table(tagged, by) if t[by] != "all"]
    fig, ax = figure_and_axes(ax, figsize=(7, 3.2))
    colours = ["#264653", "#2a9d8f", "#e9c46a", "#e76f51", "#8ab17d"]
    height = 0.8 / max(len(table), 1)
    for j, entry in enumerate(table):
        ys = [i + (j - (len(table) - 1) / 2) * height for i in range(len(TAGS))]
        values = [entry[tag] for tag in TAGS]
        ax.barh(ys, values, height=height, label=str(entry[by]), color=colours[j % len(colours)])
        for y, x in zip(ys, values, strict=True):
            ax.text(x + 0.1, y, str(x), va="center", fontsize=8)
    ax.set_yticks(range(len(TAGS)))
    ax.set_yticklabels([t.replace("_", " ") for t in TAGS], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("rows carrying the tag")
    top = max((v for entry in table for v in (entry[tag] for tag in TAGS)), default=0)
    ax.set_xlim(0, max(1, top) * 1.12)
    ax.legend(fontsize=8, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=max(1, len(table)))
    if title:
        ax.set_title(title, fontsize=10, pad=18)
    fig.tight_layout()
    return fig
