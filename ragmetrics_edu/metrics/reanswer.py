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

from typing import Any, Sequence

from ..cores import computed_by
from ..cores import faithfulness_overlap_reanswer as core
from ..results import MetricResult
from ..text import squash_spaces, tokenize
from ..validate import choice, number, optional_number, text, text_list
from .correctness import f1_from
from .overlap import shared_words
from .reanswer_explained import reanswer_result

__all__ = ["COMPARE", "NOT_ANSWERED", "agreement", "score_reanswer", "threshold_of", "weight_of"]

#: how the candidate's words are compared with the judge's answer
COMPARE = ("recall", "precision", "f1")

#: what the judge is told to reply when the context does not answer the question
NOT_ANSWERED = "not in the context"


def agreement(candidate_words: set[str], judge_words: set[str], compare: str) -> float:
    """Word agreement of a candidate with the judge's answer (``compare``: recall, precision or f1)."""
    return core.agreement(candidate_words, judge_words, compare, f1_from)


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


@computed_by("faithfulness_overlap_reanswer")
def score_reanswer(candidate: str, judge_answer: str, context: Sequence[str], *, compare: str = "recall",
                   grounding_weight: float = 0.9, threshold: float | None = None) -> MetricResult:
    """The arithmetic of :func:`faithfulness_reanswer` for a judge answer already in hand (no call)."""
    compare = choice("compare", compare, COMPARE)
    weight, threshold = weight_of(grounding_weight), threshold_of(threshold)
    A = set(tokenize(text("answer", candidate)))
    J = set(tokenize(text("judge_answer", judge_answer)))
    joined = "\n".join(text_list("context", context))
    C = set(tokenize(joined))

    score, rows, values = core.faithfulness_overlap_reanswer(A, J, C, shared_words(candidate, joined),
                                                             not _not_answered(judge_answer), weight, compare, f1_from)

    return reanswer_result(score, rows, values, candidate, judge_answer, context, compare, threshold)
