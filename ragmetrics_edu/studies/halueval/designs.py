"""The HaluEval study's designs: every configuration tried on dev, and how each scores one answer.

A pair is a right and a hallucinated answer to one question over one passage
(:class:`ragmetrics_edu.data.halueval.HaluPair`). A design scores each answer against the passage;
word overlap asks no judge, the others ask the judge they are given (a live one when recording).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ... import designs
from ...baselines import answer_overlap
from ...data import halueval
from ...designs.faithfulness_checked import faithfulness_checked
from ...errors import InputError
from ...validate import text

__all__ = ["BASELINE", "Design", "DESIGNS", "design_of", "score_answer"]

#: The study's baseline design (counting words, no model): every other design is compared with it.
BASELINE = "word_overlap"


@dataclass(frozen=True)
class Design:
    """One configuration tried on dev: which pipeline, with which options, recorded as which pass."""

    name: str
    what: str
    pipeline: str            # "word_overlap", "reanswer", "library", "checked"
    options: tuple[tuple[str, Any], ...] = ()
    recording: str | None = None   # the recorded pass it replays (several designs share one)
    dev_limit: int | None = None   # expensive designs are tried on the first n dev pairs only
    test_limit: int | None = None  # ... and shown on the first n test pairs only


#: every configuration tried on dev, in the order they were tried
DESIGNS: dict[str, Design] = {d.name: d for d in (
    Design("word_overlap", "share of the answer's content words found in the passage (no model)", "word_overlap"),
    Design("library", "designs.faithfulness: claims from the answer, then yes/no/idk per claim (2 calls)",
           "library", (), "library", 20, 40),
    Design("checked_defaults", "designs.faithfulness_checked with its defaults: claims from question and answer, "
           "quoted verdicts, contradiction asked apart (2-3 calls)", "checked", (), "checked", 6),
    *(Design(f"reanswer_{compare}_w{int(100 * weight)}",
             f"the judge answers from the passage; {compare} of the answer's words against its answer, "
             f"weighted {1 - weight:g} with word overlap weighted {weight:g}",
             "reanswer", (("compare", compare), ("grounding_weight", weight)), "reanswer")
      for compare in ("recall", "precision", "f1") for weight in (0.0, 0.5, 0.75, 0.9)),
)}


def design_of(name: Any) -> Design:
    """The design named ``name`` (a key of :data:`DESIGNS`), else an InputError."""
    if not isinstance(name, str) or name not in DESIGNS:
        raise InputError("design", "one of " + ", ".join(DESIGNS), name)
    return DESIGNS[name]


def score_answer(design: Design, judge: Any, pair: halueval.HaluPair, answer: str) -> float:
    """The design's score of one answer of ``pair``, asking ``judge`` (word overlap asks none)."""
    if not isinstance(design, Design):
        raise InputError("design", "a Design (halueval.designs.DESIGNS)", design)
    if not isinstance(pair, halueval.HaluPair):
        raise InputError("pair", "a HaluEval pair (data.halueval.pairs())", pair)
    answer, context = text("answer", answer), [pair.knowledge]
    if design.pipeline == BASELINE:
        return answer_overlap(answer, context)
    options = dict(design.options)
    if design.pipeline == "reanswer":
        return designs.faithfulness_reanswer(judge, answer, context, question=pair.question, **options).score
    if design.pipeline == "library":
        return designs.faithfulness(judge, answer, context, question=pair.question, variant="ragas").score
    return faithfulness_checked(judge, answer, context, question=pair.question, variant="ragas").score
