"""The numbers the comparison page shows, computed once so the page and the Python API give the same ones.

Per metric, over the pairs where both versions have a score: both means, the paired difference B − A with its
bootstrap interval, the permutation and sign tests' p-values, the permutation p-value adjusted across the
metrics shown (Holm), the standard deviation of the differences and the planning count

    n ≈ ((z_{1−α/2} + z_{power}) · sd / δ)²

paired questions to tell apart a difference δ (``--detect``) at that power (two-sided, level α, the normal
approximation of the paired t-test's sample size). The count grows with 1/δ²: a difference 3 times smaller
needs about 9 to 10 times more questions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist, fmean, stdev
from typing import Any, Sequence

from .. import validate
from ..errors import InputError
from .comparison import MetricComparison
from .pairing import Pairing

#: The compare and evaluate pages' own parts: their public way in is `ragmetrics-edu compare --report` (and
#: `evaluate --report`); these names are not a library API.
__all__ = ["MetricNumbers", "holm", "planning_count", "PLANNING_RULE"]

#: The planning rule in words (printed on the page beside the count).
PLANNING_RULE = ("The count grows as 1/δ²: a difference 3× smaller needs about 10× more questions (exactly 9×), "
                 "and halving δ needs 4×.")


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of several p-values (the family: the metrics shown), in their order.

    Sort ascending; the k-th smallest (k from 0) becomes max over j <= k of min(1, (m − j)·p_(j))."""
    ps = [validate.number("p_values", p, "p-values between 0 and 1", low=0.0, high=1.0) for p in
          validate.as_list("p_values", p_values, "a list of p-values")]
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def planning_count(sd: float, detect: float, *, level: float = 0.95, power: float = 0.8) -> float:
    """Paired questions to detect a mean difference ``detect`` with differences of spread ``sd``:
    ((z_{1−α/2} + z_power)·sd/δ)², rounded up (0 when sd is 0: no spread, any difference shows at once)."""
    sd = validate.number("sd", sd, "the differences' standard deviation (>= 0)", low=0.0, high=1e6)
    detect = validate.number("detect", detect, "a difference to detect, above 0", low=0.0, high=1e6, low_open=True)
    level = validate.number("level", level, "a level between 0 and 1", low=0.0, high=1.0, low_open=True,
                            high_open=True)
    power = validate.number("power", power, "a power between 0 and 1", low=0.0, high=1.0, low_open=True,
                            high_open=True)
    z = NormalDist().inv_cdf(0.5 + level / 2) + NormalDist().inv_cdf(power)
    return float(math.ceil((z * sd / detect) ** 2 - 1e-9))


def paired_values(pairing: Pairing, scores_a: dict[str, list[float | None]], scores_b: dict[str, list[float | None]],
                  metric: str) -> list[tuple[Any, int, int, float, float]]:
    """The pairs where both versions scored ``metric``: (label, row in A, row in B, score in A, score in B)."""
    if not isinstance(pairing, Pairing):
        raise InputError("pairing", "what pair_rows() returns", pairing)
    for name, scores in (("scores_a", scores_a), ("scores_b", scores_b)):
        if not isinstance(scores, dict) or metric not in scores or not isinstance(scores[metric], list):
            raise InputError(name, f"metric -> one score per row, with {metric!r}", scores)
    out = []
    for (i, j), label in zip(pairing.pairs, pairing.labels, strict=True):
        a, b = scores_a[metric][i], scores_b[metric][j]
        if a is not None and b is not None:
            out.append((label, i, j, a, b))
    return out


@dataclass(frozen=True)
class MetricNumbers:
    """One metric's row of the page (see the module); ``holm_p`` is the permutation p adjusted across the metrics."""

    metric: str
    n: int
    mean_a: float
    mean_b: float
    difference: float
    ci: tuple[float, float]
    level: float
    permutation_p: float
    sign_p: float
    holm_p: float
    sd: float
    detect: float
    needed: float
    verdict: str
    gate_reason: str
    margin: float | None


def comparison_numbers(found: Sequence[MetricComparison], pairing: Pairing, scores_a: dict[str, list[float | None]],
                       scores_b: dict[str, list[float | None]], *, detect: float = 0.05, power: float = 0.8
                       ) -> list[MetricNumbers]:
    """Each compared metric's numbers (metrics with no pair are left out; Holm runs over those shown)."""
    if not isinstance(pairing, Pairing):
        raise InputError("pairing", "what pair_rows() returns", pairing)
    shown = [c for c in validate.as_list("found", found, "the list compare_scores() returns")
             if isinstance(c, MetricComparison) and c.bootstrap is not None]
    if not shown:
        raise InputError("found", "at least one metric with a pair scored in both versions", found)
    adjusted = holm([c.permutation.p_value for c in shown])
    out = []
    for c, holm_p in zip(shown, adjusted, strict=True):
        pairs = paired_values(pairing, scores_a, scores_b, c.metric)
        diffs = [b - a for _, _, _, a, b in pairs]
        sd = stdev(diffs) if len(diffs) > 1 else 0.0
        out.append(MetricNumbers(
            c.metric, c.n, fmean(a for *_, a, _ in pairs), fmean(b for *_, b in pairs), c.bootstrap.score,
            c.bootstrap.ci, c.bootstrap.level, c.permutation.p_value, c.sign.p_value, holm_p, sd, detect,
            planning_count(sd, detect, level=c.bootstrap.level, power=power),
            c.gate.verdict if c.gate is not None else "gate not run",
            c.gate.reason if c.gate is not None else c.gate_note, c.gate.margin if c.gate is not None else None))
    return out
