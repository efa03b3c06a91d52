"""Exercises of notebook 08 (context precision among the classic ranking measures)."""

from __future__ import annotations

import math
from itertools import product
from typing import Any

from ... import metrics
from . import Exercise, close, register
from .changed_code import change_exercise

#: rank-1: a list of six results and the number of relevant documents in the whole corpus.
RECALL_LIST, RECALL_K, RECALL_TOTAL = [0, 1, 0, 1, 1, 0], 4, 5
#: rank-2: deck D's order table, read as four queries.
MRR_QUERIES = [["yes", "yes", "no"], ["yes", "no", "yes"], ["no", "yes", "yes"], ["no", "no", "yes"]]
#: rank-3: graded gains (2 = answers the question, 1 = partly relevant).
GRADED = [1, 0, 2]
#: rank-4: two lists that differ only by swapping ranks 1 and 2.
SWAP_A, SWAP_B = [1, 0, 1, 0, 0], [0, 1, 1, 0, 0]
SWAP_K = 2
#: rank-5: three queries and the relevant documents each has in the corpus (the third has
#: relevant documents, none retrieved).
MAP_QUERIES, MAP_TOTALS = [[0, 0, 1], [1, 0, 0, 1], [0, 0, 0]], [1, 3, 2]



def _diagnose_recall(given: Any, correct: float) -> str | None:
    hits = sum(RECALL_LIST[:RECALL_K])
    if close(given, metrics.precision_at_k(RECALL_LIST, k=RECALL_K).score):
        return f"That is precision@{RECALL_K}: you divided the {hits} hits by k. Recall divides by every relevant document."
    if close(given, hits / sum(RECALL_LIST)):
        return (f"You divided by the {sum(RECALL_LIST)} relevant documents in the list. Recall divides by all "
                f"{RECALL_TOTAL} relevant documents in the corpus, retrieved or not.")
    if close(given, sum(RECALL_LIST) / RECALL_TOTAL):
        return f"That counts the relevant documents in the whole list; recall@{RECALL_K} stops at rank {RECALL_K}."
    return None


def _diagnose_mrr(given: Any, correct: float) -> str | None:
    ranks = [metrics.reciprocal_rank(q).values["first_relevant_rank"] for q in MRR_QUERIES]
    if close(given, len(ranks) / sum(ranks)):
        return ("That is 1 / (mean rank of the first hit). MRR takes the reciprocal of each rank first, "
                "then the mean: the mean of 1/rank, not 1/mean of rank.")
    if close(given, sum(metrics.context_precision(q).score for q in MRR_QUERIES) / len(MRR_QUERIES)):
        return "That is the mean context precision of the four lists; MRR looks only at each list's first hit."
    if close(given, sum(ranks) / len(ranks)):
        return "That is the mean rank of the first hit; take 1/rank for each query, then the mean."
    return None


def _diagnose_ndcg(given: Any, correct: float) -> str | None:
    if close(given, metrics.ndcg_at_k([1 if g else 0 for g in GRADED]).score):
        return "You used 0/1 gains. The gains here are the grades themselves (2 and 1), so their order matters."
    exp_gains = [2 ** g - 1 for g in GRADED]
    if close(given, metrics.ndcg_at_k(exp_gains).score):
        return "You used the exponential gain 2^grade − 1 (some toolkits do); this course uses the grade itself."
    linear_dcg = sum(g / k for k, g in enumerate(GRADED, 1))
    linear_idcg = sum(g / k for k, g in enumerate(sorted(GRADED, reverse=True), 1))
    if close(given, linear_dcg / linear_idcg):
        return "You discounted by 1/k. nDCG discounts rank k by 1/log2(k + 1)."
    if close(given, metrics.ndcg_at_k(GRADED).values["dcg"]):
        return "That is the DCG; divide it by the DCG of the ideal order (the grades sorted high to low)."
    return None


