"""The report of ``validate-judge --labels FILE``: a judge against your own labelled answers, by the dev protocol.

Everything chosen is chosen on dev (the threshold: the failing class's F1-best, for the judge and for word overlap
alike); every figure is on test, scored once:

- class counts per split, and the groups;
- ROC AUC with a cluster-bootstrap interval over groups (none under 10 groups of each class; with 10 to 30 groups
  a percentile cluster interval is too narrow, so prefer 30 or more for a decision), word overlap's AUC beside it
  and the paired difference (the same resamples for both);
- precision, recall and F1 of the failing class at the dev threshold, word overlap's at its own dev threshold, and
  the F1 of flagging every answer (recall 1, precision the share failing: any judge must beat it);
- the pass rate three ways (:func:`~ragmetrics_edu.agreement.estimate_pass_rate`): people's share of the test
  labels alone; prediction-powered, from the judge's verdicts (passes when its score is at or above the dev
  threshold) on every answer it scored (dev, test and unlabelled); Rogan–Gladen with the error rates measured on
  the test labels, and the labels each needs for ± a target half-width;
- the per-answer scores, written as CSV when asked.
"""

from __future__ import annotations

import csv
import math
import textwrap
from pathlib import Path
from typing import Any

from ...agreement import auc_difference, best_threshold, estimate_pass_rate, validation_report
from ...baselines import answer_overlap
from ...errors import InputError
from ...metrics.correctness import f1_from
from ...results import MetricResult, fmt
from ...validate import as_list, instance, number
from ..against_people.designs import Item
from .designs import JUDGED

__all__ = ["labels_report", "reading_of"]


def reading_of(result: Any) -> str:
    """How a result read its judge: "token probabilities", "the written digit" (G-Eval), "sampled votes" or ""."""
    if result is None:
        return ""
    result = instance("result", result, MetricResult, "a design's MetricResult, or None (unscored)")
    source = result.values.get("weights_from")
    if source is not None:
        return ("token probabilities" if source == "probabilities" else "the written digit"
                if source == "the reply's own score" else str(source))
    rows = result.rows or []
    if rows and isinstance(rows[0], dict) and "from" in rows[0]:
        return "token probabilities" if rows[0]["from"] == "logprobs" else "sampled votes"
    return ""


def _f1_line(name: str, c: dict[str, Any], threshold: float) -> str:
    return (f"{name} at its dev threshold {fmt(threshold, 3)}: precision {fmt(c['precision'], 3)}, recall "
            f"{fmt(c['recall'], 3)}, F1 {fmt(c['f1'], 3)}")


