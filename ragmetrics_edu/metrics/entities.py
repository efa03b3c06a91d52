"""Context entity recall (Ragas): how many of the reference's entities the context names.

    score = |set(context entities) ∩ set(reference entities)| / (|set(reference entities)| + 1e-8)

The denominator counts distinct reference entities, as ``ragas.metrics.collections`` does
(``ragas/metrics/collections/context_entity_recall/metric.py``, ``_compute_recall_score``).
The legacy ``ragas.metrics`` API divides by the reference list's length, repeats included
(``ragas/metrics/_context_entities_recall.py``, ``ContextEntityRecall._compute_score``):
``variant="ragas_legacy"`` gives that rule; a note says when repeats decide the score.

Ragas matches entities as exact strings, so "Brasília" and "Brasilia" differ. With
``normalize=True`` both lists are compared after folding case, stripping accents and
collapsing whitespace; the step table shows each entity's key so the effect is visible.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import computed_by
from ..cores import context_entity_recall as core
from ..results import MetricResult, fmt
from ..text import normalize_entity
from ..validate import choice, flag, probability, text_list

VARIANTS = ("ragas", "ragas_collections", "ragas_legacy")

EPSILON = core.EPSILON


def _itself(entity: str) -> str:
    return entity


@computed_by("context_entity_recall")
def context_entity_recall(
    reference_entities: Sequence[str],
    context_entities: Sequence[str],
    *,
    normalize: bool = False,
    threshold: float | None = None,
    variant: str = "ragas",
) -> MetricResult:
    """Share of the distinct reference entities that also appear among the context's.

    No reference entities gives 0.0 (Ragas: 0 / (0 + 1e-8)). ``variant``: ``"ragas"`` (same as
    ``"ragas_collections"``) divides by the distinct reference entities, ``"ragas_legacy"`` by
    the reference list's length with repeats.
    """
    variant = choice("variant", variant, VARIANTS)
    reference = text_list("reference_entities", reference_entities)
    context = text_list("context_entities", context_entities)
    normalize = flag("normalize", normalize)
    threshold = probability("threshold", threshold)

    score, rows, values = core.context_entity_recall(reference, context, normalize_entity if normalize else _itself,
                                                     variant)

    ref_keys, ctx_keys = values.pop("RE"), values.pop("CE")  # each entity's key -> its first form
    overlap, n_ref = values["overlap"], values["reference_count"]
    n_distinct = len(ref_keys)
    notes = []
    if len(reference) != n_distinct and overlap:
        legacy, collections = overlap / (len(reference) + EPSILON), overlap / (n_distinct + EPSILON)
        notes.append(f"The reference repeats entities ({len(reference)} listed, {n_distinct} distinct): "
                     f"ragas.metrics.collections divides by the distinct ones ({fmt(collections)}), legacy "
                     f"ragas.metrics by the list's length ({fmt(legacy)}). This is variant {variant!r}.")
    if n_ref == 0:
        notes.append("No reference entities: Ragas gives 0 / (0 + 1e-8) = 0.")
    if normalize:
        changed = [e for e in reference + context if normalize_entity(e) != e]
        notes.append("Entities compared after folding case, accents and spaces"
                     + (f" ({len(changed)} entities changed form)." if changed else " (no entity changed form)."))
    else:
        near = {normalize_entity(k) for k in ref_keys} & {normalize_entity(k) for k in ctx_keys}
        if len(near) > overlap:
            notes.append(f"Exact matching misses {len(near) - overlap} entities that differ only in case, "
                         "accents or spacing; normalize=True would count them.")
    if n_ref:
        notes.append(f"Ragas adds 1e-8 to the denominator: exact {overlap}/{n_ref} = {overlap / n_ref!r}, "
                     f"Ragas gives {score!r}.")
    shared = [r["entity"] for r in rows if r["in_reference"] and r["in_context"]]
    return _result(variant, normalize, score, rows, values, n_distinct, ref_keys, ctx_keys, shared, notes, threshold,
                   reference, context)


def _result(variant: str, normalize: bool, score: float, rows: list[dict[str, Any]], values: dict[str, Any],
            n_distinct: int, ref_keys: dict[str, str], ctx_keys: dict[str, str], shared: list[str], notes: list[str],
            threshold: float | None, reference: list[str], context: list[str]) -> MetricResult:
    overlap, n_ref = values["overlap"], values["reference_count"]
    return MetricResult(
        metric="context_entity_recall", variant=("ragas_legacy" if variant == "ragas_legacy" else "ragas")
        + (", normalized" if normalize else ""), score=score,
        columns=core.COLUMNS, rows=rows, values=values,
        formula=rf"\frac{{|CE \cap RE|}}{{|RE| + 10^{{-8}}}} = \frac{{{overlap}}}{{{n_ref} + 10^{{-8}}}} = {fmt(score)}",
        formula_general=r"\frac{|CE \cap RE|}{|RE| + 10^{-8}}",
        narrative=[f"Reference entities (RE, {n_distinct} distinct): " + ", ".join(ref_keys.values()) + ".",
                   f"Context entities (CE, {len(ctx_keys)} distinct): " + ", ".join(ctx_keys.values()) + ".",
                   "Shared: " + (", ".join(shared) if shared else "none") + f" ({overlap})."],
        notes=notes, threshold=threshold,
        inputs={"reference_entities": reference, "context_entities": context, "normalize": normalize},
    )
