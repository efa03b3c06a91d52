"""A regression gate: is the candidate version worse than the last accepted one, on the same questions?

A gate that compares one mean with a bar (``assert mean >= 0.70``) asks the wrong question. The
bar says nothing about what the system scored before, and the luck of which questions are in the
golden set moves both versions together, so it cancels only when the two are compared question by
question. This gate is a **paired** comparison:

1. Score the candidate and the last accepted version on the same questions; take the per-question
   differences ``d = candidate − accepted`` and their mean.
2. **Question sampling.** A paired percentile bootstrap of the mean difference
   (:func:`ragmetrics_edu.stats.paired_bootstrap`: the questions are resampled with both versions'
   scores together), at confidence ``level``. The exact sign test (:func:`ragmetrics_edu.stats.sign_test`)
   counts how many questions got better and worse, whatever the size of the change.
3. **The judge's own noise, counted once.** A judge scored twice on the same answers need not give
   the same scores. Measure it: score the accepted version again (two or more repeat runs on the same
   questions) and pass the runs to :func:`judge_noise`. Its noise has two parts:

   - **per question**: each answer's score wobbles on its own (``per_question_sd``). Each per-question
     difference ``d`` already carries this wobble from both runs, so the bootstrap of step 2, which
     resamples the questions, already counts it, at the gate's own number of questions: it is not
     added again;
   - **per run**: a shift that moves every score of a run together (``shift_sd``), which resampling
     questions cannot see. From repeat runs on n questions, a score's variance across runs is
     ``w = σ² + τ²`` and the run means' variance ``V = τ² + σ²/n``, so ``shift_sd² = τ² = (V − w/n)·n/(n − 1)``
     (0 when negative) and ``per_question_sd² = σ² = w − τ²``. A difference of two
     single runs carries two shifts, so its **noise band** is ``z · shift_sd · √2`` (z = 1.96 at 95 %):
     a 95 % range, not a maximum. It does not shrink with more questions.
   - **how well the runs pin the shift down**: with k runs the run means' sd has k − 1 degrees of
     freedom, so three runs barely determine it. :meth:`JudgeNoise.shift_upper` gives the upper end of
     a 95 % interval of the run means' sd (χ² with k − 1 degrees of freedom; it bounds the shift,
     since τ² ≤ V): pass it as ``noise=`` for a conservative gate, or measure more runs.
4. The **interval** the gate decides on joins the bootstrap interval and the noise band in quadrature
   (independent sources of error): ``[d̄ − √(lower half-width² + band²), d̄ + √(upper half-width² + band²)]``.
   ``groups=`` (one label per question) resamples groups instead of questions, when several questions
   share a unit (two answers of one pair): under 10 groups there is no interval, and the sign test
   counts groups too (each group's mean candidate and accepted score), so both tests count the same units.

The rule, with ``margin`` the largest drop the team accepts as "no regression" (set before the run):

- **FAIL** (a regression) when the whole interval lies below ``−margin``: even its upper end is a
  drop larger than the margin;
- **PASS** when the whole interval lies above ``−margin``: even its lower end is a smaller drop;
- **CANNOT TELL** otherwise: the data allow both. Collect more questions (the bootstrap half-width
  shrinks) or more repeat runs (the noise estimate firms up), or run the judge at temperature 0.

With fewer than :data:`MIN_QUESTIONS` questions the gate gives no interval and says CANNOT TELL:
too few questions to tell. Under :data:`FIRM_QUESTIONS` a percentile bootstrap interval tends to run
too narrow (it covers the true difference less often than its level says), so the explanation warns
that a PASS or FAIL there is weaker than it looks.

A gate in CI should ship only on PASS: the candidate shown no worse than the margin
(non-inferiority). CANNOT TELL is not a pass (:attr:`GateResult.passed` is False). The course's example gate (``ragmetrics_edu/course/regression_gate_example.py``)
runs this on recordings of a real judge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, ClassVar, Sequence

from .errors import InputError
from .plots import figure_and_axes
from .results import Result, jsonable
from .stats import grouped_bootstrap_ci, inputs, paired_bootstrap, sign_test
from .validate import as_list, number, same_length

__all__ = ["MIN_QUESTIONS", "FIRM_QUESTIONS", "PASS", "FAIL", "CANNOT_TELL", "JudgeNoise", "GateResult", "judge_noise", "gate"]

#: Below this many questions the gate gives no interval: too few to tell.
MIN_QUESTIONS = 10
#: Under this many questions (or groups) a percentile bootstrap interval tends to run too narrow.
FIRM_QUESTIONS = 30
PASS, FAIL, CANNOT_TELL = "PASS", "FAIL", "CANNOT TELL"


@dataclass(frozen=True)
class JudgeNoise:
    """How much the judge's scores move between repeat runs on the same answers (see the module, step 3).

    ``run_sd`` is the sample standard deviation of the run means; ``per_question_sd`` the root of the mean
    per-question variance across runs; ``shift_sd`` the per-run shift, the only part the gate adds to its
    bootstrap; ``run_means`` the means (empty when ``shift_sd`` was given as a number measured elsewhere)."""

    run_sd: float
    run_means: tuple[float, ...] = ()
    questions: int = 0
    source: str = ""
    per_question_sd: float = 0.0
    shift_sd: float | None = None

    @property
    def shift(self) -> float:
        """The per-run shift's sd (``run_sd`` when only that was given)."""
        return self.run_sd if self.shift_sd is None else self.shift_sd

    @property
    def runs(self) -> int:
        return len(self.run_means)

    def shift_upper(self, level: float = 0.95) -> float:
        """A conservative per-run shift sd: the upper end of a ``level`` interval of the run means' sd.

        With k runs, (k − 1)·s²/σ² follows χ² with k − 1 degrees of freedom, so the upper end is
        s·√((k − 1)/χ²_lower), χ²_lower its (1 − level)/2 quantile. The run means' variance holds the
        shift and the averaged wobble (V = τ² + σ²/n ≥ τ²), so this bounds the shift too. Without
        measured runs (a number given) it returns the number."""
        level = inputs.ci_level(level)
        if self.runs < 2:
            return self.shift
        df = self.runs - 1
        return self.run_sd * math.sqrt(df / _chi2_quantile((1 - level) / 2, df))

    def describe(self) -> str:
        where = f" ({self.source})" if self.source else ""
        if not self.run_means:
            return f"per-run shift sd {self.shift:.4f}, given{where}"
        means = ", ".join(f"{m:.3f}" for m in self.run_means)
        return (f"{self.runs} repeat runs on {self.questions} questions{where}\n    run means {means}\n"
                f"    per question sd {self.per_question_sd:.4f} (in the bootstrap already); "
                f"per-run shift sd {self.shift:.4f}\n"
                f"    {self.bound_note()}")

    def bound_note(self) -> str:
        """One line on how well the runs pin the shift down. Identical run means give no bound: the χ² bound
        scales the observed sd, so it is 0 too, which says only that these runs did not move."""
        if self.runs < 2:
            return f"per-run shift sd {self.shift:.4f}, given, not measured here"
        if self.run_sd == 0:
            return f"{self.runs} identical run means: no bound (a χ² bound scales their spread, 0 here); more runs test it"
        return (f"from {self.runs} runs the shift is poorly known: upper end of a 95% interval "
                f"{self.shift_upper():.4f} (χ², {self.runs - 1} df)")


