"""Lesson 15's study: every candidate of the written rule (:mod:`.protocol`) on all 50 RAGTruth dev sources.

The recordings are replayed once into a log (``data/alignment_log.json``, rebuilt by :func:`build_log`; a test
checks that the shipped log is what the recordings replay), so the notebook reads figures without replaying
thousands of requests. Every figure here is computed from that log at run time.
"""

from __future__ import annotations

import copy
import json
import math
import statistics
from functools import lru_cache
from typing import Any

from ... import data
from ...agreement import auc_difference, fit_combination, roc_auc, validation_report
from ...agreement.combine import Combination
from ...baselines import SIGNALS, answer_overlap, cheap_signals
from ...errors import InputError
from ...studies.against_people.designs import BASELINE
from ...studies.against_people.readings import stratified_auc
from ...validate import flag
from ..against_people import study as people_study
from ..against_people.items import items
from .calibration import platt_scaled
from .designs import ALIGNMENT_DESIGNS, EXPLORED, replayed_pass
from .protocol import CANDIDATES, HALUEVAL_DEV_PAIRS, LEVEL, RESAMPLES, RULE, SEED
from .stability import flip_rates, rule_flags, stability_items

__all__ = ["LOG_NAME", "build_log", "checked_log", "load_log", "candidate_figures", "candidate_table", "paired", "choose", "cost_comparison", "explored", "layout_benchmark", "takeaway",
           "JUDGE_SIGNALS"]

LOG_NAME = "alignment_log.json"

#: the support design's aggregates the judge combination adds to the cheap signals
JUDGE_SIGNALS = ("support_min", "support_mean")


def _rows(result: Any) -> list[dict[str, Any]]:
    return [] if result is None else [
        {"start": r["start"], "end": r["end"], "p_yes": r["p_yes"], "abstains": r["abstains"]} for r in result.rows]


def _cost(results: list[Any]) -> dict[str, float]:
    done = [r for r in results if r is not None]
    calls = [c for r in done for c in r.calls]
    n = max(len(done), 1)
    return {"calls": len(calls) / n, "seconds": sum(c.latency_s or 0.0 for c in calls) / n,
            "prompt_tokens": sum(c.prompt_tokens or 0 for c in calls) / n}


def _seconds(results: list[Any]) -> list[float]:
    """The recorded seconds of each answer's calls (NaN where not recorded); a call an earlier answer already made
    (G-Eval's evaluation steps, shared by every answer) counts once, with the answer that made it."""
    return _per_answer(results, lambda c: c.latency_s or 0.0)


def _tokens(results: list[Any]) -> list[float]:
    """The prompt and reply tokens each answer's calls sent and got back (NaN where not recorded), a shared call
    counted once as in :func:`_seconds`: a count that does not depend on the machine or its load."""
    return _per_answer(results, lambda c: (c.prompt_tokens or 0) + (c.completion_tokens or 0))


def _per_answer(results: list[Any], measure: Any) -> list[float]:
    seen: set[tuple[str, int]] = set()
    out = []
    for r in results:
        if r is None:
            out.append(math.nan)
            continue
        fresh = [c for c in r.calls if (c.key, c.attempt) not in seen]
        seen.update((c.key, c.attempt) for c in r.calls)
        out.append(float(sum(measure(c) for c in fresh)))
    return out


