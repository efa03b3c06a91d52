"""Faithfulness with checks a small judge cannot talk its way past.

:func:`ragmetrics_edu.designs.faithfulness` asks for claims, then a yes/no/idk per claim.
Measured on the project's labelled set, a 1.5B local model answers "idk" where the context
contradicts a claim and invents claims from one-word answers. This pipeline adds four
changes, each one a switch, so notebook 11 can show the agreement before and after each:

``verdicts="quoted"``
    three-way verdicts (supported / contradicted / not_mentioned), each with the words of
    the context that decide it;
``quotes_checked=True``
    a "supported" verdict whose quote is not in the context (compared after lower-casing and
    dropping punctuation) is downgraded to "not_mentioned", and the steps say so;
``contradiction="apart"``
    "supported?" is one call; "contradicted?" is asked in a second call, only for the claims
    that were not supported, so the model never weighs the two at once;
``claims_from="question_and_answer"``
    claims are written from the question and the answer together ("Who directed Beowulf?" +
    "Robert Zemeckis" → "Robert Zemeckis directed Beowulf."), and a claim whose content words
    are mostly not in the question or the answer is dropped as invented (shown in the steps).

Verdicts map to the library's words (supported → yes, contradicted → no, not_mentioned → idk)
and are scored by :func:`ragmetrics_edu.metrics.faithfulness`, so both variants apply.

The arithmetic (the invented-claim rule, the quote check, the downgrades, the separate contradiction
answers, the score) is :mod:`ragmetrics_edu.metrics.checked` (``score_checked``), a pure function of
words and verdicts; this module makes the requests and joins the answers.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import metrics
from ..errors import InputError
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import (
    MAX_ITEMS,
    ask,
    check_judge,
    finish,
    key_names,
    keyed_list,
    list_field,
    make_request,
    verdict_request,
)
from ..judges.same_items import given_items, mark_given
from ..judges.schemas import keyed
from ..metrics import Ask, MetricSpec, Step
from ..metrics.checked import (
    FROM_LIBRARY,
    INVENTED_BELOW,
    TO_LIBRARY,
    checked_rows,
    drop_invented,
    invented,
    quote_found,
    score_checked,
    still_open,
)
from ..results import MetricResult
from ..validate import flag, text, text_list
from .common import PROMPTS, QUESTION, models
from .faithfulness import CLAIMS, VERDICTS

__all__ = ["faithfulness_checked", "quote_found", "invented", "PIPELINES", "BUILDS_ON", "TO_LIBRARY",
           "INVENTED_BELOW", "CLAIMS_QA", "QUOTED", "SUPPORTED", "CONTRADICTION", "SPEC"]

CLAIMS_QA = Step("faithfulness.claims_qa", '{"claims": [str]} written from question and answer; short form: a list of claims',
                 shorthand=list_field("claims"), schema=lambda: models().Claims, prompts=PROMPTS)
QUOTED = Step("faithfulness.quoted", '{"claim_1": {"verdict": "supported"|"contradicted"|"not_mentioned", "quote": str}, ...}',
              shorthand=keyed_list("claim"), prompts=PROMPTS)
SUPPORTED = Step("faithfulness.supported", '{"claim_1": {"verdict": "supported"|"not_supported", "quote": str}, ...}',
                 shorthand=keyed_list("claim"), prompts=PROMPTS)
CONTRADICTION = Step("faithfulness.contradiction", '{"claim_1": "yes"|"no", ...} for the claims not supported',
                     shorthand=keyed_list("claim"), prompts=PROMPTS)

#: named configurations, each adding one change to one before it (:data:`BUILDS_ON`; notebook 11 measures each
#: and keeps a change only if it raises agreement)
PIPELINES: dict[str, dict[str, Any]] = {
    "library": {"verdicts": "yes_no_idk", "quotes_checked": False, "contradiction": "together",
                "claims_from": "answer"},
    "quoted": {"verdicts": "quoted", "quotes_checked": False, "contradiction": "together", "claims_from": "answer"},
    "quotes_checked": {"verdicts": "quoted", "quotes_checked": True, "contradiction": "together",
                       "claims_from": "answer"},
    "contradiction_apart": {"verdicts": "quoted", "quotes_checked": True, "contradiction": "apart",
                            "claims_from": "answer"},
    "apart_unchecked": {"verdicts": "quoted", "quotes_checked": False, "contradiction": "apart",
                        "claims_from": "answer"},
    "question_and_answer_claims": {"verdicts": "quoted", "quotes_checked": False, "contradiction": "together",
                                   "claims_from": "question_and_answer"},
    "defaults": {"verdicts": "quoted", "quotes_checked": False, "contradiction": "apart",
                 "claims_from": "question_and_answer"},
}

#: which configuration each one changes
BUILDS_ON = {"quoted": "library", "quotes_checked": "quoted", "contradiction_apart": "quotes_checked",
             "apart_unchecked": "quoted", "question_and_answer_claims": "quoted",
             "defaults": "question_and_answer_claims"}

def _choice(field: str, value: Any, options: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in options:
        raise InputError(field, " or ".join(repr(o) for o in options), value)
    return value


def faithfulness_checked(
    judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
    claims: Sequence[str] | None = None, pipeline: str | None = None, verdicts: str = "quoted",
    quotes_checked: bool = False, contradiction: str = "apart", claims_from: str = "question_and_answer",
    variant: str = "ragas", threshold: float | None = None,
) -> MetricResult:
    """Faithfulness with the changes named in the module's docstring (``pipeline`` picks a named set).

    The defaults are the changes that raised agreement with the labelled set for the recorded 1.5B
    judge (notebook 11): quoted verdicts, contradiction asked apart, claims from question and answer;
    the quote check lowered it (the model paraphrases its quotes), so it is off unless asked for.
    Each change was measured against the configuration it changes, not all four together.

    With ``claims`` given, the extraction is skipped (same items as a labelled set). Calls: one
    for claims (unless given), one for verdicts, and with ``contradiction="apart"`` one more for
    the claims not supported (none when all are).
    """
    if pipeline is not None:
        if not isinstance(pipeline, str) or pipeline not in PIPELINES:
            raise InputError("pipeline", "one of " + ", ".join(PIPELINES), pipeline)
        options = PIPELINES[pipeline]
        verdicts, quotes_checked = options["verdicts"], options["quotes_checked"]
        contradiction, claims_from = options["contradiction"], options["claims_from"]
    judge = check_judge(judge)
    answer_text = text("answer", answer)
    question = None if question is None else text("question", question)
    context = text_list("context", context)
    verdicts = _choice("verdicts", verdicts, ("yes_no_idk", "quoted"))
    contradiction = _choice("contradiction", contradiction, ("together", "apart"))
    claims_from = _choice("claims_from", claims_from, ("answer", "question_and_answer"))
    quotes_checked = flag("quotes_checked", quotes_checked)
    if claims_from == "question_and_answer" and question is None:
        raise InputError("question", "the question (claims_from='question_and_answer' writes claims from it)", None)
    given = None if claims is None else given_items("claims", claims, MAX_ITEMS)
    calls = CallList()
    dropped: list[str] = []
    if given is None:
        template = "faithfulness_claims_qa" if claims_from == "question_and_answer" else "faithfulness_claims"
        first = ask(judge, make_request(CLAIMS if template == "faithfulness_claims" else CLAIMS_QA, template, None,
                                     'a JSON object {"claims": ["...", ...]}', legacy=template == "faithfulness_claims",
                                     data={"question_block": question, "answer": answer_text}), calls)
        found_claims = list(first.data["claims"])
        if claims_from == "question_and_answer":
            found_claims, dropped = drop_invented(found_claims, text("question", question), answer_text)
    else:
        found_claims = list(given)
    said, quotes, contradicted = _ask_verdicts(judge, found_claims, context, verdicts, quotes_checked, contradiction,
                                               calls)
    result = score_checked(found_claims, said, context, quotes=quotes, quotes_checked=quotes_checked,
                           contradicted=contradicted, dropped=dropped, variant=variant, threshold=threshold)
    result.inputs["pipeline"] = {"verdicts": verdicts, "quotes_checked": quotes_checked,
                                 "contradiction": contradiction, "claims_from": claims_from}
    if given is not None:
        mark_given(result, "claims", given, CLAIMS.name)
    return finish(result, judge, calls, False)


def _ask_verdicts(judge: Judge, claims: list[str], context: list[str], verdicts: str, quotes_checked: bool,
                  contradiction: str, calls: CallList) -> tuple[list[str], list[str] | None, list[str] | None]:
    """Ask the verdicts on ``claims``: ``(said, quotes, contradicted)`` as :func:`score_checked` takes them.

    ``quotes`` is None for yes/no/idk verdicts; ``contradicted`` (the separate contradiction question's
    answers for the claims still open) is None unless contradiction is asked apart with quoted verdicts."""
    if not claims:
        return [], None, None
    keys = key_names("claim", len(claims))
    data = {"context": Texts("node", context, "(no context)"), "claims": Texts("claim", claims)}
    if verdicts == "yes_no_idk":
        reply = ask(judge, verdict_request(VERDICTS, "faithfulness_verdicts", "claim", len(claims),
                                             idk=True, data=data), calls)
        return [FROM_LIBRARY[reply.data[k]] for k in keys], None, None

    together = contradiction == "together"
    step, template = (QUOTED, "faithfulness_quoted") if together else (SUPPORTED, "faithfulness_supported")
    kind = models().QuotedVerdict if together else models().SupportVerdict
    words = '"supported", "contradicted" or "not_mentioned"' if together else '"supported" or "not_supported"'
    model = keyed(f"{step.name.replace('.', '_')}_{len(claims)}", keys, kind)
    reply = ask(judge, make_request(step, template, model, f"a JSON object with exactly the {len(keys)} keys "
                                 f"{', '.join(keys)}, each {{\"verdict\": {words}, \"quote\": \"...\"}}",
                                 legacy=False, data=data, keys=", ".join(keys)), calls)
    said = [reply.data[k]["verdict"] for k in keys]
    quotes = [reply.data[k]["quote"] for k in keys]
    if contradiction != "apart":
        return said, quotes, None
    open_ = still_open(checked_rows(said, quotes, context, quotes_checked=quotes_checked))
    if not open_:
        return said, quotes, []
    second = ask(judge, _verdict_request_yes_no([claims[i] for i in open_], context), calls)
    return said, quotes, [second.data[f"claim_{j}"] for j in range(1, len(open_) + 1)]


def _verdict_request_yes_no(claims: list[str], context: list[str]) -> Any:
    return verdict_request(CONTRADICTION, "faithfulness_contradiction", "claim", len(claims),
                            idk=False, legacy=False,
                            data={"context": Texts("node", context, "(no context)"), "claims": Texts("claim", claims)})


SPEC = metrics.register(MetricSpec(
    "faithfulness_checked", "Faithfulness (checked claims)", score_checked, of="faithfulness", component="generator",
    ask=Ask(faithfulness_checked, ("judge", "answer", "contexts"), QUESTION),
    design="claims from question and answer, verdicts with quotes checked in the context",
    steps=(CLAIMS_QA, SUPPORTED, CONTRADICTION, QUOTED, CLAIMS, VERDICTS), verdict_column="verdict",
    example=dict(claims=["AI is old."], said=["supported"], context=["AI is old and widely used."])))
