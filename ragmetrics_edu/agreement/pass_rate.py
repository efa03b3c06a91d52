"""A system's pass rate from people's labels and a judge: three estimators on the same labels.

The labelled answers are drawn from the system's own answers, so each estimator below answers the same
question, "what share of this system's answers pass?", with an interval at ``level``:

* ``method="labels"`` – people's share of the labelled answers, θ̂ = mean(people). Its variance is
  θ(1 − θ)/n; the interval is **Wilson's** score interval (it stays inside [0, 1] and keeps its level with
  few labels or a share near 0 or 1, where the Wald interval θ̂ ± z·√(θ̂(1 − θ̂)/n) collapses to a point).
* ``method="ppi"`` – prediction-powered inference (Angelopoulos, Bates, Fannjiang, Jordan and Zrnic,
  *Science* 2023): the judge's pass rate on every answer, corrected by how far people and the judge disagree
  on the labelled ones, θ̂ = λ·mean(judge_on_all) + mean(people − λ·judge_on_labelled), with the normal (CLT)
  interval θ̂ ± z·√(λ²·Var(judge_on_all)/N + Var(people − λ·judge_on_labelled)/n). ``lam=None`` (the default)
  tunes λ = Cov(people, judge) / ((1 + n/N)·Var(judge)), clipped to [0, 1] (PPI++, Angelopoulos, Duchi and
  Zrnic 2023): asymptotically never wider than labels alone, which is λ = 0; ``lam=1`` is classic PPI.
  The arithmetic is the authors' ``ppi_py.ppi_mean_ci`` (variances with divisor n; λ's Var(judge) over the
  labelled and all answers together), and a test checks it against that package.
* ``method="rogan_gladen"`` – the judge's pass rate corrected with its error rates measured on the labels
  (Rogan and Gladen, 1978): θ̂ = (p_obs + TNR − 1)/J, J = TPR + TNR − 1, where TPR is the share of the
  passing labelled answers the judge passes and TNR the share of the failing ones it flags. Its interval is
  the delta method's, Var ≈ [p(1 − p)/N + θ²·TPR(1 − TPR)/n_pass + (1 − θ)²·TNR(1 − TNR)/n_fail]/J², and
  estimate and interval are clipped to [0, 1]. It **assumes the error rates transfer**: measured on these
  labels, they hold for every answer the judge scored. When they do not (another model, another domain),
  the estimate is biased, and its interval does not show it.

Edge cases (each result's notes say which applied):

* one labelled answer: labels alone gives Wilson's interval; PPI and Rogan–Gladen give no interval (None);
* a PPI or Rogan–Gladen estimate outside [0, 1] is clipped, as are the intervals (the unclipped interval is in
  ``values["ci_unclipped"]``);
* a judge that gives every answer the same verdict has Var(judge) = 0: tuned λ is 0 (labels alone);
* Rogan–Gladen without both passing and failing labelled answers (TPR or TNR unmeasured), or with
  J ≤ 0 (a judge no better than chance says nothing about the rate), returns NaN with no interval.

``judge_on_all`` is every answer of the system the judge scored; it may include the labelled ones (with N much
larger than n, as usual, the overlap does not matter).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist, fmean
from typing import Any, ClassVar, Sequence

from ..errors import InputError
from ..results import fmt
from ..validate import as_list, number, optional_number, plain
from .planning import METHODS, labels_needed, wilson_half_width
from .result import AgreementResult

__all__ = ["estimate_pass_rate", "PassRateResult", "METHODS"]


def _verdicts(field: str, value: Any, scores: bool = False) -> list[Any]:
    """A non-empty list of True/False (numpy bools too; 1/0, strings and None refused); with ``scores``, a list of
    scores from 0 to 1 is taken too (a metric's score used as the judge's prediction, as ppi_py takes one)."""
    items = as_list(field, value, "a list of True/False (True: the answer passes)")
    if not items:
        raise InputError(field, "at least one verdict (True: the answer passes)", value)
    out = []
    graded = scores and not all(isinstance(plain(item), bool) for item in items)
    for i, item in enumerate(items):
        item = plain(item)
        if graded and not isinstance(item, bool) and isinstance(item, (int, float)) and 0.0 <= item <= 1.0:
            out.append(float(item))
            continue
        if not isinstance(item, bool):
            raise InputError(f"{field}[{i}]", "True or False (True: the answer passes)" + (
                ", or a score from 0 to 1 (method 'ppi' or 'labels')" if scores else ""), item)
        out.append(item)
    return out


def _var(xs: Sequence[float]) -> float:
    """The variance with divisor n (numpy's default, as ppi_py uses it)."""
    mean = fmean(xs)
    return fmean([(x - mean) ** 2 for x in xs])


@dataclass
class PassRateResult(AgreementResult):
    """An estimated pass rate (``score``) with its interval (``ci``); :meth:`labels_needed` plans the labels a
    target half-width needs with the same method."""

    kind: ClassVar[str] = "agreement"

    def labels_needed(self, half_width: float = 0.05, *, pass_rate: float | None = None) -> float:
        """The labels this method needs for an interval of ± ``half_width`` at this result's level, planned from
        this estimate (or ``pass_rate``) and the judge's TPR and TNR measured here (see
        :func:`~ragmetrics_edu.agreement.labels_needed`); NaN when the rates or the pass rate are undefined here
        (no failing or no passing labelled answer, a pass rate of 0 or 1)."""
        half_width = number("half_width", half_width, "a half-width above 0 and below 1", low=0.0, high=1.0,
                            low_open=True, high_open=True)
        theta = optional_number("pass_rate", pass_rate, "a pass rate strictly between 0 and 1, or None (this "
                                "estimate)", low=0.0, high=1.0, low_open=True, high_open=True)
        theta = self.score if theta is None else theta
        tpr, tnr = self.values.get("tpr", math.nan), self.values.get("tnr", math.nan)
        method = self.values["method"]
        if method == "labels" and math.isnan(tpr + tnr):
            tpr = tnr = 0.5   # labels alone does not use the judge's rates
        if not 0 < theta < 1 or math.isnan(tpr + tnr):
            return math.nan
        return labels_needed(tpr, tnr, theta, half_width=half_width, level=self.level,
                             system_answers=self.values["system_answers"], method=method).score

    def __repr__(self) -> str:
        return f"PassRateResult({self.headline()})"


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def _rates(people: list[bool], judge: list[bool]) -> tuple[float, float, int, int]:
    """(TPR, TNR, passing labels, failing labels): NaN for a rate with no labelled answer to measure it."""
    passing = [j for p, j in zip(people, judge, strict=True) if p]
    failing = [j for p, j in zip(people, judge, strict=True) if not p]
    tpr = sum(passing) / len(passing) if passing else math.nan
    tnr = sum(1 - j for j in failing) / len(failing) if failing else math.nan  # 1 - j: a score counts as graded
    return tpr, tnr, len(passing), len(failing)


def estimate_pass_rate(people: Sequence[bool], judge_on_labelled: Sequence[bool] | Sequence[float],
                       judge_on_all: Sequence[bool] | Sequence[float],
                       method: str = "ppi", level: float = 0.95, *, lam: float | None = None) -> PassRateResult:
    """The share of a system's answers that pass, with an interval at ``level`` (see the module for each method).

        labels:       θ̂ = mean(people),  Wilson's interval
        ppi:          θ̂ = λ·mean(judge_on_all) + mean(people − λ·judge_on_labelled)
                      Var = λ²·Var(judge_on_all)/N + Var(people − λ·judge_on_labelled)/n;  λ = None: PPI++'s tuned λ
        rogan_gladen: θ̂ = (p_obs + TNR − 1)/(TPR + TNR − 1), delta-method interval

    ``people``: people's verdicts on the labelled answers (True: the answer passes); ``judge_on_labelled``: the
    judge's verdicts on those same answers, in the same order; ``judge_on_all``: the judge's verdicts on every
    answer of the system. ``method``: ``"labels"``, ``"ppi"`` (the default) or ``"rogan_gladen"``. ``lam``
    (``"ppi"`` only): None tunes λ (PPI++); 1 is classic PPI; 0 is labels alone with a normal interval.

    Returns a :class:`PassRateResult`: ``score``, ``ci``, ``level``, ``values`` (the named intermediates,
    ``tpr``/``tnr`` included), ``steps`` (the method's steps as a table), ``explain()``, ``to_dict()``,
    ``lookup()`` and ``labels_needed(half_width)``."""
    if not isinstance(method, str) or method not in METHODS:
        raise InputError("method", "one of " + ", ".join(repr(m) for m in METHODS), method)
    y = _verdicts("people", people)
    graded = method in ("ppi", "labels")  # a score in [0, 1] may stand for the judge's verdict (not Rogan-Gladen)
    f = _verdicts("judge_on_labelled", judge_on_labelled, graded)
    if len(f) != len(y):
        raise InputError("judge_on_labelled", f"one verdict per labelled answer ({len(y)}, as in people)", f"{len(f)} verdicts")
    f_all = _verdicts("judge_on_all", judge_on_all, graded)
    level = number("level", level, "a confidence level strictly between 0 and 1, e.g. 0.95", low=0.0, high=1.0,
                   low_open=True, high_open=True)
    if lam is not None and method != "ppi":
        raise InputError("lam", "None (lam only applies to method='ppi')", lam)
    lam = optional_number("lam", lam, "None (tuned, PPI++) or a number from 0 (labels alone) to 1 (classic PPI)",
                          low=0.0, high=1.0)
    n, big_n = len(y), len(f_all)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    tpr, tnr, n_pass, n_fail = _rates(y, f)
    share, judge_share = sum(y) / n, sum(f_all) / big_n
    base = {"method": method, "labelled": n, "system_answers": big_n, "people_share": share,
            "judge_share_all": judge_share, "judge_share_labelled": sum(f) / n, "tpr": tpr, "tnr": tnr, "z": z}
    build = {"labels": _labels, "ppi": _ppi, "rogan_gladen": _rogan_gladen}[method]
    return build(y, f, f_all, z, level, base, lam)


def _result(method: str, score: float, ci: tuple[float, float] | None, level: float, values: dict[str, Any],
            rows: list[dict[str, Any]], narrative: list[str], formula: str, notes: list[str],
            how: str) -> PassRateResult:
    names = {"labels": "pass rate (labels alone)", "ppi": "pass rate (prediction-powered)",
             "rogan_gladen": "pass rate (Rogan-Gladen)"}
    return PassRateResult(metric=names[method], score=score, ci=ci, level=level, method=how if ci else "",
                          values=values, tables={"steps": (("step", "quantity", "value"), rows)},
                          narrative=narrative, formula=formula, notes=notes + [f"Assumes: {METHODS[method]}."])


def _labels(y: list[bool], f: list[bool], f_all: list[bool], z: float, level: float, base: dict[str, Any],
            lam: float | None) -> PassRateResult:
    n, k = len(y), sum(y)
    theta = k / n
    centre = (theta + z * z / (2 * n)) / (1 + z * z / n)
    half = wilson_half_width(theta, n, z)
    ci = (_clip(centre - half), _clip(centre + half))
    se = math.sqrt(theta * (1 - theta) / n)
    rows = [{"step": 1, "quantity": "labelled answers people passed", "value": f"{k} of {n}"},
            {"step": 2, "quantity": "estimate θ = k/n", "value": theta},
            {"step": 3, "quantity": "standard error sqrt(θ(1-θ)/n)", "value": se},
            {"step": 4, "quantity": f"Wilson {fmt(100 * level)}% interval", "value": f"[{fmt(ci[0])}, {fmt(ci[1])}]"}]
    narrative = [f"People passed {k} of the {n} labelled answers: θ = {fmt(theta)}.",
                 f"Variance θ(1-θ)/n: standard error {fmt(se)}; Wilson's interval [{fmt(ci[0])}, {fmt(ci[1])}]."]
    notes = ["The judge's verdicts are not used: its rates are in values for comparison."]
    return _result("labels", theta, ci, level, {**base, "se": se, "wilson_centre": centre}, rows, narrative,
                   rf"\hat\theta = \frac{{k}}{{n}} = \frac{{{k}}}{{{n}}} = {fmt(theta)}", notes,
                   "Wilson score interval")


def _ppi(y: list[bool], f: list[bool], f_all: list[bool], z: float, level: float, base: dict[str, Any],
         lam: float | None) -> PassRateResult:
    n, big_n = len(y), len(f_all)
    yv, fv, av = [float(v) for v in y], [float(v) for v in f], [float(v) for v in f_all]
    notes: list[str] = []
    tuned = lam is None
    if lam is None:   # PPI++'s power tuning, as ppi_py computes it for a mean
        my, mf = fmean(yv), fmean(fv)
        cov = fmean([(a - my) * (b - mf) for a, b in zip(yv, fv, strict=True)])
        var_f = _var(fv + av) * (n + big_n) / (n + big_n - 1) if n + big_n > 1 else 0.0
        if var_f <= 0:
            lam = 0.0
            notes.append("The judge gave every answer the same verdict: it carries no information, so λ = 0 "
                         "(people's share alone).")
        else:
            lam = min(1.0, max(0.0, cov / ((1 + n / big_n) * var_f)))
    rectifier = fmean([a - lam * b for a, b in zip(yv, fv, strict=True)])
    imputed = lam * fmean(av)
    raw = imputed + rectifier
    se_imputed = math.sqrt(_var([lam * v for v in av]) / big_n)
    se_rectifier = math.sqrt(_var([a - lam * b for a, b in zip(yv, fv, strict=True)]) / n)
    se = math.sqrt(se_imputed ** 2 + se_rectifier ** 2)
    theta = _clip(raw)
    if theta != raw:
        notes.append(f"The estimate {fmt(raw)} fell outside [0, 1] and was clipped.")
    ci: tuple[float, float] | None = None
    unclipped = None
    if n >= 2 and se > 0:
        unclipped = (raw - z * se, raw + z * se)
        ci = (_clip(unclipped[0]), _clip(unclipped[1]))
    elif n >= 2:   # e.g. people passed every labelled answer and λ = 0: a width-0 interval would claim certainty
        notes.append(f"No spread was measured (people {'passed' if y[0] else 'failed'} all {n} labelled answers and "
                     f"λ·judge adds none), so a normal interval would have width 0 and claim certainty: no "
                     f"interval. Read Wilson's interval from the labels alone (method='labels'), which stays "
                     f"honest here.")
    else:
        notes.append("One labelled answer: no variance of the disagreement can be measured, so no interval.")
    values = {**base, "lam": lam, "lam_tuned": tuned, "imputed": imputed, "rectifier": rectifier,
              "estimate_unclipped": raw, "se_imputed": se_imputed, "se_rectifier": se_rectifier, "se": se,
              "ci_unclipped": unclipped}
    rows = [{"step": 1, "quantity": f"λ ({'tuned, PPI++' if tuned else 'given'})", "value": lam},
            {"step": 2, "quantity": f"judge's pass rate on all {big_n} answers, times λ", "value": imputed},
            {"step": 3, "quantity": f"rectifier: mean(people - λ·judge) on {n} labelled", "value": rectifier},
            {"step": 4, "quantity": "estimate θ = step 2 + step 3", "value": raw},
            {"step": 5, "quantity": "standard error sqrt(se_all² + se_labelled²)", "value": se},
            {"step": 6, "quantity": f"normal {fmt(100 * level)}% interval",
             "value": "none" if ci is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]"}]
    narrative = [f"The judge passes {fmt(base['judge_share_all'])} of all {big_n} answers; λ = {fmt(lam, 3)}"
                 + (" (tuned to make the interval narrowest)." if tuned else "."),
                 f"On the {n} labelled answers people pass {fmt(base['people_share'])} and the judge "
                 f"{fmt(base['judge_share_labelled'])}: the rectifier mean(people - λ·judge) is {fmt(rectifier)}.",
                 f"θ = λ·{fmt(base['judge_share_all'])} + {fmt(rectifier)} = {fmt(raw)}; standard error {fmt(se)} "
                 f"({fmt(se_imputed)} from the judged answers, {fmt(se_rectifier)} from the labelled ones)."]
    formula = (rf"\hat\theta = \lambda\,\bar f_{{all}} + \overline{{(y - \lambda f)}}_{{lab}} = "
               rf"{fmt(lam, 3)} \cdot {fmt(base['judge_share_all'])} + {fmt(rectifier)} = {fmt(raw)}")
    return _result("ppi", theta, ci, level, values, rows, narrative, formula, notes,
                   "normal (CLT) interval, " + ("PPI++ tuned λ" if tuned else f"λ = {fmt(lam)}"))


def _rogan_gladen(y: list[bool], f: list[bool], f_all: list[bool], z: float, level: float, base: dict[str, Any],
                  lam: float | None) -> PassRateResult:
    big_n = len(f_all)
    tpr, tnr = base["tpr"], base["tnr"]
    n_pass, n_fail = sum(y), len(y) - sum(y)
    p = base["judge_share_all"]
    j = tpr + tnr - 1 if not math.isnan(tpr + tnr) else math.nan
    notes: list[str] = []
    raw = theta = se = math.nan
    ci: tuple[float, float] | None = None
    unclipped = None
    if math.isnan(j):
        notes.append(f"The labelled answers hold {n_pass} passing and {n_fail} failing: TPR and TNR need both, "
                     "so the correction is undefined (NaN).")
    elif j <= 0:
        notes.append(f"J = TPR + TNR - 1 = {fmt(j)} is not above 0: the judge is no better than chance, so its "
                     "verdicts say nothing about the pass rate (NaN).")
    else:
        raw = (p + tnr - 1) / j
        theta = _clip(raw)
        if theta != raw:
            notes.append(f"The formula gave {fmt(raw)}, outside [0, 1], and was clipped: the judge's pass rate is "
                         "outside what its measured error rates allow.")
        var = (p * (1 - p) / big_n + theta ** 2 * tpr * (1 - tpr) / n_pass
               + (1 - theta) ** 2 * tnr * (1 - tnr) / n_fail) / (j * j)
        se = math.sqrt(var)
        if len(y) >= 2:
            unclipped = (raw - z * se, raw + z * se)
            ci = (_clip(unclipped[0]), _clip(unclipped[1]))
        if tpr in (0.0, 1.0) or tnr in (0.0, 1.0):
            notes.append("A measured rate of 0 or 1 has no sampling variance in the delta method: the interval is "
                         "too narrow; label more answers.")
    values = {**base, "j": j, "p_obs": p, "estimate_unclipped": raw, "se": se, "ci_unclipped": unclipped,
              "passing_labels": n_pass, "failing_labels": n_fail}
    rows = [{"step": 1, "quantity": f"p_obs: judge passes, of all {big_n} answers", "value": p},
            {"step": 2, "quantity": f"TPR: of {n_pass} passing labelled answers, judge passes", "value": tpr},
            {"step": 3, "quantity": f"TNR: of {n_fail} failing labelled answers, judge flags", "value": tnr},
            {"step": 4, "quantity": "J = TPR + TNR - 1", "value": j},
            {"step": 5, "quantity": "θ = (p_obs + TNR - 1) / J", "value": raw},
            {"step": 6, "quantity": "standard error (delta method)", "value": se},
            {"step": 7, "quantity": f"{fmt(100 * level)}% interval, clipped to [0, 1]",
             "value": "none" if ci is None else f"[{fmt(ci[0])}, {fmt(ci[1])}]"}]
    narrative = [f"The judge passes p_obs = {fmt(p)} of all {big_n} answers.",
                 f"On the labels it passes {fmt(tpr)} of the passing answers (TPR) and flags {fmt(tnr)} of the "
                 f"failing ones (TNR): J = {fmt(j)}.",
                 f"θ = ({fmt(p)} + {fmt(tnr)} - 1) / {fmt(j)} = {fmt(raw)}, if these error rates hold for every "
                 "answer."]
    formula = (rf"\theta = \frac{{p_{{obs}} + \mathrm{{TNR}} - 1}}{{\mathrm{{TPR}} + \mathrm{{TNR}} - 1}} = "
               rf"\frac{{{fmt(p)} + {fmt(tnr)} - 1}}{{{fmt(tpr)} + {fmt(tnr)} - 1}} = {fmt(raw)}")
    return _result("rogan_gladen", theta, ci, level, values, rows, narrative, formula, notes,
                   "delta method, clipped to [0, 1]")
