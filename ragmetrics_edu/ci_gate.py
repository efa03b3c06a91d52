"""The old name of :mod:`ragmetrics_edu.regression_gate` ("ci" read as continuous integration, and as
confidence interval): it imports, warns, and hands over everything the new module exports."""

from __future__ import annotations

from .deprecation import warn_renamed
from .regression_gate import CANNOT_TELL, FAIL, MIN_QUESTIONS, PASS, GateResult, JudgeNoise, gate, judge_noise

__all__ = ["MIN_QUESTIONS", "PASS", "FAIL", "CANNOT_TELL", "JudgeNoise", "GateResult", "judge_noise", "gate"]

warn_renamed("ragmetrics_edu.ci_gate", "ragmetrics_edu.regression_gate", stacklevel=2)
