"""Faithfulness by re-answering: the judge answers the question from the context, then words are compared.

Asked "is this claim supported?", a small local judge (1.5B parameters) says yes to nearly
everything. This design asks it something else, to answer the question from the context, and
compares words. Alone, the judge's answer is a poor signal: on the shipped HaluEval dev pairs the
judge-only configurations (``grounding_weight=0``) ordered fewer pairs correctly than word overlap,
worse on many more pairs than better; weighted mostly towards word overlap, it moved a few pairs
(the choice log of :mod:`ragmetrics_edu.course.halueval_study` has every figure). The design
makes **one call per question and context**:

1. the judge answers the question using only the retrieved context, in as few words as it can
   (step ``faithfulness.reanswer``; the reply does not depend on the candidate answer, so two
   answers to the same question share one call, and the cache serves the second);
2. ``agreement``: the candidate's content words are compared with the judge's answer
   (``compare="recall"``: the share of the judge's words the candidate contains;
   ``"precision"``: the share of the candidate's words the judge's answer contains; ``"f1"``);
3. ``grounding``: the share of the candidate's content words found anywhere in the context
   (:func:`ragmetrics_edu.baselines.coverage`, the word-overlap baseline);
4. the score is ``grounding_weight · grounding + (1 − grounding_weight) · agreement``, in [0, 1]
   (``grounding_weight=0``: the judge's agreement alone; ``1``: word overlap alone, no call needed).

Content words are those of :func:`ragmetrics_edu.retrieval.tokenize` (lower-cased, stop words
dropped, plurals lightly stemmed). Edge cases, each noted in the result: a candidate with no
content words scores 0; when the judge says the context does not answer the question, the
agreement is left out and the score is the grounding alone (NaN with ``grounding_weight=0``).

Which configuration is the default was chosen on the development part of the shipped HaluEval
rows and scored once on the test part: see :mod:`ragmetrics_edu.course.halueval_study`.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..baselines import coverage
from ..errors import InputError
from ..metrics.correctness import f1_from
from ..results import MetricResult, fmt
from ..text import squash_spaces, tokenize
from ..validate import choice, text, text_list
from .base import Judge
from .prompting import Texts
from .records import CallList
from .requests import ask, check_judge, finish, make_request, schema_models

__all__ = ["faithfulness_reanswer", "COMPARE", "NOT_ANSWERED", "agreement"]

#: how the candidate's words are compared with the judge's answer
COMPARE = ("recall", "precision", "f1")

#: what the judge is told to reply when the context does not answer the question
NOT_ANSWERED = "not in the context"


def agreement(candidate_words: set[str], judge_words: set[str], compare: str) -> float:
    """Word agreement of a candidate with the judge's answer (``compare``: recall, precision or f1)."""
    if not candidate_words or not judge_words:
        return 0.0
    both = len(candidate_words & judge_words)
    recall, precision = both / len(judge_words), both / len(candidate_words)
    if compare == "recall":
        return recall
    if compare == "precision":
        return precision
    return f1_from(precision, recall)


def _not_answered(reply: str) -> bool:
    words = squash_spaces(reply.replace(".", " "), lower=True)
    return words in (NOT_ANSWERED, "the context does not answer the question", "not mentioned", "unknown", "")


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
    weight = _weight(grounding_weight)
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float))
                                  or not 0 <= threshold <= 1):
        raise InputError("threshold", "a number between 0 and 1, or None", threshold)
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
    reply = ask(judge, make_request("faithfulness.reanswer", "faithfulness_reanswer", schema_models().GeneratedAnswer,
                                 'a JSON object {"answer": "..."}',
                                 shorthand=lambda a: {"answer": a} if isinstance(a, str) else a, legacy=False,
                                 data={"question": text("question", question),
                                       "context": Texts("node", nodes, "(no context)")}),
                 CallList() if calls is None else calls)
    return reply.data["answer"]


def _weight(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise InputError("grounding_weight", "a number between 0 and 1", value)
    return float(value)


def score_reanswer(candidate: str, judge_answer: str, context: Sequence[str], *, compare: str = "recall",
                   grounding_weight: float = 0.9, threshold: float | None = None) -> MetricResult:
    """The arithmetic of :func:`faithfulness_reanswer` for a judge answer already in hand (no call)."""
    compare = choice("compare", compare, COMPARE)
    weight = _weight(grounding_weight)
    candidate_words = set(tokenize(text("answer", candidate)))
    judge_words = set(tokenize(text("judge_answer", judge_answer)))
    joined = "\n".join(text_list("context", context))
    context_words = set(tokenize(joined))
    notes: list[str] = []
    answered = not _not_answered(judge_answer)
    agree = agreement(candidate_words, judge_words, compare) if answered else math.nan
    ground = coverage(candidate, joined) if candidate_words else 0.0
    if not candidate_words:
        score = 0.0
        notes.append("The answer has no content words: nothing can be checked, so it scores 0.")
    elif answered:
        score = weight * ground + (1 - weight) * agree
    elif weight > 0:
        score = ground
    else:
        score = math.nan
        notes.append("The judge found no answer in the context and grounding_weight is 0: the score is NaN.")
    if not answered:
        notes.append(f"The judge replied {judge_answer!r}: the context does not answer the question, so "
                     "agreement is left out" + (" and the score is the grounding alone." if weight > 0 else "."))
    rows = [{"word": w, "in_answer": w in candidate_words, "in_judge_answer": w in judge_words,
             "in_context": w in context_words}
            for w in sorted(candidate_words | judge_words)]
    formula = (rf"\text{{score}} = {fmt(weight)} \cdot {fmt(ground)} + {fmt(1 - weight)} \cdot {fmt(agree)} = {fmt(score)}"
               if answered and candidate_words else "")
    narrative = [f"The judge answered the question from the context: {judge_answer!r}.",
                 f"Content words of the answer: {', '.join(sorted(candidate_words)) or '(none)'}."]
    if answered:
        narrative.append(f"Agreement ({compare}) of the answer's words with the judge's answer: {fmt(agree)}.")
    narrative.append(f"Grounding: {fmt(ground)} of the answer's content words occur in the context.")
    narrative.append(f"Score = {fmt(weight)} x grounding + {fmt(1 - weight)} x agreement = {fmt(score)}.")
    return MetricResult(
        metric="faithfulness_reanswer", score=score, variant=f"{compare}, grounding_weight {fmt(weight)}",
        columns=("word", "in_answer", "in_judge_answer", "in_context"), rows=rows,
        values={"judge_answer": judge_answer, "agreement": agree, "grounding": ground, "answered": answered,
                "grounding_weight": weight},
        formula=formula,
        formula_general=r"\text{score} = w \cdot \text{grounding} + (1 - w) \cdot \text{agreement}",
        narrative=narrative, notes=notes, threshold=threshold,
        inputs={"answer": candidate, "context": list(context), "compare": compare, "grounding_weight": weight})
