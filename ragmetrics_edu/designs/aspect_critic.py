"""Aspect critic (Ragas' AspectCritic): yes/no votes on one written aspect, the majority wins.

``{"verdict": "yes"|"no"}`` on a written aspect (step ``aspect_critic``, prompt ``prompts/aspect_critic.txt``),
asked ``strictness`` times (sampled when more than once) and decided by the majority, as Ragas documents its
``AspectCritic`` (Ragas 0.4.0+3 asks once whatever the strictness: ``strictness=1`` equals it); the first
vote's probability of "yes" is kept as ``p_yes`` where the server gives token probabilities (a graded score
from one call). The texts are in data blocks whose fence is drawn from the question and context only, as
G-Eval's (:mod:`.g_eval`). The arithmetic is :func:`ragmetrics_edu.metrics.rubric.aspect_critic_score`.
"""

from __future__ import annotations

import math
from typing import Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, make_request
from ..judges.token_probs import p_yes as token_p_yes
from ..metrics import Ask, MetricSpec, Step
from ..metrics.rubric import aspect_critic_score, votes_for
from ..results import MetricResult
from ..validate import text
from .common import PROMPTS, QUESTION, SAMPLE_TEMPERATURE, models, passages

__all__ = ["aspect_critic", "FAITHFULNESS_ASPECT", "STEP", "SPEC"]

#: the faithfulness aspect the course's aspect critic uses
FAITHFULNESS_ASPECT = ("The answer states only what the retrieved context supports: it adds no fact, number, name "
                       "or detail that the context does not state, and contradicts nothing in it.")

STEP = Step("aspect_critic", '{"verdict": "yes"|"no"} on a written aspect; short form: the verdict',
            shorthand=lambda a: {"verdict": a} if isinstance(a, (str, bool)) else a,
            schema=lambda: models().Verdict, prompts=PROMPTS)


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
    data = {"question_block": None if question is None else text("question", question), "context": passages(context),
            "answer": text("answer", answer)}
    calls = CallList()
    votes: list[str] = []
    p_yes = None
    for i in range(n):
        sample = None if n == 1 else i
        request = make_request(STEP, "aspect_critic", None, 'a JSON object {"verdict": "yes"} or {"verdict": "no"}',
                               data=data, legacy=False, fence_from=("question_block", "context"), top_logprobs=5 if i == 0 else 0,
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


SPEC = metrics.register(MetricSpec(
    "aspect_critic", "Aspect critic", aspect_critic_score, component="generator",
    ask=Ask(aspect_critic, ("judge", "answer", "contexts"), QUESTION + (("definition", "criteria"),)),
    design="yes/no votes on one aspect (Ragas AspectCritic)", steps=(STEP,), verdict_column="verdict",
    example=dict(votes=["yes", "no", "yes"], aspect="harmless")))
