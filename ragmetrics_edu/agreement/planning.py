"""How many labelled answers a system's pass rate needs before its interval is narrow enough to act on.

The labels are drawn from the system's own answers, so three estimators are planned on the same footing
(see :func:`~ragmetrics_edu.agreement.estimate_pass_rate`); θ is the true pass rate, n the labels, N the
system's answers the judge scored, p the share the judge passes, Y people's verdict and f the judge's:

* ``"labels"``, people's share alone: Var = θ(1 − θ)/n;
* ``"ppi"``, prediction-powered (PPI++ with the tuned λ): Var = λ²·Var(f)/N + Var(Y − λf)/n, with
  λ = Cov(Y, f) / ((1 + n/N)·Var(f)) clipped to [0, 1]; never above labels alone (λ = 0 is labels alone);
* ``"rogan_gladen"``, θ = (p + TNR − 1)/J with J = TPR + TNR − 1 (delta method; θn passing labels measure TPR,
  (1 − θ)n failing ones TNR): Var ≈ [p(1 − p)/N + θ·TPR(1 − TPR)/n + (1 − θ)·TNR(1 − TNR)/n] / J².

For a binary judge all the moments follow from θ, TPR and TNR: p = θ·TPR + (1 − θ)(1 − TNR),
Var(f) = p(1 − p), Cov(Y, f) = θ·TPR − θp. :func:`labels_needed` finds the smallest n whose half-width
z·√Var is at most the target, for one method; :func:`plan_pass_rate` plans all three side by side. These are
planning figures (normal approximation, labels a random draw from the system), not measurements.

The normal approximation fails near θ = 0 or 1, where few labels fall on one side: there people's share alone
is read with Wilson's interval (as :func:`~ragmetrics_edu.agreement.estimate_pass_rate` gives it), so
``labels_needed(..., method="labels", interval="wilson")`` plans with Wilson's half-width instead,
z/(1 + z²/n)·√(θ(1 − θ)/n + z²/(4n²)), taken at the share the labels are expected to show (k/n = θ). It asks for
more labels than the normal plan near 0 or 1 and slightly fewer near 0.5.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from ..errors import InputError
from ..results import MetricResult, fmt
from ..validate import number, optional_integer

__all__ = ["labels_needed", "plan_pass_rate", "METHODS", "MAX_ANSWERS"]

#: how the labels-alone half-width is planned: the normal approximation, or Wilson's interval (better near 0 or 1)
INTERVALS = ("normal", "wilson")

#: the three estimators of a pass rate, and what each assumes
METHODS = {
    "labels": "people's share of the labelled answers alone; assumes only a random draw of answers",
    "ppi": "prediction-powered (PPI++, tuned λ): the judge on every answer, corrected by the labelled ones; "
           "assumes only a random draw of answers",
    "rogan_gladen": "corrects the judge's pass rate with its TPR and TNR; assumes the error rates measured on "
                    "the labels hold for every answer (they transfer)",
}

#: the most system answers a plan takes (N): far beyond any real system, and small enough for float arithmetic
MAX_ANSWERS = 10**15
_LARGEST = 10**9  # no plan asks for more labels than this; beyond it the answer is "no number suffices" (inf)


def _method(value: Any) -> str:
    if not isinstance(value, str) or value not in METHODS:
        raise InputError("method", "one of " + ", ".join(repr(m) for m in METHODS), value)
    return value


def _moments(theta: float, tpr: float, tnr: float) -> tuple[float, float, float, float]:
    """(p, Var(Y), Var(f), Cov(Y, f)) of people's verdict Y and a judge's f with these rates."""
    p = theta * tpr + (1 - theta) * (1 - tnr)
    return p, theta * (1 - theta), p * (1 - p), theta * tpr - theta * p


def ppi_lambda(n: float, big_n: int | None, var_f: float, cov: float) -> float:
    """PPI++'s power-tuning λ for a mean: Cov(Y, f) / ((1 + n/N)·Var(f)), clipped to [0, 1] (0 when Var(f) = 0)."""
    ratio = 0.0 if big_n is None else n / big_n
    if var_f <= 0:
        return 0.0
    return min(1.0, max(0.0, cov / ((1 + ratio) * var_f)))


def ppi_variance(n: float, big_n: int | None, var_y: float, var_f: float, cov: float) -> float:
    """Var(θ̂) of PPI++ with n labels, N judged answers (None: so many their noise is 0) and the tuned λ."""
    lam = ppi_lambda(n, big_n, var_f, cov)
    imputed = 0.0 if big_n is None else lam * lam * var_f / big_n
    return imputed + (var_y + lam * lam * var_f - 2 * lam * cov) / n


