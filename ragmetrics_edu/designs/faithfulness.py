"""Faithfulness as DeepEval and Ragas compute it: the answer's claims, then a verdict per claim.

Two calls: step ``faithfulness.claims`` (prompt ``prompts/faithfulness_claims.txt``) lists the answer's
claims, step ``faithfulness.verdicts`` (``prompts/faithfulness_verdicts.txt``) judges each yes/no/idk
against the context. Given claims skip the first call. The arithmetic is
:func:`ragmetrics_edu.metrics.faithfulness`. evaluate()'s default faithfulness is word overlap
(:mod:`.word_overlap`): this design is asked for by name.
"""

from __future__ import annotations

from typing import Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import (
    MAX_ITEMS,
    ask,
    check_judge,
    extracted,
    finish,
    key_names,
    keyed_list,
    list_field,
    make_request,
    sized,
    verdict_request,
)
from ..judges.same_items import given_items, mark_given
from ..metrics import Ask, MetricSpec, Shape, StatementView, Step, inputs
from ..results import MetricResult
from ..validate import flag, text, text_list
from .common import PROMPTS, QUESTION, models

__all__ = ["CLAIMS", "VERDICTS", "SPEC", "faithfulness"]

CLAIMS = Step("faithfulness.claims", '{"claims": [str]}; short form: a list of claims',
              shorthand=list_field("claims"), schema=lambda: models().Claims, prompts=PROMPTS)
VERDICTS = Step("faithfulness.verdicts", '{"claim_1": "yes"|"no"|"idk", ...}; short form: a list of verdicts',
                shorthand=keyed_list("claim"), prompts=PROMPTS)


def faithfulness(
    judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
    variant: str = "deepeval", penalize_ambiguous: bool = False, threshold: float | None = None,
    reason: bool = False, claims: Sequence[str] | None = None,
) -> MetricResult:
    """Extract the answer's claims (call 1), judge each yes/no/idk against the context
    (call 2), then score with :func:`ragmetrics_edu.metrics.faithfulness`.

    With ``claims`` given (e.g. a labelled set's own), call 1 is skipped: the verdict step
    judges exactly those claims, each in its own data block."""
    judge, reason = check_judge(judge), flag("reason", reason)
    answer_text = text("answer", answer)
    question = None if question is None else text("question", question)
    context = sized("context", text_list("context", context))
    given = None if claims is None else given_items("claims", claims, MAX_ITEMS)
    calls = CallList()
    if given is None:
        first = ask(judge, make_request(CLAIMS, "faithfulness_claims", None, 'a JSON object {"claims": ["...", ...]}',
                                       data={"question_block": question, "answer": answer_text}), calls)
        claims = first.data["claims"]
    else:
        claims = given
    claims = list(claims)
    verdicts: list[str] = []
    extracted(CLAIMS.name, "claims", claims)
    if claims:
        second = ask(judge, verdict_request(VERDICTS, "faithfulness_verdicts", "claim", len(claims),
                                            idk=True, data={"context": Texts("node", context, "(no context)"),
                                                            "claims": Texts("claim", claims)}), calls)
        verdicts = [second.data[k] for k in key_names("claim", len(claims))]
    result = metrics.faithfulness(claims, verdicts, variant, penalize_ambiguous=penalize_ambiguous,
                                  context=context, threshold=threshold)
    if given is not None:
        mark_given(result, "claims", given, CLAIMS.name)
    return finish(result, judge, calls, reason)


# what DeepEval and Ragas call faithfulness: claims, then a verdict per claim (the explorers, the catalogue and
# the command line score its verdicts; evaluate() asks a judge for them)
SPEC = metrics.register(MetricSpec(
    "faithfulness", "Faithfulness", metrics.faithfulness, component="generator",
    ask=Ask(faithfulness, ("judge", "answer", "contexts"), QUESTION),
    design="claims, then a verdict per claim (DeepEval, Ragas)",
    steps=(CLAIMS, VERDICTS), verdict_column="verdict",
    view=StatementView(Shape.CLAIMS, ("counts", "faithful"), item="claim", idk=True, decompose=True,
                       hint="does the retrieved context back each claim of the answer (yes), contradict it (no), "
                            "or not say (idk)?"),
    reads=inputs.STATEMENT_VERDICTS,
    example=dict(claims=["Einstein was born in 1879.", "He was born in France."], verdicts=["yes", "no"])))
