"""Lesson 15's comparisons beside the rule's table: each figure set against the one it should be read with.

- :func:`against_old_designs`: the smaller question (support per sentence) paired with lesson 14's big ones on
  lesson 14's own dev sample;
- :func:`by_sources`: an AUC on the first dev sources and on the rest (a sample of sources can be kind to a design);
- :func:`pooled_and_within`: which of the support designs' "significantly worse" verdicts hold within one answering
  model too;
- :func:`halueval_table` and :func:`halueval_sentences`: the HaluEval dev column the rule reads, and why the
  support aggregates coincide there;
- :func:`without_late_figure`: the rule's choice without a figure defined after the dev figures;
- :func:`cv_word_overlap`: word overlap put through the combinations' own cross-validated pipeline.

Each takes lesson 15's log (and lesson 14's, ``log14``, where it pairs with lesson 14's designs), as the course
loads them; every figure uses the protocol's bootstrap (:mod:`.protocol`).
"""

from __future__ import annotations

import copy
import math
from typing import Any

from ...agreement import auc_difference, roc_auc
from ...errors import InputError
from ...validate import as_list, integer
from .choice import candidate_figures, choose
from .log import checked_log
from .protocol import BASELINE, LEVEL, RESAMPLES, SEED

__all__ = ["OLD_JUDGED", "JUDGE_ONLY", "against_old_designs", "by_sources", "pooled_and_within", "halueval_table",
           "halueval_sentences", "without_late_figure", "cv_word_overlap"]

#: lesson 14's judged designs that asked the judge about a whole answer, paired here with support per sentence
OLD_JUDGED = ("g_eval", "critic_p_yes")

#: the judge-only candidates of lesson 15: the four support designs (its three aggregates and its few-shot variant),
#: which rank answers by the judge's p(yes) alone. judge_combination is judged too by the rule (:func:`.choice.choose`)
#: but mixes p(yes) with the cheap signals, so it is not counted here: the notebook reads it separately.
JUDGE_ONLY = ("support_min", "support_mean", "support_min_claims", "support_fewshot_min")


def _paired(failed: list[bool], first: list[float], second: list[float], groups: list[str]) -> dict[str, Any]:
    found = auc_difference(failed, first, second, groups=groups, level=LEVEL, n_resamples=RESAMPLES, seed=SEED)
    return {"score": found.score, "ci": found.ci, "answers": len(failed), "sources": len(set(groups))}


def against_old_designs(design: str, log: Any, log14: Any) -> dict[str, dict[str, Any]]:
    """``design`` minus each of :data:`OLD_JUDGED` (and word overlap), paired on lesson 14's RAGTruth dev sample
    (every answer of its first 20 sources both scored, from lesson 14's log ``log14``), with the interval over
    sources."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    if not isinstance(design, str) or design not in part["scores"]:
        raise InputError("design", "a score lesson 15's log holds: " + ", ".join(part["scores"]), design)
    mine = {row["id"]: v for row, v in zip(part["items"], part["scores"][design], strict=True)}
    old = log14.get("parts", {}).get("ragtruth-dev") if isinstance(log14, dict) else None
    if not isinstance(old, dict):
        raise InputError("log14", "lesson 14's log (course.against_people.study.load_log())", type(log14).__name__)
    out = {}
    for name in (*OLD_JUDGED, BASELINE):
        keep = [k for k, row in enumerate(old["items"]) if not _missing(old["scores"][name][k])
                and not _missing(mine.get(row["id"]))]
        out[name] = _paired([old["items"][k]["failed"] for k in keep], [mine[old["items"][k]["id"]] for k in keep],
                            [old["scores"][name][k] for k in keep], [old["items"][k]["group"] for k in keep])
    return out


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def by_sources(names: tuple[str, ...], first: int, log: Any) -> dict[str, dict[str, float]]:
    """Each design's dev AUC on the first ``first`` dev sources (in the data's order), on the rest, and on all."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    order = list(dict.fromkeys(row["group"] for row in part["items"]))
    first = integer("first", first, low=1, high=len(order) - 1, expected=f"from 1 to {len(order) - 1} sources")
    head = set(order[:first])
    out: dict[str, dict[str, float]] = {}
    for name in as_list("names", names, "a list of score names"):
        if not isinstance(name, str) or name not in part["scores"]:
            raise InputError("names", "scores lesson 15's log holds: " + ", ".join(part["scores"]), name)
        row = {}
        for key, keep in (("first", lambda g: g in head), ("rest", lambda g: g not in head), ("all", lambda g: True)):
            ks = [k for k, r in enumerate(part["items"]) if keep(r["group"]) and not _missing(part["scores"][name][k])]
            row[key] = roc_auc([part["items"][k]["failed"] for k in ks], [part["scores"][name][k] for k in ks])
        out[name] = row
    return out