def _part(dataset: str, split: str, groups: int | None = None) -> dict[str, Any]:
    chosen = items(dataset, split, groups=groups)
    scores: dict[str, list[float]] = {"word_overlap": [answer_overlap(i.answer, list(i.context)) for i in chosen]}
    sentences: dict[str, list[list[dict[str, Any]]]] = {}
    costs: dict[str, dict[str, float]] = {"word_overlap": {"calls": 0.0, "seconds": 0.0, "prompt_tokens": 0.0}}
    seconds: dict[str, list[float]] = {}
    tokens: dict[str, list[float]] = {}
    for pass_name in sorted({str(d.recording) for d in ALIGNMENT_DESIGNS.values()}):
        found = replayed_pass(str(pass_name), chosen, dataset, split)
        if found is None or all(r is None for r in found):
            continue
        sentences[str(pass_name)] = [_rows(r) for r in found]
        costs[str(pass_name)] = _cost(found)
        seconds[str(pass_name)] = _seconds(found)
        tokens[str(pass_name)] = _tokens(found)
        for name, design in ALIGNMENT_DESIGNS.items():
            if design.recording == pass_name:
                scores[name] = [math.nan if r is None else float(design.score(r, i)) for r, i in
                                zip(found, chosen, strict=True)]
    signals = [cheap_signals(i.answer, list(i.context)) for i in chosen]
    return {"items": [{"id": i.id, "group": i.group, "failed": i.hallucinated, "model": i.model,
                       "span_kind": i.span_kind} for i in chosen],
            "scores": scores, "signals": {s: [row[s] for row in signals] for s in SIGNALS},
            "sentences": sentences, "costs": costs, "seconds": seconds, "tokens": tokens}


def _combinations(part: dict[str, Any]) -> dict[str, Combination]:
    """Add the cross-validated combinations' scores (on the answers every signal they use was measured on); return
    each combination as fitted on all those answers (what is applied to another data set)."""
    fitted: dict[str, Combination] = {}
    n = len(part["items"])
    failed = [row["failed"] for row in part["items"]]
    groups = [row["group"] for row in part["items"]]
    for name, extra in (("cheap_combination", ()), ("judge_combination", JUDGE_SIGNALS)):
        if any(s not in part["scores"] for s in extra):
            continue
        keep = [k for k in range(n) if all(not math.isnan(part["scores"][s][k]) for s in extra)]
        features = {s: [part["signals"][s][k] for k in keep] for s in SIGNALS}
        features.update({s: [part["scores"][s][k] for k in keep] for s in extra})
        combo = fit_combination(features, [failed[k] for k in keep], [groups[k] for k in keep])
        values = [math.nan] * n
        for k, v in zip(keep, combo.cross_validated, strict=True):
            values[k] = v
        part["scores"][name] = values
        part.setdefault("combinations", {})[name] = {
            "signals": list(combo.signals), "means": combo.means, "scales": combo.scales, "weights": combo.weights,
            "intercept": combo.intercept, "line": combo.line(), "steps": combo.steps, "answers": len(keep)}
        fitted[name] = combo
    return fitted


def _transferred(fitted: dict[str, Combination], part: dict[str, Any]) -> None:
    """Score ``part`` (HaluEval dev) with the combinations fitted on RAGTruth dev: none of its answers fits them, so
    its figure says whether what was learned on RAGTruth's labels holds on another data set."""
    n = len(part["items"])
    for name, combo in fitted.items():
        extra = [s for s in combo.signals if s not in SIGNALS]
        if any(s not in part["scores"] for s in extra):
            continue
        keep = [k for k in range(n) if all(not math.isnan(part["scores"][s][k]) for s in extra)]
        features = {s: [part["signals"][s][k] for k in keep] for s in SIGNALS if s in combo.signals}
        features.update({s: [part["scores"][s][k] for k in keep] for s in extra})
        values = [math.nan] * n
        for k, v in zip(keep, combo.score(features), strict=True):
            values[k] = v
        part["scores"][name] = values


