"""The explanation of a context entity recall result: its formula with the numbers, its narrative, its notes
(repeats in the reference, normalising, Ragas' 1e-8).

The arithmetic is :mod:`ragmetrics_edu.cores.context_entity_recall`'s (the distinct entities are the core's
``distinct``); nothing here computes the score."""

from __future__ import annotations

from typing import Any, Callable

from ..cores.context_entity_recall import COLUMNS, EPSILON, distinct
from ..results import MetricResult, fmt
from ..text import normalize_entity


def entity_result(score: float, rows: list[dict[str, Any]], values: dict[str, Any], key: Callable[[str], str],
                  variant: str, normalize: bool, reference: list[str], context: list[str],
                  threshold: float | None) -> MetricResult:
    """Context entity recall's result."""
    ref_keys, ctx_keys = distinct(reference, key), distinct(context, key)  # each entity's key -> its first form
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
    return MetricResult(
        metric="context_entity_recall", variant=("ragas_legacy" if variant == "ragas_legacy" else "ragas")
        + (", normalized" if normalize else ""), score=score,
        columns=COLUMNS, rows=rows, values=values,
        formula=rf"\frac{{|CE \cap RE|}}{{|RE| + 10^{{-8}}}} = \frac{{{overlap}}}{{{n_ref} + 10^{{-8}}}} = {fmt(score)}",
        formula_general=r"\frac{|CE \cap RE|}{|RE| + 10^{-8}}",
        narrative=[f"Reference entities (RE, {n_distinct} distinct): " + ", ".join(ref_keys.values()) + ".",
                   f"Context entities (CE, {len(ctx_keys)} distinct): " + ", ".join(ctx_keys.values()) + ".",
                   "Shared: " + (", ".join(shared) if shared else "none") + f" ({overlap})."],
        notes=notes, threshold=threshold,
        inputs={"reference_entities": reference, "context_entities": context, "normalize": normalize},
    )
