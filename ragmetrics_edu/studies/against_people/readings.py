"""What lesson 14's figures show, computed from the choice log (:mod:`.choice`): the within-model (stratified) AUC
of each design, why the recorded judge fails, which claims about the designs the data can support, and the dev
protocol run on a learner's own judge."""

from __future__ import annotations

import math
import statistics
from typing import Any, Mapping, Sequence

from ...agreement import roc_auc
from ...agreement.validation import stratified_auc_of, validation_report
from ...errors import InputError
from ...judges.base import Judge
from ...metrics import f1_from
from ...plots import new_figure
from ...validate import as_list, mapping, number
from .choice import MIN_SOURCES, checked_log, complete
from .designs import BASELINE, DESIGNS, Item, ask_pass

__all__ = ["stratified_auc", "stratified_table", "judge_failures",
           "plot_judge_failures", "flag_all_f1", "untested_designs", "design_claim", "measure_judge", "pooled_and_within",
           "same_ranking"]


def same_ranking(a: list[float], b: list[float]) -> bool:
    """True when two readings order the same answers identically (ties included, NaN where the other is NaN):
    then any rank measure, AUC included, is equal on both by construction, and comparing them says nothing."""
    def scores(field: str, values: Any) -> list[float]:
        out = []
        for i, v in enumerate(as_list(field, values, "a list of scores")):
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise InputError(f"{field}[{i}]", "a score or NaN", v)
            out.append(float(v))
        return out

    xs, ys = scores("a", a), scores("b", b)
    if len(xs) != len(ys):
        raise InputError("b", f"one score per answer ({len(xs)})", len(ys))
    if any(math.isnan(x) != math.isnan(y) for x, y in zip(xs, ys, strict=True)):
        return False
    pairs = sorted((x, y) for x, y in zip(xs, ys, strict=True) if not math.isnan(x))
    # sorted by a: b must rise when a rises and stay put when a does
    return all((y1 < y2) if x1 < x2 else (y1 == y2) for (x1, y1), (x2, y2) in zip(pairs, pairs[1:], strict=False))


def flag_all_f1(base_rate: float) -> float:
    """F1 of the hallucinated class for a judge that flags every answer: precision = base rate, recall = 1."""
    share = number("base_rate", base_rate, "a share between 0 and 1", low=0.0, high=1.0)
    return f1_from(share, 1.0)