def build_log() -> dict[str, Any]:
    """Replay every recording of lesson 15's designs on RAGTruth dev (and HaluEval dev) into the log."""
    parts = {"ragtruth-dev": _part("ragtruth", "dev")}
    fitted = _combinations(parts["ragtruth-dev"])
    dev = parts["ragtruth-dev"]   # word overlap alone through the combinations' pipeline: compare within one pipeline
    dev["scores"]["word_overlap_cv"] = list(fit_combination(
        {BASELINE: dev["scores"][BASELINE]}, [r["failed"] for r in dev["items"]],
        [r["group"] for r in dev["items"]]).cross_validated)
    g_eval = replayed_pass("g_eval", items("ragtruth", "dev"), "ragtruth", "dev")
    if g_eval is not None:
        parts["ragtruth-dev"]["seconds"]["g_eval"] = _seconds(g_eval)
        parts["ragtruth-dev"]["tokens"]["g_eval"] = _tokens(g_eval)
    halu = _part("halueval", "dev", HALUEVAL_DEV_PAIRS)
    if len(halu["scores"]) > 1:
        _transferred(fitted, halu)
        parts["halueval-dev"] = halu
    log = {"rule": RULE, "candidates": CANDIDATES, "parts": parts}
    log["figures"] = json.loads(json.dumps(candidate_figures(log, fresh=True)))
    log["calibration"] = platt_scaled(log)
    chosen = stability_items()
    sampled = replayed_pass("stability", chosen, "ragtruth", "dev")
    if sampled is not None:  # the same sentences asked several times, sampled, beside their temperature-0 p(yes)
        zero = replayed_pass("support", chosen, "ragtruth", "dev") or [None] * len(chosen)
        log["stability"] = flip_rates(sampled, zero)
        threshold = (candidate_figures(log).get("support_min") or {}).get("threshold")
        if threshold is not None:   # the design's rule (least supported sentence below its dev threshold), counted
            log["stability_rule"] = rule_flags(sampled, zero, [i.hallucinated for i in chosen], min(1.0, threshold))
        log["stability_by_model"] = {
            model: flip_rates([s for s, i in zip(sampled, chosen, strict=True) if i.model == model],
                              [z for z, i in zip(zero, chosen, strict=True) if i.model == model])
            for model in sorted({i.model for i in chosen})}
    return log


@lru_cache(maxsize=1)
def load_log() -> dict[str, Any]:
    """The shipped log."""
    return json.loads(data.path(LOG_NAME).read_text(encoding="utf-8"))


def checked_log(log: Any) -> dict[str, Any]:
    """``log`` as lesson 15's log (None: the shipped one), or an InputError."""
    if log is None:
        return load_log()
    if not isinstance(log, dict) or not isinstance(log.get("parts"), dict) or "ragtruth-dev" not in log["parts"]:
        raise InputError("log", "lesson 15's log (study.load_log() or study.build_log()), or None", log)
    return log


def _figures(part: dict[str, Any], name: str) -> dict[str, Any] | None:
    """AUC, paired difference from word overlap, stratified AUC and counts, on the answers ``name`` scored."""
    values = part["scores"].get(name)
    if values is None:
        return None
    keep = [k for k, v in enumerate(values) if not math.isnan(v)]
    rows = [part["items"][k] for k in keep]
    failed = [r["failed"] for r in rows]
    groups = [r["group"] for r in rows]
    mine = [values[k] for k in keep]
    overlap = [part["scores"]["word_overlap"][k] for k in keep]
    report = validation_report(failed, mine, groups=groups, level=LEVEL, n_resamples=RESAMPLES, seed=SEED)
    paired = auc_difference(failed, mine, overlap, groups=groups, names=(name, "word_overlap"), level=LEVEL,
                            n_resamples=RESAMPLES, seed=SEED)
    models = [r["model"] for r in rows]
    mixed = any({f for f, m in zip(failed, models, strict=True) if m == model} == {True, False} for model in set(models))
    none = {"score": math.nan, "ci": None}
    # a stratum per answering model; where no model wrote both kinds (HaluEval's pairs) there is no within figure
    within = stratified_auc(failed, mine, models, groups) if mixed else none
    within_paired = stratified_auc(failed, mine, models, groups, other=overlap) if mixed else none
    return {"answers": len(keep), "sources": len(set(groups)), "hallucinated": sum(failed),
            "auc": report.score, "ci": report.ci, "threshold": report.values["threshold"], "f1": report.values["f1"],
            "vs_overlap": paired.score, "vs_overlap_ci": paired.ci,
            "within_model_auc": within["score"], "within_model_ci": within["ci"],
            "within_vs_overlap": within_paired["score"], "within_vs_overlap_ci": within_paired["ci"]}


