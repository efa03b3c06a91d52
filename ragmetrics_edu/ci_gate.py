"""A CI gate on a mean score: fail the build only when the drop is bigger than the noise.

A bare ``assert mean == 0.78`` breaks on the next run of a sampling judge, and
``assert mean >= 0.78`` breaks on a lucky or unlucky draw of questions. The gate here
allows a tolerance: the distance from the mean up to the top of its bootstrap confidence
interval (:func:`ragmetrics_edu.stats.bootstrap_ci`), i.e. how far the mean could sit
below the truth by the luck of which questions were asked. It fails when even the top of
the interval lies below the threshold.

A judge's own run-to-run spread (the same cases scored twice need not score the same)
widens the tolerance: pass ``judge_sd``, the standard deviation of the mean over repeat
runs of the judge, and it is added in quadrature. The default is None: the tolerance is then
the bootstrap's alone.

The course's example gate (``ragmetrics_edu/course/ci_gate_example.py``) gates the decks'
context-precision cases scored by a recorded judge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from .errors import InputError
from .stats import bootstrap_ci
from .validate import probability


@dataclass(frozen=True)
class GateResult:
    """The gate's numbers: the mean, its interval, the tolerance, and whether it passed.

    ``low`` and ``high`` bound the bootstrap interval of the mean (``ci`` gives both) at
    confidence ``level``."""

    metric: str
    threshold: float
    n: int
    mean: float
    low: float
    high: float
    level: float
    judge_sd: float | None

    @property
    def ci(self) -> tuple[float, float]:
        """The bootstrap interval of the mean, ``(low, high)``."""
        return self.low, self.high

    @property
    def tolerance(self) -> float:
        """How far below the threshold the mean may fall and still pass."""
        sampling = self.high - self.mean
        return math.hypot(sampling, self.judge_sd or 0.0)

    @property
    def passed(self) -> bool:
        """True when mean + tolerance reaches the threshold."""
        return self.mean + self.tolerance >= self.threshold

    def explain(self) -> str:
        """Three short lines: the mean and its interval, the tolerance, the verdict."""
        judge = ("judge's run-to-run spread not measured, not included" if self.judge_sd is None
                 else f"with the judge's run-to-run sd of the mean, {self.judge_sd:.4f}, in quadrature")
        return (f"{self.metric}: mean {self.mean:.4f} over {self.n} cases, "
                f"{100 * self.level:.0f}% bootstrap interval [{self.low:.4f}, {self.high:.4f}]\n"
                f"  tolerance {self.tolerance:.4f} ({judge})\n"
                f"  {self.mean:.4f} + {self.tolerance:.4f} = {self.mean + self.tolerance:.4f} "
                f"{'>=' if self.passed else '<'} threshold {self.threshold:.4f}: {'PASS' if self.passed else 'FAIL'}")

    def __str__(self) -> str:
        return self.explain()


def gate(scores: Iterable[float], threshold: float, *, metric: str = "score", ci: float = 0.95,
         n_resamples: int = 2000, seed: int = 0, judge_sd: float | None = None) -> GateResult:
    """Check ``mean(scores)`` against ``threshold`` with a bootstrap tolerance (see the module).

    ``ci`` is the confidence level of the interval (the result's ``level``)."""
    threshold_value = probability("threshold", threshold, allow_none=False)
    assert threshold_value is not None
    if judge_sd is not None and (isinstance(judge_sd, bool) or not isinstance(judge_sd, (int, float))
                                 or not math.isfinite(judge_sd) or judge_sd < 0):
        raise InputError("judge_sd", "None or a finite standard deviation >= 0", judge_sd)
    values = list(scores) if isinstance(scores, Iterable) and not isinstance(scores, (str, bytes)) else scores
    result = bootstrap_ci(values, ci=ci, n_resamples=n_resamples, seed=seed)
    assert result.ci is not None  # bootstrap_ci always sets one
    low, high = result.ci
    return GateResult(metric=metric, threshold=threshold_value, n=len(result.rows), mean=result.estimate,
                      low=low, high=high, level=ci, judge_sd=None if judge_sd is None else float(judge_sd))
