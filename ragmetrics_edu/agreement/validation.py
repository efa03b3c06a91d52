"""Validating a judge against people's labels: what a user needs before trusting its scores.

* :func:`validation_report` – one call: ROC AUC with a cluster-bootstrap interval, the confusion matrix
  and precision / recall / F1 of the failing class at a threshold (with the base rate beside them), a
  calibration table, the worst misses with their texts, and a breakdown by any group column;
* :func:`auc_difference` – "judge A beats judge B": the paired AUC difference on the same answers, with
  an interval from the same resamples of both;
* :func:`stratified_auc_of` – the AUC over the (passing, failing) pairs of one stratum only (e.g. the
  answers of one generating model), with a cluster-bootstrap interval; with ``other``, the paired
  difference from another judge's scores on the same pairs;
* :func:`best_threshold` – the threshold that maximises the failing class's F1 (choose it on dev);
* :func:`corrected_pass_rate` – the share of a system's answers that really pass, given the judge's
  measured true and false positive rates: θ = (p_obs + TNR − 1) / (TPR + TNR − 1) (Rogan and Gladen,
  1978), with a bootstrap interval that carries the labelled set's uncertainty as well as the system's.

Conventions: ``failed`` is True for an answer people labelled as failing (hallucinated); ``scores`` are
the judge's, higher meaning "passes" (more faithful). AUC is the probability that a passing answer
scores above a failing one (ties count half). ``groups`` names each answer's independent unit (the
source whose passages several answers share): intervals resample groups, never answers. Under 10
groups no interval is given.
"""

from __future__ import annotations

import math
from typing import Any, Hashable, Sequence

from ..errors import InputError
from ..metrics.correctness import f_beta
from ..results import fmt
from ..stats.inputs import group_labels
from ..stats.resample import draw_batches
from ..validate import as_list, integer, number, optional_integer
from .result import AgreementResult
from .roc import labels_of, roc_auc, scores_of

__all__ = ["validation_report", "auc_difference", "stratified_auc_of", "best_threshold", "corrected_pass_rate", "roc_auc", "MIN_GROUPS"]

#: fewer independent units than this and no interval is given
MIN_GROUPS = 10


def _group_list(field: str, value: Any, n: int) -> list[Hashable]:
    """The groups, or each answer its own group when none are given."""
    return list(range(n)) if value is None else group_labels(field, value, n)


def _level(value: Any) -> float:
    return number("level", value, "a confidence level between 0 and 1, e.g. 0.95", low=0.0, high=1.0, low_open=True,
                  high_open=True)


def _resamples(value: Any) -> int:
    return integer("n_resamples", value, low=100, high=100_000, expected="an integer from 100 to 100000")


def _pair_matrix(failed: list[bool], scores: list[float]) -> tuple[Any, list[int], list[int]]:
    """M[p, f] = 1 when passing answer p scores above failing answer f, 0.5 on a tie, 0 below: the AUC is M's
    mean; also the indices of the passing and the failing answers (M's rows and columns)."""
    import numpy as np  # lazy

    pos = [i for i, f in enumerate(failed) if not f]
    neg = [i for i, f in enumerate(failed) if f]
    p = np.array([scores[i] for i in pos])[:, None]
    q = np.array([scores[i] for i in neg])[None, :]
    return (p > q) + 0.5 * (p == q), pos, neg


def _draw_weights(groups: list[Hashable], n_resamples: int, seed: int | None) -> Any:
    """A cluster bootstrap's draws, as weights: row r says how many times each answer is in resample r, which is
    how many times its group (source) was drawn when the groups are drawn with replacement. Resamples x answers."""
    import numpy as np  # lazy

    order = list(dict.fromkeys(groups))
    index = {g: k for k, g in enumerate(order)}
    member = np.array([index[g] for g in groups])
    counts = np.zeros((n_resamples, len(order)))
    for start, stop, drawn in draw_batches(len(order), n_resamples, seed):
        for row, sources in enumerate(drawn, start=start):
            counts[row] = np.bincount(np.asarray(sources, dtype=np.intp), minlength=len(order))  # times each group was drawn
    return counts[:, member]


