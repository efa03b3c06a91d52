"""What a judge-free number is known to see: word overlap's agreement with people, measured at report time.

Word overlap is the share of the answer's content words found in the contexts. On the public RAGTruth QA dev
answers (:mod:`ragmetrics_edu.data.ragtruth`: real models' answers, people's hallucination spans) it is scored
here as lesson 14 scores it: :func:`ragmetrics_edu.metrics.word_overlap` of each answer against its passages,
then :func:`ragmetrics_edu.agreement.validation_report` of the people's label (hallucinated or not) against that
score: the ROC AUC with a cluster-bootstrap interval over sources (answers of one source are not independent).
Nothing is copied from a notebook: the figure is computed from the shipped rows each time it is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .. import agreement, metrics
from ..data import ragtruth

__all__ = ["KnownAgreement", "word_overlap_agreement"]


@dataclass(frozen=True)
class KnownAgreement:
    """One metric's measured agreement with people: ``auc`` and its ``ci`` over ``answers`` answers of ``sources``
    sources, and ``source`` (where the labels come from, how it was computed)."""

    metric: str
    auc: float
    ci: tuple[float, float]
    level: float
    answers: int
    sources: int
    source: str


@lru_cache(maxsize=1)
def word_overlap_agreement() -> KnownAgreement:
    """Word overlap's ROC AUC against people on the public RAGTruth QA dev answers (computed, see the module)."""
    dev = ragtruth.answers("dev")
    scores = [metrics.word_overlap(a.answer, a.context).score for a in dev]
    report = agreement.validation_report([a.hallucinated for a in dev], scores, groups=[a.source_id for a in dev])
    low, high = report.ci or (float("nan"), float("nan"))
    return KnownAgreement("word_overlap", report.score, (low, high), report.level or 0.95, len(dev),
                          len({a.source_id for a in dev}),
                          "RAGTruth QA dev part (public rows shipped with the package; people's hallucination "
                          "spans), scored as lesson 14 scores it: validation_report, cluster bootstrap over sources")


