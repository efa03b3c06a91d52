"""Context precision: are the relevant nodes ranked above the irrelevant ones?

For a ranked list of retrieved nodes with relevance r_k (1 relevant, 0 not):

    score = (1 / D) * sum_k (relevant in the first k / k) * r_k

The three variants differ only in the denominator D:

- ``deepeval``: D = number of relevant nodes in the list; no relevant node gives 0
  (``deepeval/metrics/contextual_precision/contextual_precision.py``,
  ``ContextualPrecisionMetric._calculate_score``).
- ``ragas``: D = number of relevant nodes + 1e-10, so a perfect ranking scores
  0.99999999995, not 1 (``ragas/metrics/_context_precision.py`` and
  ``ragas/metrics/collections/context_precision/metric.py``, ``_calculate_average_precision``).
- ``average_precision``: D = ``total_relevant``, every relevant document in the corpus,
  as in classic information retrieval; relevant documents never retrieved pull it down.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ..errors import InputError
from ..results import MetricResult, fmt
from ..validate import YES, choice, count, flag, is_list, optional_texts, probability, verdict_list

VARIANTS = ("deepeval", "ragas", "average_precision")
RAGAS_EPSILON = 1e-10
GENERAL = {
    "deepeval": r"\frac{1}{R}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
    "ragas": r"\frac{1}{R + 10^{-10}}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
    "average_precision": r"\frac{1}{R_{\mathrm{total}}}\sum_{k=1}^{n}\frac{\mathrm{rel}(1..k)}{k}\,r_k",
}


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
    variant = choice("variant", variant, VARIANTS)
    flags = [1 if v == YES else 0 for v in verdict_list("verdicts", verdicts)]
    texts = optional_texts("nodes", nodes, len(flags), "node text")
    threshold = probability("threshold", threshold)
    if total_relevant is not None and variant != "average_precision":
        raise InputError("total_relevant", "None unless variant='average_precision'", total_relevant)

    rows: list[dict[str, Any]] = []
    relevant_so_far = 0
    total = 0.0
    for k, r in enumerate(flags, start=1):
        relevant_so_far += r
        p_at_k = relevant_so_far / k
        term = p_at_k * r
        total += term
        row: dict[str, Any] = {"k": k}
        if texts is not None:
            row["node"] = texts[k - 1]
        row.update(relevant=r, relevant_so_far=relevant_so_far, precision_at_k=p_at_k, term=term)
        rows.append(row)

    relevant = relevant_so_far
    notes: list[str] = []
    denominator: float
    if variant == "average_precision":
        if total_relevant is None:
            total_relevant = relevant
            notes.append("total_relevant not given: assumed every relevant document was retrieved, "
                         f"so R_total = {relevant} and the score equals the DeepEval variant.")
        total_relevant = count("total_relevant", total_relevant)
        if total_relevant < relevant:
            raise InputError("total_relevant", f"at least the {relevant} relevant nodes retrieved", total_relevant)
        denominator = float(total_relevant)
    elif variant == "ragas":
        denominator = relevant + RAGAS_EPSILON
    else:
        denominator = float(relevant)

    if not flags:
        score = 0.0
        notes.append("No nodes were retrieved: the score is defined as 0. DeepEval returns 0 and legacy "
                     "ragas.metrics gives 0 / 1e-10 = 0; ragas.metrics.collections raises instead "
                     "(ContextPrecision.ascore: 'retrieved_contexts cannot be empty').")
    elif denominator == 0 or relevant == 0:
        score = 0.0
        notes.append("No retrieved node is relevant: "
                     + ("DeepEval returns 0 rather than dividing by zero." if variant == "deepeval"
                        else "the sum is 0, so the score is 0."))
    else:
        score = total / denominator
    if variant == "ragas" and relevant:
        notes.append("Ragas adds 1e-10 to the denominator, so the score is a hair below the exact "
                     f"fraction: {total / relevant!r} without it, {score!r} with it.")

    d_tex = {"deepeval": str(relevant), "ragas": f"{relevant} + 10^{{-10}}",
             "average_precision": str(denominator if variant != "average_precision" else total_relevant)}[variant]
    terms = " + ".join(rf"\frac{{{row['relevant_so_far']}}}{{{row['k']}}}\cdot {row['relevant']}" for row in rows) or "0"
    formula = rf"\frac{{1}}{{{d_tex}}}\left({terms}\right) = \frac{{{fmt(total)}}}{{{d_tex}}} = {fmt(score)}"

    narrative = [
        f"Mark each of the {len(flags)} retrieved nodes relevant (1) or not (0): {flags}.",
        "Walk down the ranking; at each position k count the relevant nodes so far and divide by k "
        "(precision@k); the term at k is that precision times r_k, so only relevant positions add.",
        "Terms: " + ", ".join(fmt(r["term"]) for r in rows) + f"; their sum is {fmt(total)}.",
        {"deepeval": f"Divide by the number of relevant nodes retrieved, R = {relevant}.",
         "ragas": f"Divide by the number of relevant nodes retrieved plus 1e-10, R = {relevant}.",
         "average_precision": f"Divide by every relevant document in the corpus, R_total = {d_tex}."}[variant],
    ]
    return MetricResult(
        metric="context_precision", variant=variant, score=score,
        columns=tuple(rows[0].keys()) if rows else ("k", "relevant", "relevant_so_far", "precision_at_k", "term"),
        rows=rows,
        values={"relevant_count": relevant, "sum_of_terms": total, "denominator": denominator, "n": len(flags)},
        formula=formula, formula_general=GENERAL[variant], narrative=narrative, notes=notes,
        threshold=threshold, inputs={"verdicts": flags, "nodes": texts, "question": question},
    )


_FAST = {1: 1, 0: 0, "yes": 1, "no": 0}


def context_precision_batch(
    cases: Iterable[Sequence[Any]], variant: str = "deepeval", *, results: bool = False
) -> list[float] | list[MetricResult]:
    """Score many verdict lists quickly: plain floats, no step tables unless ``results=True``.

    Gives exactly the same numbers as :func:`context_precision` (the tests check this).
    """
    variant = choice("variant", variant, ("deepeval", "ragas"))
    results = flag("results", results)
    if cases is None or isinstance(cases, (str, bytes, bytearray, Mapping)) or not isinstance(cases, Iterable):
        raise InputError("cases", "a list of verdict lists, one per ranking", cases)
    if results:
        return [context_precision(verdict_list(f"cases[{i}]", case), variant) for i, case in enumerate(cases)]
    eps = RAGAS_EPSILON if variant == "ragas" else 0.0
    scores: list[float] = []
    append = scores.append
    for index, case in enumerate(cases):
        try:
            if not is_list(case):
                raise TypeError
            flags = [_FAST[v] for v in case]
        except (KeyError, TypeError):
            flags = [1 if v == YES else 0 for v in verdict_list(f"cases[{index}]", case)]
        seen = 0
        total = 0.0
        for k, r in enumerate(flags, 1):
            if r:
                seen += 1
                total += seen / k
        append(total / (seen + eps) if seen else 0.0)
    return scores
