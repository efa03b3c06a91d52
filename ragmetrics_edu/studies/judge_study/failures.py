"""What went wrong in a judge's result: each failure named, counted and located, against a reference.

A judge's result on one case is a list of items it extracted (statements, claims, entities or
the given nodes) with a verdict on each, or an error. Compared with a reference (a deck's or a
person's items and verdicts), every difference falls in one of six categories:

==================  ===========================================================================
category            how it is found
==================  ===========================================================================
malformed output    the judge raised a ``JudgeError`` (no usable reply, even after a repair
                    request), or needed a repair request before its reply validated
merged              one judged item covers two or more reference items (overlap coefficient
                    |A ∩ B| / min(|A|, |B|) ≥ 0.75 with each): two claims judged as one
split               two or more judged items each covered by the same reference item
wrong text          a judged item whose words come from the context more than from the text it
                    should have been taken from (the answer, the reference)
extraction error    a judged item with no counterpart in the reference (invented), or a
                    reference item the judge never extracted (missed), not explained above
wrong verdict       a judged item matched to a reference item by content
                    (:func:`ragmetrics_edu.agreement.match_items`) with a different verdict
==================  ===========================================================================

Items are compared by their content words (:func:`ragmetrics_edu.agreement.matching.word_set`),
never by position or count. :func:`classify` returns the failures of one case;
:func:`count` tallies them by category over many cases.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ...agreement import match_items
from ...agreement.matching import similarity_of, word_set
from ...baselines import coverage
from ...errors import InputError
from ...validate import as_list, instance, number, text, text_list

__all__ = ["CATEGORIES", "Failure", "classify", "count", "coverage_of", "from_wrong_text"]

#: the categories, in the order a reader meets them (form first, then items, then verdicts)
CATEGORIES: tuple[str, ...] = ("malformed output", "merged", "split", "wrong text", "extraction error",
                               "wrong verdict")

#: the overlap coefficient at which one item is taken to hold another (merged, split)
COVER = 0.75


@dataclass(frozen=True)
class Failure:
    """One failure: its category, the judged and reference items involved (1-based) and what happened."""

    category: str
    judged: tuple[int, ...] = ()
    reference: tuple[int, ...] = ()
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category, "judged": ", ".join(f"j{j}" for j in self.judged),
                "reference": ", ".join(f"r{i}" for i in self.reference), "detail": self.detail}


def coverage_of(item: str, text: str) -> float:
    """The share of ``item``'s content words found in ``text`` (0.0 for an item with none):
    :func:`ragmetrics_edu.baselines.coverage`, the word-overlap baseline's own measure."""
    return coverage(item, text)


def from_wrong_text(items: Sequence[str], source: str, context: Iterable[str],
                    threshold: float = 0.5) -> list[tuple[int, float, float]]:
    """The items taken from the context rather than from ``source``: (0-based position, share of its words
    in the closest context text, share in ``source``) for each item whose words are in a context text at
    least ``threshold`` and more than in ``source``."""
    items, source, texts = text_list("items", items), text("source", source), text_list("context", context, iterators=True)
    threshold = number("threshold", threshold, "a number above 0 and at most 1", low=0.0, high=1.0, low_open=True)
    out = []
    for j, item in enumerate(items):
        from_source = coverage_of(item, source)
        from_context = max((coverage_of(item, c) for c in texts), default=0.0)
        if from_context >= threshold and from_context > from_source:
            out.append((j, from_context, from_source))
    return out


def _verdicts(field: str, value: Any, items: list[str], items_field: str) -> list[Any] | None:
    if value is None:
        return None
    value = as_list(field, value, "a list with one verdict per item, or None")
    if len(value) != len(items):
        raise InputError(field, f"one verdict per item of {items_field} ({len(items)})", len(value))
    return list(value)