def judge_noise(runs: Any, *, source: str = "") -> JudgeNoise:
    """The judge's run-to-run noise from repeat runs of one version on the same questions.

        w = mean over questions of a score's variance across runs   (σ² + τ²)
        V = variance of the run means                                 (τ² + σ²/n)
        shift_sd² = τ² = max(0, (V − w/n) · n/(n − 1)),   per_question_sd² = σ² = w − τ²

    ``runs`` holds two or more runs, each a list of per-question scores in the same question
    order (the same answers judged again). ``source`` says where the runs come from."""
    items = as_list("runs", runs, "two or more repeat runs, each a list of per-question scores")
    if len(items) < 2:
        raise InputError("runs", "two or more repeat runs (one run shows no spread)", runs)
    scored = [inputs.scores(f"runs[{i}]", run) for i, run in enumerate(items)]
    for i, run in enumerate(scored[1:], 1):
        same_length("runs[0]", scored[0], f"runs[{i}]", run)
    if not isinstance(source, str):
        raise InputError("source", "a string saying where the runs come from", source)
    means = tuple(math.fsum(run) / len(run) for run in scored)
    centre = math.fsum(means) / len(means)
    run_var = math.fsum((m - centre) ** 2 for m in means) / (len(means) - 1)
    n = len(scored[0])
    # a score's spread across runs holds both parts (w = sigma^2 + tau^2) and a run mean's spread holds the shift
    # and the wobble averaged over n questions (V = tau^2 + sigma^2 / n): solved for the two
    within = math.fsum(_variance([run[q] for run in scored]) for q in range(n)) / n
    shift_var = run_var if n == 1 else max(0.0, (run_var - within / n) * n / (n - 1))
    return JudgeNoise(run_sd=math.sqrt(run_var), run_means=means, questions=n, source=source,
                      per_question_sd=math.sqrt(max(0.0, within - shift_var)), shift_sd=math.sqrt(shift_var))


