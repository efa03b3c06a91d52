"""Two paired significance tests: the sign-flip permutation test and the sign test.

Both ask "if the two systems were interchangeable, how often would a difference at least
this large turn up by chance?".

* The **permutation test** flips the sign of each question's difference a − b at random
  (swapping which system got which score) and recomputes the mean difference. With at most
  ``exact_max`` (20) non-zero differences it enumerates all 2^m flips exactly; above that it
  draws ``n_resamples`` random flips (Monte Carlo) and reports the p-value's own error.
  Zero differences are unchanged by a flip, so they are left out of the enumeration (and
  counted); the mean is still taken over all n questions.
* The **sign test** keeps only who won each question: the number of wins of a among the
  non-tied questions follows Binomial(m, 1/2) under the null. Ties are dropped and counted.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..errors import InputError
from ..results import fmt
from . import inputs, resample
from .binomial import clopper_pearson, null_pmf, two_sided_p
from .bootstrap import describe, percentile_interval, resampled_means
from .pairs import cohens_dz, pair_table
from .result import StatResult

#: Largest number of non-zero pairs enumerated exactly (2^22 ≈ 4 million flips, 32 MB).
EXACT_LIMIT = 22


def _all_flips(nonzero: list[float], n: int):
    """Mean difference (over all n questions) for every one of the 2^m sign flips."""
    import numpy as np  # lazy: numpy loads only when resampling

    sums = np.zeros(1)
    for d in nonzero:  # each difference doubles the list: with +d and with −d
        sums = np.concatenate((sums + d, sums - d))
    return sums / n


def _random_flips(nonzero: list[float], n: int, n_resamples: int, seed: int | None):
    """Mean difference for ``n_resamples`` random sign flips (each sign +1 or −1 with chance 1/2)."""
    import numpy as np  # lazy: numpy loads only when resampling

    data = np.asarray(nonzero, dtype=float)
    inputs.draws(n_resamples, len(data))
    out = np.empty(n_resamples)
    for start, stop, coins in resample.draw_batches(len(data), n_resamples, seed, high=2):
        out[start:stop] = (coins * 2 - 1) @ data / n
    return out


def permutation_test(a: Any, b: Any, n_resamples: int = 10_000, seed: int | None = 0, level: float = 0.95,
                     exact: bool | None = None, exact_max: int = 20, labels: tuple[str, str] = ("a", "b"),
                     ids: Sequence[Any] | None = None) -> StatResult:
    """Paired sign-flip permutation test of the mean difference a − b (two-sided).

        d_i = a_i − b_i;  T = |mean(d)|
        null: each d_i's sign flipped at random;  p = share of flips with |mean(±d)| ≥ T
        exact (all 2^m flips of the m non-zero d_i), else (count + 1)/(n_resamples + 1)

    ``exact=None`` enumerates all flips when at most ``exact_max`` differences are non-zero and
    uses ``n_resamples`` random flips otherwise; ``True``/``False`` force one way (exact allows
    at most 22 non-zero differences). The Monte Carlo p-value is (count + 1)/(n_resamples + 1)
    with its binomial standard error and Clopper-Pearson interval. The interval of the mean
    difference is the paired percentile bootstrap with the same ``n_resamples`` and ``seed``.
    If every difference is 0, p = 1.
    """
    left, right = inputs.paired(a, b)
    level, count, rng_seed = inputs.ci_level(level), inputs.resamples(n_resamples), inputs.seed(seed)
    force = inputs.flag("exact", exact)
    limit = inputs.positive_int_at_most("exact_max", exact_max, EXACT_LIMIT)
    pairs = pair_table(left, right, inputs.labels(labels), inputs.ids(ids, len(left)))
    n, observed = len(left), pairs.mean
    nonzero = [d for d in pairs.differences if d != 0]
    m = len(nonzero)
    use_exact = m <= limit if force is None else force
    if use_exact and m > EXACT_LIMIT:
        raise InputError("exact", f"False or None when more than {EXACT_LIMIT} differences are non-zero "
                         f"(2^{m} flips is too many to list)", exact, hint=f"{m} differences are non-zero")
    tolerance = 1e-9 * max(1.0, math.fsum(abs(d) for d in nonzero) / n)  # rounding in the sums
    values: dict[str, Any] = {"n": n, "mean_difference": observed, **pairs.counts, "nonzero_pairs": m}
    notes = list(pairs.notes)
    if m == 0:
        import numpy as np  # lazy: numpy loads only when resampling

        null, p, method = np.zeros(1), 1.0, "exact sign-flip permutation (nothing to flip)"
        notes.append("Every difference is 0: every flip gives the same mean difference, 0, so p = 1.")
        extreme = 1
    elif use_exact:
        null = _all_flips(nonzero, n)
        extreme = int((abs(null) >= abs(observed) - tolerance).sum())
        p = extreme / len(null)
        method = f"exact sign-flip permutation (all 2^{m} = {len(null)} flips)"
    else:
        null = _random_flips(nonzero, n, count, rng_seed)
        extreme = int((abs(null) >= abs(observed) - tolerance).sum())
        p = (extreme + 1) / (count + 1)
        se = math.sqrt(p * (1 - p) / count)
        low_p, high_p = clopper_pearson(extreme, count, level)
        values.update({"p_standard_error": se, "p_ci_low": low_p, "p_ci_high": high_p})
        method = f"Monte Carlo sign-flip permutation ({count} random flips, seed {rng_seed})"
        notes.append(f"Monte Carlo p-value: {extreme} of {count} random flips were at least as extreme, "
                     f"p = ({extreme} + 1)/({count} + 1) = {fmt(p)}, standard error {fmt(se)}; "
                     f"{fmt(100 * level)}% Clopper-Pearson interval of the share [{fmt(low_p)}, {fmt(high_p)}]. "
                     "More flips (n_resamples) shrink this error.")
    if pairs.counts["ties"] and m:
        notes.append(f"{pairs.counts['ties']} zero differences are not flipped (a flip leaves them at 0) but "
                     f"count in the mean over all {n} questions.")
    boot = resampled_means(pairs.differences, count, rng_seed)
    low, high = (observed, observed) if n == 1 or m == 0 else percentile_interval(boot, level)
    dz, dz_note = cohens_dz(pairs.differences)
    notes += [dz_note] if dz_note else []
    la, lb = pairs.labels
    values.update({"extreme_flips": extreme, "flips": len(null), "ci_low": low, "ci_high": high,
                   "n_resamples": count, "seed": rng_seed})
    return StatResult(
        metric="permutation test", score=observed, columns=pairs.columns, rows=pairs.rows, values=values,
        formula=rf"p = \frac{{\#\{{\text{{flips with }} |\bar d^{{\pm}}| \ge {fmt(abs(observed))}\}}}}"
                rf"{{\#\text{{flips}}}} = {fmt(p)}",
        formula_general=r"p = \frac{\#\{s : |\frac{1}{n}\sum_i s_i d_i| \ge |\bar d|\}}{\#\{s\}}",
        narrative=[f"Subtract per question: d = {la} − {lb}; the mean difference is {fmt(observed)}.",
                   f"If {la} and {lb} were interchangeable, each difference would be as likely to have the "
                   f"opposite sign. {m} differences are non-zero.",
                   f"Flip their signs ({method}) and recompute the mean difference each time: "
                   "the null distribution.",
                   f"{extreme} of {len(null)} flips give |mean difference| ≥ {fmt(abs(observed))}: p = {fmt(p)}.",
                   f"Interval of the mean difference (paired percentile bootstrap, {count} resamples, "
                   f"seed {rng_seed}): [{fmt(low)}, {fmt(high)}]."],
        notes=notes, method=method, level=level, ci=(low, high), interval_of="mean difference", p_value=p,
        effect_size=dz, effect_name="Cohen's d_z", distribution=null,
        distribution_of="mean differences under sign flips (null)", summary_rows=describe(null, level))


def sign_test(a: Any, b: Any, level: float = 0.95, labels: tuple[str, str] = ("a", "b"),
              ids: Sequence[Any] | None = None) -> StatResult:
    """Exact two-sided sign test: does a win more questions than b, ignoring by how much?

        m = questions where a ≠ b;  k = those a wins
        p = min(1, 2 · min(P(K ≤ k), P(K ≥ k))),   K ~ Binomial(m, 1/2)

    Ties (difference 0, including questions both systems score 0) are dropped and counted.
    The effect size is a's share of wins among the m non-tied questions, with its exact
    (Clopper-Pearson) interval; ``estimate`` is still the mean difference over all questions.
    With no non-tied question, p = 1 and the share is undefined (None).
    """
    left, right = inputs.paired(a, b)
    level = inputs.ci_level(level)
    pairs = pair_table(left, right, inputs.labels(labels), inputs.ids(ids, len(left)))
    la, lb = pairs.labels
    wins, losses = pairs.counts[f"{la}_better"], pairs.counts[f"{lb}_better"]
    m = wins + losses
    p = two_sided_p(wins, m)
    pmf = null_pmf(m)
    share = wins / m if m else None
    interval = clopper_pearson(wins, m, level) if m else None
    notes = list(pairs.notes)
    if pairs.counts["ties"]:
        notes.append(f"The sign test drops the {pairs.counts['ties']} tied questions and tests the other {m}.")
    if not m:
        notes.append("No question has a winner: p = 1 and the share of wins is undefined.")
    observed_probability = pmf[wins] if m else 1.0
    import numpy as np  # lazy: numpy loads only when resampling

    rows_summary = [{"quantity": "non-tied questions m", "value": m}, {"quantity": f"wins of {la}", "value": wins},
                    {"quantity": f"wins of {lb}", "value": losses},
                    {"quantity": f"P(X = {wins}) under Binomial({m}, 1/2)", "value": observed_probability}]
    rows_summary += [{"quantity": f"P(X = {k})", "value": q} for k, q in enumerate(pmf) if m <= 20]
    return StatResult(
        metric="sign test", score=pairs.mean, columns=pairs.columns, rows=pairs.rows,
        values={"n": len(left), "mean_difference": pairs.mean, **pairs.counts, "nonzero_pairs": m,
                "wins": wins, "losses": losses, "share_of_wins": share,
                "ci_low": interval[0] if interval else None, "ci_high": interval[1] if interval else None},
        formula=(rf"p = \sum_{{j:\ P(X=j) \le P(X={wins})}} \binom{{{m}}}{{j}} 2^{{-{m}}} = {fmt(p)}"),
        formula_general=r"X \sim \mathrm{Binomial}(m, \tfrac12),\quad p = \sum_{j:\,P(X=j)\le P(X=k)} P(X=j)",
        narrative=[f"Subtract per question: d = {la} − {lb}; {wins} positive, {losses} negative, "
                   f"{pairs.counts['ties']} ties (dropped).",
                   f"If neither system were better, {la}'s wins among the {m} non-tied questions would follow "
                   f"Binomial({m}, 1/2).",
                   f"Add the probabilities of every count at most as likely as {wins}: p = {fmt(p)}.",
                   f"Share of wins of {la}: {wins}/{m} = {fmt(share)}" if m else "There are no wins to share."],
        notes=notes, method="exact binomial sign test (two-sided), Clopper-Pearson interval of the share",
        level=level, ci=interval, interval_of=f"share of {la}'s wins", p_value=p, effect_size=share,
        effect_name=f"share of {la}'s wins", distribution=np.array(pmf),
        distribution_of=f"wins of {la} under the null (Binomial({m}, 1/2))", summary_rows=rows_summary)