def stratified_auc(failed: list[bool], scores: list[float], strata: list[str], groups: list[str], *,
                   other: list[float] | None = None, n_resamples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """AUC over the (faithful, hallucinated) pairs of one stratum only (a stratified AUC), with a cluster-bootstrap
    interval over ``groups`` (no interval under 10 sources); with ``other``, the paired difference
    AUC(scores) - AUC(other) on the same pairs (:func:`ragmetrics_edu.agreement.validation.stratified_auc_of`)."""
    if groups is None:
        raise InputError("groups", "one source per answer", groups)
    return stratified_auc_of(failed, scores, strata, groups=groups, other=other, n_resamples=n_resamples, seed=seed)


#: the columns of :func:`stratified_table`, one row per design
STRATIFIED_COLUMNS = ("design", "answers", "sources", "hallucinated", "pooled_auc", "within_model_auc", "within_low",
                      "within_high", "within_vs_overlap", "vs_low", "vs_high")


def stratified_table(log: dict[str, Any] | None = None, part: str = "ragtruth-dev",
                     designs: list[str] | None = None) -> Any:
    """Each design's pooled AUC beside its within-model AUC (pairs of one generating model only), both with their
    intervals, and the within-model paired difference with word overlap on the same answers (every design of the
    part, or only ``designs``); a table with these columns and no row when no design has enough sources."""
    import pandas as pd  # lazy

    log = checked_log(log)
    if not isinstance(part, str) or part not in log["parts"]:
        raise InputError("part", "one of " + ", ".join(log["parts"]), part)
    p = log["parts"][part]
    if designs is not None:
        designs = as_list("designs", designs, "a list of design names, or None for every design")
        for i, name in enumerate(designs):
            if not isinstance(name, str) or name not in p["scores"]:
                raise InputError(f"designs[{i}]", "a design scored on this part: " + ", ".join(p["scores"]), name)
    rows = []
    for name in p["scores"]:
        if designs is not None and name not in designs:
            continue
        idx = complete(p, [name, "word_overlap"])
        failed = [p["items"][i]["failed"] for i in idx]
        groups = [p["items"][i]["group"] for i in idx]
        if len(set(groups)) < MIN_SOURCES:
            continue
        values = [p["scores"][name][i] for i in idx]
        models = [p["items"][i]["model"] for i in idx]
        pooled = validation_report(failed, values, groups=groups, threshold=0.5)
        within = stratified_auc(failed, values, models, groups)
        versus = stratified_auc(failed, values, models, groups,
                                other=[p["scores"]["word_overlap"][i] for i in idx])
        rows.append({"design": name, "answers": len(idx), "sources": len(set(groups)),
                     "hallucinated": sum(failed), "pooled_auc": pooled.score, "within_model_auc": within["score"],
                     "within_low": within["ci"][0], "within_high": within["ci"][1],
                     "within_vs_overlap": versus["score"], "vs_low": versus["ci"][0], "vs_high": versus["ci"][1]})
    return pd.DataFrame(rows, columns=list(STRATIFIED_COLUMNS))  # the columns even when no design has a row


def judge_failures(log: dict[str, Any] | None, answered: Mapping[str, bool]) -> dict[str, Any]:
    """Why the recorded judge fails, on the RAGTruth dev sample: the G-Eval replies to hallucinated answers and, as
    their baseline, to faithful ones; the aspect critic's p(yes), also split by people's label; and the questions
    the re-answer judge said the passages do not answer (``answered``: per source, whether it found the question
    answered by the passages; the course replays it: ``course.against_people.study.answered``)."""
    log = checked_log(log)
    answered = mapping("answered", answered, "a dict source -> whether the re-answer judge found it answered")
    p = log["parts"]["ragtruth-dev"]

    def replies(failed: bool) -> list[int]:   # back to the digit the judge wrote: score (reply - 1) / 4
        return [round(1 + 4 * v) for x, v in zip(p["items"], p["scores"]["g_eval_reply"], strict=True)
                if x["failed"] == failed and not math.isnan(v)]

    def p_yes(failed: bool | None) -> list[float]:
        return [v for x, v in zip(p["items"], p["scores"]["critic_p_yes"], strict=True)
                if (failed is None or x["failed"] == failed) and not math.isnan(v)]

    bad, good = replies(True), replies(False)
    return {"g_eval_replies_hallucinated": bad, "g_eval_4_or_5": sum(r >= 4 for r in bad), "hallucinated": len(bad),
            "g_eval_replies_faithful": good, "g_eval_4_or_5_faithful": sum(r >= 4 for r in good),
            "faithful": len(good), "critic_p_yes": p_yes(None), "critic_p_yes_median": statistics.median(p_yes(None)),
            "critic_p_yes_hallucinated": p_yes(True), "critic_p_yes_faithful": p_yes(False),
            "questions": len(answered), "not_in_context": sum(not a for a in answered.values())}


def plot_judge_failures(found: dict[str, Any]):
    """Left: the share of hallucinated and of faithful answers given each G-Eval reply; right: the aspect critic's
    p(yes), one histogram per label: where the two classes overlap, the judge cannot tell them apart."""
    if not isinstance(found, dict) or "g_eval_replies_faithful" not in found:
        raise InputError("found", "the dict judge_failures() returns", found)
    fig = new_figure(figsize=(8.0, 3.0))
    left, right = fig.subplots(1, 2)
    for offset, key, colour, name in ((-0.2, "hallucinated", "#c0392b", "hallucinated"),
                                      (0.2, "faithful", "#2b6f9e", "faithful")):
        replies = found[f"g_eval_replies_{key}"]
        left.bar([s + offset for s in range(1, 6)], [replies.count(s) / len(replies) for s in range(1, 6)],
                 width=0.4, color=colour, label=f"{name} ({len(replies)})")
        right.hist(found[f"critic_p_yes_{key}"], bins=20, range=(0, 1), histtype="step", linewidth=1.8,
                   color=colour, label=f"{name} ({len(found[f'critic_p_yes_{key}'])})")
    left.set_xlabel("G-Eval's reply (1-5)", fontsize=9)
    left.set_ylabel("share of the answers", fontsize=9)
    right.set_xlabel("aspect critic: p(yes)", fontsize=9)
    right.set_ylabel("answers", fontsize=9)
    for ax in (left, right):
        ax.tick_params(labelsize=9)
        ax.legend(fontsize=9, loc="upper left", frameon=False)
    fig.tight_layout()
    return fig


def untested_designs(log: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The designs scored on too few dev sources for an interval: answers, sources and their dev AUC."""
    log = checked_log(log)
    out = {}
    for name, row in log["dev"]["designs"].items():
        rt = row.get("ragtruth")
        if rt and rt["groups"] < MIN_SOURCES:
            out[name] = {"answers": rt["answers"], "sources": rt["groups"], "auc": rt["auc"],
                         "overlap_auc": _overlap_on(log, name)}
    return out


def _overlap_on(log: dict[str, Any], name: str) -> float:
    p = log["parts"]["ragtruth-dev"]
    idx = complete(p, [name, "word_overlap"])
    return roc_auc([p["items"][i]["failed"] for i in idx], [p["scores"]["word_overlap"][i] for i in idx])


def design_claim(log: dict[str, Any] | None = None) -> str:
    """The claim the dev figures support about the designs, restricted to those measured with an interval."""
    log = checked_log(log)
    designs = log["dev"]["designs"]
    measured = {n: r for n, r in designs.items() if n != BASELINE and r.get("ragtruth")
                and r["ragtruth"]["groups"] >= MIN_SOURCES}
    worse = [n for n, r in measured.items() if r["ragtruth_vs_overlap"]["ci"][1] < 0]
    level = [n for n, r in measured.items() if r["ragtruth_vs_overlap"]["ci"][0] <= 0 <= r["ragtruth_vs_overlap"]["ci"][1]]
    better = [n for n, r in measured.items() if r["ragtruth_vs_overlap"]["ci"][0] > 0]
    within = stratified_table(log, "ragtruth-dev").set_index("design").drop(index="word_overlap")
    within_worse = [n for n in within.index if within.loc[n, "vs_high"] < 0]
    untested = untested_designs(log)
    parts = "; ".join(f"{n} on {u['answers']} answers from {u['sources']} sources (AUC {u['auc']:.3f}, word "
                      f"overlap {u['overlap_auc']:.3f} on the same answers)" for n, u in untested.items())
    return (f"Of the {len(measured)} judged designs measured with an interval on RAGTruth dev, {len(worse)} rank "
            f"significantly worse than word overlap over all answers, {len(level)} cannot be told from it "
            f"({', '.join(level) or 'none'}) and {len(better)} beat it. Within one generating model's answers (the "
            f"stratified AUC, which removes the model confound) only {len(within_worse)} of the {len(within)} stay "
            f"significantly worse ({', '.join(within_worse)}); the others cannot be told from word overlap there. "
            f"The claims and checked pipelines (what DeepEval and Ragas ship) are untested here: {parts}; too few "
            f"sources for an interval, so their point estimates, whichever way they lean, say nothing yet.")


def measure_judge(judge: Any, pass_name: str, chosen: Sequence[Item]) -> dict[str, Any]:
    """The dev protocol on your own judge: ask ``pass_name`` on the ``chosen`` answers (e.g. the first 3 RAGTruth
    dev sources), score every design that reads that pass, and set each beside word overlap on the same answers
    (AUC, answers, sources; no interval under 10 sources). Calls ``judge`` (an
    :class:`~ragmetrics_edu.judges.OpenAIJudge`)."""
    if not isinstance(judge, Judge):
        raise InputError("judge", "a judge (judges.OpenAIJudge(...))", judge)
    names = [d for d in DESIGNS.values() if isinstance(pass_name, str) and d.recording == pass_name]
    if not names:
        raise InputError("pass_name", "a pass: " + ", ".join(sorted({d.recording for d in DESIGNS.values()
                                                                       if d.recording})), pass_name)
    chosen = as_list("chosen", chosen, "a list of Items (course.against_people.items.items())")
    if not chosen or not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a non-empty list of Items (course.against_people.items.items())", chosen)
    results = [ask_pass(pass_name, judge, item) for item in chosen]
    failed = [i.hallucinated for i in chosen]
    groups = [i.group for i in chosen]
    figures: dict[str, dict[str, Any]] = {}
    for design in [DESIGNS["word_overlap"], *names]:
        values = [float(design.score(r, i)) for r, i in zip(results, chosen, strict=True)]
        both = 0 < sum(failed) < len(failed)
        report = validation_report(failed, values, groups=groups, threshold=0.5) if both else None
        figures[design.name] = {"auc": report.score if report else math.nan, "ci": report.ci if report else None}
    return {"answers": len(chosen), "sources": len(set(groups)), "hallucinated": sum(failed), "designs": figures}


def pooled_and_within(designs: list[str], log: dict[str, Any] | None = None) -> str:
    """How many of ``designs`` rank RAGTruth dev answers significantly worse than word overlap pooled over every
    generating model, and how many within one model's answers (the stratified AUC), named, as one sentence (no
    designs: "0 of 0 (none)")."""
    log = checked_log(log)
    known = log["dev"]["designs"]
    names = as_list("designs", designs, "a list of design names")
    for i, name in enumerate(names):
        if not isinstance(name, str) or name not in known or name == BASELINE:
            raise InputError(f"designs[{i}]", "a judged design of the log: " + ", ".join(n for n in known if n != BASELINE),
                             name)
    pooled = [n for n in names if (known[n].get("ragtruth_vs_overlap") or {}).get("ci") is not None
              and known[n]["ragtruth_vs_overlap"]["ci"][1] < 0]
    within = stratified_table(log, "ragtruth-dev", designs=names).set_index("design")
    inside = [n for n in names if n in within.index and within.loc[n, "vs_high"] < 0]
    return (f"Significantly worse than word overlap (paired 95 % interval wholly below 0), pooled over every "
            f"generating model: {len(pooled)} of {len(names)} ({', '.join(pooled) or 'none'}); within one model's "
            f"answers (stratified): {len(inside)} of {len(names)} ({', '.join(inside) or 'none'}).")
