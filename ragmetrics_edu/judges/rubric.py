"""Rubric judges: G-Eval and an aspect critic, asked of any judge, with every step kept.

The requests live here; the arithmetic in :mod:`ragmetrics_edu.metrics.rubric`.

**G-Eval** (:func:`g_eval`), two steps:

1. ``g_eval.steps``: the judge turns the written ``criteria`` into three or four evaluation steps
   (one call per criterion: it does not depend on the case, so the cache or a recording serves
   every later case; pass ``evaluation_steps=`` to write them yourself and skip the call);
2. ``g_eval.score``: the judge reads criteria, steps, question, context and answer and replies
   ``{"score": N}``. Where the server returns the reply tokens' alternatives (``top_logprobs``), the
   probabilities of the score tokens weight the score; otherwise ``samples`` more replies are sampled
   and averaged, as the G-Eval paper does; with neither, the reply's score is used and the result says so.

**Aspect critic** (:func:`aspect_critic`): ``{"verdict": "yes"|"no"}`` on a written aspect, asked
``strictness`` times (sampled when more than once) and decided by the majority, as Ragas documents its
``AspectCritic`` (Ragas 0.4.0+3 asks once whatever the strictness: ``strictness=1`` equals it); the first
vote's probability of "yes" is kept as ``p_yes`` where the server gives token probabilities (a graded score
from one call).

Both put the texts under evaluation in data blocks (see :mod:`.prompting`), and draw the blocks'
fence from the question and context only, so the answers to one question share their prompt's
opening and a llama.cpp server reads it once.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..errors import InputError
from ..metrics.rubric import G_EVAL_VARIANTS, aspect_critic_score, g_eval_score, scale_of, votes_for
from ..results import MetricResult
from ..validate import choice, integer, text, text_list
from .base import Judge
from .prompting import Texts
from .records import CallList
from .requests import ask, check_judge, finish, list_field, make_request, schema_models
from .token_probs import alternatives
from .token_probs import p_yes as token_p_yes

__all__ = ["g_eval", "aspect_critic", "evaluation_steps", "FAITHFULNESS_CRITERIA", "FAITHFULNESS_ASPECT",
           "TOP_LOGPROBS", "SAMPLE_TEMPERATURE"]

#: the faithfulness criterion the course's G-Eval design uses (any criterion may be passed)
FAITHFULNESS_CRITERIA = ("Faithfulness to the retrieved context: every fact, number, name and detail in the answer "
                         "is stated in the retrieved context, and nothing in the answer contradicts it. An answer "
                         "that adds information the context does not contain is unfaithful, even if it is true.")

#: the faithfulness aspect the course's aspect critic uses
FAITHFULNESS_ASPECT = ("The answer states only what the retrieved context supports: it adds no fact, number, name "
                       "or detail that the context does not state, and contradicts nothing in it.")

#: alternatives asked per reply token (DeepEval's GEval asks 20)
TOP_LOGPROBS = 20

#: the temperature of sampled replies (G-Eval's samples without probabilities; a critic's votes when n > 1)
SAMPLE_TEMPERATURE = 0.7


def _context(context: Sequence[str]) -> Texts:
    return Texts("passage", text_list("context", context), "(no context)")


def _count(field: str, value: Any, low: int) -> int:
    return integer(field, value, low=low, high=50)


def evaluation_steps(judge: Judge, criteria: str, calls: CallList | None = None) -> list[str]:
    """G-Eval's first step: the judge's evaluation steps for ``criteria`` (one call, shared by every case)."""
    judge = check_judge(judge)
    if calls is not None and not isinstance(calls, CallList):
        raise InputError("calls", "a CallList the call's record is added to, or None", calls)
    request = make_request("g_eval.steps", "g_eval_steps", schema_models().EvaluationSteps,
                           'a JSON object {"steps": ["...", ...]} with three or four steps',
                           shorthand=list_field("steps"), data={}, legacy=False,
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
    sample this many more replies and average (0: use the reply's score, noted). ``steps``: evaluation
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
    data = {"question_block": None if question is None else text("question", question), "context": _context(context),
            "answer": text("answer", answer)}
    values: dict[str, Any] = {"criteria": criteria, "steps": "\n".join(f"{i}. {s}" for i, s in enumerate(steps, start=1)),
              "low": low, "high": high}

    def request(sample: int | None) -> Any:
        return make_request("g_eval.score", "g_eval_score", schema_models().rubric_score(low, high),
                            f'a JSON object {{"score": N}} with N a whole number from {low} to {high}',
                            shorthand=lambda a: {"score": a} if isinstance(a, int) else a, data=data, legacy=False,
                            fence_from=("question_block", "context"), top_logprobs=TOP_LOGPROBS, sample=sample,
                            temperature=None if sample is None else SAMPLE_TEMPERATURE, **values)

    first = ask(judge, request(None), calls)
    reply_score = int(first.data["score"])
    probabilities = _score_probabilities(calls[-1].logprobs, low, high)
    sampled = None
    if probabilities is None and samples:
        sampled = [reply_score] + [int(ask(judge, request(i), calls).data["score"]) for i in range(1, samples + 1)]
    result = g_eval_score(probabilities, samples=sampled, reply_score=reply_score, variant=variant,
                          scale=(low, high), threshold=threshold)
    result.values["evaluation_steps"] = steps
    result.values["criteria"] = criteria
    result.narrative.insert(0, "Evaluation steps: " + " ".join(f"({i}) {s}" for i, s in enumerate(steps, start=1)))
    result.inputs.update(answer=answer, context=list(context), question=question)
    return finish(result, judge, calls, False)


def aspect_critic(judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
                  definition: str = FAITHFULNESS_ASPECT, strictness: int = 1,
                  threshold: float | None = None) -> MetricResult:
    """An aspect critic on one answer: ``strictness`` yes/no votes (made odd, as Ragas does), the majority wins
    (Ragas documents the majority; its 0.4.0+3 code asks once, which ``strictness=1`` reproduces).

    One vote is asked at the judge's own temperature; more are sampled at :data:`SAMPLE_TEMPERATURE`, each with
    its own seed. ``values["p_yes"]``: the first vote's probability of "yes" where the server gives it."""
    judge = check_judge(judge)
    n = votes_for(strictness)
    definition = text("definition", definition)
    data = {"question_block": None if question is None else text("question", question), "context": _context(context),
            "answer": text("answer", answer)}
    calls = CallList()
    votes: list[str] = []
    p_yes = None
    for i in range(n):
        sample = None if n == 1 else i
        request = make_request("aspect_critic", "aspect_critic", schema_models().Verdict,
                               'a JSON object {"verdict": "yes"} or {"verdict": "no"}',
                               shorthand=lambda a: {"verdict": a} if isinstance(a, (str, bool)) else a, data=data,
                               legacy=False, fence_from=("question_block", "context"), top_logprobs=5 if i == 0 else 0,
                               sample=sample, temperature=None if sample is None else SAMPLE_TEMPERATURE,
                               definition=definition)
        votes.append(ask(judge, request, calls).data["verdict"])
        if i == 0:
            p_yes = token_p_yes(calls[-1].logprobs, '"verdict"')
    result = aspect_critic_score(votes, aspect=definition, threshold=threshold)
    result.values["p_yes"] = math.nan if p_yes is None else p_yes
    if p_yes is not None:
        result.narrative.append(f"The first vote's probability of 'yes': {p_yes:.3f}.")
    if strictness != n:
        result.notes.append(f"strictness {strictness} was made odd: {n} votes (as Ragas does).")
    result.inputs.update(answer=answer, context=list(context), question=question)
    return finish(result, judge, calls, False)
