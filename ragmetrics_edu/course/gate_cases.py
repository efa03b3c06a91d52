"""The regression gate's inputs in the course: recorded judge runs and constructed cases.

Recorded (qwen2.5-coder-1.5b, replayed from ``data/recordings/judge_study/``):

- :func:`repeat_runs`: the same ten answers (the first five pairs of the labelled set) judged three times at
  temperature 0 and three times at 0.7, each run with its own seed (:data:`.judge_study.passes.REPEATS`);
- :func:`recorded_noise`: the judge's run-to-run noise measured from those runs (``regression_gate.judge_noise``);
- :func:`pair_versions`: on the labelled set's pairs, the supported answer (its ``role``) as the accepted
  version and the answer with an unsupported claim as the candidate.

Constructed (numbers written for the exercise, labelled so): :data:`CASES`, small gates where the naive reading
(a mean against a bar, or two means) and the paired gate part.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..regression_gate import GateResult, JudgeNoise, gate, judge_noise
from .judge_study.labels import load_cases
from .judge_study.passes import repeat_passes, rows

__all__ = ["repeat_runs", "recorded_noise", "pair_versions", "CASES", "case_gate", "decision"]

_METRICS = ("context_precision", "faithfulness")


def _metric(metric: Any) -> str:
    if not isinstance(metric, str) or metric not in _METRICS:
        raise InputError("metric", "context_precision or faithfulness (the metrics of the repeat runs)", metric)
    return metric


def repeat_runs(temperature: str = "0.7", metric: str = "faithfulness") -> tuple[list[str], list[list[float]]]:
    """The case ids and each repeat run's per-case scores (cases a run failed on are left out of all)."""
    passes = repeat_passes()
    if not isinstance(temperature, str) or temperature not in passes:
        raise InputError("temperature", "one of " + ", ".join(passes), temperature)
    name = _metric(metric)
    scored = [{r["case"]: r["score"] for r in rows(p) if r["metric"] == name and r["score"] is not None
               and not r["error"]} for p in passes[temperature]]
    common = sorted(set.intersection(*(set(s) for s in scored)))
    return common, [[s[c] for c in common] for s in scored]


def recorded_noise(temperature: str = "0.7", metric: str = "faithfulness") -> JudgeNoise:
    """The recorded judge's run-to-run noise on :func:`repeat_runs`."""
    _, runs = repeat_runs(temperature, metric)
    return judge_noise(runs, source=f"{metric}, temperature {temperature}")


def pair_versions(metric: str = "faithfulness") -> tuple[list[str], list[float], list[float]]:
    """Pair ids, the accepted version's scores (each pair's supported answer, by its ``role``) and the candidate's
    (its answer with an unsupported claim), from the recorded same-items pass; pairs with a failed case left out."""
    name = _metric(metric)
    scores = {r["case"]: r["score"] for r in rows("qwen_same_items") if r["metric"] == name
              and r["score"] is not None and not r["error"]}
    case = {(c.pair, c.role): c.id for c in load_cases() if c.pair is not None}   # (pair, role) -> case id
    pairs = sorted({p for p, _ in case if {case.get((p, "supported")), case.get((p, "unsupported"))} <= set(scores)})
    return pairs, [scores[case[(p, "supported")]] for p in pairs], [scores[case[(p, "unsupported")]] for p in pairs]


#: Constructed cases (not recorded): per-question scores of the accepted and candidate versions on
#: the same 20 questions, the team's bar and margin, and which judge noise applies ("0": the judge at
#: temperature 0; "0.7": at 0.7, both measured by :func:`recorded_noise`).
CASES: dict[str, dict[str, Any]] = {
    # the candidate clears the bar, but it is worse than the accepted version on nearly every question
    "clears the bar": {
        "accepted": [0.95, 0.90, 1.00, 0.85, 0.90, 0.95, 0.80, 0.90, 1.00, 0.85,
                     0.90, 0.95, 0.85, 0.90, 0.80, 1.00, 0.90, 0.85, 0.95, 0.90],
        "candidate": [0.80, 0.75, 0.90, 0.70, 0.80, 0.80, 0.65, 0.80, 0.85, 0.75,
                      0.75, 0.85, 0.70, 0.80, 0.70, 0.85, 0.75, 0.75, 0.80, 0.75],
        "bar": 0.70, "margin": 0.05, "temperature": "0"},
    # the candidate misses the bar, but the questions are hard: it is as good as the accepted version
    "misses the bar": {
        "accepted": [0.60, 0.70, 0.55, 0.75, 0.65, 0.60, 0.70, 0.65, 0.60, 0.70,
                     0.65, 0.60, 0.75, 0.70, 0.55, 0.65, 0.70, 0.60, 0.65, 0.70],
        "candidate": [0.60, 0.70, 0.55, 0.75, 0.65, 0.60, 0.70, 0.60, 0.60, 0.70,
                      0.65, 0.60, 0.75, 0.70, 0.55, 0.65, 0.70, 0.65, 0.60, 0.70],
        "bar": 0.70, "margin": 0.05, "temperature": "0"},
    # the mean drops by more than the margin, with a judge at temperature 0.7, yet the interval of the drop straddles
    # -margin (the recorded noise band at 0.7 is 0: the judge's wobble is in the bootstrap already)
    "drop near the margin": {
        "accepted": [0.50, 0.67, 0.50, 1.00, 0.33, 0.50, 0.67, 0.50, 0.50, 0.67,
                     0.33, 0.50, 1.00, 0.67, 0.50, 0.50, 0.33, 0.67, 0.50, 0.50],
        "candidate": [0.50, 0.50, 0.33, 1.00, 0.33, 0.50, 0.50, 0.50, 0.33, 0.67,
                      0.33, 0.50, 0.67, 0.67, 0.50, 0.33, 0.33, 0.67, 0.50, 0.50],
        "bar": 0.50, "margin": 0.05, "temperature": "0.7"},
}


def case_gate(name: str) -> GateResult:
    """The paired gate on one of :data:`CASES`, with the recorded judge noise of its temperature."""
    if not isinstance(name, str) or name not in CASES:
        raise InputError("name", "one of " + ", ".join(repr(c) for c in CASES), name)
    case = CASES[name]
    return gate(case["candidate"], case["accepted"], noise=recorded_noise(case["temperature"]),
                margin=case["margin"], metric=f"constructed case '{name}'")


def decision(result: GateResult) -> str:
    """The gate's verdict as a shipping decision: ship, don't ship, or cannot tell."""
    if not isinstance(result, GateResult):
        raise InputError("result", "a GateResult (regression_gate.gate)", result)
    return {"PASS": "ship", "FAIL": "don't ship"}.get(result.verdict, "cannot tell")
