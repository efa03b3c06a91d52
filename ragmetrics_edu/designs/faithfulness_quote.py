"""Quote, then verify: for each sentence of an answer, the judge copies the passage words that state it; counting
words then decides whether the quote is real and covers the sentence.

Asked yes or no, a 1.5B judge says yes to most sentences (lesson 15). Here it is asked for evidence instead, and
its evidence is checked without trusting it (:mod:`ragmetrics_edu.metrics.quote`): a quote that is not in the
passages, or that lacks the sentence's content words, gives that sentence a low support. One request per
sentence (step ``faithfulness.quote``, prompt ``prompts/sentence_quote.txt``, passages first so that a source's
requests share their opening, as in :mod:`.faithfulness_support`); the reply is ``{"quote": "..."}``, a few
dozen tokens where the support design's is one.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, make_request
from ..judges.schemas import Strict
from ..metrics import Ask, MetricSpec, Step
from ..metrics.quote import quote_score
from ..metrics.support import THRESHOLD
from ..results import MetricResult
from ..text import sentence_spans
from ..validate import text, text_list
from .common import PROMPTS, QUESTION

__all__ = ["STEP", "SPEC", "faithfulness_quote", "quote_request"]


@lru_cache(maxsize=1)
def _reply() -> Any:
    """The reply's model (imported with the first request)."""

    class Quote(Strict):
        """The passage words that state a sentence ("" when none do)."""

        quote: str

    return Quote


STEP = Step("faithfulness.quote", '{"quote": "..."}: the passage words that state this sentence, "" when none do; '
            "short form: the quote", shorthand=lambda a: {"quote": a} if isinstance(a, str) else a,
            schema=_reply, prompts=PROMPTS)


def quote_request(sentence: str, context: Sequence[str], *, question: str | None = None) -> Any:
    """The request about one sentence: the passages, the question, the sentence; reply ``{"quote": "..."}``."""
    data = {"context": Texts("passage", text_list("context", context), "(no passages)"),
            "question_block": None if question is None else text("question", question),
            "sentence": text("sentence", sentence)}
    return make_request(STEP, "sentence_quote", None, 'a JSON object {"quote": "..."}', data=data, legacy=False,
                        fence_from=("context", "question_block"))


def faithfulness_quote(judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
                       aggregate: str = "min", threshold: float = THRESHOLD) -> MetricResult:
    """Quote, then verify, on one answer: one request per sentence; the score is ``aggregate`` of the sentences'
    verified support (:func:`ragmetrics_edu.metrics.quote.quote_score`), the unsupported ones are spans."""
    judge = check_judge(judge)
    answer = text("answer", answer)
    context = text_list("context", context)
    quote_score(answer, [], [], context, aggregate=aggregate, threshold=threshold)  # checks both before any call
    places = sentence_spans(answer)
    calls = CallList()
    quotes = [ask(judge, quote_request(answer[start:end], context, question=question), calls).data["quote"]
              for start, end in places]
    result = quote_score(answer, places, quotes, context, aggregate=aggregate, threshold=threshold)
    result.inputs.update(question=question)
    return finish(result, judge, calls, False)


SPEC = metrics.register(MetricSpec(
    "faithfulness_quote", "Faithfulness (quote, then verify)", quote_score, of="faithfulness",
    component="generator", ask=Ask(faithfulness_quote, ("judge", "answer", "contexts"), QUESTION),
    design="a quote from the passages per sentence, checked by counting words; the least supported sentence",
    steps=(STEP,), variants=("min", "mean", "min_claims"),
    example=dict(answer="AI is old. It thinks.", offsets=[(0, 10), (11, 21)], quotes=["AI is old", "It plays"],
                 context=["AI is old and widely used."])))
