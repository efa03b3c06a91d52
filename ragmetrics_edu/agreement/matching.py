"""Align a judge's extracted items to the reference's by what they say, never by position or count.

A judge that extracts three statements from a reference that has three is not thereby right:
it may have merged two and invented one. So each item is reduced to its content words
(lower-cased, stop words dropped, plurals lightly stemmed: :func:`ragmetrics_edu.text.tokenize`)
and every reference item is compared with every judged item:

* ``similarity="jaccard"``: |A ∩ B| / |A ∪ B| (shared words over all words);
* ``similarity="overlap"``: |A ∩ B| / min(|A|, |B|) (forgiving when one item is a short form of the other).

Pairs are then chosen greedily, one to one: the most similar remaining pair first (ties: the
earlier reference item, then the earlier judged item), as long as its similarity reaches
``threshold``. What is left unmatched on either side is reported. Extraction quality is then
precision = matched judged / judged, recall = matched reference / reference and their F1,
measured apart from whether the judge's verdicts on those items are right.
"""

from __future__ import annotations

from typing import Any

from ..metrics.correctness import f1_from
from ..results import fmt
from ..text import tokenize
from . import inputs
from .result import AgreementResult

NAN = float("nan")


def word_set(text: str) -> frozenset[str]:
    """The content words of ``text``: lower-cased, stop words dropped, plurals stemmed."""
    return frozenset(tokenize(text))


def similarity_of(x: frozenset[str], y: frozenset[str], kind: str) -> float:
    """Jaccard or overlap coefficient of two word sets; 0 when either set is empty."""
    if not x or not y:
        return 0.0
    shared = len(x & y)
    return shared / len(x | y) if kind == "jaccard" else shared / min(len(x), len(y))