def _diagnose_map(given: Any, correct: float) -> str | None:
    retrieved = metrics.mean_average_precision(MAP_QUERIES)  # R_total = relevant retrieved
    counted = [(q, t) for q, t in zip(MAP_QUERIES, MAP_TOTALS, strict=True) if sum(q)]
    if close(given, metrics.mean_average_precision([q for q, _ in counted], [t for _, t in counted]).score):
        return ("You left out the third query. Its two relevant documents were missed, so its AP is 0, and it "
                "counts: only a query with no relevant document at all may be left out.")
    if close(given, retrieved.score):
        return ("You divided each AP by the relevant documents retrieved. AP divides by every relevant document "
                "in the corpus: 1, 3 and 2 here.")
    if close(given, metrics.mean_average_precision([q for q, _ in counted]).score):
        return "Two slips: AP divides by every relevant document in the corpus, and the third query counts (AP 0)."
    if close(given, metrics.mean_reciprocal_rank(MAP_QUERIES).score):
        return "That is the MRR (first hit only); MAP averages each query's AP, which looks at every relevant rank."
    return None


def _unchanged_measure() -> str:
    """The one measure of the four that scores SWAP_A and SWAP_B the same (computed, not typed)."""
    same = [name for name, f in _SWAP_MEASURES.items() if math.isclose(f(SWAP_A), f(SWAP_B))]
    if len(same) != 1:  # the question is written for exactly one
        raise AssertionError(f"expected one unchanged measure, got {same}")
    return same[0]


_SWAP_MEASURES = {
    "context precision": lambda r: metrics.context_precision(r).score,
    f"precision@{SWAP_K}": lambda r: metrics.precision_at_k(r, k=SWAP_K).score,
    "reciprocal rank": lambda r: metrics.reciprocal_rank(r).score,
    "nDCG": lambda r: metrics.ndcg_at_k(r).score,
}


def _diagnose_swap(given: Any, correct: str) -> str | None:
    name = str(given).strip().lower()
    for measure, f in _SWAP_MEASURES.items():
        if name == measure.lower() and measure != correct:
            return (f"{measure} changes: {f(SWAP_A):.4f} for {SWAP_A} and {f(SWAP_B):.4f} for {SWAP_B}. "
                    "Which measure only counts the hits inside a cut-off?")
    return f"Answer with one of: {', '.join(_SWAP_MEASURES)}."


register(
    Exercise(
        id="rank-1",
        question=(f"Relevance {RECALL_LIST} for six retrieved documents; the corpus holds {RECALL_TOTAL} relevant "
                  f"documents in all. What is recall@{RECALL_K}?"),
        answer=lambda: metrics.recall_at_k(RECALL_LIST, k=RECALL_K, total_relevant=RECALL_TOTAL).score,
        hint=f"Relevant documents in the top {RECALL_K}, divided by every relevant document in the corpus.",
        explanation="Two hits in the top four, out of five relevant documents: recall@4 = 2/5.",
        diagnose=_diagnose_recall,
    ),
    Exercise(
        id="rank-2",
        question=("Read deck D's order table as four queries: [yes, yes, no], [yes, no, yes], [no, yes, yes], "
                  "[no, no, yes]. What is their mean reciprocal rank (MRR)?"),
        answer=lambda: metrics.mean_reciprocal_rank(MRR_QUERIES).score,
        hint="For each query, 1 / (rank of its first relevant document); then the mean over the queries.",
        explanation="Reciprocal ranks 1, 1, 1/2 and 1/3; their mean is 17/24 ≈ 0.7083.",
        diagnose=_diagnose_mrr,
    ),
    Exercise(
        id="rank-3",
        question=(f"Graded gains {GRADED} (2 = answers the question, 1 = partly relevant, 0 = not relevant). "
                  "What is nDCG@3, with the ideal order taken from these same gains?"),
        answer=lambda: metrics.ndcg_at_k(GRADED, k=3).score,
        hint="DCG = sum of gain / log2(rank + 1); IDCG is the same sum for the gains sorted high to low.",
        explanation=("DCG = 1/log2(2) + 2/log2(4) = 2 and IDCG = 2/log2(2) + 1/log2(3): the document that answers "
                     "sits at rank 3 instead of rank 1."),
        diagnose=_diagnose_ndcg,
    ),
    Exercise(
        id="rank-4",
        question=(f"Swap ranks 1 and 2: {SWAP_A} becomes {SWAP_B}. Which of these measures gives both lists the "
                  f"same score: {', '.join(repr(m) for m in _SWAP_MEASURES)}? Answer with its name."),
        answer=_unchanged_measure,
        kind="choice",
        hint="Which measure only counts how many hits fall inside a cut-off, not where they fall?",
        explanation=(f"precision@{SWAP_K} counts one hit in the top {SWAP_K} either way; the other three reward "
                     "the hit at rank 1."),
        diagnose=_diagnose_swap,
    ),
    Exercise(
        id="rank-5",
        question=(f"Three queries with relevance {MAP_QUERIES[0]}, {MAP_QUERIES[1]} and {MAP_QUERIES[2]}; their "
                  f"corpora hold {MAP_TOTALS[0]}, {MAP_TOTALS[1]} and {MAP_TOTALS[2]} relevant documents. "
                  "What is the mean average precision (MAP)?"),
        answer=lambda: metrics.mean_average_precision(MAP_QUERIES, total_relevant=MAP_TOTALS).score,
        hint="AP per query (precision at each relevant rank, summed, over the corpus count), then the mean.",
        explanation=("AP = (1/3)/1 = 1/3, (1/1 + 2/4)/3 = 1/2, and 0 for the query whose relevant documents were "
                     "all missed; MAP = (1/3 + 1/2 + 0)/3 = 5/18 ≈ 0.2778."),
        diagnose=_diagnose_map,
    ),
)