def _chi2_quantile(p: float, df: int) -> float:
    """The p quantile of χ² with ``df`` degrees of freedom, by bisection on its distribution function."""
    def cdf(x: float) -> float:  # the regularised lower incomplete gamma P(df/2, x/2), by its series
        a, half = df / 2, x / 2
        term = total = 1 / a
        k = 0
        while term > total * 1e-15:
            k += 1
            term *= half / (a + k)
            total += term
        return math.exp(-half + a * math.log(half) - math.lgamma(a)) * total
    low, high = 0.0, max(1.0, 10.0 * df)
    while cdf(high) < p:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < p else (low, mid)
    return (low + high) / 2


def _variance(values: list[float]) -> float:
    centre = math.fsum(values) / len(values)
    return math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1)


def _noise(value: Any) -> JudgeNoise:
    if isinstance(value, JudgeNoise):
        return value
    if value is None:
        raise InputError("noise", "the judge's measured noise: judge_noise(repeat runs), or a run-to-run sd >= 0 "
                         "(0 only if repeat runs gave identical scores)", value,
                         hint="score the accepted version again and pass the runs to judge_noise()")
    shift = number("noise", value, "a JudgeNoise or a per-run shift sd, a number >= 0", low=0.0, high=1e6)
    return JudgeNoise(run_sd=shift, shift_sd=shift)


