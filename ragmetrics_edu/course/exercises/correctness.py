"""Exercises of notebook 07 (answer semantic similarity and answer correctness, Ragas)."""

from __future__ import annotations

from typing import Any

from ... import metrics
from . import Exercise, as_number, close, register
from .changed_code import change_exercise

#: ac-1: an answer with two supported statements, one unsupported, one missing fact.
TP2 = ["fact A", "fact B"]
FP1 = ["wrong fact C"]
FN1 = ["missing fact D"]
#: ac-2: the similarity given with it, and weights that are not normalised.
SIMILARITY = 0.8
RAW_WEIGHTS = (3, 1)
#: ac-3: an answer that states one correct fact and misses two.
TP1: list[str] = ["fact A"]
FP0: list[str] = []
FN2: list[str] = ["missing fact B", "missing fact C"]
BETA = 2.0
#: ac-4: deck E's relativity example, high answer, with a threshold on the similarity.
GROUND_TRUTH = "Albert Einstein's theory of relativity revolutionized our understanding of the universe."
HIGH_ANSWER = "Einstein's groundbreaking theory of relativity transformed our comprehension of the cosmos."
THRESHOLD = 0.5



def _diagnose_f1(given: Any, correct: float) -> str | None:
    tp, fp, fn = len(TP2), len(FP1), len(FN1)
    if close(given, tp / (tp + fp + fn)):
        return "You divided by TP + FP + FN. F1 puts only *half* of FP + FN in the denominator: TP / (TP + ½(FP + FN))."
    if close(given, tp / (tp + fp)) or close(given, tp / (tp + fn)):
        return "That is precision (or recall) alone; F1 is their harmonic mean, TP / (TP + ½(FP + FN))."
    return None


def _diagnose_blend(given: Any, correct: float) -> str | None:
    f = metrics.f_beta(len(TP2), len(FP1), len(FN1))
    w_f, w_s = RAW_WEIGHTS
    if close(given, w_f * f + w_s * SIMILARITY):
        return (f"You did not divide by the sum of the weights ({w_f + w_s}). Ragas normalises them, so "
                f"({w_f}, {w_s}) acts exactly like ({w_f / (w_f + w_s):g}, {w_s / (w_f + w_s):g}).")
    if close(given, (w_s * f + w_f * SIMILARITY) / (w_f + w_s)):
        return "The weights are swapped: the first weight goes with the factual F1, the second with the similarity."
    if close(given, (f + SIMILARITY) / 2):
        return "That is the plain mean of F1 and the similarity; use the weights (3, 1)."
    return None


def _diagnose_beta(given: Any, correct: float) -> str | None:
    tp, fp, fn = len(TP1), len(FP0), len(FN2)
    b2 = BETA * BETA
    if close(given, metrics.f_beta(tp, fp, fn)):
        return "That is F1. With beta = 2 the missing facts (FN) weigh beta² = 4 times in the denominator."
    if close(given, (1 + b2) * tp / ((1 + b2) * tp + b2 * fp + fn)):
        return ("You multiplied FP by beta². In F-beta, beta² multiplies FN: beta > 1 makes recall (missing "
                "facts) matter more.")
    if close(given, (1 + BETA) * tp / ((1 + BETA) * tp + BETA * fn + fp)):
        return "Use beta squared (4), not beta (2), in the formula."
    return None


def _diagnose_threshold(given: Any, correct: float) -> str | None:
    cosine = metrics.semantic_similarity(HIGH_ANSWER, GROUND_TRUTH).values["cosine"]
    if close(given, cosine):
        return (f"That is the cosine itself ({cosine:.4f}). With a threshold, Ragas turns it into 1 when the "
                f"cosine reaches the threshold and 0 otherwise.")
    if close(given, 1.0):
        return (f"Compute the cosine with the offline embedder first: is it at least {THRESHOLD}? A paraphrase "
                "with different words scores low with this embedder.")
    return None


