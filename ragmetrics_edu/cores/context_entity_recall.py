"""Context entity recall (Ragas): how many of the reference's entities the context names.

    score = |CE ∩ RE| / (|RE| + 1e-8)

    RE: the reference's distinct entities, CE: the context's; an entity is compared by its key
    (itself, or with normalize=True its form with case, accents and spaces folded)
    ragas (ragas.metrics.collections): |RE| counts distinct entities
    ragas_legacy (ragas.metrics): |RE| is the reference list's length, repeats included
    no reference entities: 0 / (0 + 1e-8) = 0
"""

#: the step table's columns this core fills
COLUMNS = ("entity", "key", "in_reference", "in_context", "context_form")

EPSILON = 1e-8


def distinct(entities, key):
    """key -> the entity as the list first wrote it."""
    found = {}
    for entity in entities:
        found.setdefault(key(entity), entity)
    return found


def context_entity_recall(reference, context, key, variant="ragas"):
    RE = distinct(reference, key)
    CE = distinct(context, key)
    rows = [{"entity": e, "key": k, "in_reference": 1, "in_context": int(k in CE), "context_form": CE.get(k, "")}
            for k, e in RE.items()]
    rows += [{"entity": e, "key": k, "in_reference": 0, "in_context": 1, "context_form": e}
             for k, e in CE.items() if k not in RE]
    overlap = sum(1 for k in RE if k in CE)  # |CE ∩ RE|
    n_ref = len(reference) if variant == "ragas_legacy" else len(RE)  # |RE|
    score = overlap / (n_ref + EPSILON)
    return score, rows, {"overlap": overlap, "reference_count": n_ref, "context_count": len(CE),
                         "exact": overlap / n_ref if n_ref else 0.0}
