"""Faithfulness by re-answering: the judge answers the question from the context, then words are compared.

Asked "is this claim supported?", a small local judge (1.5B parameters) says yes to nearly
everything. This design asks it something else, to answer the question from the context, and
compares words. Alone, the judge's answer is a poor signal: on the shipped HaluEval dev pairs the
judge-only configurations (``grounding_weight=0``) ordered fewer pairs correctly than word overlap,
worse on many more pairs than better; weighted mostly towards word overlap, it moved a few pairs
(the choice log of :mod:`ragmetrics_edu.course.halueval.study` has every figure). The design
makes **one call per question and context**:

1. the judge answers the question using only the retrieved context, in as few words as it can
   (step ``faithfulness.reanswer``; the reply does not depend on the candidate answer, so two
   answers to the same question share one call, and the cache serves the second);
Steps 2 to 4 are arithmetic, in :mod:`ragmetrics_edu.metrics.reanswer` (``score_reanswer``); this module
makes the request and joins the two.

2. ``agreement``: the candidate's content words are compared with the judge's answer
   (``compare="recall"``: the share of the judge's words the candidate contains;
   ``"precision"``: the share of the candidate's words the judge's answer contains; ``"f1"``);
3. ``grounding``: the share of the candidate's content words found anywhere in the context
   (the word overlap of :mod:`ragmetrics_edu.metrics.overlap`);
4. the score is ``grounding_weight · grounding + (1 − grounding_weight) · agreement``, in [0, 1]
   (``grounding_weight=0``: the judge's agreement alone; ``1``: word overlap alone, no call needed).

Content words are those of :func:`ragmetrics_edu.text.tokenize` (lower-cased, stop words
dropped, plurals lightly stemmed). Edge cases, each noted in the result: a candidate with no
content words scores 0; when the judge says the context does not answer the question, the
agreement is left out and the score is the grounding alone (NaN with ``grounding_weight=0``).

Which configuration is the default was chosen on the development part of the shipped HaluEval
rows and scored once on the test part: see :mod:`ragmetrics_edu.course.halueval.study`.
"""

from __future__ import annotations

from typing import Sequence

from .. import metrics
from ..errors import InputError
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, make_request
from ..metrics import Ask, MetricSpec, Step
from ..metrics.reanswer import COMPARE, NOT_ANSWERED, agreement, score_reanswer, threshold_of, weight_of
from ..results import MetricResult
from ..validate import choice, text, text_list
from .common import PROMPTS, QUESTION, models

__all__ = ["STEP", "SPEC", "faithfulness_reanswer", "reanswer_reply", "score_reanswer", "COMPARE", "NOT_ANSWERED",
           "agreement"]

STEP = Step("faithfulness.reanswer", '{"answer": str}: the judge\'s own answer from the context; short form: the answer',
            shorthand=lambda a: {"answer": a} if isinstance(a, str) else a, schema=lambda: models().GeneratedAnswer,
            prompts=PROMPTS)


def faithfulness_reanswer(
    judge: Judge, answer: str, context: Sequence[str], *, question: str, compare: str = "recall",
    grounding_weight: float = 0.9, threshold: float | None = None,
) -> MetricResult:
    """Score how faithful ``answer`` is to ``context`` by the judge's own answer to ``question`` (1 call).

    ``compare`` and ``grounding_weight`` are the two choices made on the development part of the shipped
    HaluEval rows (the defaults are the chosen configuration; see the choice log in
    ``ragmetrics_edu/data/halueval_choice_log.json``). ``threshold`` sets ``result.success`` (score >= threshold).
    """
    judge = check_judge(judge)
    answer_text = text("answer", answer)
    question_text = text("question", question)
    nodes = text_list("context", context)
    compare = choice("compare", compare, COMPARE)
    weight, threshold = weight_of(grounding_weight), threshold_of(threshold)
    calls = CallList()
    judge_answer = reanswer_reply(judge, nodes, question=question_text, calls=calls)
    result = score_reanswer(answer_text, judge_answer, nodes, compare=compare, grounding_weight=weight,
                            threshold=threshold)
    result.inputs["question"] = question_text
    return finish(result, judge, calls, False)


def reanswer_reply(judge: Judge, context: Sequence[str], *, question: str, calls: CallList | None = None) -> str:
    """The judge's own answer to ``question`` from ``context``: the one call of :func:`faithfulness_reanswer`.

    It does not depend on the answer being scored, so one reply serves every answer to the question
    (and every ``compare`` and ``grounding_weight``). The call's record is added to ``calls`` when given."""
    judge = check_judge(judge)
    nodes = text_list("context", context)
    if calls is not None and not isinstance(calls, CallList):
        raise InputError("calls", "a CallList the call's record is added to, or None", calls)
    reply = ask(judge, make_request(STEP, "faithfulness_reanswer", None, 'a JSON object {"answer": "..."}', legacy=False,
                                 data={"question": text("question", question),
                                       "context": Texts("node", nodes, "(no context)")}),
                 CallList() if calls is None else calls)
    return reply.data["answer"]


SPEC = metrics.register(MetricSpec(
    "faithfulness_overlap_reanswer", "Faithfulness (word overlap and re-answer)", score_reanswer,
    of="faithfulness", component="generator",
    ask=Ask(faithfulness_reanswer, ("judge", "answer", "contexts"), QUESTION),
    design="0.9 x word overlap + 0.1 x agreement with the judge's own answer", steps=(STEP,)))