def match_items(reference_texts: Any, judged_texts: Any, threshold: float = 0.5,
                similarity: str = "jaccard") -> AgreementResult:
    """Match judged items to reference items one to one by content; report precision, recall and F1.

        pairs: one to one, most similar first;  precision = matched / judged,  recall = matched / reference
        F1 = 2PR / (P + R)

    ``value`` is the F1 of the extraction. Tables: ``similarity matrix`` (reference rows,
    judged columns; ``steps``), ``pairs`` (matched pairs with their similarity), ``unmatched``.
    Edge cases: an empty judged list gives precision NaN (nothing to check) and recall 0; an
    empty reference list gives recall NaN and precision 0; both empty give NaN throughout, with a
    note. F1 is NaN when precision or recall is, 0 when both are 0. An item with no content words
    (empty, or only stop words) matches nothing.
    """
    ref = inputs.texts("reference_texts", reference_texts)
    judged = inputs.texts("judged_texts", judged_texts)
    cut = inputs.fraction("threshold", threshold, low_open=True)
    kind = inputs.choice("similarity", similarity, ("jaccard", "overlap"))
    ref_words, judged_words = [word_set(t) for t in ref], [word_set(t) for t in judged]
    matrix = [[similarity_of(r, j, kind) for j in judged_words] for r in ref_words]
    candidates = sorted(((matrix[i][j], i, j) for i in range(len(ref)) for j in range(len(judged))
                         if matrix[i][j] >= cut), key=lambda t: (-t[0], t[1], t[2]))
    used_ref: set[int] = set()
    used_judged: set[int] = set()
    pairs = []
    for score, i, j in candidates:
        if i not in used_ref and j not in used_judged:
            used_ref.add(i)
            used_judged.add(j)
            pairs.append((i, j, score))
    pairs.sort()
    matched = len(pairs)
    precision = matched / len(judged) if judged else NAN
    recall = matched / len(ref) if ref else NAN
    f1 = f1_from(precision, recall)
    notes = _notes(ref, judged, ref_words, judged_words)
    heads = [f"j{j + 1}" for j in range(len(judged))]
    sim_rows = [{"": f"r{i + 1}", **{h: matrix[i][j] for j, h in enumerate(heads)}} for i in range(len(ref))]
    pair_rows = [{"reference": f"r{i + 1}", "judged": f"j{j + 1}", "similarity": s,
                  "shared_words": " ".join(sorted(ref_words[i] & judged_words[j])),
                  "reference_text": ref[i], "judged_text": judged[j]} for i, j, s in pairs]
    best = {i: max(row) if row else 0.0 for i, row in enumerate(matrix)}
    unmatched = [{"side": "reference", "item": f"r{i + 1}", "best_similarity": best[i], "text": ref[i]}
                 for i in range(len(ref)) if i not in used_ref]
    unmatched += [{"side": "judged", "item": f"j{j + 1}",
                   "best_similarity": max((matrix[i][j] for i in range(len(ref))), default=0.0), "text": judged[j]}
                  for j in range(len(judged)) if j not in used_judged]
    formula_name = r"\frac{|A\cap B|}{|A\cup B|}" if kind == "jaccard" else r"\frac{|A\cap B|}{\min(|A|,|B|)}"
    return AgreementResult(
        metric=f"extraction F1 (match_items, {kind} ≥ {fmt(cut)})", score=f1,
        tables={"similarity matrix": (("", *heads), sim_rows),
                "pairs": (("reference", "judged", "similarity", "shared_words", "reference_text", "judged_text"),
                          pair_rows),
                "unmatched": (("side", "item", "best_similarity", "text"), unmatched)},
        values={"reference_items": len(ref), "judged_items": len(judged), "matched": matched,
                "unmatched_reference": len(ref) - matched, "unmatched_judged": len(judged) - matched,
                "precision": precision, "recall": recall, "f1": f1, "threshold": cut, "similarity": kind,
                "pairs": [(i, j, s) for i, j, s in pairs]},
        formula=(rf"P = \frac{{{matched}}}{{{len(judged)}}} = {fmt(precision)},\ "
                 rf"R = \frac{{{matched}}}{{{len(ref)}}} = {fmt(recall)},\ F_1 = \frac{{2PR}}{{P+R}} = {fmt(f1)}"),
        narrative=[
            f"Reduce each of the {len(ref)} reference and {len(judged)} judged items to its content words.",
            f"Compare every pair with the {kind} similarity {formula_name} (the similarity matrix).",
            f"Match greedily, most similar pair first, one to one, keeping pairs with similarity ≥ {fmt(cut)}: "
            f"{matched} pairs.",
            f"Unmatched: {len(ref) - matched} reference item(s) the judge missed, {len(judged) - matched} judged "
            "item(s) with no counterpart in the reference.",
            f"Precision {matched}/{len(judged)} = {fmt(precision)}, recall {matched}/{len(ref)} = {fmt(recall)}, "
            f"F1 = {fmt(f1)}."],
        notes=notes, figure_kind="similarity")


def _notes(ref: list[str], judged: list[str], ref_words: list[frozenset[str]],
           judged_words: list[frozenset[str]]) -> list[str]:
    notes = []
    if not ref and not judged:
        notes.append("Both lists are empty: there is nothing to extract and nothing was extracted, so precision, "
                     "recall and F1 are undefined (NaN).")
    elif not judged:
        notes.append("The judge extracted nothing: precision is undefined (NaN), recall is 0.")
    elif not ref:
        notes.append("The reference has no items: recall is undefined (NaN); every judged item is unmatched.")
    empty = [f"r{i + 1}" for i, w in enumerate(ref_words) if not w] + [
        f"j{j + 1}" for j, w in enumerate(judged_words) if not w]
    if empty:
        notes.append(f"{', '.join(empty)} ha{'s' if len(empty) == 1 else 've'} no content words (empty or only "
                     "stop words) and can match nothing.")
    if ref and judged and len(ref) == len(judged):
        notes.append("The two lists have the same length; that alone says nothing about whether they hold the "
                     "same items, which is why items are matched by content.")
    return notes
