"""Choosing on HaluEval's dev part by a written rule, then scoring the choice once on test.

The measure is **pairwise accuracy**: the share of pairs whose right answer scores above the hallucinated one
(a tie counts half; 0.5 is chance). Every interval resamples pairs, and every "A beats B" is a paired difference
on the same pairs with its interval and a sign test. The rows each function takes are scored pairs, one per pair:
``{"pair", "right", "hallucinated", "outcome"}`` (:func:`outcome`), a NaN score where the judge gave none.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ... import stats
from ...errors import InputError
from ...metrics.correctness import f1_from
from ...validate import number, plain, records, text, text_list

__all__ = ["recorded_cost", "RULE", "outcome", "pairwise", "compare", "choose", "checked_threshold", "scored", "best_threshold",
           "detection"]

#: how the choice is made, written into the choice log before the test part is scored
RULE = ("Highest pairwise accuracy on the whole dev part (160 pairs); a tie goes to fewer calls per answer, "
        "then to the design listed first. Designs tried on a dev sample only (the claim pipelines, 2-3 calls "
        "an answer) are eligible only if they beat word overlap on that sample's same pairs.")


def outcome(right: float, wrong: float) -> float:
    """1 when the right answer scores higher, 0 when lower, 0.5 for a tie (or a NaN on either side)."""
    for field, value in (("right", right), ("wrong", wrong)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(field, "a score (a number, or NaN for none)", value)
    if math.isnan(right) or math.isnan(wrong) or right == wrong:
        return 0.5
    return 1.0 if right > wrong else 0.0


def _pairs(field: str, rows: Any, keys: tuple[str, ...] = ("pair", "outcome")) -> list[dict[str, Any]]:
    found = records(field, rows, "scored pairs (one dict per pair)", keys=keys)
    for i, row in enumerate(found):
        number(f"{field}[{i}].outcome", row["outcome"], "an outcome: 0, 0.5 or 1", low=0.0, high=1.0)
    if not found:
        raise InputError(field, "at least one scored pair", found)
    return found


def pairwise(rows: Sequence[dict[str, Any]]) -> float:
    """Pairwise accuracy: the mean outcome over pairs (0.5 is chance)."""
    found = _pairs("rows", rows, ("outcome",))
    return sum(r["outcome"] for r in found) / len(found)


def compare(rows: Sequence[dict[str, Any]], baseline_rows: Sequence[dict[str, Any]], design: str,
            baseline: str = "word_overlap", split: str = "", *, seed: int = 0) -> dict[str, Any]:
    """``design``'s rows against ``baseline``'s on the same pairs (the first ``len(rows)`` of them): the paired
    difference of outcomes with its interval, and a sign test on the pairs where they differ (the pair is the unit)."""
    design, baseline, split = text("design", design), text("baseline", baseline), text("split", split)
    rows, base = _pairs("rows", rows), _pairs("baseline_rows", baseline_rows)[:len(rows)]
    if [r["pair"] for r in base] != [r["pair"] for r in rows]:
        raise InputError("baseline_rows", f"the same pairs as {design}'s, in the same order", baseline)
    a, b, ids, limit = [r["outcome"] for r in rows], [r["outcome"] for r in base], [r["pair"] for r in rows], len(rows)
    out = {"design": design, "baseline": baseline, "split": split, "pairs": limit, "pairwise": pairwise(rows),
           "pairwise_ci": stats.bootstrap_ci(a, seed=seed, ids=ids).ci, "baseline_pairwise": pairwise(base)}
    if design == baseline:
        return {**out, "difference": 0.0, "difference_ci": (0.0, 0.0), "better": 0, "worse": 0, "same": limit,
                "sign_p": 1.0, "tells_apart": False}
    diff = stats.paired_bootstrap(a, b, labels=(design, baseline), ids=ids, seed=seed)
    sign = stats.sign_test(a, b, labels=(design, baseline), ids=ids)
    low, high = diff.ci if diff.ci is not None else (math.nan, math.nan)
    return {**out, "difference": diff.score, "difference_ci": diff.ci, "better": sign.values["wins"],
            "worse": sign.values["losses"], "same": limit - sign.values["wins"] - sign.values["losses"],
            "sign_p": sign.p_value, "tells_apart": not (low <= 0 <= high)}


def choose(table: Sequence[dict[str, Any]], order: Sequence[str]) -> str:
    """Apply :data:`RULE` to the dev table (one row per design: ``design``, ``pairs``, ``difference``, ``pairwise``,
    ``calls_per_answer``); ``order`` lists the designs in the order they were tried. Returns the chosen design."""
    table = records("table", table, "the dev table (one row per design)",
                    keys=("design", "pairs", "difference", "pairwise", "calls_per_answer"))
    if not table:
        raise InputError("table", "the dev table, at least one row", table)
    position = {name: i for i, name in enumerate(text_list("order", order))}
    for i, row in enumerate(table):
        if row["design"] not in position:
            raise InputError(f"table[{i}].design", "a design named in order", row["design"])
        for key in ("pairs", "difference", "pairwise", "calls_per_answer"):
            number(f"table[{i}].{key}", row[key], "a number")
    full = max(r["pairs"] for r in table)
    eligible = [r for r in table if r["pairs"] == full or r["difference"] > 0]
    best = max(eligible, key=lambda r: (r["pairwise"], -r["calls_per_answer"], -position[r["design"]]))
    return str(best["design"])


def checked_threshold(value: Any) -> float:
    """A finite threshold, or NaN for "none" (``None`` or a NaN), else an InputError naming ``threshold``."""
    value = plain(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return math.nan
    return number("threshold", value, "a score threshold: a finite number, or None/NaN for none")


def scored(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows where both answers have a score (a NaN on either side is left out)."""
    found = records("rows", rows, "scored pairs (one dict per pair)", keys=("right", "hallucinated"))
    return [r for r in found if not (math.isnan(r["right"]) or math.isnan(r["hallucinated"]))]


