"""Answer relevancy, Ragas' form: questions written from the answer, each compared with the real one by cosine.

One call (step ``answer_relevancy_embedding``, prompt ``prompts/answer_relevancy_questions.txt``); the
arithmetic is :func:`ragmetrics_edu.metrics.answer_relevancy_embedding`.
"""

from __future__ import annotations

from typing import Any, Mapping

from .. import metrics
from ..judges.base import Judge
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, key_names, make_request
from ..judges.schemas import keyed
from ..metrics import Ask, MetricSpec, Step
from ..metrics.embedding import MAX_GENERATED
from ..results import MetricResult
from ..validate import flag, integer, text
from .common import PROMPTS, models

__all__ = ["STEP", "SPEC", "answer_relevancy_embedding"]


def _questions(given: Any) -> Any:
    if isinstance(given, (list, tuple)):
        return {k: ({"question": q, "noncommittal": False} if isinstance(q, str) else
                    dict(q) if isinstance(q, Mapping) else {"question": q[0], "noncommittal": q[1]})
                for k, q in zip(key_names("question", len(given)), given, strict=True)}
    return given


STEP = Step("answer_relevancy_embedding", '{"question_1": {"question": str, "noncommittal": bool}, ...}; '
            "short form: a list of questions or of (question, noncommittal)", shorthand=_questions, prompts=PROMPTS)


def answer_relevancy_embedding(
    judge: Judge, question: str, answer: str, *, embedder: Any = None, n: int = 3,
    threshold: float | None = None, reason: bool = False,
) -> MetricResult:
    """Ragas' form: generate ``n`` questions from the answer, each with a noncommittal flag
    (1 call), then score with :func:`ragmetrics_edu.metrics.answer_relevancy_embedding`.

    Ragas asks for the n generations as n samples of one request; here one reply holds
    all n, which a server without ``n>1`` support can also give.
    """
    judge, reason = check_judge(judge), flag("reason", reason)
    question, answer_text = text("question", question), text("answer", answer)
    n = integer("n", n, low=1, high=MAX_GENERATED, expected=f"an integer from 1 to {MAX_GENERATED} (Ragas asks for 3)")
    keys = key_names("question", n)

    model = keyed(f"generated_questions_{n}", keys, models().GeneratedQuestion)
    request = make_request(STEP, "answer_relevancy_questions", model,
                           f"a JSON object with exactly the {n} keys {', '.join(keys)}, each "
                           '{"question": "...", "noncommittal": true or false}',
                           data={"answer": answer_text}, n=n, keys=", ".join(keys))
    calls = CallList()
    reply = ask(judge, request, calls)
    generated = [reply.data[k]["question"] for k in keys]
    flags = [bool(reply.data[k]["noncommittal"]) for k in keys]
    result = metrics.answer_relevancy_embedding(question, generated, embedder, flags, threshold=threshold)
    return finish(result, judge, calls, reason)


SPEC = metrics.register(MetricSpec(
    "answer_relevancy_embedding", "Answer relevancy (embeddings)", metrics.answer_relevancy_embedding,
    component="generator", embedder=True,
    ask=Ask(answer_relevancy_embedding, ("judge", "question", "answer"), (("embedder", "embedder"),)),
    design="questions written from the answer, cosine to the real one", steps=(STEP,)))
