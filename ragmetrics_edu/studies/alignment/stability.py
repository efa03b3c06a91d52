"""How stable the support design's verdicts are when the judge samples: the same sentence asked k times.

At temperature 0 a verdict is a fixed function of the prompt. Sampled (as a judge with a temperature above 0
answers, and as votes are), the yes/no of a sentence whose p(yes) sits near one half is a coin. The ``stability``
pass asks every sentence of the first :data:`SOURCES` dev sources :data:`RUNS` times, each at
:data:`~ragmetrics_edu.designs.common.SAMPLE_TEMPERATURE` with a seed of its own, and :func:`flip_rates` counts:

- a sentence **flips** when its runs do not all give the same word;
- an answer flips when its verdict (flagged: some sentence said no) differs between runs; how many answers every
  run flags is counted too (a verdict that never moves because it is always "flagged" is stable and useless);
- the flip rate the recorded p(yes) predicts: at temperature T, yes has p_T = p^(1/T) / (p^(1/T) + (1-p)^(1/T)),
  and k runs disagree with probability 1 - p_T^k - (1-p_T)^k (derived, assuming the server samples from the two
  words alone).
"""

from __future__ import annotations

import math
from typing import Any

from ...designs.common import SAMPLE_TEMPERATURE
from ...designs.faithfulness_support import support_request
from ...errors import InputError
from ...judges.base import Judge
from ...judges.records import CallList
from ...judges.requests import ask, check_judge, finish
from ...results import MetricResult
from ...text import sentence_spans
from ...validate import as_list, integer, number, text, text_list

__all__ = ["RUNS", "SOURCES", "ask_stability", "flip_rates", "predicted_flip", "rule_flags", "stability_figures"]

#: times each sentence is asked
RUNS = 3
#: the first this many RAGTruth dev sources (every answer of each)
SOURCES = 10


def ask_stability(judge: Judge, answer: str, context: list[str], *, question: str = "",
                  answer_id: str = "") -> MetricResult:
    """Ask each sentence of ``answer`` :data:`RUNS` times, sampled; one row per sentence with its words."""
    judge = check_judge(judge)
    answer = text("answer", answer)
    context = text_list("context", context)
    calls = CallList()
    rows: list[dict[str, Any]] = []
    for n, (start, end) in enumerate(sentence_spans(answer), start=1):
        words = [ask(judge, support_request(answer[start:end], context, question=question, sample=run),
                     calls).data["verdict"] for run in range(1, RUNS + 1)]
        rows.append({"sentence": n, "start": start, "end": end, "verdicts": words, "flips": len(set(words)) > 1})
    flipped = sum(r["flips"] for r in rows)
    result = MetricResult(metric="support_stability", score=flipped / len(rows) if rows else math.nan,
                          values={"sentences": len(rows), "flipped": flipped, "runs": RUNS},
                          columns=("sentence", "verdicts", "flips"), rows=rows,
                          formula=r"\text{flipped sentences} / \text{sentences}",
                          narrative=[f"Each of the {len(rows)} sentences was asked {RUNS} times at temperature "
                                     f"{SAMPLE_TEMPERATURE}; {flipped} got both words."])
    result.inputs.update(answer=answer, id=answer_id)
    return finish(result, judge, calls, False)


def predicted_flip(p_yes: float, *, temperature: float = SAMPLE_TEMPERATURE, runs: int = RUNS) -> float:
    """The chance that ``runs`` sampled verdicts disagree, from the temperature-0 p(yes) (see the module)."""
    p_yes = number("p_yes", p_yes, "a probability from 0 to 1", low=0.0, high=1.0)
    temperature = number("temperature", temperature, "a temperature above 0 and at most 10", low=0.0, high=10.0,
                         low_open=True)
    runs = integer("runs", runs, low=1, high=1000, expected="a whole number of runs from 1 to 1000")
    if p_yes in (0.0, 1.0):
        return 0.0
    a, b = p_yes ** (1 / temperature), (1 - p_yes) ** (1 / temperature)
    p = a / (a + b)
    return 1.0 - p ** runs - (1 - p) ** runs


