"""Spans against people's spans: character-level precision, recall and F1 over many answers.

A span detector (a judge's unsupported sentences, LettuceDetect's token spans) marks stretches of each answer;
people marked their own. Both are sets of characters: a character is a true positive when both marked it.
Summed over the answers (micro-averaged, as LettuceDetect reports its span F1):

- precision = characters both marked / characters the detector marked;
- recall = characters both marked / characters people marked;
- F1 = 2 · precision · recall / (precision + recall).

Edge cases: with no character marked by the detector, precision is NaN (nothing to be right about); with none
marked by people, recall is NaN; F1 is NaN when either is NaN or both are 0 (noted in the result).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..errors import InputError
from ..metrics.correctness import f1_from
from ..validate import as_list
from .result import AgreementResult

__all__ = ["span_agreement", "marked_characters"]


def marked_characters(spans: Any, field: str = "spans") -> set[int]:
    """The character positions a list of spans covers: ``(start, end)`` pairs or dicts with start and end."""
    out: set[int] = set()
    for i, span in enumerate(as_list(field, spans, "a list of (start, end) pairs or {start, end} dicts")):
        pair = (span.get("start"), span.get("end")) if isinstance(span, dict) else span
        if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair) or not 0 <= pair[0] <= pair[1]):
            raise InputError(f"{field}[{i}]", "(start, end) whole numbers with 0 <= start <= end", span)
        out.update(range(pair[0], pair[1]))
    return out


def span_agreement(predicted: Sequence[Any], people: Sequence[Any], *, ids: Sequence[str] | None = None
                   ) -> AgreementResult:
    """Character-level P/R/F1 of ``predicted`` spans against ``people``'s, one list of spans per answer.

        P = |predicted ∩ people| / |predicted|,  R = |predicted ∩ people| / |people|   (in characters)
        F1 = 2PR / (P + R)
    """
    pred = as_list("predicted", predicted, "one list of spans per answer")
    gold = as_list("people", people, "one list of spans per answer")
    if len(pred) != len(gold):
        raise InputError("people", f"one list of spans per answer ({len(pred)}, as predicted)", f"{len(gold)} lists")
    names = [str(i) for i in range(1, len(pred) + 1)] if ids is None else [str(x) for x in as_list("ids", ids, "a list")]
    if len(names) != len(pred):
        raise InputError("ids", f"one id per answer ({len(pred)})", f"{len(names)} ids")
    rows: list[dict[str, Any]] = []
    both = marked = labelled = 0
    for i, (p, g, name) in enumerate(zip(pred, gold, names, strict=True)):
        pc, gc = marked_characters(p, f"predicted[{i}]"), marked_characters(g, f"people[{i}]")
        rows.append({"answer": name, "marked": len(pc), "people": len(gc), "both": len(pc & gc)})
        both, marked, labelled = both + len(pc & gc), marked + len(pc), labelled + len(gc)
    precision = both / marked if marked else math.nan
    recall = both / labelled if labelled else math.nan
    notes = []
    if not marked:
        notes.append("The detector marked no character: precision is NaN.")
    if not labelled:
        notes.append("People marked no character: recall is NaN.")
    f1 = math.nan if math.isnan(precision) or math.isnan(recall) or precision + recall == 0 else f1_from(precision, recall)
    return AgreementResult(
        metric="span F1 (characters)", score=f1,
        tables={"answers": (("answer", "marked", "people", "both"), rows)},
        values={"precision": precision, "recall": recall, "f1": f1, "characters_both": both,
                "characters_marked": marked, "characters_people": labelled, "answers": len(rows)},
        narrative=[f"Characters marked by both: {both}; by the detector: {marked}; by people: {labelled}.",
                   f"Precision = {both}/{marked}, recall = {both}/{labelled}, F1 from the two."],
        notes=notes)
