"""Exercises of notebook 01 (context precision); notebook 08's are in ``ranking.py``."""

from __future__ import annotations

from typing import Any

from ... import metrics
from ...errors import InputError
from ...metrics.context_precision import VARIANTS
from ...validate import YES, verdict_list
from ...widgets.models import PermutationModel
from . import Exercise, as_name, as_number, register
from .changed_code import change_exercise

CP2_VERDICTS = [0, 0, 1, 1, 0]
DESERT_VERDICTS = [1, 0, 0]  # deck B's three desert chunks, the Antarctic one relevant


def _diagnose_cp(verdicts: list[int]):
    """Recognise the usual slips on a context-precision sum for these verdicts."""

    def diagnose(given: Any, correct: float) -> str | None:
        g = as_number(given)
        if g is None:
            return None
        r = metrics.context_precision(verdicts)
        total, relevant, n = r.values["sum_of_terms"], r.values["relevant_count"], len(verdicts)
        mean_p = sum(row["precision_at_k"] for row in r.rows) / n
        if abs(g - total / n) < 1e-3:
            return (f"You divided the sum of terms ({total:.4f}) by the number of nodes ({n}). "
                    f"Context precision divides by the number of relevant nodes ({relevant}).")
        if abs(g - mean_p) < 1e-3:
            return ("You averaged precision@k over every rank. Only ranks holding a relevant node "
                    "contribute a term (precision@k × r_k).")
        if abs(g - total) < 1e-3:
            return f"That is the sum of the terms; divide it by the number of relevant nodes ({relevant})."
        return None

    return diagnose


def _flags(given: Any) -> list[int] | None:
    """The learner's order as 0/1, however the verdicts are written (0/1, yes/no, True/False)."""
    if isinstance(given, (str, bytes)):
        return None
    try:
        return [1 if v == YES else 0 for v in verdict_list("answer", list(given))]
    except (TypeError, InputError):
        return None


def _accept_cp2(given: Any, correct: list[int]) -> bool:
    """Any reordering of the verdicts that reaches the best score is right, in any spelling."""
    flags = _flags(given)
    return (flags is not None and sorted(flags) == sorted(CP2_VERDICTS)
            and metrics.context_precision(flags).score == metrics.context_precision(correct).score)


def _diagnose_cp2(given: Any, correct: list[int]) -> str | None:
    """Score the learner's order, or say why it is not a reordering of the verdicts."""
    flags = _flags(given)
    if flags is None:
        return "Give the order as a list of 0/1 verdicts, e.g. [0, 1, 0, 1, 0]."
    if sorted(flags) != sorted(CP2_VERDICTS):
        return (f"A reordering keeps the verdicts and changes only their places: {sum(CP2_VERDICTS)} relevant "
                f"and {len(CP2_VERDICTS) - sum(CP2_VERDICTS)} irrelevant nodes. Your list has {sum(flags)} "
                f"relevant out of {len(flags)}.")
    score = metrics.context_precision(flags).score
    return (f"That is a reordering, but it scores {score:.4f}; the best order scores "
            f"{metrics.context_precision(correct).score:.4f}. Which nodes give a term below 1?")


def _diagnose_cp4(given: Any, correct: float) -> str | None:
    g = as_number(given)
    if g is not None and abs(g - 5 / 6) < 1e-3:
        return ("That is the DeepEval score, which divides by the 2 relevant nodes retrieved; "
                "average precision divides by all 4.")
    return None


def _expected_desert() -> float:
    """The mean score over every ordering of deck B's verdicts (the permutation explorer's 'expected')."""
    return PermutationModel(verdicts=DESERT_VERDICTS).summary.expected


def _diagnose_cp5(given: Any, correct: float) -> str | None:
    g = as_number(given)
    if g is None:
        return None
    n = len(DESERT_VERDICTS)
    middle = metrics.context_precision([0, 1, 0]).score
    if abs(g - middle) < 1e-3:
        return (f"That is the score with the relevant chunk at the middle rank ({middle:.4f}). The expected score is "
                "the mean of the scores over the ranks, which is not the score at the mean rank: 1/k is not linear.")
    if abs(g - sum(DESERT_VERDICTS) / n) < 1e-3:
        return f"That is precision@{n}, the share of relevant chunks; it does not depend on the order at all."
    if abs(g - 1.0) < 1e-3:
        return "That is the best order only. A random order puts the relevant chunk at each rank equally often."
    return None