# --- judgement: choose a measure for a scenario; build a case where two measures disagree --------

#: Three lists of five: the first relevant result at rank 2 (then nothing, then everything), and at rank 1.
FIRST_AT_2 = [0, 1, 0, 0, 0]
FIRST_AT_2_MORE = [0, 1, 1, 1, 1]
FIRST_AT_1 = [1, 0, 0, 0, 0]
SCENARIO_RELEVANT = 4  # relevant documents in the corpus, for recall@k
_SCENARIO_MEASURES = {
    "precision@5": lambda r: metrics.precision_at_k(r, k=5).score,
    "recall@5": lambda r: metrics.recall_at_k(r, k=5, total_relevant=SCENARIO_RELEVANT).score,
    "MRR": lambda r: metrics.reciprocal_rank(r).score,
    "nDCG@5": lambda r: metrics.ndcg_at_k(r, k=5, ideal=[1] * SCENARIO_RELEVANT).score,
}
_MEASURE_NAMES = {"precision@5": ("precision@5", "precision@k", "precision", "p@5"),
                  "recall@5": ("recall@5", "recall@k", "recall", "r@5"),
                  "MRR": ("mrr", "mean reciprocal rank", "reciprocal rank", "rr"),
                  "nDCG@5": ("ndcg@5", "ndcg", "ndcg@k", "dcg")}


def _measure_named(given: Any) -> str | None:
    text = given.strip().lower() if isinstance(given, str) else ""
    return next((m for m, names in _MEASURE_NAMES.items() if text in names), None)


def _first_hit_measure() -> str:
    """The one measure blind to what follows the first relevant result and sensitive to where it is."""
    fits = [m for m, f in _SCENARIO_MEASURES.items()
            if math.isclose(f(FIRST_AT_2), f(FIRST_AT_2_MORE)) and not math.isclose(f(FIRST_AT_2), f(FIRST_AT_1))]
    if len(fits) != 1:
        raise AssertionError(f"expected one measure to fit the scenario, got {fits}")
    return fits[0]


def _diagnose_scenario(given: Any, correct: str) -> str | None:
    measure = _measure_named(given)
    if measure is None:
        return f"Answer with one of: {', '.join(_SCENARIO_MEASURES)}."
    f = _SCENARIO_MEASURES[measure]
    return (f"{measure} scores {FIRST_AT_2} {f(FIRST_AT_2):.3f} and {FIRST_AT_2_MORE} {f(FIRST_AT_2_MORE):.3f}: it "
            "rewards relevant results after the first, which this user never hears. The measure you want changes "
            "only when the first relevant result moves.")


def _flags_of(given: Any) -> list[int] | None:
    if isinstance(given, str) or not isinstance(given, (list, tuple)) or len(given) != 5:
        return None
    if not all(v in (0, 1) and not isinstance(v, (bool, float)) for v in given):
        return None
    return [int(v) for v in given]


DISAGREE_RELEVANT = 3  # relevant documents in the corpus, for classic AP


