"""Support per sentence in one request: every sentence of the answer checked at once, each read as p(yes).

:mod:`.faithfulness_support` asks one request per sentence, which costs a reply and the sentence's own tokens per
sentence (lesson 15 measured it at more than twice G-Eval's seconds per answer). This design puts all of an
answer's sentences, numbered, after the passages in one request and asks for a JSON object with one yes/no per
sentence (step ``faithfulness.support_all``, prompt ``prompts/sentence_support_all.txt``). Each sentence's
support is p(yes) at its own verdict token, read from the reply's token probabilities (the first yes/no token
after the sentence's key); where the server gives none, the verdict word itself (1 or 0), and the result says so.
The arithmetic (score, spans) is :func:`ragmetrics_edu.metrics.support.support_score`, as for the one-request-a-
sentence design.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, key_names, keyed_list, make_request
from ..judges.schemas import YesNo, keyed
from ..judges.token_probs import p_yes
from ..metrics import Ask, MetricSpec, Step
from ..metrics.support import THRESHOLD, support_score
from ..results import MetricResult
from ..text import sentence_spans
from ..validate import text, text_list
from .common import PROMPTS, QUESTION

__all__ = ["STEP", "SPEC", "faithfulness_support_batched", "support_all_request"]

STEP = Step("faithfulness.support_all", '{"sentence_1": "yes"|"no", ...}: do the passages state each sentence?; '
            "short form: a list of verdicts", shorthand=keyed_list("sentence"), prompts=PROMPTS)

#: alternatives asked for each reply token (yes and no are both among the top few at a verdict's token)
TOP_LOGPROBS = 5


def support_all_request(sentences: Sequence[str], context: Sequence[str], *, question: str | None = None) -> Any:
    """The one request about all of an answer's ``sentences`` (keys ``sentence_1`` ...)."""

    shown = text_list("sentences", sentences)
    keys = key_names("sentence", len(shown))
    model = keyed(f"faithfulness_support_all_{len(keys)}", keys, YesNo)
    return make_request(STEP, "sentence_support_all", model,
                        f"a JSON object with exactly the {len(keys)} keys {', '.join(keys)}, each yes or no",
                        data={"context": Texts("passage", text_list("context", context), "(no passages)"),
                              "question_block": None if question is None else text("question", question),
                              "sentences": Texts("sentence", shown)},
                        legacy=False, fence_from=("context", "question_block"), top_logprobs=TOP_LOGPROBS,
                        keys=", ".join(keys))


def faithfulness_support_batched(judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
                                 aggregate: str = "min", threshold: float = THRESHOLD) -> MetricResult:
    """Support per sentence from one request: every sentence's p(yes), aggregated as ``aggregate``."""
    judge = check_judge(judge)
    answer = text("answer", answer)
    context = text_list("context", context)
    support_score(answer, [], [], aggregate=aggregate, threshold=threshold)  # checks both before any call
    places = sentence_spans(answer)
    calls = CallList()
    supports: list[float] = []
    sources: list[str] = []
    if places:
        reply = ask(judge, support_all_request([answer[s:e] for s, e in places], context, question=question), calls)
        logprobs = calls[-1].logprobs
        for key in key_names("sentence", len(places)):
            found = p_yes(logprobs, after=f'"{key}"')
            supports.append(float(reply.data[key] == "yes") if found is None else found)
            sources.append("reply" if found is None else "logprobs")
    result = support_score(answer, places, supports, aggregate=aggregate, threshold=threshold, sources=sources)
    if "reply" in sources:
        result.notes.append("Some verdicts came without token probabilities: their support is the word itself "
                            "(1 for yes, 0 for no).")
    result.inputs.update(context=list(context), question=question)
    return finish(result, judge, calls, False)


SPEC = metrics.register(MetricSpec(
    "faithfulness_support_batched", "Faithfulness (support per sentence, one request)", support_score,
    of="faithfulness", component="generator", ask=Ask(faithfulness_support_batched, ("judge", "answer", "contexts"),
                                                      QUESTION),
    design="every sentence checked in one request, each read as p(yes) at its verdict token; the least supported "
           "sentence", steps=(STEP,), variants=("min", "mean", "min_claims"),
    example=dict(answer="AI is old. It thinks.", offsets=[(0, 10), (11, 21)], supports=[0.9, 0.2])))