def _flags(rows: list[dict[str, Any]], threshold: float) -> tuple[int, int, int, int]:
    """(tp, fp, fn, tn) for "unfaithful" = score below threshold; hallucinated answers are the positives."""
    tp = sum(1 for r in rows if r["hallucinated"] < threshold)
    fp = sum(1 for r in rows if r["right"] < threshold)
    return tp, fp, len(rows) - tp, len(rows) - fp


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, f1_from(precision, recall)


def best_threshold(dev_rows: Sequence[dict[str, Any]]) -> float:
    """The threshold chosen on dev: the one (among midpoints of the dev scores) with the best F1 for the
    unfaithful class, an answer being flagged when its score is below it; ties go to the lower threshold.
    NaN when no dev pair has both answers scored: there is nothing to choose from."""
    rows = scored(dev_rows)
    if not rows:
        return math.nan
    scores = sorted({r["right"] for r in rows} | {r["hallucinated"] for r in rows})
    candidates = [(x + y) / 2 for x, y in zip(scores, scores[1:], strict=False)] or scores
    return max(candidates, key=lambda t: (_prf(*_flags(rows, t)[:3])[2], -t))


def detection(rows: Sequence[dict[str, Any]], threshold: float | None) -> dict[str, Any]:
    """Precision, recall and F1 of flagging hallucinated answers (score below ``threshold``) on the scored rows.

    A NaN threshold (``None`` counts as NaN: how the choice log writes one) flags nothing: tp = fp = 0, every
    hallucinated answer is a miss and precision, recall and F1 are 0."""
    threshold = checked_threshold(threshold)
    tp, fp, fn, tn = _flags(scored(rows), threshold)
    precision, recall, f1 = _prf(tp, fp, fn)
    return {"threshold": threshold, "tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": precision,
            "recall": recall, "f1": f1}


def recorded_cost(replies: Sequence[dict[str, Any]], answers: int) -> dict[str, float]:
    """Calls, tokens and seconds per answer scored, from a recording's ``replies`` (each with ``prompt_tokens``,
    ``completion_tokens`` and ``latency_s``, where recorded) over the ``answers`` it scored."""
    rows = records("replies", replies)
    answers = int(number("answers", answers, "how many answers the recording scored (at least 1)", low=1))
    tokens = sum((r.get("prompt_tokens") or 0) + (r.get("completion_tokens") or 0) for r in rows)
    seconds = sum(r.get("latency_s") or 0.0 for r in rows)
    return {"calls_per_answer": len(rows) / answers, "tokens_per_answer": tokens / answers,
            "seconds_per_answer": seconds / answers}