def paired(first: str, second: str, log: Any = None) -> dict[str, Any]:
    """The paired AUC difference ``first`` minus ``second`` on the RAGTruth dev answers both scored, with its interval
    over sources (None under 10 sources; with 10 to 30 it tends to be too narrow)."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    for field, name in (("first", first), ("second", second)):
        if not isinstance(name, str) or name not in part["scores"]:
            raise InputError(field, "a score the log holds: " + ", ".join(sorted(part["scores"])), name)
    keep = [k for k in range(len(part["items"]))
            if not math.isnan(part["scores"][first][k]) and not math.isnan(part["scores"][second][k])]
    found = _paired_on(part, keep, first, second)
    return {"score": found.score, "ci": found.ci, "answers": len(keep),
            "sources": len({part["items"][k]["group"] for k in keep})}


def _paired_on(part: dict[str, Any], keep: list[int], first: str, second: str) -> Any:
    """The protocol's paired AUC difference ``first`` minus ``second`` on the answers ``keep`` (intervals over sources)."""
    return auc_difference([part["items"][k]["failed"] for k in keep], [part["scores"][first][k] for k in keep],
                          [part["scores"][second][k] for k in keep], groups=[part["items"][k]["group"] for k in keep],
                          names=(first, second), level=LEVEL, n_resamples=RESAMPLES, seed=SEED)


def candidate_figures(log: Any = None, *, fresh: bool = False) -> dict[str, dict[str, Any] | None]:
    """Every candidate's dev figures (None: not measured), and its HaluEval dev difference where recorded.

    The log stores them when it is built (the bootstraps take seconds); ``fresh=True`` computes them again from the
    log's scores (a test checks the two agree)."""
    log = checked_log(log)
    if not flag("fresh", fresh) and isinstance(log.get("figures"), dict):
        return copy.deepcopy(log["figures"])
    rt = log["parts"]["ragtruth-dev"]
    halu = log["parts"].get("halueval-dev")
    out: dict[str, dict[str, Any] | None] = {}
    for name in CANDIDATES:
        fig = _figures(rt, name)
        if fig is not None:
            fig["all_dev"] = fig["sources"] == len({r["group"] for r in rt["items"]}) and fig["answers"] == len(rt["items"])
            hf = _figures(halu, name) if halu is not None else None
            fig["halueval_vs_overlap_ci"] = None if hf is None else hf["vs_overlap_ci"]
            for key in ("answers", "auc", "ci", "vs_overlap"):
                fig[f"halueval_{key}"] = None if hf is None else hf[key]
        out[name] = fig
    return out


def choose(log: Any = None) -> tuple[str, list[str]]:
    """The written rule applied to the dev figures: the chosen default and the reason for each candidate."""
    figures = candidate_figures(log)
    reasons: list[str] = []
    eligible: dict[str, float] = {}
    for name, fig in figures.items():
        if name == BASELINE:
            continue
        if fig is None or not fig["all_dev"]:
            reasons.append(f"{name}: not measured on every dev answer, not a candidate.")
            continue
        judged = name != "cheap_combination"
        halu = fig["halueval_vs_overlap_ci"]
        if judged and halu is None:
            reasons.append(f"{name}: no HaluEval dev figure, reported but not chosen.")
            continue
        if judged and halu is not None and halu[1] < 0:
            reasons.append(f"{name}: significantly below word overlap on HaluEval dev, excluded.")
            continue
        eligible[name] = fig["auc"]
    if not eligible:
        return "word_overlap", reasons + ["No candidate is eligible: counting words stays the default."]
    best = max(eligible, key=lambda n: eligible[n])
    low = (figures[best] or {})["vs_overlap_ci"][0]
    if low > 0:
        return best, reasons + [f"{best} has the best RAGTruth dev AUC and its paired interval against word overlap "
                                "lies wholly above 0: it replaces word overlap."]
    return "word_overlap", reasons + [f"{best} has the best RAGTruth dev AUC, but its paired interval against word "
                                      "overlap includes 0: counting words stays the default."]


