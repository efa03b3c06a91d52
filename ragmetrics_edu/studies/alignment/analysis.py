"""Lesson 15's error analysis: where the support design fails on dev, the spans it is compared by, the answer shown.

The failure kinds are sorted by written rules (below), not by a person's reading; the counts say how many
misses each rule caught, and the lesson shows examples of each so a reader can check the rule.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from ...agreement import best_threshold
from ...baselines import coverage
from ...data import ragtruth
from ...errors import InputError
from ...results import MetricResult
from ...text import words
from ...validate import as_list
from .choice import candidate_figures
from .labels import threshold_for
from .log import checked_log, lesson14_threshold

__all__ = ["quote_reading", "old_design_misses", "OLD_DESIGNS", "shown_answer", "FAILURE_KINDS",
           "failure_kinds", "misses", "spans", "answer_of"]

#: a sentence whose words are this much in the passages reads as a close paraphrase of them
CLOSE = 0.8

#: the kinds a miss is sorted into, by rule, in the order the rules are tried
FAILURE_KINDS = {
    "false alarm: abstains": "a faithful answer flagged; its least supported sentence says the passages do not give "
                             "something (the judge answers the literal question 'do the passages state it?' no)",
    "false alarm: close paraphrase doubted": "a faithful answer flagged; its least supported sentence repeats the "
                                             f"passages' words (at least {CLOSE:.0%} of its content words)",
    "false alarm: reworded": "a faithful answer flagged; its least supported sentence says it in other words",
    "missed: marked sentence in the passages' words": "a hallucinated answer passed; the sentence people marked "
                                                      f"reuses the passages' words (at least {CLOSE:.0%})",
    "missed: marked sentence in new words": "a hallucinated answer passed; the marked sentence has words the "
                                            "passages lack, and the judge still said yes",
}


@lru_cache(maxsize=1)
def _answers() -> dict[str, ragtruth.RagAnswer]:
    return {a.id: a for a in ragtruth.answers("dev")}


def answer_of(answer_id: str) -> ragtruth.RagAnswer:
    """The RAGTruth dev answer with this id."""
    if not isinstance(answer_id, str) or answer_id not in _answers():
        raise InputError("answer_id", "the id of a RAGTruth dev answer (e.g. 'ragtruth-14323-gpt-4-0613')", answer_id)
    return _answers()[answer_id]


def _kind(answer: ragtruth.RagAnswer, sentences: list[dict[str, Any]], failed: bool) -> str:
    passages = "\n".join(answer.context)
    if not failed:
        low = min(sentences, key=lambda r: r["p_yes"])
        text = answer.answer[low["start"]:low["end"]]
        if low["abstains"]:
            return "false alarm: abstains"
        return "false alarm: close paraphrase doubted" if coverage(text, passages) >= CLOSE else "false alarm: reworded"
    marked = {c for s in answer.spans for c in range(s.start, s.end)}
    hit = [r for r in sentences if marked & set(range(r["start"], r["end"]))] or sentences
    text = answer.answer[hit[0]["start"]:hit[0]["end"]]
    return ("missed: marked sentence in the passages' words" if coverage(text, passages) >= CLOSE
            else "missed: marked sentence in new words")


def failure_kinds(design: str, log: Any) -> dict[str, Any]:
    """The dev misses of ``design`` at its F1-best dev threshold, each sorted into a kind, counted, with examples."""
    log = checked_log(log)
    part = log["parts"]["ragtruth-dev"]
    figures = candidate_figures(log).get(design) if isinstance(design, str) else None
    if figures is None or design not in part["scores"]:
        raise InputError("design", "a support design recorded on RAGTruth dev", design)
    threshold = figures["threshold"]
    sentences = part["sentences"]["support"]
    counts = {k: 0 for k in FAILURE_KINDS}
    examples: dict[str, list[str]] = {k: [] for k in FAILURE_KINDS}
    misses = 0
    for k, row in enumerate(part["items"]):
        score = part["scores"][design][k]
        if math.isnan(score) or not sentences[k] or (score < threshold) == row["failed"]:
            continue
        misses += 1
        kind = _kind(answer_of(row["id"]), sentences[k], row["failed"])
        counts[kind] += 1
        examples[kind].append(row["id"])
    return {"threshold": threshold, "misses": misses, "counts": counts, "examples": examples}


#: lesson 14's judged designs whose misses lesson 15 reads first, after the baseline's (word overlap)
OLD_DESIGNS = ("word_overlap", "g_eval", "critic_p_yes", "reanswer_judge_only")


def old_design_misses(log14: Any) -> Any:
    """Lesson 14's judged designs on its RAGTruth dev sample, at each one's F1-best dev threshold: how many answers
    it scored, its false alarms (faithful answers flagged), and its missed hallucinations by the kind of span people
    marked (evident or subtle, conflict or baseless), counted (a table, pandas). ``log14``: lesson 14's log."""
    import pandas as pd  # lazy: pandas loads with the first table

    part = log14["parts"].get("ragtruth-dev") if isinstance(log14, dict) and "parts" in log14 else None
    if not isinstance(part, dict):
        raise InputError("log14", "lesson 14's log (course.against_people.study.load_log())", type(log14).__name__)
    rows = []
    for design in OLD_DESIGNS:
        threshold = lesson14_threshold(log14, design)
        scored = [(s, r) for s, r in zip(part["scores"][design], part["items"], strict=True)
                  if s is not None and not math.isnan(s)]
        row: dict[str, Any] = {"design": design, "answers": len(scored),
                               "hallucinated": sum(r["failed"] for _, r in scored),
                               "false alarms": sum(1 for s, r in scored if not r["failed"] and s < threshold),
                               "missed": sum(1 for s, r in scored if r["failed"] and s >= threshold)}
        for s, r in scored:
            if r["failed"] and s >= threshold:
                key = f"missed: {r['span_kind']}"
                row[key] = row.get(key, 0) + 1
        rows.append(row)
    table = pd.DataFrame(rows).fillna(0)
    counts = [c for c in table.columns if c != "design"]
    table[counts] = table[counts].astype(int)
    return table