@dataclass(frozen=True)
class GateResult(Result):
    """The gate's numbers and verdict (see the module for the rule), in the vocabulary of every result.

    ``score`` is the mean difference candidate − accepted; ``ci`` the interval the gate decides on
    (question sampling and judge noise together) at confidence ``level``, None with fewer than
    :data:`MIN_QUESTIONS` questions; ``sampling_ci`` the paired bootstrap's alone; ``noise_band`` the
    half-width judge noise alone gives a difference; ``steps`` the per-question table;
    :meth:`explain` the numbers behind the verdict as plain text."""

    metric: str
    ids: tuple[Any, ...]
    candidate: tuple[float, ...]
    accepted: tuple[float, ...]
    margin: float
    level: float
    noise: JudgeNoise
    noise_band: float
    sampling_ci: tuple[float, float] | None
    ci: tuple[float, float] | None
    better: int
    worse: int
    same: int
    sign_p: float
    verdict: str
    reason: str
    bootstrap: Any = field(default=None, repr=False, compare=False)
    groups: tuple[Any, ...] = ()
    kind: ClassVar[str] = "regression gate"

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def differences(self) -> tuple[float, ...]:
        return tuple(c - a for c, a in zip(self.candidate, self.accepted, strict=True))

    @property
    def mean_candidate(self) -> float:
        return math.fsum(self.candidate) / self.n

    @property
    def mean_accepted(self) -> float:
        return math.fsum(self.accepted) / self.n

    @property
    def mean_difference(self) -> float:
        return math.fsum(self.differences) / self.n

    @property
    def score(self) -> float:
        """The mean difference candidate − accepted (what the interval is about)."""
        return self.mean_difference

    @property
    def values(self) -> dict[str, Any]:
        """The named numbers behind the verdict."""
        return {"n": self.n, "mean_candidate": self.mean_candidate, "mean_accepted": self.mean_accepted,
                "better": self.better, "worse": self.worse, "same": self.same, "sign_p": self.sign_p,
                "margin": self.margin, "noise_band": self.noise_band, "shift_sd": self.noise.shift,
                "per_question_sd": self.noise.per_question_sd}

    @property
    def notes(self) -> list[str]:
        return [f"{self.verdict}: {self.reason}"]

    def _step_table(self) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
        rows = [{"question": q, "candidate": c, "accepted": a, "difference": c - a}
                for q, c, a in zip(self.ids, self.candidate, self.accepted, strict=True)]
        if self.groups:
            rows = [dict(row, group=g) for row, g in zip(rows, self.groups, strict=True)]
        return ("question", "candidate", "accepted", "difference", *(("group",) if self.groups else ())), rows

    def headline(self) -> str:
        """One sentence: the verdict, the mean difference and the interval it was decided on."""
        interval = "no interval" if self.ci is None else f"interval [{self.ci[0]:+.4f}, {self.ci[1]:+.4f}]"
        return f"{self.metric}: {self.verdict}; mean difference {self.mean_difference:+.4f}, {interval}."

    def _own_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "reason": self.reason, "sampling_ci": jsonable(self.sampling_ci),
                "noise": {"run_sd": self.noise.run_sd, "shift_sd": self.noise.shift,
                          "per_question_sd": self.noise.per_question_sd, "runs": self.noise.runs,
                          "source": self.noise.source}}

    @property
    def passed(self) -> bool:
        """True only for PASS (CANNOT TELL is not a pass)."""
        return self.verdict == PASS

    @property
    def failed(self) -> bool:
        """True only for FAIL: a regression beyond the margin and the judge's noise."""
        return self.verdict == FAIL

    def explain(self) -> str:
        """The numbers behind the verdict, in lines of at most 100 characters."""
        pct = f"{100 * self.level:g}%"
        lines = [f"{self.metric}: candidate vs last accepted, on the same {self.n} questions",
                 f"  means: candidate {self.mean_candidate:.4f}, accepted {self.mean_accepted:.4f}; "
                 f"mean difference {self.mean_difference:+.4f}",
                 f"  per {'group' if self.groups else 'question'}: {self.better} better, {self.worse} worse, "
                 f"{self.same} same; "
                 f"sign test p = {self.sign_p:.3f}",
                 f"  judge noise: {self.noise.describe()}",
                 f"    -> noise band on a difference: ±{self.noise_band:.4f} ({pct} range of two runs' shifts, "
                 "z · shift sd · √2)"]
        if self.ci is None or self.sampling_ci is None:
            unit = f"groups ({len(set(self.groups))})" if self.groups else "questions"
            lines.append(f"  no interval: fewer than {MIN_QUESTIONS} {unit}")
        else:
            lo, hi = self.sampling_ci
            unit = "groups" if self.groups else "questions"
            lines += [f"  {pct} paired bootstrap interval ({unit} resampled): [{lo:+.4f}, {hi:+.4f}]",
                      f"  with the noise band in quadrature: [{self.ci[0]:+.4f}, {self.ci[1]:+.4f}]",
                      f"  rule: FAIL if it lies below -margin ({-self.margin:+.4f}), PASS if above, "
                      "else CANNOT TELL"]
        units = len(set(self.groups)) if self.groups else self.n
        if self.ci is not None and units < FIRM_QUESTIONS:
            lines.append(f"  caution: under {FIRM_QUESTIONS} units ({units}) a percentile bootstrap runs narrow: "
                         f"PASS or FAIL is weaker than {pct}")
        lines.append(f"  {self.verdict}: {self.reason}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()

    def plot(self, ax: Any = None):
        """Per-question differences as dots, the mean with both intervals, the margin and the noise band."""
        fig, ax = figure_and_axes(ax, figsize=(7.5, 3.4))
        d = self.differences
        ys = [i + 1 for i in range(self.n)]
        if self.noise_band > 0:
            ax.axvspan(-self.noise_band, self.noise_band, color="#e9c46a", alpha=0.35, label="judge noise band")
        ax.axvline(0, color="#555555", linewidth=1)
        ax.axvline(-self.margin, color="#e76f51", linestyle="--", linewidth=1.5, label=f"−margin ({-self.margin:g})")
        ax.scatter(d, ys, s=22, color="#264653", zorder=3, label="per-question difference")
        y0 = -1  # the mean sits one row below the first question, so their labels never touch
        if self.ci is not None and self.sampling_ci is not None:
            ax.plot(self.ci, [y0, y0], color="#2a9d8f", linewidth=2, label="interval with judge noise")
            ax.plot(self.sampling_ci, [y0, y0], color="#2a9d8f", linewidth=6, alpha=0.6,
                    label="bootstrap interval")
        ax.plot([self.mean_difference], [y0], marker="D", color="#2a9d8f", markersize=8, zorder=4)
        ax.set_yticks([y0] + ys[:: max(1, self.n // 10)])
        ax.set_yticklabels(["mean"] + [str(self.ids[i - 1]) for i in ys[:: max(1, self.n // 10)]], fontsize=8)
        ax.set_xlabel("candidate − accepted")
        ax.set_title(f"{self.metric}: {self.verdict} (n = {self.n})", fontsize=10)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        fig.tight_layout()
        return fig

    figure = plot


def _decide(n: int, ci: tuple[float, float] | None, margin: float) -> tuple[str, str]:
    if ci is None:
        return CANNOT_TELL, f"{n} independent units are too few to tell (at least {MIN_QUESTIONS}); collect more"
    low, high = ci
    if high < -margin:
        return FAIL, f"even the upper end, {high:+.4f}, is a drop larger than the margin {margin:g}"
    if low > -margin:
        return PASS, f"even the lower end, {low:+.4f}, is a drop smaller than the margin {margin:g}"
    return CANNOT_TELL, "the interval straddles -margin: collect more questions or judge repeats"


def gate(candidate: Any, accepted: Any, *, noise: Any, margin: float = 0.05, metric: str = "score",
         ids: Sequence[Any] | None = None, level: float = 0.95, n_resamples: int = 2000, seed: int = 0,
         groups: Sequence[Any] | None = None) -> GateResult:
    """Compare the candidate's per-question scores with the last accepted version's (see the module).

        d_i = candidate_i − accepted_i;  bootstrap interval [lo, hi] of mean(d)
        band = z · shift_sd · √2;  interval = [d̄ − √((d̄ − lo)² + band²), d̄ + √((hi − d̄)² + band²)]
        FAIL when interval < −margin, PASS when interval > −margin, else CANNOT TELL

    ``noise`` is required: :func:`judge_noise` of repeat runs, or a per-run shift sd measured elsewhere
    (a number >= 0). ``margin`` is the largest drop accepted as no regression (0 to 1). ``groups``: one
    label per question when questions share an independent unit (resampled together)."""
    cand, acc = inputs.scores("candidate", candidate), inputs.scores("accepted", accepted)
    same_length("candidate", cand, "accepted", acc)
    measured = _noise(noise)
    margin_value = number("margin", margin, "a number between 0 and 1 (the largest drop accepted)", low=0.0, high=1.0)
    if not isinstance(metric, str) or not metric:
        raise InputError("metric", "a non-empty name for the score", metric)
    level, count, rng_seed = inputs.ci_level(level), inputs.resamples(n_resamples), inputs.seed(seed)
    question = inputs.ids(ids, len(cand))
    units = () if groups is None else tuple(inputs.group_labels("groups", groups, len(cand)))
    labels = ("candidate", "accepted")
    if units:   # one sign per group, as the bootstrap resamples groups: its mean candidate vs accepted score
        order = list(dict.fromkeys(units))
        signs = sign_test([_mean_of(cand, units, g) for g in order], [_mean_of(acc, units, g) for g in order],
                          level=level, labels=labels, ids=order)
    else:
        signs = sign_test(cand, acc, level=level, labels=labels, ids=question)
    z = NormalDist().inv_cdf((1 + level) / 2)
    band = z * measured.shift * math.sqrt(2)
    n = len(cand)
    boot, sampling, combined = None, None, None
    if units:
        boot = grouped_bootstrap_ci([c - a for c, a in zip(cand, acc, strict=True)], list(units), level=level,
                                    n_resamples=count, seed=rng_seed, min_groups=MIN_QUESTIONS)
        sampling = boot.ci
    elif n >= MIN_QUESTIONS:
        boot = paired_bootstrap(cand, acc, level=level, n_resamples=count, seed=rng_seed, labels=labels, ids=question)
        sampling = boot.ci
    if sampling is not None and boot is not None:
        mean = boot.score
        combined = (mean - math.hypot(mean - sampling[0], band), mean + math.hypot(sampling[1] - mean, band))
    verdict, reason = _decide(len(set(units)) if units else n, combined, margin_value)
    return GateResult(metric=metric, ids=tuple(question), candidate=tuple(cand), accepted=tuple(acc),
                      margin=margin_value, level=level, noise=measured, noise_band=band, sampling_ci=sampling,
                      ci=combined, better=signs.values["wins"], worse=signs.values["losses"],
                      same=signs.values["ties"], sign_p=float(signs.p_value or 1.0), verdict=verdict,
                      reason=reason, bootstrap=boot, groups=units)


def _mean_of(scores: Sequence[float], units: Sequence[Any], group: Any) -> float:
    """The mean of the scores whose unit is ``group``."""
    part = [x for x, g in zip(scores, units, strict=True) if g == group]
    return math.fsum(part) / len(part)