register(
    Exercise(
        id="ac-1",
        question=f"TP = {TP2}, FP = {FP1}, FN = {FN1}. What is F1?",
        answer=lambda: metrics.f_beta(len(TP2), len(FP1), len(FN1)),
        hint="F1 = TP / (TP + ½(FP + FN)) with the counts of the three lists.",
        explanation="2 / (2 + ½(1 + 1)) = 2/3 ≈ 0.6667.",
        diagnose=_diagnose_f1,
    ),
    Exercise(
        id="ac-2",
        question=(f"Same lists as ac-1, similarity {SIMILARITY}, weights {RAW_WEIGHTS} (factual, semantic). "
                  "What is the answer correctness?"),
        answer=lambda: metrics.answer_correctness(TP2, FP1, FN1, similarity=SIMILARITY, weights=RAW_WEIGHTS).score,
        hint="A weighted average: (w_f · F1 + w_s · similarity) / (w_f + w_s).",
        explanation="(3 × 2/3 + 1 × 0.8) / (3 + 1) = 2.8 / 4 = 0.7, the same as with the default (0.75, 0.25).",
        diagnose=_diagnose_blend,
    ),
    Exercise(
        id="ac-3",
        question=f"TP = {TP1}, FP = {FP0}, FN = {FN2}. What is F-beta with beta = {BETA:g}?",
        answer=lambda: metrics.f_beta(len(TP1), len(FP0), len(FN2), beta=BETA),
        hint="F_beta = (1 + b²) TP / ((1 + b²) TP + b² FN + FP).",
        explanation="(5 × 1) / (5 × 1 + 4 × 2 + 0) = 5/13 ≈ 0.3846, below F1 = 0.5: beta = 2 punishes missing facts.",
        diagnose=_diagnose_beta,
    ),
    Exercise(
        id="ac-4",
        question=(f"Deck E's relativity paraphrase (the high answer) with threshold = {THRESHOLD} and the offline "
                  "embedder: what does semantic_similarity return as the score?"),
        answer=lambda: metrics.semantic_similarity(HIGH_ANSWER, GROUND_TRUTH, threshold=THRESHOLD).score,
        hint="First the cosine, then compare it with the threshold: the score is 1 or 0.",
        explanation=("The offline cosine is below 0.5, so the thresholded score is 0. Another embedder gives another "
                     "cosine for the same pair: a threshold tuned for one embedder does not carry over."),
        diagnose=_diagnose_threshold,
    ),
)


# --- judgement: predict what a rewording does ---------------------------------------------------

REWORD_FACTS: tuple[list[str], list[str], list[str]] = (["fact 1", "fact 2"], [], [])   # TP, FP, FN: all right
REWORD_BEFORE, REWORD_AFTER = 0.9, 0.7           # the semantic similarity before and after rewording


def _reword_drop() -> float:
    before = metrics.answer_correctness(*REWORD_FACTS, similarity=REWORD_BEFORE).score
    after = metrics.answer_correctness(*REWORD_FACTS, similarity=REWORD_AFTER).score
    return before - after


def _accept_drop(given: Any, correct: float) -> bool:
    g = as_number(given)
    return g is not None and abs(abs(g) - correct) < 1e-3   # a fall of 0.05, written 0.05 or -0.05


def _diagnose_reword(given: Any, correct: float) -> str | None:
    g = as_number(given)
    if g is None:
        return None
    drop = REWORD_BEFORE - REWORD_AFTER
    if abs(abs(g) - drop) < 1e-3:
        return (f"{drop:.2f} is how far the similarity fell; in answer correctness it weighs only 0.25 "
                "(the factual F1 weighs 0.75).")
    if abs(abs(g) - 0.75 * drop) < 1e-3:
        return "You weighted the similarity's fall by 0.75, the factual weight; the similarity's weight is 0.25."
    if abs(g) < 1e-9:
        return ("The factual part does not move (no fact changed), but the similarity part does: answer "
                "correctness blends the two.")
    return None


register(
    Exercise(
        id="ac-5",
        question=(f"Predict, then check. An answer gets every fact right (TP = 2, FP = 0, FN = 0) and its semantic "
                  f"similarity to the ground truth is {REWORD_BEFORE}. You reword it without changing any fact and "
                  f"the similarity falls to {REWORD_AFTER}. By how much does answer correctness (default weights "
                  "0.75 factual, 0.25 semantic) fall?"),
        answer=_reword_drop, accept=_accept_drop,
        hint="Only one of the two blended parts changes. What is its weight?",
        explanation=(f"0.25 x {REWORD_BEFORE - REWORD_AFTER:.1f} = {0.25 * (REWORD_BEFORE - REWORD_AFTER):.2f}: the F1 "
                     "stays 1.0, and only the quarter of the score that is similarity moves. Rewording costs little; a wrong fact (F1) costs three times as much per point."),
        diagnose=_diagnose_reword,
    ),
)


# -- ac-6: change a line. No statement at all gives F = 0: what is answer correctness? --------------------
register(change_exercise(
    id="ac-6", metric="answer_correctness",
    old="return 1.0 if denominator == 0 else (1 + b2) * TP / denominator",
    new="return 0.0 if denominator == 0 else (1 + b2) * TP / denominator",
    case="an answer for which the judge found no statement at all, in neither the answer nor the ground truth "
         "(TP, FP and FN all empty), with semantic similarity 0.9 and the default weights (0.75, 0.25)",
    run=lambda core: core.answer_correctness([], [], [], 0.9)[0],
    hint="With TP = FP = FN = 0 the denominator is 0, so F is now 0; then the blend with the similarity.",
    explanation=("F is now 0 for 0 / 0, so the score is (0.75 · 0 + 0.25 · 0.9) / 1 = 0.225, where the rule as "
                 "written (F = 1 for no statements) gives 0.975. The empty case is a rule, not arithmetic: a "
                 "reader of a 0.975 must know which rule the library applied."),
    slips=((lambda: 0.0, "F is 0, but the similarity still carries its weight w_s = 0.25 in the blend."),
           (lambda: 0.9, "The blend weighs F by 0.75 and the similarity by 0.25; F = 0 still counts.")),
))