def misses(design: str, log: Any, log14: Any) -> dict[str, Any]:
    """How often ``design`` errs on the RAGTruth dev answers it scored, at the threshold it is used with (word
    overlap at lesson 14's, a lesson-15 design at its F1-best on all dev): faithful answers flagged (false alarms)
    and hallucinated ones passed (missed), with the threshold."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    if not isinstance(design, str) or design not in part["scores"]:
        raise InputError("design", "a score lesson 15's log holds: " + ", ".join(part["scores"]), design)
    threshold, source = threshold_for(design, log, log14)
    scored = [(v, r["failed"]) for v, r in zip(part["scores"][design], part["items"], strict=True) if not math.isnan(v)]
    return {"design": design, "threshold": threshold, "threshold_from": source, "answers": len(scored),
            "faithful": sum(not f for _, f in scored), "hallucinated": sum(f for _, f in scored),
            "false_alarms": sum(v < threshold and not f for v, f in scored),
            "missed": sum(v >= threshold and f for v, f in scored)}


def spans(log: Any) -> dict[str, Any]:
    """The character spans deck 15 compares, on the dev answers the support design scored: people's, the support
    judge's (sentences below support_min's F1-best dev threshold), counting words' (:data:`~.protocol.SPAN_BASELINE`)
    and marking every character; with both thresholds. The F1 is ``agreement.span_agreement``'s (notebook 15
    computes both in view)."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    threshold = float((candidate_figures(log)["support_min"] or {})["threshold"])
    cut = best_threshold([r["failed"] for r in part["items"]], part["signals"]["lowest_sentence_overlap"])
    scored = [(answer_of(r["id"]), rows) for r, rows in zip(part["items"], part["sentences"]["support"], strict=True)
              if rows]
    return {"answers": len(scored), "threshold": threshold, "baseline_threshold": cut,
            "people": [[(s.start, s.end) for s in a.spans] for a, _ in scored],
            "judge": [[(r["start"], r["end"]) for r in rows if r["p_yes"] < threshold] for _, rows in scored],
            "words": [[(r["start"], r["end"]) for r in rows
                       if coverage(a.answer[r["start"]:r["end"]], "\n".join(a.context)) < cut] for a, rows in scored],
            "everything": [[(0, len(a.answer))] for a, _ in scored]}


def shown_answer(log: Any) -> str:
    """The answer the lesson shows, by a rule that does not look at the judge: the first dev answer (in the data's
    order) people marked hallucinated, with three to eight sentences."""
    log = checked_log(log)
    part = log["parts"]["ragtruth-dev"]
    for k, row in enumerate(part["items"]):
        if row["failed"] and 3 <= len(part["sentences"]["support"][k]) <= 8:
            return str(row["id"])
    raise InputError("log", "a log with a flagged hallucinated answer", None)


def quote_reading(results: list[MetricResult | None], failed: list[bool]) -> dict[str, int]:
    """What the quote-then-verify judge sent back (its replayed results on the dev answers, None where not recorded;
    ``failed``: people's label of each answer), counted: how many quotes were found in the passages, how many were
    the sentence copied back instead of a passage, how many were empty, and how many answers (faithful ones among
    them) scored 0: because some sentence's quote was not found, or, with every quote found, because some quote
    shared no content word with its sentence."""
    results = as_list("results", results, "the quote pass's results, one (or None) per answer")
    failed = as_list("failed", failed, f"one label per answer ({len(results)})")
    if len(failed) != len(results) or any(r is not None and not isinstance(r, MetricResult) for r in results):
        raise InputError("results/failed", "MetricResults (or None) and labels, one of each per answer", len(failed))
    done = [(r, f) for r, f in zip(results, failed, strict=True) if r is not None]
    rows = [row for r, _ in done for row in r.rows]
    if not all(isinstance(row, dict) and {"verified", "quote", "text"} <= set(row) for row in rows):
        raise InputError("results", "the quote pass's results (rows with verified, quote and text)", "other rows")
    return {"answers": len(done), "faithful": sum(not f for _, f in done), "sentences": len(rows),
            "verified": sum(bool(row["verified"]) for row in rows),
            "copied_sentence": sum(bool(words(row["quote"])) and words(row["quote"]) == words(row["text"])
                                   for row in rows),
            "empty": sum(not words(row["quote"]) for row in rows),
            "answers_at_zero": sum(r.score == 0 for r, _ in done),
            "zero_quote_not_found": sum(r.score == 0 and any(not row["verified"] for row in r.rows) for r, _ in done),
            "zero_no_shared_word": sum(r.score == 0 and all(row["verified"] for row in r.rows) for r, _ in done),
            "faithful_at_zero": sum(r.score == 0 and not f for r, f in done)}