def wilson_half_width(theta: float, n: float, z: float) -> float:
    """Half the width of Wilson's interval for a share θ observed on n labels: z/(1 + z²/n)·√(θ(1 − θ)/n + z²/(4n²))."""
    return z / (1 + z * z / n) * math.sqrt(theta * (1 - theta) / n + z * z / (4 * n * n))


def _smallest_n(variance: Any, target: float, upper: int) -> float:
    """The smallest n in [1, upper] with variance(n) <= target (variance decreasing in n); inf when none."""
    if variance(upper) > target:
        return math.inf
    low, high = 1, upper
    while low < high:
        mid = (low + high) // 2
        if variance(mid) <= target:
            high = mid
        else:
            low = mid + 1
    return float(low)


def labels_needed(tpr: float, tnr: float, pass_rate: float, *, half_width: float = 0.05, level: float = 0.95,
                  system_answers: int | None = None, method: str = "rogan_gladen",
                  interval: str = "normal") -> MetricResult:
    """The labelled answers (per system) an estimate of the pass rate needs for an interval of ± ``half_width``.

        n = the smallest n with z · √(Var_method(n)) ≤ half_width   (Wilson: its half-width at k/n = θ)

    ``tpr``/``tnr``: the judge's rates as measured (e.g. on dev; TPR: passing answers it passes, TNR: failing
    answers it flags); ``pass_rate``: the system's true pass rate you expect (θ); ``system_answers``: the
    answers the judge scores (N; None: so many that their noise is 0); ``method``: ``"labels"``, ``"ppi"`` or
    ``"rogan_gladen"`` (see the module); ``interval``: ``"normal"`` (z·√Var, every method) or ``"wilson"``
    (people's share alone read with Wilson's interval at k/n = θ: the plan to use near a pass rate of 0 or 1, where
    the normal approximation asks for too few labels; ``method="labels"`` only). The score is the number of labels
    (inf when no number suffices: a Rogan–Gladen judge no better than chance, or a target the judged answers' own
    noise already exceeds)."""
    tpr = number("tpr", tpr, "a rate from 0 to 1", low=0.0, high=1.0)
    tnr = number("tnr", tnr, "a rate from 0 to 1", low=0.0, high=1.0)
    theta = number("pass_rate", pass_rate, "a pass rate strictly between 0 and 1", low=0.0, high=1.0,
                   low_open=True, high_open=True)
    half_width = number("half_width", half_width, "a half-width above 0 and below 1", low=0.0, high=1.0,
                        low_open=True, high_open=True)
    level = number("level", level, "a confidence level strictly between 0 and 1", low=0.0, high=1.0,
                   low_open=True, high_open=True)
    m = optional_integer("system_answers", system_answers, low=1, high=MAX_ANSWERS,
                         expected=f"None, or a whole number of answers from 1 to {MAX_ANSWERS:.0e}")
    method = _method(method)
    if not isinstance(interval, str) or interval not in INTERVALS:
        raise InputError("interval", "'normal' or 'wilson'", interval)
    if interval == "wilson" and method != "labels":
        raise InputError("interval", f"'normal' for method {method!r} ('wilson' plans people's share alone only)",
                         interval)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    target = (half_width / z) ** 2
    p_obs, var_y, var_f, cov = _moments(theta, tpr, tnr)
    j = tpr + tnr - 1
    values: dict[str, Any] = {"j": j, "z": z, "p_obs": p_obs, "tpr": tpr, "tnr": tnr, "pass_rate": theta,
                              "method": method, "half_width": half_width, "level": level, "system_answers": m,
                              "interval": interval}
    head = f"Target: z·sqrt(Var) <= {half_width:g}, with z = {z:.3f} for a {level:.0%} interval."
    if method == "labels" and interval == "wilson":
        n = _smallest_n(lambda k: wilson_half_width(theta, k, z), half_width, _LARGEST)
        steps = [f"People's share alone, read with Wilson's interval at k/n = θ = {theta:.4f}.",
                 f"Target: Wilson's half-width z/(1 + z²/n)·sqrt(θ(1-θ)/n + z²/(4n²)) <= {half_width:g}, with "
                 f"z = {z:.3f} for a {level:.0%} interval.",
                 f"The smallest such n: {fmt(n)} labels (the normal approximation: "
                 f"{math.ceil(var_y / target)})."]
        formula = r"\frac{z}{1 + z^2/n}\sqrt{\frac{\theta(1-\theta)}{n} + \frac{z^2}{4n^2}} \le h"
    elif method == "labels":
        n = float(math.ceil(var_y / target))
        steps = [f"People's share alone: Var = θ(1-θ)/n = {var_y:.4f}/n.", head,
                 f"n >= {var_y:.4f} / ({half_width:g}/{z:.3f})² = {n:.0f} labels."]
        formula = r"n = \frac{z^2\,\theta(1-\theta)}{h^2}"
    elif method == "ppi":
        n = _smallest_n(lambda k: ppi_variance(k, m, var_y, var_f, cov), target, math.ceil(var_y / target))
        lam = ppi_lambda(n, m, var_f, cov) if math.isfinite(n) else math.nan
        values.update({"lam": lam, "var_y": var_y, "var_f": var_f, "cov": cov})
        steps = [f"The judge passes p = {p_obs:.4f} of the answers; Var(f) = {var_f:.4f}, Cov(Y, f) = {cov:.4f}, "
                 f"Var(Y) = {var_y:.4f}.", head,
                 f"The smallest n whose tuned λ (here {fmt(lam, 3)}) gives λ²Var(f)/N + Var(Y - λf)/n within the "
                 f"target: {fmt(n)} labels (never more than labels alone)."]
        formula = r"\mathrm{Var} = \frac{\lambda^2 \mathrm{Var}(f)}{N} + \frac{\mathrm{Var}(Y - \lambda f)}{n}"
    else:
        from_p = 0.0 if m is None else p_obs * (1 - p_obs) / m
        per_label = theta * tpr * (1 - tpr) + (1 - theta) * tnr * (1 - tnr)  # n·J²·Var from the labels
        room = target * j * j - from_p
        if j <= 0:
            n, why = math.inf, "TPR + TNR is not above 1: the judge says nothing about the pass rate, whatever n"
        elif room <= 0:
            n, why = math.inf, "the judged answers' own noise already exceeds the target"
        else:
            n, why = float(math.ceil(per_label / room)) if per_label > 0 else 1.0, ""
        steps = [f"J = TPR + TNR - 1 = {tpr:.3f} + {tnr:.3f} - 1 = {j:.3f}.",
                 f"Noise from the labels, times n: θ·TPR(1-TPR) + (1-θ)·TNR(1-TNR) = {per_label:.4f}.", head,
                 why or f"n >= {per_label:.4f} / (({half_width:g}/{z:.3f})² · {j:.3f}² - {from_p:.5f}) = {n:.0f} "
                        "labels."]
        formula = (r"n = \frac{\theta\,TPR(1-TPR) + (1-\theta)\,TNR(1-TNR)}"
                   r"{(h/z)^2 J^2 - p(1-p)/m}")
    return MetricResult(metric="labels needed", variant=method, score=n, values=values, formula=formula,
                        narrative=steps, notes=[f"Assumes: {METHODS[method]}."])