def labels_report(design: str, chosen: list[Item], results: list[Any], say: Any = print, *,
                  half_width: float = 0.05) -> dict[str, Any]:
    """The report (see the module) of ``design``'s ``results`` (None: unscored) on ``chosen``, said line by line."""
    if not isinstance(design, str) or design not in JUDGED:
        raise InputError("design", "one of " + ", ".join(sorted(JUDGED)), design)
    chosen = as_list("chosen", chosen, "a list of Items")
    if not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a list of Items (labelled.read_labelled)", chosen)
    if not callable(say):
        raise InputError("say", "a function that prints a line", say)
    half_width = number("half_width", half_width, "a half-width above 0 and below 1", low=0.0, high=1.0,
                        low_open=True, high_open=True)
    expected = f"a list of one result (or None) per answer ({len(chosen)})"
    if not isinstance(results, list) or len(as_list("results", results, expected)) != len(chosen):
        raise InputError("results", expected, results)
    scores = [math.nan if r is None else float(JUDGED[design].score(r, i)) for r, i in zip(results, chosen, strict=True)]
    overlap = [answer_overlap(i.answer, list(i.context)) for i in chosen]
    part = {s: [k for k, i in enumerate(chosen) if i.split == s and not math.isnan(scores[k])] for s in ("dev", "test")}
    unlabelled = sum(i.split == "" for i in chosen)
    unscored = sum(math.isnan(s) for s in scores)
    for s in ("dev", "test"):
        ks = part[s]
        fail = sum(chosen[k].hallucinated for k in ks)
        say(f"{s}: {len(ks)} labelled answers in {len({chosen[k].group for k in ks})} groups: {len(ks) - fail} "
            f"faithful, {fail} hallucinated.")
    say(f"Unlabelled answers (scored, used only for the pass rate): {unlabelled}; unscored (no usable reply): {unscored}.")
    found: dict[str, Any] = {"scores": scores, "overlap": overlap, "answers": len(chosen) - unscored,
                             "unscored": unscored, "dev": len(part["dev"]), "test": len(part["test"])}
    dev, test = part["dev"], part["test"]
    dev_failed = [chosen[k].hallucinated for k in dev]
    if not dev or len(set(dev_failed)) < 2 or not test:
        say("Dev needs both faithful and hallucinated answers to choose a threshold, and test needs answers: "
            "no further figure.")
        found["threshold"] = math.nan
        return found
    threshold = best_threshold(dev_failed, [scores[k] for k in dev])
    overlap_threshold = best_threshold(dev_failed, [overlap[k] for k in dev])
    failed = [chosen[k].hallucinated for k in test]
    groups = [chosen[k].group for k in test]
    judged, counted = [scores[k] for k in test], [overlap[k] for k in test]
    report = validation_report(failed, judged, threshold=threshold, groups=groups)
    words = validation_report(failed, counted, threshold=overlap_threshold, groups=groups)
    paired = auc_difference(failed, judged, counted, groups=groups, names=(design, "word overlap"))
    say(f"Test ROC AUC of {design}: {fmt(report.score, 3)}" + (f" [{fmt(report.ci[0], 3)}, {fmt(report.ci[1], 3)}] "
        f"(95 % cluster bootstrap over {len(set(groups))} groups)" if report.ci else
        f" (no interval: {len(set(groups))} test groups, an interval needs 10 of each class)")
        + f"; word overlap {fmt(words.score, 3)}; difference {fmt(paired.score, 3)}"
        + (f" [{fmt(paired.ci[0], 3)}, {fmt(paired.ci[1], 3)}]." if paired.ci else " (no interval)."))
    base = sum(failed) / len(failed)
    flag_all = f1_from(base, 1.0)   # flag every answer: recall 1, precision the share failing
    say(_f1_line(design, report.values, threshold) + "; " + _f1_line("word overlap", words.values, overlap_threshold)
        + f"; flagging every answer: precision {fmt(base, 3)}, recall 1, F1 {fmt(flag_all, 3)}.")
    passes = {k: not (scores[k] < threshold) for k in range(len(chosen)) if not math.isnan(scores[k])}
    people = [not f for f in failed]
    on_labelled = [passes[k] for k in test]
    on_all = list(passes.values())
    rates = {m: estimate_pass_rate(people, on_labelled, on_all, method=m) for m in ("labels", "ppi", "rogan_gladen")}
    say(textwrap.fill(f"Pass rate ({len(test)} test labels; the judge's verdicts at the dev threshold on all "
                      f"{len(on_all)} scored answers): " + "; ".join(_estimate(m, r) for m, r in rates.items())
                      + ". Rogan-Gladen assumes the judge's error rates on these labels hold for every answer.", 100))
    needed = {m: r.labels_needed(half_width) for m, r in rates.items()}
    say(f"Labels for ±{fmt(half_width)}: " + "; ".join(
        f"{m} {fmt(n) if math.isfinite(n) else 'no number suffices'}" for m, n in needed.items())
        + " (planned from these estimates).")
    found.update({"threshold": threshold, "overlap_threshold": overlap_threshold, "report": report,
                  "overlap_report": words, "paired": paired, "flag_everything_f1": flag_all,
                  "pass_rates": rates, "labels_needed": needed, "passes": passes})
    return found


def write_scores(path: Path, chosen: list[Item], results: list[Any], scores: list[float], overlap: list[float],
                 threshold: float | None) -> None:
    """One CSV row per answer: id, group, split, label, the design's score, word overlap, the verdict, the reading."""
    if not isinstance(path, Path):
        raise InputError("path", "a Path for the CSV", path)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "group", "split", "label", "score", "word_overlap", "judge_passes", "reading"])
        for item, result, score, words in zip(chosen, results, scores, overlap, strict=True):
            label = "" if item.split == "" and item.dataset != "ragtruth" else (
                "hallucinated" if item.hallucinated else "faithful")
            verdict = "" if threshold is None or math.isnan(score) or math.isnan(threshold) else score >= threshold
            writer.writerow([item.id, item.group, item.split, label, "" if math.isnan(score) else score, words,
                             verdict, reading_of(result)])


def _estimate(method: str, result: Any) -> str:
    """One estimate as the report prints it: the value and interval, a clipped one with its raw value, and
    Rogan-Gladen's J when the judge is no better than chance on these labels."""
    if math.isnan(result.score):
        j = result.values.get("j")
        return f"{method} undefined" + (f" (J = TPR + TNR - 1 = {fmt(j, 3)}: the judge is no better than chance here)"
                                        if j is not None and not math.isnan(j) else "")
    text = f"{method} {fmt(result.score, 3)}" + (f" [{fmt(result.ci[0], 3)}, {fmt(result.ci[1], 3)}]" if result.ci else "")
    raw = result.values.get("estimate_unclipped")
    if raw is not None and not math.isnan(raw) and raw != result.score:
        text += f" (clipped to [0, 1]; raw {fmt(raw, 3)}, J = {fmt(result.values['j'], 3)})"
    return text