def candidate_table(log: Any = None) -> Any:
    """Every candidate's dev figures as a table (pandas), "not measured" rows included."""
    import pandas as pd  # lazy: pandas loads with the first table

    rows = []
    for name, fig in candidate_figures(log).items():
        if fig is None:
            rows.append({"candidate": name, "answers": 0, "sources": 0, "hallucinated": 0, "auc": "not measured"})
            continue

        def ci(pair: Any) -> str:
            return "-" if pair is None else f"[{pair[0]:.3f}, {pair[1]:.3f}]"

        rows.append({"candidate": name, "answers": fig["answers"], "sources": fig["sources"],
                     "hallucinated": fig["hallucinated"], "auc": f"{fig['auc']:.3f} {ci(fig['ci'])}",
                     "vs_overlap": f"{fig['vs_overlap']:+.3f} {ci(fig['vs_overlap_ci'])}",
                     "within_model": f"{fig['within_model_auc']:.3f} {ci(fig['within_model_ci'])}",
                     "within_vs_overlap": f"{fig['within_vs_overlap']:+.3f} {ci(fig['within_vs_overlap_ci'])}"})
    return pd.DataFrame(rows).fillna("-")


#: the prompt-layout benchmark's result (benchmarks/bench_layouts.py against the local judge), when it was run
LAYOUT_BENCHMARK = "layout_benchmark.json"


def layout_benchmark() -> dict[str, Any] | None:
    """What benchmarks/bench_layouts.py measured (seconds per answer, prompt tokens sent and evaluated per layout),
    or None when no result is shipped."""
    try:
        path = data.path(LAYOUT_BENCHMARK)
    except InputError:
        return None
    found = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(found, dict) or not isinstance(found.get("layouts"), dict):
        raise InputError(LAYOUT_BENCHMARK, "the JSON benchmarks/bench_layouts.py writes", found)
    return found


def cost_comparison(log: Any = None) -> dict[str, Any]:
    """Recorded seconds and tokens (prompt and reply) per answer of the support design and of G-Eval on the dev
    answers both were recorded on (G-Eval's one shared call, its evaluation steps, is counted where it was made).
    The tokens compare the designs; the seconds were recorded on different days, under whatever else ran."""
    log = checked_log(log)
    part = log["parts"]["ragtruth-dev"]
    secs, toks = part["seconds"], part.get("tokens", {})
    if "support" not in secs or "g_eval" not in secs or "support" not in toks or "g_eval" not in toks:
        raise InputError("log", "a log holding the support and the G-Eval recordings' seconds and tokens", sorted(secs))
    both = [k for k, (a, b) in enumerate(zip(secs["support"], secs["g_eval"], strict=True))
            if not math.isnan(a) and not math.isnan(b)]
    out: dict[str, Any] = {"answers": len(both), "sources": len({part["items"][k]["group"] for k in both})}
    for name, values in (("support", secs["support"]), ("g_eval", secs["g_eval"])):
        kept = [values[k] for k in both]
        out[f"{name}_seconds"], out[f"{name}_median"] = sum(kept) / max(len(both), 1), _median(kept)
    for name in ("support", "g_eval"):
        kept = [toks[name][k] for k in both]
        out[f"{name}_tokens"], out[f"{name}_tokens_median"] = sum(kept) / max(len(both), 1), _median(kept)
    return out