def classify(reference_items: Sequence[str], judged_items: Sequence[str], *,
             reference_verdicts: Sequence[Any] | None = None, judged_verdicts: Sequence[Any] | None = None,
             source: str = "", context: Iterable[str] = (), error: str | None = None, repairs: int = 0,
             threshold: float = 0.5, cover: float = COVER, given: bool = False) -> list[Failure]:
    """The failures of one judged case against its reference, in the order of :data:`CATEGORIES`.

    ``source`` is the text the judged items should come from (the answer for claims, the
    reference for its statements or entities); ``context`` the texts they should not be copied
    from (the retrieved nodes). Without ``source`` no item is called "wrong text"; without both
    verdict lists no verdict is compared. An ``error`` (the judge gave no usable reply) is the
    only failure reported: with no items there is nothing else to classify. ``repairs`` counts
    repair requests a reply needed before it validated (reported as malformed output, recovered).
    ``threshold`` is match_items' Jaccard cut for "the same item" and the share of words that
    makes an item "from the context"; ``cover`` the overlap coefficient at which one item holds
    another (merged, split): stricter, so "Mumtaz Mahal" does not hold "Taj Mahal" (overlap 0.5).
    ``given=True`` says the judge was handed the items (the nodes of context precision, or the
    reference's own items): nothing was extracted, so items pair by position and only malformed
    output and wrong verdicts can occur (two nodes that share words are not a merge).
    """
    ref = text_list("reference_items", reference_items)
    judged = text_list("judged_items", judged_items)
    ref_v = _verdicts("reference_verdicts", reference_verdicts, ref, "reference_items")
    judged_v = _verdicts("judged_verdicts", judged_verdicts, judged, "judged_items")
    threshold = number("threshold", threshold, "a number above 0 and at most 1", low=0.0, high=1.0, low_open=True)
    cover = number("cover", cover, "a number above 0 and at most 1", low=0.0, high=1.0, low_open=True)
    if not isinstance(given, bool):
        raise InputError("given", "True or False", given)
    if given and len(ref) != len(judged):
        raise InputError("judged_items", f"the {len(ref)} given items, one verdict each", len(judged))
    if isinstance(repairs, bool) or not isinstance(repairs, int) or repairs < 0:
        raise InputError("repairs", "a whole number >= 0", repairs)
    if not isinstance(source, str):
        raise InputError("source", "a string", source)
    contexts = text_list("context", context, iterators=True)
    if error is not None:
        return [Failure("malformed output", detail=f"no usable reply: {error}")]
    failures: list[Failure] = []
    if repairs:
        failures.append(Failure("malformed output", detail=f"needed {repairs} repair request(s) before the reply "
                                "validated; recovered, at the cost of another call"))
    if given:
        if ref_v is not None and judged_v is not None:
            failures += [Failure("wrong verdict", (k + 1,), (k + 1,), f"reference {a}, judge {b}: {ref[k][:80]!r}")
                         for k, (a, b) in enumerate(zip(ref_v, judged_v, strict=True)) if a != b]
        return failures
    ref_words, judged_words = [word_set(t) for t in ref], [word_set(t) for t in judged]
    covers = [[similarity_of(r, j, "overlap") >= cover for j in judged_words] for r in ref_words]
    explained_ref: set[int] = set()
    explained_judged: set[int] = set()
    for j in range(len(judged)):
        hits = [i for i in range(len(ref)) if covers[i][j]]
        if len(hits) >= 2:
            failures.append(Failure("merged", (j + 1,), tuple(i + 1 for i in hits),
                                    f"one judged item holds {len(hits)} reference items: {judged[j][:80]!r}"))
            explained_ref.update(hits)
            explained_judged.add(j)
    for i in range(len(ref)):
        hits = [j for j in range(len(judged)) if covers[i][j] and j not in explained_judged]
        if len(hits) >= 2:
            failures.append(Failure("split", tuple(j + 1 for j in hits), (i + 1,),
                                    f"one reference item judged as {len(hits)} items: {ref[i][:80]!r}"))
            explained_ref.add(i)
            explained_judged.update(hits)
    if source:
        for j, from_context, from_source in from_wrong_text(judged, source, contexts, threshold):
            failures.append(Failure("wrong text", (j + 1,), (), f"{from_context:.0%} of its words are in the "
                                    f"context, {from_source:.0%} in the text it should come from: {judged[j][:80]!r}"))
            explained_judged.add(j)
    match = match_items(ref, judged, threshold=threshold) if ref and judged else None
    pairs = [(i, j) for i, j, _ in match.values["pairs"]] if match is not None else []
    matched_ref, matched_judged = {i for i, _ in pairs}, {j for _, j in pairs}
    for j in range(len(judged)):
        if j not in matched_judged and j not in explained_judged:
            failures.append(Failure("extraction error", (j + 1,), (), f"invented: no reference item says "
                                    f"{judged[j][:80]!r}"))
    for i in range(len(ref)):
        if i not in matched_ref and i not in explained_ref:
            failures.append(Failure("extraction error", (), (i + 1,), f"missed: {ref[i][:80]!r}"))
    if ref_v is not None and judged_v is not None:
        for i, j in pairs:
            if ref_v[i] != judged_v[j]:
                failures.append(Failure("wrong verdict", (j + 1,), (i + 1,),
                                        f"reference {ref_v[i]}, judge {judged_v[j]}: {judged[j][:80]!r}"))
    order = {c: k for k, c in enumerate(CATEGORIES)}
    return sorted(failures, key=lambda f: order[f.category])


def count(failures: Iterable[Failure]) -> dict[str, int]:
    """How many failures of each category (every category listed, zeros included)."""
    found = [instance(f"failures[{i}]", f, Failure, "a Failure (from classify())")
             for i, f in enumerate(as_list("failures", failures, "a list of failures (from classify())", iterators=True))]
    tally = Counter(f.category for f in found)
    return {c: tally.get(c, 0) for c in CATEGORIES}
