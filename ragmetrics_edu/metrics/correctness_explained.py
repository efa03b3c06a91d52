"""The explanation of an answer correctness result: its formula with the numbers, its narrative, its notes.

The arithmetic is :mod:`ragmetrics_edu.cores.answer_correctness`'s (the blend is written once, there: the
note's two scores, one per Ragas API, are the core's ``blend``); nothing here computes the score."""

from __future__ import annotations

from typing import Any

from ..cores.answer_correctness import COLUMNS, apis_part, blend, f_beta
from ..results import MetricResult, fmt
from .checks import Correctness

GENERAL = r"\frac{w_f\,F_\beta + w_s\,\mathrm{sim}}{w_f + w_s},\; F_1 = \frac{TP}{TP + \frac12(FP+FN)}"


def correctness_notes(values: dict[str, Any], variant: str, parted: bool) -> list[str]:
    """What an empty classification and the two Ragas APIs' disagreement mean for this result."""
    n_tp, n_fp, n_fn = values["tp_count"], values["fp_count"], values["fn_count"]
    sim, w_f, w_s = values["similarity"], values["weight_factual"], values["weight_semantic"]
    if n_tp + n_fp + n_fn == 0:
        return ["No statements in TP, FP or FN: the factual part is defined as 1 (both Ragas APIs)."]
    if not parted:
        return []
    legacy = blend(f_beta(n_tp, n_fp, n_fn, values["beta"]), sim, w_f, w_s)
    collections = blend(1.0, sim, w_f, w_s)
    side = "the reference" if n_fn == 0 else "the answer"
    return [f"TP is empty and {side} gave no statements: Ragas' APIs disagree. Legacy ragas.metrics "
            f"classifies anyway, F = 0, score {fmt(legacy)}; ragas.metrics.collections skips "
            f"classification and takes F = 1, score {fmt(collections)}. This is variant {variant!r}."]


def correctness_formula(values: dict[str, Any], score: float, parted: bool, variant: str) -> str:
    """The formula with the counts, F-beta, the similarity and the weights written in."""
    n_tp, n_fp, n_fn, f = values["tp_count"], values["fp_count"], values["fn_count"], values["f_beta"]
    sim, w_f, w_s, beta = values["similarity"], values["weight_factual"], values["weight_semantic"], values["beta"]
    b = fmt(beta)
    f_tex = (rf"F_{{{b}}} = \frac{{{n_tp}}}{{{n_tp} + \tfrac12({n_fp} + {n_fn})}} = {fmt(f)}" if beta == 1
             else rf"F_{{{b}}} = \frac{{(1+{b}^2)\,{n_tp}}}{{(1+{b}^2)\,{n_tp} + {b}^2\cdot{n_fn} + {n_fp}}} = {fmt(f)}")
    if parted and variant == "ragas_collections":
        f_tex = rf"F_{{{b}}} = 1 \text{{ (no classification)}}"
    return (f_tex + r",\quad " + rf"\frac{{{fmt(w_f)}\times {fmt(f)} + {fmt(w_s)}\times {fmt(sim)}}}"
            rf"{{{fmt(w_f)} + {fmt(w_s)}}} = {fmt(score)}")


def correctness_narrative(values: dict[str, Any], score: float) -> list[str]:
    """The steps in words."""
    n_tp, n_fp, n_fn, f = values["tp_count"], values["fp_count"], values["fn_count"], values["f_beta"]
    b = fmt(values["beta"])
    return [f"TP = {n_tp} (answer statements the ground truth supports), FP = {n_fp} (answer statements "
            f"it does not support), FN = {n_fn} (ground-truth statements the answer misses).",
            f"Factual score F{b} = {fmt(f)}.",
            f"Semantic similarity of answer and ground truth = {fmt(values['similarity'])}.",
            f"Weighted average with weights ({fmt(values['weight_factual'])}, {fmt(values['weight_semantic'])}) "
            f"= {fmt(score)}."]


def correctness_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], checked: Correctness,
                       computed: MetricResult | None, answer: str | None, ground_truth: str | None) -> MetricResult:
    """Answer correctness's result (``computed``: the semantic similarity result when the similarity was computed
    here; its notes say which embedder)."""
    variant = checked.variant
    parted = apis_part(values["tp_count"], values["fp_count"], values["fn_count"])
    if checked.w_s == 0:
        sim_notes = ["The semantic weight is 0, so the similarity does not enter the score."]
    else:
        sim_notes = list(computed.notes) if computed is not None else []
    return MetricResult(
        metric="answer_correctness", variant="ragas" if variant == "ragas_legacy" else variant, score=score,
        columns=COLUMNS, rows=rows, values=values, formula=correctness_formula(values, score, parted, variant),
        formula_general=GENERAL, narrative=correctness_narrative(values, score),
        notes=correctness_notes(values, variant, parted) + sim_notes, threshold=checked.threshold,
        inputs={"tp": checked.tp, "fp": checked.fp, "fn": checked.fn, "answer": answer, "ground_truth": ground_truth},
    )