def pooled_and_within(log: Any) -> dict[str, list[str]]:
    """The judge-only candidates (:data:`JUDGE_ONLY`, the four support designs) whose paired interval against word overlap lies wholly below 0 over all answers
    (pooled), and those of them for which it does within one answering model too."""
    figures = {n: f for n, f in candidate_figures(log).items() if f is not None}
    pooled = [n for n in JUDGE_ONLY if n in figures and figures[n]["vs_overlap_ci"] and figures[n]["vs_overlap_ci"][1] < 0]
    within = [n for n in pooled if figures[n]["within_vs_overlap_ci"] and figures[n]["within_vs_overlap_ci"][1] < 0]
    return {"pooled": pooled, "within": within}


def halueval_table(log: Any) -> Any:
    """Every candidate's HaluEval dev figures (the rule reads the paired interval), as a table (pandas)."""
    import pandas as pd  # lazy: pandas loads with the first table

    def ci(pair: Any) -> str:
        return "-" if pair is None else f"[{pair[0]:.3f}, {pair[1]:.3f}]"

    rows = []
    for name, fig in candidate_figures(log).items():
        if fig is None or fig.get("halueval_auc") is None:
            rows.append({"candidate": name, "answers": 0, "auc": "no HaluEval dev figure", "vs_overlap": "-"})
            continue
        rows.append({"candidate": name, "answers": fig["halueval_answers"],
                     "auc": f"{fig['halueval_auc']:.3f} {ci(fig['halueval_ci'])}",
                     "vs_overlap": f"{fig['halueval_vs_overlap']:+.3f} {ci(fig['halueval_vs_overlap_ci'])}"})
    return pd.DataFrame(rows)


def halueval_sentences(log: Any) -> dict[str, int]:
    """HaluEval dev's answers by sentence count, as the support design split them, and on how many of them the
    three aggregates (min, mean, min_claims) give the same score."""
    part = checked_log(log)["parts"].get("halueval-dev")
    if part is None or "support" not in part["sentences"]:
        raise InputError("log", "a log holding the support pass on HaluEval dev", None)
    counts = [len(rows) for rows in part["sentences"]["support"]]
    aggregates = [part["scores"][n] for n in ("support_min", "support_mean", "support_min_claims")]
    same = sum(1 for values in zip(*aggregates, strict=True)
               if not any(_missing(v) for v in values) and max(values) - min(values) < 1e-12)
    return {"answers": len(counts), "one_sentence": sum(c == 1 for c in counts),
            "more_sentences": sum(c > 1 for c in counts), "aggregates_equal": same}


def without_late_figure(name: str, log: Any) -> tuple[str, list[str]]:
    """The rule's choice with ``name``'s HaluEval dev figure taken away (a figure defined after the dev figures:
    its choice should not depend on it)."""
    log = copy.deepcopy(checked_log(log))
    figures = log.get("figures", {})
    if not isinstance(name, str) or not figures.get(name):
        raise InputError("name", "a candidate with stored figures: " + ", ".join(n for n in figures if figures[n]), name)
    figures[name]["halueval_vs_overlap_ci"] = None
    return choose(log)


def cv_word_overlap(log: Any) -> dict[str, Any]:
    """Word overlap alone put through the combinations' pipeline (standardised, a logistic regression, each
    source scored by the model fitted on the others; the log stores these scores): its
    dev AUC, and the cheap combination minus it, paired."""
    part = checked_log(log)["parts"]["ragtruth-dev"]
    failed = [row["failed"] for row in part["items"]]
    groups = [row["group"] for row in part["items"]]
    if "word_overlap_cv" not in part["scores"]:
        raise InputError("log", "a log holding word overlap's cross-validated scores (log.add_baseline_cv)", None)
    cv = part["scores"]["word_overlap_cv"]
    combo = part["scores"]["cheap_combination"]
    return {"auc": roc_auc(failed, cv), "raw_auc": roc_auc(failed, part["scores"][BASELINE]),
            "combination_auc": roc_auc(failed, combo), "combination_minus_cv": _paired(failed, combo, cv, groups)}
