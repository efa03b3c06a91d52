"""The arithmetic of faithfulness by re-answering: a judge's own answer in hand, words compared (no call).

The design (:mod:`ragmetrics_edu.designs.faithfulness_reanswer` makes its one request) scores an answer from three
things: the judge's answer to the question from the context, the answer's content words and the
context's. Here is the pure part:

1. ``agreement``: the candidate's content words against the judge's answer (``compare="recall"``: the
   share of the judge's words the candidate contains; ``"precision"``: the share of the candidate's
   words the judge's answer contains; ``"f1"``: :func:`~ragmetrics_edu.metrics.f1_from` of the two);
2. ``grounding``: the share of the candidate's content words found anywhere in the context (the
   word overlap of :mod:`.overlap`);
3. the score ``grounding_weight · grounding + (1 − grounding_weight) · agreement``, in [0, 1].

Edge cases, each noted in the result: a candidate with no content words scores 0; when the judge
said the context does not answer the question (:data:`NOT_ANSWERED` and its variants), the agreement
is left out and the score is the grounding alone (NaN with ``grounding_weight=0``).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..results import MetricResult, fmt
from ..text import squash_spaces, tokenize
from ..validate import choice, number, optional_number, text, text_list
from .correctness import f1_from
from .overlap import shared_words

__all__ = ["COMPARE", "NOT_ANSWERED", "agreement", "score_reanswer", "threshold_of", "weight_of"]

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
    """True when the judge's reply says the context does not answer the question."""
    words = squash_spaces(reply.replace(".", " "), lower=True)
    return words in (NOT_ANSWERED, "the context does not answer the question", "not mentioned", "unknown", "")


def weight_of(value: Any) -> float:
    """``grounding_weight`` checked: a number between 0 and 1 (checked before any call is made)."""
    return number("grounding_weight", value, "a number between 0 and 1", low=0.0, high=1.0)


def threshold_of(value: Any) -> float | None:
    """``threshold`` checked: a number between 0 and 1, or None (checked before any call is made)."""
    return optional_number("threshold", value, "a number between 0 and 1, or None", low=0.0, high=1.0)


def score_reanswer(candidate: str, judge_answer: str, context: Sequence[str], *, compare: str = "recall",
                   grounding_weight: float = 0.9, threshold: float | None = None) -> MetricResult:
    """The arithmetic of :func:`faithfulness_reanswer` for a judge answer already in hand (no call)."""
    compare = choice("compare", compare, COMPARE)
    weight, threshold = weight_of(grounding_weight), threshold_of(threshold)
    candidate_words = set(tokenize(text("answer", candidate)))
    judge_words = set(tokenize(text("judge_answer", judge_answer)))
    joined = "\n".join(text_list("context", context))
    context_words = set(tokenize(joined))
    notes: list[str] = []
    answered = not _not_answered(judge_answer)
    agree = agreement(candidate_words, judge_words, compare) if answered else math.nan
    words, found = shared_words(candidate, joined)
    ground = len(found) / len(words) if words else 0.0
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
