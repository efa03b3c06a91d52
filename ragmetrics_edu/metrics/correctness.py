"""Answer correctness (Ragas): factual overlap with the ground truth, blended with
semantic similarity.

A judge sorts statements into TP (in the answer and supported by the ground truth),
FP (in the answer, not supported) and FN (in the ground truth, missing from the answer).

    F_beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)      (F1 = TP / (TP + (FP + FN)/2))
    score  = (w_f * F_beta + w_s * similarity) / (w_f + w_s),  default weights (0.75, 0.25)

No statements at all gives F = 1 (nothing to get wrong), as both Ragas APIs do. They part
when TP is empty and only FP or only FN statements exist:

- ``variant="ragas"`` (the default, also ``"ragas_legacy"``): the legacy ``ragas.metrics`` API
  classifies whenever either side has statements and scores with ``fbeta_score`` (TP = 0
  gives F = 0); see ``ragas/metrics/_answer_correctness.py``, ``AnswerCorrectness._ascore``
  and ``ragas/metrics/utils.py``, ``fbeta_score``.
- ``variant="ragas_collections"``: ``ragas.metrics.collections`` classifies only when both the
  answer and the reference gave statements, else takes F = 1; see
  ``ragas/metrics/collections/answer_correctness/metric.py``, ``AnswerCorrectness.ascore``.
  Only FP means the reference gave no statement of its own, only FN that the answer gave none.
"""

from __future__ import annotations

import math
from typing import Any, Sequence, cast

from ..cores import answer_correctness as core
from ..cores import computed_by
from ..errors import InputError
from ..results import MetricResult
from ..validate import choice, count, number, plain
from . import checks
from .correctness_explained import correctness_result
from .embedding import semantic_similarity

VARIANTS = checks.CORRECTNESS_VARIANTS


def _share(field: str, value: Any) -> float:
    value = plain(value)
    if isinstance(value, float) and math.isnan(value):
        return value
    return number(field, value, "a share between 0 and 1, or NaN (undefined)", low=0.0, high=1.0)


def f1_from(precision: float, recall: float) -> float:
    """F1, the harmonic mean of a precision and a recall: 0.0 when both are 0, NaN when either is NaN.

    The one F1 formula of the library: :func:`f_beta` gives the same from counts (with beta)."""
    p, r = _share("precision", precision), _share("recall", recall)
    if math.isnan(p) or math.isnan(r):
        return math.nan
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def f1_counts(tp: Any, fp: Any, fn: Any) -> Any:
    """F1 from counts, 2 tp / (2 tp + fp + fn), element by element for numpy arrays of counts (a
    bootstrap's resampled sums); no positives and no flags gives 1.0, as :func:`f_beta` does.

    Each is a count or an array of counts (0 or more, finite), the three of one shape or one of them a
    single number."""
    import numpy as np  # lazy: only resampling callers pass arrays, and metrics must import cheaply

    arrays = []
    for name, value in (("tp", tp), ("fp", fp), ("fn", fn)):
        try:
            array = np.asarray(value, dtype=float)
        except Exception:  # noqa: BLE001 - whatever cannot be read as counts is bad input
            array = None
        if array is None or isinstance(value, (bool, str, bytes)) or array.dtype == object \
                or not np.all(np.isfinite(array)) or np.any(array < 0):
            raise InputError(name, "a count or an array of counts (finite, 0 or more)", value)
        arrays.append(array)
    try:
        tp, fp, fn = np.broadcast_arrays(*arrays)
    except ValueError:
        raise InputError("tp, fp, fn", "counts of one shape (or single numbers)",
                         tuple(a.shape for a in arrays)) from None
    denominator = 2 * tp + fp + fn
    return np.where(denominator > 0, 2 * tp / np.where(denominator > 0, denominator, 1.0), 1.0)


#: F-beta's rules, each a peer's (see the core): "counts" (answer correctness), "ragas" (Ragas' fbeta_score),
#: "ragas_factual_correctness" (that, rounded to 2 decimals as Ragas' FactualCorrectness returns it)
F_BETA_RULES = core.RULES


@computed_by("answer_correctness")
def f_beta(tp: int, fp: int, fn: int, beta: float = 1.0, *, rule: str = "counts") -> float:
    """F-beta from counts, by one peer's ``rule``: ``"counts"`` (no statements at all gives 1.0), ``"ragas"``
    (Ragas' ``fbeta_score`` in ``ragas/metrics/utils.py``: from precision and recall, 0.0 when both are 0,
    no claims included) or ``"ragas_factual_correctness"`` (that, then ``np.round(score, 2)`` as
    ``ragas/metrics/_factual_correctness.py`` and ``ragas/metrics/collections/factual_correctness/metric.py`` return
    it: TP 1, FP 4, FN 10 gives 0.13 there, where the exact 0.125 would round to 0.12).

    Counts are whole numbers from 0 to 10^15, ``beta`` a positive finite number."""
    tp, fp, fn = count("tp", tp), count("fp", fp), count("fn", fn)
    rule = choice("rule", rule, F_BETA_RULES)
    return core.f_beta(tp, fp, fn, checks.beta_of(beta), rule)


@computed_by("answer_correctness")
def answer_correctness(tp: Sequence[str], fp: Sequence[str], fn: Sequence[str], similarity: float | None = None,
                       weights: Sequence[float] = (0.75, 0.25), *, beta: float = 1.0, answer: str | None = None,
                       ground_truth: str | None = None, embedder: Any = None, threshold: float | None = None,
                       variant: str = "ragas") -> MetricResult:
    """Blend the F-beta of the TP/FP/FN statement lists with a semantic similarity.

    ``similarity``: a cosine you already have; else it is computed from ``answer`` and
    ``ground_truth`` with ``embedder`` (offline default). Not needed when the semantic
    weight is 0 (a similarity given is still checked). ``variant``: see the module notes;
    the two Ragas APIs differ only when TP is empty and only FP or only FN exist.
    """
    c = checks.answer_correctness(tp, fp, fn, similarity, weights, beta, answer, ground_truth, threshold, variant)
    computed = None if c.similarity is not None else semantic_similarity(cast(str, answer), cast(str, ground_truth), embedder)
    sim = c.similarity if computed is None else computed.values["cosine"]
    score, rows, values = core.answer_correctness(c.tp, c.fp, c.fn, sim, c.w_f, c.w_s, c.beta, c.variant)
    return correctness_result(score, rows, values, c, computed, answer, ground_truth)
