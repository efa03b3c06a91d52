"""Context precision: are the relevant nodes ranked above the irrelevant ones?

For a ranked list of retrieved nodes with relevance r_k (1 relevant, 0 not):

    score = (1 / D) * sum_k (relevant in the first k / k) * r_k

The three variants differ only in the denominator D:

- ``deepeval``: D = number of relevant nodes in the list; no relevant node gives 0
  (``deepeval/metrics/contextual_precision/contextual_precision.py``,
  ``ContextualPrecisionMetric._calculate_score``).
- ``ragas``: D = number of relevant nodes + 1e-10, so a perfect ranking scores R / (R + 1e-10),
  not 1: 0.9999999999 for one relevant node, 0.99999999995 for two (``ragas/metrics/_context_precision.py`` and
  ``ragas/metrics/collections/context_precision/metric.py``, ``_calculate_average_precision``).
- ``average_precision``: D = ``total_relevant``, every relevant document in the corpus,
  as in classic information retrieval; relevant documents never retrieved pull it down.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ..cores import computed_by
from ..cores import context_precision as core
from ..errors import InputError
from ..ranking.precision import GENERAL, RAGAS_EPSILON, VARIANTS
from ..ranking.precision_explained import precision_result
from ..results import MetricResult
from ..validate import YES, as_list, choice, flag, is_list, verdict_list
from . import checks


@computed_by("context_precision")
def context_precision(
    verdicts: Sequence[Any],
    variant: str = "deepeval",
    *,
    nodes: Sequence[str] | None = None,
    total_relevant: int | None = None,
    threshold: float | None = None,
    question: str | None = None,
) -> MetricResult:
    """Score a ranked list of relevance verdicts; keep every per-k term.

    ``verdicts``: one per retrieved node, in rank order (yes/no, 0/1 or bools).
    ``nodes``: the node texts, shown in the step table. ``total_relevant``: only for
    ``variant="average_precision"``; defaults to the relevant nodes retrieved.
    """
    r, variant, texts, total_relevant, threshold = checks.context_precision(verdicts, variant, nodes, total_relevant,
                                                                            threshold)
    score, rows, values = core.context_precision(r, variant, total_relevant)
    return precision_result(score, rows, values, variant, r, texts, total_relevant, threshold, question)


_FAST = {1: 1, 0: 0, "yes": 1, "no": 0}


@computed_by("context_precision")
def context_precision_batch(
    cases: Iterable[Sequence[Any]], variant: str = "deepeval", *, results: bool = False
) -> list[float] | list[MetricResult]:
    """Score many verdict lists: plain floats, no result objects unless ``results=True``.

    Each score is the core's (:mod:`ragmetrics_edu.cores.context_precision`), called once per list; only the
    reading of the verdicts is quicker (a list of 1/0 or yes/no is read without the per-item checks).
    """
    variant = choice("variant", variant, ("deepeval", "ragas"))
    results = flag("results", results)
    if is_list(cases):
        cases = as_list("cases", cases, "a list of verdict lists, one per ranking")
    elif cases is None or isinstance(cases, (str, bytes, bytearray, Mapping)) or not isinstance(cases, Iterable):
        raise InputError("cases", "a list of verdict lists, one per ranking", cases)
    if results:
        return [context_precision(verdict_list(f"cases[{i}]", case), variant) for i, case in enumerate(cases)]
    scores: list[float] = []
    append = scores.append
    for index, case in enumerate(cases):
        try:
            if type(case) not in (list, tuple):  # anything else is read (and checked) by verdict_list
                raise TypeError
            flags = [_FAST[v] for v in case]
        except (KeyError, TypeError):
            flags = [1 if v == YES else 0 for v in verdict_list(f"cases[{index}]", case)]
        append(core.context_precision(flags, variant)[0])
    return scores


__all__ = ["GENERAL", "RAGAS_EPSILON", "VARIANTS", "context_precision", "context_precision_batch"]