def weighted_pair_sum(wp: Any, matrix: Any, wn: Any) -> Any:
    """Per resample r: Σ_p Σ_n wp[r, p] · matrix[p, n] · wn[r, n], each (passing p, failing n) pair's entry
    counted as often as its two answers were drawn (``wp``, ``wn``: resamples x passing / failing answers)."""
    per_failing = wp @ matrix  # resamples x failing answers: Σ_p wp[r, p] · matrix[p, n]
    return (per_failing * wn).sum(axis=1)  # then Σ_n of that times wn[r, n]


def _resampled_auc(matrix: Any, pos: list[int], neg: list[int], weights: Any, pairs: Any = None) -> Any:
    """The AUC in each resample: pair (p, f) counts w_p · w_f times, w being each answer's weight in that resample
    (:func:`_draw_weights`). ``pairs`` (0/1, like ``matrix``) keeps only some pairs (e.g. those of one stratum).

        AUC_r = Σ_p Σ_f w_p · M[p, f] · w_f / Σ_p Σ_f w_p · pairs[p, f] · w_f
    """
    import numpy as np  # lazy

    pairs = np.ones_like(matrix) if pairs is None else pairs
    wp, wn = weights[:, pos], weights[:, neg]            # resamples x passing, resamples x failing
    ranked_right = weighted_pair_sum(wp, matrix * pairs, wn)
    counted = weighted_pair_sum(wp, pairs, wn)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counted > 0, ranked_right / np.where(counted > 0, counted, 1), np.nan)


def _interval(dist: Any, level: float) -> tuple[float, float]:
    import numpy as np  # lazy

    finite = dist[np.isfinite(dist)]
    a = (1 - level) / 2
    return float(np.quantile(finite, a)), float(np.quantile(finite, 1 - a))


def _confusion(failed: list[bool], scores: list[float], threshold: float) -> dict[str, Any]:
    flagged = [s < threshold for s in scores]
    tp = sum(f and g for f, g in zip(failed, flagged, strict=True))   # failing, flagged
    fn = sum(f and not g for f, g in zip(failed, flagged, strict=True))
    fp = sum(g and not f for f, g in zip(failed, flagged, strict=True))
    tn = sum(not f and not g for f, g in zip(failed, flagged, strict=True))
    precision = tp / (tp + fp) if tp + fp else math.nan
    recall = tp / (tp + fn) if tp + fn else math.nan
    f1 = f_beta(tp, fp, fn) if tp + fp + fn else math.nan
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": precision, "recall": recall, "f1": f1,
            "tpr_pass": tn / (tn + fp) if tn + fp else math.nan,      # passing answers the judge passes
            "tnr_fail": tp / (tp + fn) if tp + fn else math.nan}      # failing answers the judge flags


def best_threshold(failed: Sequence[bool], scores: Sequence[float]) -> float:
    """The threshold (flag when score < threshold) that maximises the failing class's F1; ties: the lowest.

        threshold* = argmax_t F1(failing class, flagged when score < t),  t = each score seen + 1e-12
    """
    labels = labels_of(failed)
    values = scores_of("scores", scores, len(labels))
    candidates = sorted(set(values))
    cuts = [c + 1e-12 for c in candidates]  # flag everything at or below each observed score
    best, best_f1 = cuts[0] if cuts else 0.5, -1.0
    for cut in cuts:
        f1 = _confusion(labels, values, cut)["f1"]
        if not math.isnan(f1) and f1 > best_f1 + 1e-12:
            best, best_f1 = cut, f1
    return best