def flip_rates(sampled: list[MetricResult | None], support: list[MetricResult | None]) -> dict[str, Any]:
    """Measured and predicted flip rates over the answers both passes hold (``support``: the temperature-0 pass
    on the same answers, in the same order)."""
    sampled = as_list("sampled", sampled, "a list of stability results (None where not recorded)")
    support = as_list("support", support, "a list of support results (None where not recorded)")
    if any(r is not None and not isinstance(r, MetricResult) for r in [*sampled, *support]):
        raise InputError("sampled/support", "MetricResults or None", "another value")
    if len(sampled) != len(support):
        raise InputError("support", f"one result per sampled answer ({len(sampled)})", len(support))
    sentences = flipped = answers = answers_flipped = flagged_always = 0
    predicted: list[float] = []
    for s, z in zip(sampled, support, strict=True):
        if s is None or z is None or len(s.rows) != len(z.rows):
            continue
        answers += 1
        per_run = [any(r["verdicts"][k] == "no" for r in s.rows) for k in range(RUNS)]
        answers_flipped += len(set(per_run)) > 1
        flagged_always += all(per_run)
        for row, zero in zip(s.rows, z.rows, strict=True):
            sentences += 1
            flipped += row["flips"]
            predicted.append(predicted_flip(zero["p_yes"]))
    return {"answers": answers, "sentences": sentences, "flipped": flipped,
            "sentence_flip_rate": flipped / sentences if sentences else math.nan,
            "answer_flip_rate": answers_flipped / answers if answers else math.nan, "answers_flipped": answers_flipped,
            "answers_flagged_every_run": flagged_always,
            "predicted_sentence_flip_rate": sum(predicted) / len(predicted) if predicted else math.nan,
            "runs": RUNS, "temperature": SAMPLE_TEMPERATURE}


def rule_flags(sampled: list[MetricResult | None], support: list[MetricResult | None], failed: list[bool],
               threshold: float) -> dict[str, Any]:
    """The design's own rule, an answer flagged when its least supported sentence is below ``threshold``, counted
    three ways over the answers both passes hold: at temperature 0 (each sentence's p(yes)); in each sampled run
    (a sampled sentence's support is its word, 1 for yes and 0 for no, so any no flags the answer); and with each
    sentence's share of yes over the runs as its support (a vote). ``failed``: people's label of each answer."""
    sampled = as_list("sampled", sampled, "a list of stability results (None where not recorded)")
    support = as_list("support", support, "a list of support results (None where not recorded)")
    failed = as_list("failed", failed, "one True/False per answer (people marked it hallucinated)")
    threshold = number("threshold", threshold, "a p(yes) from 0 to 1", low=0.0, high=1.0)
    if any(r is not None and not isinstance(r, MetricResult) for r in [*sampled, *support]):
        raise InputError("sampled/support", "MetricResults or None", "another value")
    if not len(sampled) == len(support) == len(failed):
        raise InputError("support/failed", f"one entry per sampled answer ({len(sampled)})",
                         f"{len(support)} and {len(failed)}")
    rows = [(s, z, f) for s, z, f in zip(sampled, support, failed, strict=True)
            if s is not None and z is not None and s.rows and len(s.rows) == len(z.rows)]
    zero = [min(r["p_yes"] for r in z.rows) < threshold for _, z, _ in rows]
    runs = [[min(1.0 if r["verdicts"][k] == "yes" else 0.0 for r in s.rows) < threshold for s, _, _ in rows]
            for k in range(RUNS)]
    vote = [min(r["verdicts"].count("yes") / RUNS for r in s.rows) < threshold for s, _, _ in rows]
    hallucinated = [f for _, _, f in rows]

    def counted(flags: list[bool]) -> dict[str, int]:
        return {"flagged": sum(flags), "flagged_hallucinated": sum(g and h for g, h in zip(flags, hallucinated,
                                                                                         strict=True))}

    return {"answers": len(rows), "hallucinated": sum(hallucinated), "threshold": threshold,
            "temperature_0": counted(zero), "runs": [counted(flags) for flags in runs], "vote": counted(vote),
            "changed_from_temperature_0": sum(any(flags[j] != zero[j] for flags in runs) for j in range(len(rows)))}


def stability_figures(sampled: list[MetricResult | None], support: list[MetricResult | None], failed: list[bool],
                      models: list[str], threshold: float | None) -> dict[str, Any]:
    """What the log keeps of the stability pass: the flip rates (``stability``), the design's rule counted at
    ``threshold`` (``stability_rule``, support_min's dev threshold; none without one) and the flip rates per
    answering model (``stability_by_model``; ``models``: who wrote each answer)."""
    models = as_list("models", models, "one answering model per answer")
    if len(models) != len(as_list("sampled", sampled, "a list of stability results")):
        raise InputError("models", f"one answering model per sampled answer ({len(sampled)})", len(models))
    if threshold is not None:
        threshold = number("threshold", threshold, "support_min's dev threshold (a p(yes)), or None", low=0.0)
    out: dict[str, Any] = {"stability": flip_rates(sampled, support)}
    if threshold is not None:
        out["stability_rule"] = rule_flags(sampled, support, failed, min(1.0, threshold))
    out["stability_by_model"] = {
        model: flip_rates([s for s, m in zip(sampled, models, strict=True) if m == model],
                          [z for z, m in zip(support, models, strict=True) if m == model])
        for model in sorted(set(models))}
    return out
