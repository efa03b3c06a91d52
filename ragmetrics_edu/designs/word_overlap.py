"""Word overlap: evaluate()'s default faithfulness design, the share of the answer's content words found in the
contexts (no judge).

The one a written rule chose on the dev parts of HaluEval and RAGTruth (no judged design beat it significantly;
course.against_people and course.alignment, notebooks 14 and 15). The arithmetic is
:func:`ragmetrics_edu.metrics.word_overlap`.
"""

from __future__ import annotations

from .. import metrics
from ..metrics import Ask, MetricSpec

__all__ = ["SPEC"]

SPEC = metrics.register(MetricSpec(
    "word_overlap", "Word overlap", metrics.word_overlap, of="faithfulness", component="generator",
    ask=Ask(metrics.word_overlap, ("answer", "contexts"), batch=metrics.word_overlap_batch),
    design="the share of the answer's content words found in the contexts (no judge)",
    cannot_see="It cannot see a contradiction that reuses the contexts' words: \"Sydney is Australia's capital\" "
               "against a passage naming Canberra as the capital shares most of its words and scores high. It reads "
               "words, not meaning: a faithful paraphrase in other words scores low."))
