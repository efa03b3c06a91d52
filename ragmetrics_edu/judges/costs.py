"""What a judge's calls cost, by judge step: calls, tokens and seconds per case, and per 1,000 cases.

:func:`measure` adds up the call records of judged results (:func:`ragmetrics_edu.judges.records.tally`
counts them: repairs are calls, cache hits are not), so the numbers are those of whichever judge
ran, e.g. a recording. :func:`cost_per_1000` turns tokens into money at a price per million tokens
the caller gives; :func:`combine` adds several steps' per-case means into one case scored with all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ..errors import InputError
from ..validate import as_list, instance, mapping, number, text, text_list
from .records import tally

__all__ = ["StepCost", "check_costs", "checked_price", "combine", "cost_per_1000", "measure"]


@dataclass(frozen=True)
class StepCost:
    """What one judge step cost over the cases measured: totals, and per case."""

    step: str
    cases: int
    calls: float
    prompt_tokens: float
    completion_tokens: float
    seconds: float

    def per_case(self, field: str) -> float:
        """The mean of ``field`` (calls, prompt_tokens, completion_tokens or seconds) per case."""
        if field not in ("calls", "prompt_tokens", "completion_tokens", "seconds"):
            raise InputError("field", "calls, prompt_tokens, completion_tokens or seconds", field)
        return getattr(self, field) / self.cases


def measure(results: Iterable[tuple[str, Any]]) -> dict[str, StepCost]:
    """Add up the call records of judged results, by step.

    ``results``: pairs (step, result) where ``result.calls`` holds the judge's call records
    (a :class:`~ragmetrics_edu.judges.CallRecord` list); a result that is None (the case
    failed) is skipped. Calls are counted the one way (:func:`ragmetrics_edu.judges.records.tally`):
    repairs count as calls (a repair is a call someone pays for), cache hits do not. Tokens a
    server did not report count as 0.
    """
    totals: dict[str, list[float]] = {}
    pairs = as_list("results", results, "a list of (step, result) pairs", iterators=True)
    for i, pair in enumerate(pairs):
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and isinstance(pair[0], str)):
            raise InputError(f"results[{i}]", "a (step, result) pair", pair)
    for step, result in pairs:
        if result is None:
            continue
        calls = getattr(result, "calls", None)
        if calls is None:
            raise InputError("results", "(step, result) pairs whose result has .calls", result)
        spent = tally(calls)
        row = totals.setdefault(step, [0, 0, 0, 0, 0.0])
        row[0] += 1
        row[1] += spent.calls
        row[2] += spent.prompt_tokens
        row[3] += spent.completion_tokens
        row[4] += spent.latency_s
    return {step: StepCost(step, int(r[0]), int(r[1]), int(r[2]), int(r[3]), float(r[4]))
            for step, r in totals.items()}


def checked_price(field: str, value: Any) -> float:
    """A price in dollars per million tokens: a finite number >= 0."""
    return number(field, value, "a price in dollars per million tokens (a finite number >= 0)", low=0.0)


def check_costs(costs: Any) -> Mapping[str, StepCost]:
    """Measured costs by step, as :func:`measure` returns them."""
    costs = mapping("costs", costs, "costs by step (judges.costs.measure())")
    for step, cost in costs.items():
        instance(f"costs[{step!r}]", cost, StepCost, "a StepCost (judges.costs.measure())")
    return costs


def cost_per_1000(cost: StepCost, price_in: float, price_out: float) -> dict[str, float]:
    """Calls, tokens, money and time for 1,000 cases at the measured per-case rates.

    ``price_in`` and ``price_out``: dollars per million prompt and completion tokens.
    ``hours`` is the recorded latency times 1,000, one call at a time: the time on the
    machine that made the records, not on another.
    """
    price_in, price_out = checked_price("price_in", price_in), checked_price("price_out", price_out)
    cost = instance("cost", cost, StepCost, "a StepCost (judges.costs.measure())")
    calls = 1000 * cost.per_case("calls")
    prompt = 1000 * cost.per_case("prompt_tokens")
    completion = 1000 * cost.per_case("completion_tokens")
    return {"calls": calls, "prompt_tokens": prompt, "completion_tokens": completion,
            "dollars": (prompt * price_in + completion * price_out) / 1e6,
            "hours": 1000 * cost.per_case("seconds") / 3600}


def combine(costs: Mapping[str, StepCost], steps: Iterable[str], name: str) -> StepCost:
    """One case scored with several steps: the sum of their per-case means, as a one-case :class:`StepCost`."""
    costs, name = check_costs(costs), text("name", name)
    chosen = list(steps) if isinstance(steps, Mapping) else text_list("steps", steps, iterators=True)
    missing = [s for s in chosen if s not in costs]
    if missing or not chosen:
        raise InputError("steps", "measured steps: " + ", ".join(costs), missing or chosen)
    total = [sum(costs[s].per_case(f) for s in chosen) for f in ("calls", "prompt_tokens", "completion_tokens")]
    seconds = sum(costs[s].per_case("seconds") for s in chosen)
    return StepCost(name, 1, total[0], total[1], total[2], seconds)