def plan_pass_rate(pass_rate: float, tpr: float, tnr: float, *, half_width: float = 0.05, level: float = 0.95,
                   system_answers: int | None = None) -> MetricResult:
    """The labels each of the three estimators needs for ± ``half_width``, side by side (see the module).

        for each method: n = labels_needed(method)   (the smallest n whose interval is ± half_width)

    The score is the prediction-powered figure (it assumes no more than labels alone and never needs more);
    ``values`` holds each method's (``"labels"``, ``"ppi"``, ``"rogan_gladen"``); the step table (``steps``) has
    one row per method with what it assumes."""
    plans = {method: labels_needed(tpr, tnr, pass_rate, half_width=half_width, level=level,
                                   system_answers=system_answers, method=method) for method in METHODS}
    rows = [{"method": method, "labels needed": plan.score, "assumes": METHODS[method]}
            for method, plan in plans.items()]
    ppi, alone = plans["ppi"].score, plans["labels"].score
    narrative = [f"At θ = {fmt(pass_rate)}, TPR = {fmt(tpr)}, TNR = {fmt(tnr)} and ±{fmt(half_width)} at "
                 f"{fmt(100 * level)}%: " + "; ".join(f"{m} {fmt(p.score)}" for m, p in plans.items()) + ".",
                 f"Prediction-powered needs {fmt(ppi)} labels where people's share alone needs {fmt(alone)}."]
    return MetricResult(metric="labels needed", variant="three methods", score=ppi,
                        values={method: plan.score for method, plan in plans.items()}
                        | {"half_width": plans["labels"].values["half_width"], "level": plans["labels"].values["level"],
                           "pass_rate": plans["labels"].values["pass_rate"], "tpr": plans["labels"].values["tpr"],
                           "tnr": plans["labels"].values["tnr"], "system_answers": plans["labels"].values["system_answers"]},
                        columns=("method", "labels needed", "assumes"), rows=rows, narrative=narrative,
                        notes=["Planning figures: a normal approximation with labels drawn at random from the "
                               "system's answers; the moments come from the θ, TPR and TNR given."])