def explored(log: Any = None) -> dict[str, dict[str, Any]]:
    """Each design explored after the rule was written (:data:`~.designs.EXPLORED`), on the dev answers it was
    recorded on: its seconds, tokens (prompt and reply) and AUC an answer beside the one-request-a-sentence design's, G-Eval's and word
    overlap's on the same answers, and its paired difference from word overlap (no interval under 10 sources).
    Empty when none was recorded."""
    log = checked_log(log)
    part = log["parts"]["ragtruth-dev"]
    secs, scores, toks = part["seconds"], part["scores"], part.get("tokens", {})
    out: dict[str, dict[str, Any]] = {}
    for pass_name, (score_name, what) in EXPLORED.items():
        if any(n not in secs or n not in toks for n in (pass_name, "support", "g_eval")):
            continue
        keep = [k for k in range(len(part["items"])) if not any(math.isnan(secs[n][k]) for n in
                                                                (pass_name, "support", "g_eval"))]
        if not keep:
            continue
        failed = [part["items"][k]["failed"] for k in keep]
        groups = [part["items"][k]["group"] for k in keep]
        row: dict[str, Any] = {"what": what, "answers": len(keep), "sources": len(set(groups)),
                               "hallucinated": sum(failed)}
        for name, seconds, score in ((pass_name, pass_name, score_name), ("support", "support", "support_min"),
                                     ("g_eval", "g_eval", None), ("word_overlap", None, "word_overlap")):
            values = [secs[seconds][k] for k in keep] if seconds else [0.0] * len(keep)
            counted = [toks[seconds][k] for k in keep] if seconds else [0.0] * len(keep)
            row[name] = {"seconds": sum(values) / len(keep), "median_seconds": _median(values),
                         "tokens": sum(counted) / len(keep)}
            if score is not None and len(set(failed)) == 2:
                row[name]["auc"] = roc_auc(failed, [scores[score][k] for k in keep])
        g_eval = _lesson14_scores("g_eval", [part["items"][k]["id"] for k in keep])
        if g_eval is not None and len(set(failed)) == 2:
            row["g_eval"]["auc"] = roc_auc(failed, g_eval)   # G-Eval's scores are lesson 14's, on these same answers
        if len(set(failed)) == 2:
            against = _paired_on(part, keep, score_name, "word_overlap")
            row["vs_overlap"], row["vs_overlap_ci"] = against.score, against.ci
        out[pass_name] = row
    return out


def _lesson14_scores(design: str, ids: list[str]) -> list[float] | None:
    """Lesson 14's recorded scores of ``design`` for these RAGTruth dev answers (None: not all of them scored)."""
    part = people_study.load_log()["parts"]["ragtruth-dev-all"]
    by_id = {row["id"]: v for row, v in zip(part["items"], part["scores"].get(design, []), strict=False)}
    found = [by_id.get(i) for i in ids]
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in found):
        return None
    return [float(v) for v in found if v is not None]


def takeaway(log: Any = None) -> str:
    """The lesson's lead, written from the figures: what the rule chose and how the best candidate compares."""
    log = checked_log(log)
    figures = candidate_figures(log)
    chosen, _ = choose(log)
    complete = {n: f for n, f in figures.items() if f is not None and n != BASELINE and f["all_dev"]}
    partial = [n for n, f in figures.items() if f is not None and n != BASELINE and not f["all_dev"]]
    missing = [n for n, f in figures.items() if f is None]
    overlap = figures[BASELINE] or {}
    lead = f"On all {overlap.get('answers')} RAGTruth dev answers ({overlap.get('sources')} sources), "
    if complete:
        best = max(complete, key=lambda n: complete[n]["auc"])
        fig = complete[best]
        ci = fig["vs_overlap_ci"]
        interval = "no interval" if ci is None else f"95 % interval {ci[0]:+.3f} to {ci[1]:+.3f}"
        lead += (f"the best candidate measured on every answer is {best} (AUC {fig['auc']:.3f}, word overlap "
                 f"{overlap.get('auc', 0):.3f}); its paired difference from word overlap is {fig['vs_overlap']:+.3f} "
                 f"({interval}). ")
    else:
        lead += f"no candidate but word overlap (AUC {overlap.get('auc', 0):.3f}) was measured on every answer. "
    if partial:
        lead += f"Measured on part of dev only, not candidates yet: {', '.join(partial)}. "
    if missing:
        lead += f"Not measured: {', '.join(missing)}. "
    if chosen == BASELINE:
        return lead + "By the written rule, counting words (\"word_overlap\") stays evaluate()'s default faithfulness design."
    return lead + f"By the written rule, {chosen} replaces word overlap as evaluate()'s default faithfulness design."


def _median(values: list[float]) -> float:
    """The median of the values that are not NaN (NaN with none)."""
    kept = [v for v in values if not math.isnan(v)]
    return statistics.median(kept) if kept else math.nan