def _cp_and_ap(flags: list[int]) -> tuple[float, float]:
    return (metrics.context_precision(["yes" if f else "no" for f in flags]).score,
            metrics.average_precision(flags, total_relevant=DISAGREE_RELEVANT).score)


def _cp_ap_disagree(given: Any, correct: Any) -> bool:
    flags = _flags_of(given)
    if flags is None or not 1 <= sum(flags) <= DISAGREE_RELEVANT:
        return False
    cp, ap = _cp_and_ap(flags)
    return cp == 1.0 and ap < 0.5


def _first_disagreement() -> list[int]:
    return next(list(c) for c in product((0, 1), repeat=5) if _cp_ap_disagree(list(c), None))


def _diagnose_cp_ap(given: Any, correct: Any) -> str | None:
    flags = _flags_of(given)
    if flags is None:
        return "Give five flags, each 0 or 1, e.g. [1, 0, 1, 0, 0]."
    if not 1 <= sum(flags) <= DISAGREE_RELEVANT:
        return (f"The corpus holds {DISAGREE_RELEVANT} relevant documents, so the list holds between 1 and "
                f"{DISAGREE_RELEVANT} of them (and with none, both measures are 0).")
    cp, ap = _cp_and_ap(flags)
    if cp < 1.0:
        return (f"Context precision is {cp:.3f}: it is 1.0 only when every relevant node comes before every "
                "irrelevant one.")
    return (f"Average precision is {ap:.3f}: with {sum(flags)} of the {DISAGREE_RELEVANT} relevant documents at "
            f"the top it is {sum(flags)}/{DISAGREE_RELEVANT}. AP divides by the relevant documents in the corpus, "
            "so missing them costs; context precision divides by those retrieved, and does not notice.")


register(
    Exercise(
        id="rank-6",
        question=("Choose a measure. A voice assistant reads out only the first relevant passage it retrieves; "
                  "nothing after it is ever heard. Which of " + ", ".join(_SCENARIO_MEASURES) + " scores a "
                  "retriever for this product?"),
        answer=_first_hit_measure, kind="choice", accept=lambda given, correct: _measure_named(given) == correct,
        hint=(f"Score {FIRST_AT_2}, {FIRST_AT_2_MORE} and {FIRST_AT_1} with each measure: the right one gives the "
              "first two the same score and the third a higher one."),
        explanation=("MRR (reciprocal rank per question): it depends only on the rank of the first relevant "
                     "result, which is exactly what this user experiences. Hit rate@1 would be a cruder choice."),
        diagnose=_diagnose_scenario,
    ),
    Exercise(
        id="rank-7",
        question=(f"Design a case. The corpus holds {DISAGREE_RELEVANT} relevant documents. Give five relevance flags "
                  "(0 or 1, rank 1 first) for which context precision is 1.0 but classic average precision "
                  f"(total_relevant={DISAGREE_RELEVANT}) is below 0.5."),
        answer=_first_disagreement, kind="list", accept=_cp_ap_disagree,
        hint="Context precision only looks at the relevant documents that were retrieved. What if only one was?",
        explanation=("One relevant document at rank 1 and nothing else: context precision 1/1 = 1.0, AP 1/3. A "
                     "retriever that finds one of three relevant documents looks perfect to context precision: "
                     "pair it with a recall measure."),
        diagnose=_diagnose_cp_ap,
    ),
)


# -- rank-8: change a line. Average precision's D without the corpus count: what does deck A score? --------
register(change_exercise(
    id="rank-8", metric="average_precision",
    old="D = float(R if total_relevant is None else total_relevant)", new="D = float(R)",
    case="deck A's list `[0, 1, 1, 0, 0]` as average precision with `total_relevant=3`",
    run=lambda core: core.context_precision([0, 1, 1, 0, 0], "average_precision", 3)[0],
    hint="D is now R, the relevant nodes in the list, whatever total_relevant says.",
    explanation=("D is now R = 2 whatever total_relevant says: (1/2 + 2/3) / 2 = 0.5833, DeepEval's context "
                 "precision, where average precision as written divides by the 3 relevant documents of the "
                 "corpus (0.3889) and so charges the one never retrieved. This one line is why average precision "
                 "can see a miss and context precision cannot."),
    slips=((lambda: 7 / 6, "That is the sum of terms; the code still divides it by D."),),
))
