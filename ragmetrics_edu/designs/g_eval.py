"""G-Eval: a rubric score from evaluation steps, asked of any judge, with every step kept.

The requests live here (prompts ``prompts/g_eval_steps.txt`` and ``prompts/g_eval_score.txt``); the arithmetic
in :mod:`ragmetrics_edu.metrics.rubric`. Two steps:

1. ``g_eval.steps``: the judge turns the written ``criteria`` into three or four evaluation steps
   (one call per criterion: it does not depend on the case, so :func:`ragmetrics_edu.evaluate` asks it once
   per criterion and run and passes it to every case; pass ``steps=`` to write them yourself and skip the call);
2. ``g_eval.score``: the judge reads criteria, steps, question, context and answer and replies
   ``{"score": N}``. Where the server returns the reply tokens' alternatives (``top_logprobs``), the
   probabilities of the score tokens weight the score; otherwise ``samples`` more replies are sampled at
   temperature 1 (:data:`G_EVAL_SAMPLE_TEMPERATURE`) and averaged, as the G-Eval paper does: at temperature 1
   a sample follows p(s) itself, so its mean estimates Σ p(s)·s (a lower temperature, or the first, most
   likely reply in the mean, would pull it toward the mode; a server's top-k or top-p default still cuts the
   tail); with neither, the reply's score is used and the result says so.

It puts the texts under evaluation in data blocks (see :mod:`.prompting`), and draw the blocks'
fence from the question and context only, so the answers to one question share their prompt's
opening and a llama.cpp server reads it once.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import metrics
from ..errors import InputError
from ..judges.base import Judge
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, list_field, make_request
from ..judges.token_probs import alternatives
from ..metrics import Ask, MetricSpec, Step
from ..metrics.rubric import G_EVAL_VARIANTS, g_eval_score, scale_of
from ..results import MetricResult
from ..validate import choice, integer, text, text_list
from .common import PROMPTS, QUESTION, SAMPLE_TEMPERATURE, models, passages

__all__ = ["g_eval", "evaluation_steps", "FAITHFULNESS_CRITERIA", "TOP_LOGPROBS", "SAMPLE_TEMPERATURE", "STEPS",
           "SCORE", "SPEC", "G_EVAL_SAMPLE_TEMPERATURE"]

#: the temperature of G-Eval's sampled replies: 1, the paper's, so that each follows the score tokens' p(s)
G_EVAL_SAMPLE_TEMPERATURE = 1.0

#: the faithfulness criterion the course's G-Eval design uses (any criterion may be passed)
FAITHFULNESS_CRITERIA = ("Faithfulness to the retrieved context: every fact, number, name and detail in the answer "
                         "is stated in the retrieved context, and nothing in the answer contradicts it. An answer "
                         "that adds information the context does not contain is unfaithful, even if it is true.")

#: alternatives asked per reply token (DeepEval's GEval asks 20)
TOP_LOGPROBS = 20


STEPS = Step("g_eval.steps", '{"steps": [str]}: G-Eval\'s evaluation steps from the criteria; short form: a list',
             shorthand=list_field("steps"), schema=lambda: models().EvaluationSteps, prompts=PROMPTS)
SCORE = Step("g_eval.score", '{"score": int} on the rubric\'s scale; short form: the number',
             shorthand=lambda a: {"score": a} if isinstance(a, int) else a, prompts=PROMPTS)


def _count(field: str, value: Any, low: int) -> int:
    return integer(field, value, low=low, high=50)


def evaluation_steps(judge: Judge, criteria: str = FAITHFULNESS_CRITERIA, calls: CallList | None = None) -> list[str]:
    """G-Eval's first step: the judge's evaluation steps for ``criteria`` (one call, shared by every case)."""
    judge = check_judge(judge)
    if calls is not None and not isinstance(calls, CallList):
        raise InputError("calls", "a CallList the call's record is added to, or None", calls)
    request = make_request(STEPS, "g_eval_steps", None, 'a JSON object {"steps": ["...", ...]} with three or four steps',
                           data={}, legacy=False,
                           check=lambda d: None if d["steps"] else "the list of steps is empty",
                           criteria=text("criteria", criteria))
    return list(ask(judge, request, CallList() if calls is None else calls).data["steps"])


def _score_probabilities(logprobs: Any, low: int, high: int) -> dict[int, float] | None:
    found = alternatives(logprobs, '"score"', lambda t: t.strip().isdigit())
    if found is None:
        return None
    probs: dict[int, float] = {}
    for alt, p in found.items():
        word = alt.strip()
        if word.isdigit() and low <= int(word) <= high:
            probs[int(word)] = probs.get(int(word), 0.0) + p
    return probs or None


def g_eval(judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
           criteria: str = FAITHFULNESS_CRITERIA, steps: Sequence[str] | None = None,
           variant: str = "paper", scale: tuple[int, int] | None = None, samples: int = 0,
           threshold: float | None = None) -> MetricResult:
    """G-Eval on one answer: evaluation steps (1 call per criterion), then a weighted score (1 call).

    ``variant``: ``"paper"`` (1–5, every score token counts) or ``"deepeval"`` (0–10, tokens under 1 %
    dropped); ``scale`` overrides the range. ``samples``: when the server returns no token probabilities,
    sample this many more replies at temperature 1 and average them, leaving the first reply out (0: use
    the reply's score, noted). ``steps``: evaluation
    steps written by you (no first call).
    """
    judge = check_judge(judge)
    variant = choice("variant", variant, G_EVAL_VARIANTS)
    low, high = scale_of(variant, scale)
    samples = _count("samples", samples, 0)
    criteria = text("criteria", criteria)
    calls = CallList()
    if steps is None:
        steps = evaluation_steps(judge, criteria, calls)
    else:
        steps = text_list("steps", steps)
        if not steps:
            raise InputError("steps", "at least one evaluation step, or None to ask the judge", steps)
    data = {"question_block": None if question is None else text("question", question), "context": passages(context),
            "answer": text("answer", answer)}
    values: dict[str, Any] = {"criteria": criteria, "steps": "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1)),
              "low": low, "high": high}

    def request(sample: int | None) -> Any:
        return make_request(SCORE, "g_eval_score", models().rubric_score(low, high),
                            f'a JSON object {{"score": N}} with N a whole number from {low} to {high}',
                            data=data, legacy=False,
                            fence_from=("question_block", "context"), top_logprobs=TOP_LOGPROBS, sample=sample,
                            temperature=None if sample is None else G_EVAL_SAMPLE_TEMPERATURE, **values)

    first = ask(judge, request(None), calls)
    reply_score = int(first.data["score"])
    probabilities = _score_probabilities(calls[-1].logprobs, low, high)
    sampled = None
    if probabilities is None and samples:
        sampled = [int(ask(judge, request(i), calls).data["score"]) for i in range(1, samples + 1)]
    result = g_eval_score(probabilities, samples=sampled, reply_score=reply_score, variant=variant,
                          scale=(low, high), threshold=threshold)
    result.values["evaluation_steps"] = steps
    result.values["criteria"] = criteria
    result.narrative.insert(0, "Evaluation steps: " + " ".join(f"({i}) {s}" for i, s in enumerate(steps, start=1)))
    result.inputs.update(answer=answer, context=list(context), question=question)
    return finish(result, judge, calls, False)


# rubric judges on a criterion the user writes (evaluate(criteria=...)); by default, faithfulness to the context.
# Its evaluation steps are the design's per-run stage: evaluate() asks them once per criterion and run.
SPEC = metrics.register(MetricSpec(
    "g_eval", "G-Eval", g_eval_score, component="generator",
    ask=Ask(g_eval, ("judge", "answer", "contexts"), QUESTION + (("criteria", "criteria"),),
            once=("steps", Ask(evaluation_steps, ("judge",), (("criteria", "criteria"),)))),
    design="a rubric score from evaluation steps (G-Eval)", steps=(STEPS, SCORE),
    example=dict(probabilities={1: 0.1, 4: 0.6, 5: 0.3})))
