"""Exact binomial arithmetic for the sign test and for Monte Carlo p-values.

``two_sided_p`` is the exact two-sided binomial test of ``k`` successes in ``n`` trials
at success probability 1/2, computed with integers (``math.comb``) so no rounding enters
the counts. ``clopper_pearson`` is the exact ("Clopper-Pearson") interval of a proportion,
found by bisection on binomial tail probabilities; it needs no scipy.
"""

from __future__ import annotations

import math


def two_sided_p(k: int, n: int) -> float:
    """P(an outcome at most as likely as k) under Binomial(n, 1/2); 1 when n = 0.

    Under p = 1/2 the distribution is symmetric, so this is 2 · min(P(X ≤ k), P(X ≥ k)),
    capped at 1: the same rule scipy.stats.binomtest uses ("minlike")."""
    if n == 0:
        return 1.0
    observed = math.comb(n, k)
    extreme = sum(math.comb(n, j) for j in range(n + 1) if math.comb(n, j) <= observed)
    return min(1.0, extreme / 2**n)


def null_pmf(n: int) -> list[float]:
    """P(X = j) for j = 0..n under Binomial(n, 1/2): the sign test's null distribution."""
    return [math.comb(n, j) / 2**n for j in range(n + 1)]


def _log_pmf(n: int):
    """A function p -> numpy array of log P(X = j | p), j = 0..n (log space avoids overflow)."""
    import numpy as np  # lazy: numpy loads only when resampling

    log_fact = np.array([math.lgamma(i + 1) for i in range(n + 1)])
    log_comb = log_fact[n] - log_fact - log_fact[::-1]
    j = np.arange(n + 1)

    def log_pmf(p: float):
        return log_comb + j * math.log(p) + (n - j) * math.log1p(-p)

    return log_pmf


def clopper_pearson(k: int, n: int, level: float) -> tuple[float, float]:
    """The exact interval of a proportion k/n at confidence ``level``.

    The lower end is the p at which P(X ≥ k) = α/2, the upper end the p at which
    P(X ≤ k) = α/2 (α = 1 − level); 0 and 1 when k = 0 or k = n."""
    import numpy as np  # lazy: numpy loads only when resampling

    alpha = 1.0 - level
    log_pmf = _log_pmf(n)

    def tail_ge(p: float) -> float:
        return float(np.exp(log_pmf(p)[k:]).sum())

    def tail_le(p: float) -> float:
        return float(np.exp(log_pmf(p)[: k + 1]).sum())

    lower = 0.0 if k == 0 else _bisect(lambda p: tail_ge(p) - alpha / 2, increasing=True)
    upper = 1.0 if k == n else _bisect(lambda p: tail_le(p) - alpha / 2, increasing=False)
    return lower, upper


def _bisect(f, *, increasing: bool, steps: int = 80) -> float:
    """The root in (0, 1) of a monotone function ``f`` by halving the bracket."""
    lo, hi = 1e-300, 1.0 - 1e-16
    for _ in range(steps):
        mid = (lo + hi) / 2
        if (f(mid) < 0) == increasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
