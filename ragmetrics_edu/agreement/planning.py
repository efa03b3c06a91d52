"""How many labelled answers a corrected pass rate needs before its interval is narrow enough to act on.

:func:`~ragmetrics_edu.agreement.corrected_pass_rate` corrects a judge's pass rate with its error rates,
θ = (p_obs + TNR − 1) / (TPR + TNR − 1). Each rate is measured on a finite sample, so θ carries their noise,
divided by J = TPR + TNR − 1 (a judge near chance, J near 0, multiplies it). By the delta method, with n labelled
answers of the system (θn passing ones measure TPR, (1 − θ)n failing ones TNR) and m unlabelled ones for p_obs:

    Var(θ) ≈ [p(1 − p)/m + θ²·TPR(1 − TPR)/(θn) + (1 − θ)²·TNR(1 − TNR)/((1 − θ)n)] / J²

:func:`labels_needed` solves for the smallest n whose interval half-width z·√Var is at most the target. It is a
planning figure (normal approximation, labels drawn from the system itself), not a measurement.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from ..results import MetricResult
from ..validate import number, optional_integer

__all__ = ["labels_needed"]


def labels_needed(tpr: float, tnr: float, pass_rate: float, *, half_width: float = 0.05, level: float = 0.95,
                  system_answers: int | None = None) -> MetricResult:
    """The labelled answers (per system) a corrected pass rate needs for an interval of ± ``half_width``.

    ``tpr``/``tnr``: the judge's error rates as measured (e.g. on dev); ``pass_rate``: the system's true pass rate
    you expect (θ); ``system_answers``: unlabelled answers behind p_obs (None: so many that their noise is 0).
    The score is the number of labels (inf when no number suffices, e.g. a judge no better than chance)."""
    tpr = number("tpr", tpr, "a rate from 0 to 1", low=0.0, high=1.0)
    tnr = number("tnr", tnr, "a rate from 0 to 1", low=0.0, high=1.0)
    theta = number("pass_rate", pass_rate, "a pass rate strictly between 0 and 1", low=0.0, high=1.0,
                   low_open=True, high_open=True)
    half_width = number("half_width", half_width, "a half-width above 0 and below 1", low=0.0, high=1.0,
                        low_open=True, high_open=True)
    level = number("level", level, "a confidence level strictly between 0 and 1", low=0.0, high=1.0,
                   low_open=True, high_open=True)
    m = optional_integer("system_answers", system_answers, low=1, expected="a whole number of answers, 1 or more")
    j = tpr + tnr - 1
    z = NormalDist().inv_cdf(0.5 + level / 2)
    p_obs = theta * tpr + (1 - theta) * (1 - tnr)  # the share the judge passes, at these rates
    from_p = 0.0 if m is None else p_obs * (1 - p_obs) / m
    per_label = theta * tpr * (1 - tpr) + (1 - theta) * tnr * (1 - tnr)  # n·J²·Var from the labels
    room = (half_width / z) ** 2 * j * j - from_p
    if j <= 0:
        n, why = math.inf, "TPR + TNR is not above 1: the judge says nothing about the pass rate, whatever n"
    elif room <= 0:
        n, why = math.inf, "the unlabelled answers' own noise already exceeds the target"
    else:
        n, why = float(math.ceil(per_label / room)) if per_label > 0 else 1.0, ""
    steps = [f"J = TPR + TNR - 1 = {tpr:.3f} + {tnr:.3f} - 1 = {j:.3f}.",
             f"Noise from the labels, times n: θ·TPR(1-TPR) + (1-θ)·TNR(1-TNR) = {per_label:.4f}.",
             f"Target: z·sqrt(Var) <= {half_width:g}, with z = {z:.3f} for a {level:.0%} interval.",
             why or f"n >= {per_label:.4f} / (({half_width:g}/{z:.3f})² · {j:.3f}² - {from_p:.5f}) = {n:.0f} labels."]
    return MetricResult(metric="labels needed", score=n, values={"j": j, "z": z, "p_obs": p_obs, "tpr": tpr,
                                                                 "tnr": tnr, "pass_rate": theta},
                        formula=r"n = \frac{\theta\,TPR(1-TPR) + (1-\theta)\,TNR(1-TNR)}"
                                r"{(h/z)^2 J^2 - p(1-p)/m}",
                        narrative=steps)