def validation_report(failed: Sequence[bool], scores: Sequence[float], *, threshold: float | None = None,
                      groups: Sequence[Hashable] | None = None, by: Sequence[Any] | None = None,
                      texts: Sequence[str] | None = None, bins: int = 5, worst: int = 5, level: float = 0.95,
                      n_resamples: int = 2000, seed: int | None = 0) -> AgreementResult:
    """A judge's scores against people's labels, in one call (see the module for the conventions).

        AUC = share of (passing, failing) pairs the scores order right, ties ½   (roc_auc)
        flagged = score < threshold;  precision = TP/(TP + FP), recall = TP/(TP + FN) of the failing class
        interval: the AUC on resamples of the groups (a cluster bootstrap), each pair weighted by its answers' draws

    ``threshold``: flag an answer as failing when its score is below it (None: the F1-best threshold on
    these very labels, which flatters the judge: choose it on dev and pass it here for test). ``by``: a
    group column (e.g. the model that wrote each answer) for the breakdown. ``texts``: the answers, shown
    with the worst misses. The result's ``value`` is the AUC; ``tables`` hold the rest.
    """
    labels = labels_of(failed)
    n = len(labels)
    values = scores_of("scores", scores, n)
    groups_ = _group_list("groups", groups, n)
    level = _level(level)
    n_resamples = _resamples(n_resamples)
    bins = integer("bins", bins, low=1, high=50, expected="an integer from 1 to 50")
    worst = integer("worst", worst, low=0, high=10_000, expected="an integer from 0 to 10000 (misses shown)")
    seed = optional_integer("seed", seed, low=0, expected="a whole number, 0 or more, or None")
    if by is not None:
        by = as_list("by", by, "one group value per answer")
        if len(by) != n:
            raise InputError("by", f"one value per answer ({n})", f"{len(by)} values")
    if texts is not None:
        texts = as_list("texts", texts, "one text per answer")
        if len(texts) != n:
            raise InputError("texts", f"one text per answer ({n})", f"{len(texts)} texts")
    notes: list[str] = []
    chosen_here = threshold is None
    if threshold is None:
        threshold = best_threshold(labels, values)
        notes.append("The threshold was chosen on these same labels (the F1-best): its precision and recall flatter "
                     "the judge. Choose it on a dev part and pass it for test.")
    else:
        threshold = number("threshold", threshold, "a finite number (flag when score < threshold) or None")
    auc = roc_auc(labels, values)
    n_groups = len(set(groups_))
    ci = None
    dist = None
    fail_groups = len({g for g, f in zip(groups_, labels, strict=True) if f})
    pass_groups = len({g for g, f in zip(groups_, labels, strict=True) if not f})
    if min(fail_groups, pass_groups) >= MIN_GROUPS and not math.isnan(auc):
        matrix, pos, neg = _pair_matrix(labels, values)
        dist = _resampled_auc(matrix, pos, neg, _draw_weights(groups_, n_resamples, seed))
        ci = _interval(dist, level)
    else:
        notes.append(f"Failing answers in {fail_groups} groups, passing in {pass_groups}: too few for an interval "
                     f"(at least {MIN_GROUPS} of each).")
    c = _confusion(labels, values, float(threshold))
    base_rate = sum(labels) / n if n else math.nan
    confusion_rows = [
        {"": "people: failing", "judge flags": c["tp"], "judge passes": c["fn"]},
        {"": "people: passing", "judge flags": c["fp"], "judge passes": c["tn"]},
    ]
    calibration = _calibration(labels, values, bins)
    misses = _misses(labels, values, texts, groups_, worst)
    tables: dict[str, tuple[tuple[str, ...], list[dict[str, Any]]]] = {
        "confusion matrix": (("", "judge flags", "judge passes"), confusion_rows),
        "calibration": (("bin", "scores", "answers", "failing", "share failing"), calibration),
        "worst misses": (("kind", "score", "group", "text"), misses),
    }
    if by is not None:
        tables["breakdown"] = (("group", "answers", "failing", "auc", "auc_low", "auc_high"),
                               _breakdown(labels, values, groups_, list(by), level, n_resamples, seed))
    narrative = [
        f"{n} answers in {n_groups} groups; people labelled {sum(labels)} as failing (base rate {fmt(base_rate)}).",
        f"ROC AUC: a passing answer scores above a failing one with probability {fmt(auc)}"
        + (f" ({fmt(100 * level)}% cluster-bootstrap interval {fmt(ci[0])} to {fmt(ci[1])})." if ci else "."),
        f"At threshold {fmt(threshold)} (flag below it): precision {fmt(c['precision'])}, recall {fmt(c['recall'])}, "
        f"F1 {fmt(c['f1'])} for the failing class. Precision depends on the base rate: with rarer failures it falls.",
    ]
    return AgreementResult(
        metric="ROC AUC", score=auc, tables=tables, ci=ci, level=level,
        method=f"cluster bootstrap over {n_groups} groups, {n_resamples} resamples" if ci else "",
        distribution=dist, figure_kind="roc",
        values={"threshold": float(threshold), "threshold_chosen_here": chosen_here, "base_rate": base_rate,
                "answers": n, "groups": n_groups, **c, "failed": labels, "scores": values},
        narrative=narrative, notes=notes,
        formula=r"\mathrm{AUC} = P(s_{\text{pass}} > s_{\text{fail}}) + \tfrac12 P(s_{\text{pass}} = s_{\text{fail}})")


