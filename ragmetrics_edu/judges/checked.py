"""Faithfulness with checks a small judge cannot talk its way past.

:func:`ragmetrics_edu.judges.faithfulness` asks for claims, then a yes/no/idk per claim.
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
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import metrics
from ..errors import InputError
from ..results import MetricResult
from ..text import normalize_text, tokenize
from ..validate import flag, text, text_list
from .base import Judge
from .prompting import Texts
from .records import CallList
from .requests import (
    MAX_ITEMS,
    ask,
    check_judge,
    finish,
    key_names,
    keyed_list,
    list_field,
    make_request,
    schema_models,
    verdict_request,
)
from .same_items import given_items, mark_given

__all__ = ["faithfulness_checked", "quote_found", "invented", "PIPELINES", "BUILDS_ON", "TO_LIBRARY"]

#: the three-way words and the library's yes/no/idk
TO_LIBRARY = {"supported": "yes", "contradicted": "no", "not_mentioned": "idk"}

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

#: share of a claim's content words that must come from the question or the answer
INVENTED_BELOW = 0.75


def quote_found(quote: str, context: Sequence[str]) -> bool:
    """Is ``quote`` in the context? Case and punctuation are ignored; an empty quote is never found."""
    wanted = normalize_text(quote)
    return bool(wanted) and any(wanted in normalize_text(node) for node in context)


def invented(claim: str, source: str) -> bool:
    """A claim whose content words are mostly (over a quarter) absent from ``source`` (question + answer)."""
    words = set(tokenize(claim))
    if not words:
        return False
    return len(words & set(tokenize(source))) / len(words) < INVENTED_BELOW


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
    notes: list[str] = []
    if given is None:
        template = "faithfulness_claims_qa" if claims_from == "question_and_answer" else "faithfulness_claims"
        first = ask(judge, make_request("faithfulness.claims" if template == "faithfulness_claims" else
                                     "faithfulness.claims_qa", template, schema_models().Claims,
                                     'a JSON object {"claims": ["...", ...]}', shorthand=list_field("claims"),
                                     legacy=template == "faithfulness_claims",
                                     data={"question_block": question, "answer": answer_text}), calls)
        found_claims = list(first.data["claims"])
        if claims_from == "question_and_answer":
            source = f"{question}\n{answer_text}"
            dropped = [c for c in found_claims if invented(c, source)]
            found_claims = [c for c in found_claims if c not in dropped]
            notes += [f"Dropped as invented (under {INVENTED_BELOW:.0%} of its content words are in the question "
                      f"or the answer): {c!r}" for c in dropped]
    else:
        found_claims = list(given)
    rows = _judge_claims(judge, found_claims, context, verdicts, quotes_checked, contradiction, calls)
    result = metrics.faithfulness(found_claims, [TO_LIBRARY.get(r["final"], r["final"]) for r in rows], variant,
                                  context=context, threshold=threshold)
    result.values["checked"] = rows
    result.narrative.extend(notes + [_row_line(i, r) for i, r in enumerate(rows, start=1)])
    result.inputs["pipeline"] = {"verdicts": verdicts, "quotes_checked": quotes_checked,
                                 "contradiction": contradiction, "claims_from": claims_from}
    if given is not None:
        mark_given(result, "claims", given, "faithfulness.claims")
    return finish(result, judge, calls, False)


def _row_line(i: int, row: dict[str, Any]) -> str:
    line = f"claim_{i}: the judge said {row['said']}"
    if row.get("quote"):
        line += f", quoting {row['quote']!r} ({'found' if row['quote_found'] else 'NOT found'} in the context)"
    if row["final"] != row["said"]:
        line += f" -> {row['final']} ({row['why']})"
    return line + "."


def _judge_claims(judge: Judge, claims: list[str], context: list[str], verdicts: str, quotes_checked: bool,
                  contradiction: str, calls: CallList) -> list[dict[str, Any]]:
    """One row per claim: what the judge said, its quote, whether the quote was found, the final verdict."""
    if not claims:
        return []
    keys = key_names("claim", len(claims))
    data = {"context": Texts("node", context, "(no context)"), "claims": Texts("claim", claims)}
    if verdicts == "yes_no_idk":
        reply = ask(judge, verdict_request("faithfulness.verdicts", "faithfulness_verdicts", "claim", len(claims),
                                             idk=True, data=data), calls)
        back = {"yes": "supported", "no": "contradicted", "idk": "not_mentioned"}
        return [{"said": back[reply.data[k]], "quote": "", "quote_found": None, "final": back[reply.data[k]],
                 "why": ""} for k in keys]
    kind, template, step = (("quoted_verdict", "faithfulness_quoted", "faithfulness.quoted") if contradiction == "together"
                            else ("support_verdict", "faithfulness_supported", "faithfulness.supported"))
    words = ('"supported", "contradicted" or "not_mentioned"' if kind == "quoted_verdict"
             else '"supported" or "not_supported"')
    model = schema_models().keyed(f"{step.replace('.', '_')}_{len(claims)}", keys, kind)
    reply = ask(judge, make_request(step, template, model, f"a JSON object with exactly the {len(keys)} keys "
                                 f"{', '.join(keys)}, each {{\"verdict\": {words}, \"quote\": \"...\"}}",
                                 shorthand=keyed_list("claim"), legacy=False, data=data, keys=", ".join(keys)), calls)
    rows = []
    for k in keys:
        said, quote = reply.data[k]["verdict"], reply.data[k]["quote"]
        row = {"said": said, "quote": quote, "quote_found": quote_found(quote, context) if quote.strip() else None,
               "final": "not_mentioned" if said == "not_supported" else said, "why": ""}
        if said == "not_supported":
            row["why"] = "not supported; contradiction asked apart"
        if quotes_checked and said == "supported" and not row["quote_found"]:
            row["final"], row["why"] = "not_mentioned", "its quote is not in the context"
        rows.append(row)
    if contradiction == "apart":
        open_ = [i for i, r in enumerate(rows) if r["final"] != "supported"]
        if open_:
            asked = [claims[i] for i in open_]
            second = ask(judge, _verdict_request_yes_no(asked, context), calls)
            for j, i in enumerate(open_, start=1):
                if second.data[f"claim_{j}"] == "yes":
                    rows[i]["final"] = "contradicted"
                    rows[i]["why"] = "the separate contradiction question said yes"
    return rows


def _verdict_request_yes_no(claims: list[str], context: list[str]) -> Any:
    return verdict_request("faithfulness.contradiction", "faithfulness_contradiction", "claim", len(claims),
                            idk=False, legacy=False,
                            data={"context": Texts("node", context, "(no context)"), "claims": Texts("claim", claims)})
