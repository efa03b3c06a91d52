"""The faithfulness designs measured against people (lessons 13-15), each as what it asks a judge and how it
scores, and :class:`Item`, the one shape of an answer they are measured on (RAGTruth QA or HaluEval QA).

A *pass* is one recorded judge run (one kind of request over a set of answers); several designs read
the same pass (G-Eval weighted and G-Eval's raw reply read one recording). Every score is "higher is
more faithful", so a hallucinated answer should score low.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ...baselines import coverage
from ...designs import aspect_critic, faithfulness_checked, faithfulness_reanswer, faithfulness_support, g_eval
from ...designs import faithfulness as claims_faithfulness
from ...errors import InputError
from ...judges.base import Judge
from ...metrics.rubric import g_eval_score
from ...results import MetricResult

__all__ = ["BASELINE", "Design", "DESIGNS", "Item", "PASSES", "ask_pass"]

#: The study's baseline: the design every judged design is paired with (counting words, no model).
BASELINE = "word_overlap"


@dataclass(frozen=True)
class Item:
    """One answer to judge: ``hallucinated`` is the label (people's spans, or HaluEval's construction)."""

    id: str
    dataset: str
    split: str
    group: str          # the independent unit intervals resample: a RAGTruth source, a HaluEval pair
    question: str
    context: tuple[str, ...]
    answer: str
    hallucinated: bool
    model: str          # who wrote the answer (RAGTruth's six models; HaluEval: "hotpotqa" or "chatgpt")
    span_kind: str      # RAGTruth's span type ("none" when faithful); HaluEval: "constructed"

#: pass name -> what the pass asks of the judge for one answer (its MetricResult carries the calls)
PASSES: dict[str, Callable[[Judge, Item], MetricResult]] = {
    "reanswer": lambda j, i: faithfulness_reanswer(j, i.answer, list(i.context), question=i.question),
    "g_eval": lambda j, i: g_eval(j, i.answer, list(i.context), question=i.question),
    "critic": lambda j, i: aspect_critic(j, i.answer, list(i.context), question=i.question, strictness=3),
    "claims": lambda j, i: claims_faithfulness(j, i.answer, list(i.context), question=i.question),
    "checked": lambda j, i: faithfulness_checked(j, i.answer, list(i.context), question=i.question),
    "support": lambda j, i: faithfulness_support(j, i.answer, list(i.context), question=i.question),
}


def ask_pass(name: str, judge: Judge, item: Item) -> MetricResult:
    """Ask ``judge`` what pass ``name`` asks for ``item``."""
    if not isinstance(name, str) or name not in PASSES:
        raise InputError("name", "one of " + ", ".join(PASSES), name)
    if not isinstance(item, Item):
        raise InputError("item", "an Item (course.against_people.items.items())", item)
    return PASSES[name](judge, item)


def _deepeval_rule(r: MetricResult) -> float:
    probs = {row["score"]: row["probability"] for row in r.rows if not math.isnan(row["probability"])}
    if not probs:
        return r.score
    return g_eval_score(probs, variant="deepeval", scale=(r.values["low"], r.values["high"])).score


def _claims_ragas(r: MetricResult) -> float:
    verdicts = [row["verdict"] for row in r.rows]
    return sum(v == "yes" for v in verdicts) / len(verdicts) if verdicts else math.nan


@dataclass(frozen=True)
class Design:
    """One way to score faithfulness: the pass it reads (None: no judge), and its score from that pass's result."""

    name: str
    label: str
    recording: str | None
    calls: str                              # calls per answer, in words
    score: Callable[[MetricResult | None, Item], float]


DESIGNS: dict[str, Design] = {d.name: d for d in (
    Design("word_overlap", "word overlap (share of the answer's content words in the passages)", None, "0",
           lambda r, i: coverage(i.answer, "\n".join(i.context))),
    Design("reanswer", "re-answer: 0.9 x word overlap + 0.1 x agreement with the judge's own answer", "reanswer",
           "1/question", lambda r, i: r.score if r else math.nan),
    Design("reanswer_judge_only", "re-answer, agreement with the judge's answer alone (weight 0)", "reanswer",
           "1/question", lambda r, i: r.values["agreement"] if r else math.nan),
    Design("g_eval", "G-Eval, 1-5 weighted by the score tokens' probabilities", "g_eval", "1 (+1 shared)",
           lambda r, i: r.score if r else math.nan),
    Design("g_eval_deepeval_rule", "G-Eval with DeepEval's rule (scores under 1 % dropped)", "g_eval",
           "1 (+1 shared)", lambda r, i: _deepeval_rule(r) if r else math.nan),
    Design("g_eval_reply", "G-Eval, the reply's own 1-5 score (no weighting)", "g_eval", "1 (+1 shared)",
           lambda r, i: (r.values["reply_score"] - 1) / 4 if r else math.nan),
    Design("critic_majority", "aspect critic, majority of 3 votes (AspectCritic's documented strictness 3)", "critic", "3",
           lambda r, i: r.score if r else math.nan),
    Design("critic_yes_share", "aspect critic, share of yes among 3 votes", "critic", "3",
           lambda r, i: r.values["yes_share"] if r else math.nan),
    Design("critic_p_yes", "aspect critic, the first vote's probability of yes", "critic", "1",
           lambda r, i: r.values["p_yes"] if r else math.nan),
    Design("claims_deepeval", "claims then verdicts, DeepEval's rule (idk counts as faithful)", "claims", "2",
           lambda r, i: r.score if r else math.nan),
    Design("claims_ragas", "claims then verdicts, Ragas' rule (only yes counts)", "claims", "2",
           lambda r, i: _claims_ragas(r) if r else math.nan),
    Design("checked", "the checked pipeline (claims from question and answer, quoted verdicts, contradiction apart)",
           "checked", "2-3", lambda r, i: r.score if r else math.nan),
)}