def _calibration(labels: list[bool], values: list[float], bins: int) -> list[dict[str, Any]]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    rows = []
    for b in range(bins):
        part = order[b * len(order) // bins:(b + 1) * len(order) // bins]
        if not part:
            continue
        failing = sum(labels[i] for i in part)
        rows.append({"bin": b + 1, "scores": f"{fmt(values[part[0]], 3)} to {fmt(values[part[-1]], 3)}",
                     "answers": len(part), "failing": failing, "share failing": failing / len(part)})
    return rows


def _misses(labels: list[bool], values: list[float], texts: Sequence[str] | None, groups: list[Hashable],
            worst: int) -> list[dict[str, Any]]:
    failing = sorted((i for i in range(len(values)) if labels[i]), key=lambda i: -values[i])[:worst]
    passing = sorted((i for i in range(len(values)) if not labels[i]), key=lambda i: values[i])[:worst]
    rows = []
    for kind, chosen in (("failing, scored high", failing), ("passing, scored low", passing)):
        for i in chosen:
            rows.append({"kind": kind, "score": values[i], "group": groups[i],
                         "text": "" if texts is None else str(texts[i])})
    return rows


def _breakdown(labels: list[bool], values: list[float], groups: list[Hashable], by: list[Any], level: float,
               n_resamples: int, seed: int | None) -> list[dict[str, Any]]:
    rows = []
    for value in dict.fromkeys(by):
        idx = [i for i, b in enumerate(by) if b == value]
        sub_labels, sub_values, sub_groups = [labels[i] for i in idx], [values[i] for i in idx], [groups[i] for i in idx]
        auc = roc_auc(sub_labels, sub_values)
        low = high = math.nan
        fail_groups = len({g for g, f in zip(sub_groups, sub_labels, strict=True) if f})
        pass_groups = len({g for g, f in zip(sub_groups, sub_labels, strict=True) if not f})
        if not math.isnan(auc) and min(fail_groups, pass_groups) >= MIN_GROUPS:
            matrix, pos, neg = _pair_matrix(sub_labels, sub_values)
            low, high = _interval(_resampled_auc(matrix, pos, neg, _draw_weights(sub_groups, n_resamples, seed)), level)
        rows.append({"group": value, "answers": len(idx), "failing": sum(sub_labels), "auc": auc,
                     "auc_low": low, "auc_high": high})
    return rows


def auc_difference(failed: Sequence[bool], scores_a: Sequence[float], scores_b: Sequence[float], *,
                   groups: Sequence[Hashable] | None = None, names: tuple[str, str] = ("A", "B"),
                   level: float = 0.95, n_resamples: int = 2000, seed: int | None = 0) -> AgreementResult:
    """AUC(A) − AUC(B) on the same answers, with a paired cluster-bootstrap interval (the same draws for both).

        Δ = AUC(A) − AUC(B) on the same answers
        interval: Δ on the same cluster-bootstrap resamples of the groups for both judges
    """
    names_ = as_list("names", names, "two names (A, B)")
    if len(names_) != 2 or not all(isinstance(x, str) for x in names_):
        raise InputError("names", "two names (A, B)", names)
    names = (names_[0], names_[1])
    labels = labels_of(failed)
    a = scores_of("scores_a", scores_a, len(labels))
    b = scores_of("scores_b", scores_b, len(labels))
    groups_ = _group_list("groups", groups, len(labels))
    level = _level(level)
    auc_a, auc_b = roc_auc(labels, a), roc_auc(labels, b)
    diff = auc_a - auc_b
    n_groups = len(set(groups_))
    ci = dist = None
    notes: list[str] = []
    if n_groups >= MIN_GROUPS and not math.isnan(diff):
        weights = _draw_weights(groups_, n_resamples, seed)
        ma, pos, neg = _pair_matrix(labels, a)
        mb, _, _ = _pair_matrix(labels, b)
        dist = _resampled_auc(ma, pos, neg, weights) - _resampled_auc(mb, pos, neg, weights)
        ci = _interval(dist, level)
        if ci[0] <= 0 <= ci[1]:
            notes.append("The interval includes 0: these data cannot tell the two apart.")
    else:
        notes.append(f"{n_groups} independent groups: too few for an interval (at least {MIN_GROUPS}).")
    return AgreementResult(
        metric=f"AUC difference ({names[0]} - {names[1]})", score=diff, ci=ci, level=level, distribution=dist,
        method=f"paired cluster bootstrap over {n_groups} groups, {n_resamples} resamples" if ci else "",
        values={"auc_a": auc_a, "auc_b": auc_b, "names": list(names), "groups": n_groups},
        narrative=[f"AUC of {names[0]}: {fmt(auc_a)}; of {names[1]}: {fmt(auc_b)}; difference {fmt(diff)}."],
        notes=notes)


def stratified_auc_of(failed: Sequence[bool], scores: Sequence[float], strata: Sequence[Hashable], *,
                      groups: Sequence[Hashable] | None = None, other: Sequence[float] | None = None,
                      level: float = 0.95, n_resamples: int = 2000, seed: int | None = 0) -> dict[str, Any]:
    """The AUC over the (passing, failing) pairs whose two answers share a stratum (a stratified AUC: e.g.
    pairs of one generating model only, which removes what the model alone tells), with a cluster-bootstrap
    interval over ``groups`` (None: each answer its own group; under :data:`MIN_GROUPS` groups no interval);
    with ``other``, the paired difference AUC(scores) − AUC(other) on the same pairs and the same draws.

        AUC_within = Σ_p Σ_f M[p, f] · same[p, f] / Σ_p Σ_f same[p, f]      (same[p, f] = 1 when p, f share a stratum)

    Returns ``{"score", "ci" ((low, high) or None), "pairs" (pairs within a stratum), "groups"}``."""
    import numpy as np  # lazy

    labels = labels_of(failed)
    n = len(labels)
    values = scores_of("scores", scores, n)
    strata_ = group_labels("strata", strata, n)
    others = None if other is None else scores_of("other", other, n)
    groups_ = _group_list("groups", groups, n)
    level = _level(level)
    n_resamples = _resamples(n_resamples)
    seed = optional_integer("seed", seed, low=0, expected="a whole number, 0 or more, or None")
    matrix, pos, neg = _pair_matrix(labels, values)
    # same[p, f] = 1 when the passing answer p and the failing answer f share a stratum: the pairs counted
    same = np.array([[strata_[p] == strata_[q] for q in neg] for p in pos], dtype=float).reshape(len(pos), len(neg))
    if not same.sum():
        raise InputError("strata", "strata holding both passing and failing answers", strata)
    if others is not None:
        matrix = matrix - _pair_matrix(labels, others)[0]
    value = float((matrix * same).sum() / same.sum())
    ci = None
    if len(set(groups_)) >= MIN_GROUPS:
        dist = _resampled_auc(matrix, pos, neg, _draw_weights(groups_, n_resamples, seed), pairs=same)
        if np.isfinite(dist).any():
            ci = _interval(dist, level)
    return {"score": value, "ci": ci, "pairs": int(same.sum()), "groups": len(set(groups_))}


def corrected_pass_rate(system_passes: Sequence[bool], labelled_failed: Sequence[bool],
                        labelled_passes: Sequence[bool], *, labelled_groups: Sequence[Hashable] | None = None,
                        system_groups: Sequence[Hashable] | None = None, level: float = 0.95,
                        n_resamples: int = 2000, seed: int | None = 0) -> AgreementResult:
    """The share of a system's answers that really pass, corrected for the judge's measured errors.

        θ = (p_obs + TNR − 1) / (TPR + TNR − 1), clipped to [0, 1]   (Rogan and Gladen, 1978)

    ``system_passes``: the judge's verdict (True: passes) on each of the system's answers (unlabelled).
    ``labelled_failed`` / ``labelled_passes``: people's labels and the judge's verdicts on a labelled set,
    from which TPR (passing answers the judge passes) and TNR (failing answers it flags) are measured.
    θ = (p_obs + TNR − 1) / (TPR + TNR − 1), clipped to [0, 1]; undefined (NaN) when TPR + TNR ≤ 1
    (a judge no better than chance corrects nothing). The interval resamples both sets.
    """
    observed = [bool(v) for v in labels_of(system_passes)]
    labels = labels_of(labelled_failed)
    verdicts = labels_of(labelled_passes)
    if len(verdicts) != len(labels):
        raise InputError("labelled_passes", f"one verdict per label ({len(labels)})", f"{len(verdicts)} verdicts")
    if not observed:
        raise InputError("system_passes", "at least one verdict", system_passes)
    level = _level(level)
    lab_groups = _group_list("labelled_groups", labelled_groups, len(labels))
    sys_groups = _group_list("system_groups", system_groups, len(observed))

    def theta(p_obs: float, tpr: float, tnr: float) -> float:
        denom = tpr + tnr - 1
        if not denom > 0:
            return math.nan
        return min(1.0, max(0.0, (p_obs + tnr - 1) / denom))

    passing = [i for i, f in enumerate(labels) if not f]
    failing = [i for i, f in enumerate(labels) if f]
    if not passing or not failing:
        raise InputError("labelled_failed", "both passing and failing answers (TPR and TNR need both)", labels)
    tpr = sum(verdicts[i] for i in passing) / len(passing)
    tnr = sum(not verdicts[i] for i in failing) / len(failing)
    p_obs = sum(observed) / len(observed)
    value = theta(p_obs, tpr, tnr)
    notes = []
    if tpr + tnr <= 1:
        notes.append(f"TPR + TNR = {fmt(tpr + tnr)} is not above 1: the judge is no better than chance, so its "
                     "verdicts say nothing about the true pass rate.")
    elif value in (0.0, 1.0):
        notes.append("The formula fell outside [0, 1] and was clipped: the observed rate is outside what the "
                     "measured error rates allow.")
    ci = dist = None
    if len(set(lab_groups)) >= MIN_GROUPS and len(set(sys_groups)) >= MIN_GROUPS and not math.isnan(value):
        import numpy as np  # lazy

        wl = _draw_weights(lab_groups, n_resamples, seed)
        ws = _draw_weights(sys_groups, n_resamples, None if seed is None else seed + 1)
        lab_pass = np.array([1.0 if not f else 0.0 for f in labels])
        judged = np.array([1.0 if v else 0.0 for v in verdicts])
        tprs = (wl * lab_pass * judged).sum(1) / (wl * lab_pass).sum(1)
        tnrs = (wl * (1 - lab_pass) * (1 - judged)).sum(1) / (wl * (1 - lab_pass)).sum(1)
        p_obss = (ws * np.array([1.0 if v else 0.0 for v in observed])).sum(1) / ws.sum(1)
        dist = np.array([theta(p, t, r) for p, t, r in zip(p_obss, tprs, tnrs, strict=True)])
        ci = _interval(dist, level)
    else:
        notes.append(f"Too few groups for an interval (at least {MIN_GROUPS} in each set).")
    formula = (rf"\theta = \frac{{p_{{obs}} + \mathrm{{TNR}} - 1}}{{\mathrm{{TPR}} + \mathrm{{TNR}} - 1}} = "
               rf"\frac{{{fmt(p_obs)} + {fmt(tnr)} - 1}}{{{fmt(tpr)} + {fmt(tnr)} - 1}} = {fmt(value)}")
    return AgreementResult(
        metric="corrected pass rate", score=value, ci=ci, level=level, distribution=dist,
        method=f"bootstrap of both sets, {n_resamples} resamples" if ci else "",
        values={"p_obs": p_obs, "tpr": tpr, "tnr": tnr, "labelled": len(labels), "system_answers": len(observed)},
        tables={"rates": (("rate", "value", "from"), [
            {"rate": "p_obs", "value": p_obs, "from": f"the judge passes {sum(observed)} of {len(observed)} answers"},
            {"rate": "TPR", "value": tpr, "from": f"{sum(verdicts[i] for i in passing)} of {len(passing)} passing "
                                                   "labelled answers passed"},
            {"rate": "TNR", "value": tnr, "from": f"{sum(not verdicts[i] for i in failing)} of {len(failing)} failing "
                                                   "labelled answers flagged"}])},
        narrative=[f"The judge passes {fmt(p_obs)} of the system's answers.",
                   f"On the labelled set it passes {fmt(tpr)} of the passing answers (TPR) and flags {fmt(tnr)} of "
                   "the failing ones (TNR).",
                   f"Corrected share really passing: {fmt(value)}."],
        notes=notes, formula=formula)
