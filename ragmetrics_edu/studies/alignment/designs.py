"""Lesson 15's designs: support per sentence (with three aggregates), its few-shot form and the designs explored
after the rule, as lesson 14's Designs; and every design ``validate-judge`` offers (:data:`JUDGED`).

Each reads a pass (recorded by :mod:`ragmetrics_edu.course.against_people.record`, which the course replays):
``support`` asks every sentence alone; ``support_fewshot`` shows four sentences people labelled, from other dev
sources (:mod:`ragmetrics_edu.judges.examples`), before the passages.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from ...data import ragtruth
from ...designs.faithfulness_quote import faithfulness_quote
from ...designs.faithfulness_support import faithfulness_support
from ...designs.faithfulness_support_batched import faithfulness_support_batched
from ...errors import InputError
from ...judges.base import Judge
from ...judges.examples import Labelled, example_text, labelled_sentences, pick_examples
from ...metrics.support import support_score
from ...results import MetricResult
from ..against_people.designs import DESIGNS, Design, Item, ask_pass
from .stability import ask_stability

__all__ = ["ALIGNMENT_DESIGNS", "ALIGNMENT_PASSES", "ask_any_pass", "dev_pool", "examples_for",
           "ask_fewshot", "JUDGED", "EXAMPLES_PER_SOURCE", "ask_entailment", "ask_quote", "ask_stability_of"]

#: examples shown per source in the few-shot form (half of them "no")
EXAMPLES_PER_SOURCE = 4


@lru_cache(maxsize=1)
def dev_pool() -> tuple[Labelled, ...]:
    """Every sentence of RAGTruth's dev answers as a labelled example (the only pool examples come from)."""
    out: list[Labelled] = []
    for a in ragtruth.answers("dev"):
        out += labelled_sentences(a.answer, [(s.start, s.end) for s in a.spans], a.context, question=a.question,
                                  group=f"source-{a.source_id}", split=a.split)
    return tuple(out)


def _check(item: Any) -> None:
    """An InputError unless ``item`` is one of the study's items."""
    if not isinstance(item, Item):
        raise InputError("item", "an Item (course.against_people.items.items() or labelled.read_labelled())", item)


def examples_for(item: Item) -> list[str]:
    """The examples shown for ``item``'s source: from dev only, never from its own source."""
    _check(item)
    picked = pick_examples(dev_pool(), question=item.question, context=list(item.context), group=item.group,
                           k=EXAMPLES_PER_SOURCE)
    return [example_text(e) for e in picked]


def ask_fewshot(judge: Judge, item: Item) -> MetricResult:
    """The few-shot pass: support per sentence with the source's examples before the passages."""
    _check(item)
    return faithfulness_support(judge, item.answer, list(item.context), question=item.question,
                                examples=examples_for(item))


def ask_batched(judge: Judge, item: Item) -> MetricResult:
    """The one-request pass: all of an answer's sentences checked in one request (explored for cost, see
    :mod:`ragmetrics_edu.designs.faithfulness_support_batched`)."""
    _check(item)
    return faithfulness_support_batched(judge, item.answer, list(item.context), question=item.question)


def ask_entailment(judge: Judge, item: Item) -> MetricResult:
    """The NLI-worded pass: support per sentence asked as "does the premise entail the hypothesis?" (explored after
    the rule was written, see ``protocol.EXPLORED``)."""
    _check(item)
    return faithfulness_support(judge, item.answer, list(item.context), question=item.question, wording="entailment")


def ask_quote(judge: Judge, item: Item) -> MetricResult:
    """The quote-then-verify pass: a quote per sentence, checked by counting words (explored after the rule)."""
    _check(item)
    return faithfulness_quote(judge, item.answer, list(item.context), question=item.question)


def ask_stability_of(judge: Judge, item: Item) -> MetricResult:
    """The stability pass: each sentence asked several times, sampled (:mod:`.stability`)."""
    _check(item)
    return ask_stability(judge, item.answer, list(item.context), question=item.question, answer_id=item.id)


#: lesson 15's own recorded passes (lesson 14's PASSES hold ``support``, the zero-shot one): the few-shot form, the
#: same sentences sampled several times, and the designs explored after the rule was written (``EXPLORED``)
ALIGNMENT_PASSES = {"support_fewshot": ask_fewshot, "stability": ask_stability_of, "support_batched": ask_batched,
                    "support_entailment": ask_entailment, "support_quote": ask_quote}


def ask_any_pass(pass_name: str, judge: Judge, item: Item) -> MetricResult:
    """Ask ``judge`` what a pass of lesson 14 or 15 asks for ``item`` (the recorder, the study and validate-judge)."""
    if isinstance(pass_name, str) and pass_name in ALIGNMENT_PASSES:
        return ALIGNMENT_PASSES[pass_name](judge, item)
    return ask_pass(pass_name, judge, item)


def _again(r: MetricResult, aggregate: str) -> float:
    """The support score with another aggregate of the same recorded p(yes) per sentence (no call)."""
    offsets = [(row["start"], row["end"]) for row in r.rows]
    return support_score(r.inputs["answer"], offsets, [row["p_yes"] for row in r.rows], aggregate=aggregate).score


ALIGNMENT_DESIGNS: dict[str, Design] = {d.name: d for d in (
    Design("support_min", "support per sentence: the least supported sentence's p(yes)", "support", "1/sentence",
           lambda r, i: r.score if r else math.nan),
    Design("support_mean", "support per sentence: the mean p(yes) of the sentences", "support", "1/sentence",
           lambda r, i: _again(r, "mean") if r else math.nan),
    Design("support_min_claims", "support per sentence: the least supported sentence that claims something",
           "support", "1/sentence", lambda r, i: _again(r, "min_claims") if r else math.nan),
    Design("support_fewshot_min", "support per sentence with 4 examples people labelled: the lowest p(yes)",
           "support_fewshot", "1/sentence", lambda r, i: r.score if r else math.nan),
    # explored after the rule was written (protocol.EXPLORED): scored and validated alike, never candidates
    Design("support_batched_min", "all of an answer's sentences in one request: the lowest p(yes)", "support_batched",
           "1", lambda r, i: r.score if r else math.nan),
    Design("support_entailment_min", "support per sentence in the NLI wording (premise, hypothesis): the lowest p(yes)",
           "support_entailment", "1/sentence", lambda r, i: r.score if r else math.nan),
    Design("quote_min", "quote, then verify: the least supported sentence's share of words in its checked quote",
           "support_quote", "1/sentence", lambda r, i: r.score if r else math.nan),
)}

#: every design a judge can be validated with (``ragmetrics-edu validate-judge --design``): lesson 14's judged
#: designs and these
JUDGED: dict[str, Design] = {**{n: d for n, d in DESIGNS.items() if d.recording is not None}, **ALIGNMENT_DESIGNS}