register(
    Exercise(
        id="cp-1",
        question="Verdicts [no, yes, no, yes] (DeepEval). What is the context precision?",
        answer=lambda: metrics.context_precision([0, 1, 0, 1]).score,
        hint="Terms only at the relevant ranks: precision@2 and precision@4; then divide by 2.",
        explanation="Terms 1/2 (k=2) and 2/4 (k=4) sum to 1; divided by the 2 relevant nodes: 0.5.",
        diagnose=_diagnose_cp([0, 1, 0, 1]),
    ),
    Exercise(
        id="cp-2",
        question="Reorder [no, no, yes, yes, no] to reach the highest possible score. Give the best order as a list of 0/1.",
        answer=lambda: sorted(CP2_VERDICTS, reverse=True),
        kind="list",
        hint="Context precision rewards relevant nodes that come first.",
        explanation="Both relevant nodes first gives precision 1 at k=1 and k=2: score 1.",
        diagnose=_diagnose_cp2,
        accept=_accept_cp2,
    ),
    Exercise(
        id="cp-3",
        question=("Verdicts [yes, no, yes] score exactly 5/6 with DeepEval. With the Ragas variant, is the score "
                  "exactly 5/6? Answer True or False."),
        answer=lambda: metrics.context_precision([1, 0, 1], "ragas").score == 5 / 6,
        kind="bool",
        hint="Look at the denominator Ragas uses.",
        explanation="Ragas divides by (2 + 1e-10), so the score is a hair below 5/6.",
    ),
    Exercise(
        id="cp-4",
        question="Verdicts [yes, no, yes], but the corpus holds 4 relevant documents. Classic average precision?",
        answer=lambda: metrics.context_precision([1, 0, 1], "average_precision", total_relevant=4).score,
        hint="Same terms as context precision; the denominator is every relevant document, found or not.",
        explanation="Terms 1 and 2/3 sum to 5/3; divided by 4 gives 5/12 ≈ 0.4167.",
        diagnose=_diagnose_cp4,
    ),
    Exercise(
        id="cp-5",
        question=("Deck B's three desert chunks, one of them relevant: if the retriever returned them in a "
                  "uniformly random order, what context precision (DeepEval) would you expect on average?"),
        answer=_expected_desert,
        hint="The relevant chunk lands at rank 1, 2 or 3, each equally often; its score is then 1/rank.",
        explanation="(1 + 1/2 + 1/3) / 3 = 11/18 ≈ 0.6111: the mean of 1/k over the three ranks.",
        diagnose=_diagnose_cp5,
    ),
)


# -- cp-6: analysis. Which variant can see a relevant document the retriever never returned? ------
MISSED_VERDICTS = [1, 1, 0, 0, 0]  # two relevant passages found, at ranks 1 and 2
MISSED_TOTAL = 3                    # the corpus holds three


def _variant_scores() -> dict[str, float]:
    """Each variant's score on the list above (average precision told the corpus-wide count)."""
    return {v: metrics.context_precision(MISSED_VERDICTS, v, total_relevant=MISSED_TOTAL if v == "average_precision"
                                         else None).score
            for v in VARIANTS}


def _variant_that_sees_the_miss() -> str:
    """The one variant whose score falls clearly below 1 on this list."""
    (seen,) = [v for v, score in _variant_scores().items() if score < 1 - 1e-6]
    return seen


def _accept_cp6(given: Any, correct: str) -> bool:
    return as_name(given) == correct


def _diagnose_cp6(given: Any, correct: str) -> str | None:
    name = as_name(given)
    scores = _variant_scores()
    if name is None:
        return "Answer with one of the strings 'deepeval', 'ragas' or 'average_precision'."
    if name == "ragas":
        return (f"Ragas scores {scores['ragas']!r} here: below 1 only by its 1e-10 epsilon. Like DeepEval it divides "
                "by the relevant nodes among those retrieved, so a passage that was never retrieved cannot lower it.")
    if name == "deepeval":
        return (f"DeepEval scores {scores['deepeval']!r} here, the colleague's number: it divides by the "
                f"{sum(MISSED_VERDICTS)} relevant nodes it retrieved and never learns of the third.")
    if name in ("context_recall", "recall"):
        return ("Context recall (notebook 02) would notice the gap too, but the question asks which of this "
                "notebook's three variants does.")
    return None


register(
    Exercise(
        id="cp-6",
        question=("Your corpus holds 3 passages relevant to a question. The retriever returns 5 nodes and finds 2 of "
                  "them, at ranks 1 and 2: verdicts [yes, yes, no, no, no]. A colleague reports context precision "
                  "1.0 and calls the retriever perfect. Which of this notebook's three variants would show that a "
                  "relevant passage was missed? Answer 'deepeval', 'ragas' or 'average_precision'."),
        answer=_variant_that_sees_the_miss,
        kind="choice",
        hint="Which denominator counts relevant documents that were not retrieved?",
        explanation=("Average precision divides by every relevant document in the corpus (3), so the missed one "
                     "costs a third: 2/3. DeepEval and Ragas divide by the relevant nodes retrieved (2) and give 1 "
                     "(Ragas a hair below). A perfect context precision says the order is perfect, not that "
                     "nothing was missed."),
        diagnose=_diagnose_cp6,
        accept=_accept_cp6,
    ),
)


# -- cp-7: change a line. Drop r_k from the term: what does deck A score? -----------------------------------
register(change_exercise(
    id="cp-7", metric="context_precision", old="term = precision_at_k * r_k", new="term = precision_at_k",
    case="deck A's list `[0, 1, 1, 0, 0]` (DeepEval's variant)",
    run=lambda core: core.context_precision([0, 1, 1, 0, 0])[0],
    hint="Without r_k every rank adds its precision@k, relevant or not; the denominator is still R.",
    explanation=("Every rank now adds its precision@k: 0 + 1/2 + 2/3 + 2/4 + 2/5 = 2.0667, still divided by "
                 "R = 2, which gives 1.0333: above 1, a score no ranking should reach. r_k keeps an irrelevant "
                 "rank's precision out of the sum, so the score stays the mean of the relevant ranks' precisions."),
    slips=((lambda: 31 / 15, "That is the changed sum of terms; the code still divides it by D = R = 2."),
           (lambda: 31 / 15 / 5, "You divided by the 5 nodes; the code divides by D, the 2 relevant nodes.")),
))
