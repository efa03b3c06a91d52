"""Exercises of notebook 04 (context entity recall, Ragas)."""

from __future__ import annotations

from typing import Any, Sequence

from ... import metrics
from . import Exercise, close, register
from .changed_code import change_exercise

#: The ground truth entities of deck E's Taj Mahal example.
TAJ_REFERENCE = ["Taj Mahal", "Yamuna", "Agra", "1631", "Shah Jahan", "Mumtaz Mahal"]
#: A third retrieved context for it, written for this exercise.
TAJ_CONTEXT = ["Taj Mahal", "Yamuna", "Agra", "Uttar Pradesh", "India"]

#: Deck B's reference entities, against a context that writes them differently.
BRAZIL_REFERENCE = ["Brazil", "Brasília", "April 21, 1960"]
BRAZIL_CONTEXT = ["Brasilia", "Brazil", "21 April 1960"]

#: A reference list with a repeated entity, as an extractor may return it.
DUPLICATE_REFERENCE = ["Agra", "Taj Mahal", "Agra", "Yamuna"]
DUPLICATE_CONTEXT = ["Agra", "Agra", "India"]



def _distinct(items: Sequence[str], normalize: bool = False) -> set[str]:
    return {metrics.normalize_entity(e) if normalize else e for e in items}


def _diagnose_taj(given: Any, correct: float) -> str | None:
    ref, ctx = _distinct(TAJ_REFERENCE), _distinct(TAJ_CONTEXT)
    shared = len(ref & ctx)
    if close(given, shared / len(ctx)):
        return (f"You divided by the {len(ctx)} context entities. Entity recall divides by the reference's "
                f"entities ({len(ref)}): it asks how much of the reference the context covers.")
    if close(given, shared / len(ref | ctx)):
        return (f"You divided by the union of both sets ({len(ref | ctx)} entities), as a Jaccard index does. "
                f"Recall divides by the reference's entities only ({len(ref)}).")
    if close(given, (shared + 1) / len(ref)):
        return ("One entity too many: 'India' is in the context but not among the reference entities "
                "(the ground truth says 'Indian city'), so it cannot be shared.")
    if close(given, shared):
        return f"That is the size of the intersection; divide it by the {len(ref)} reference entities."
    return None


def _diagnose_brazil_exact(given: Any, correct: float) -> str | None:
    folded = metrics.context_entity_recall(BRAZIL_REFERENCE, BRAZIL_CONTEXT, normalize=True).score
    if close(given, folded):
        return ("You matched 'Brasilia' with 'Brasília'. Ragas compares the extracted strings exactly, so the "
                "missing accent makes them two different entities.")
    if close(given, 1.0):
        return ("A reader sees the same three facts, but the metric compares strings: 'Brasilia' lacks the accent "
                "and '21 April 1960' is written in another order, so neither matches.")
    return None


def _diagnose_brazil_normalized(given: Any, correct: float) -> str | None:
    exact = metrics.context_entity_recall(BRAZIL_REFERENCE, BRAZIL_CONTEXT).score
    if close(given, 1.0):
        return ("Normalisation folds case, accents and spaces only. It does not reorder a date, so "
                "'21 April 1960' still differs from 'April 21, 1960'.")
    if close(given, exact):
        return "That is the exact-match score. With normalize=True, 'Brasilia' and 'Brasília' share a key."
    return None


def _diagnose_duplicates(given: Any, correct: float) -> str | None:
    ref_list = DUPLICATE_REFERENCE
    hits = sum(1 for e in ref_list if e in DUPLICATE_CONTEXT)
    if close(given, hits / len(ref_list)):
        return (f"You counted the list as it is ({len(ref_list)} items, {hits} found). Ragas turns both lists "
                f"into sets first, so the repeated 'Agra' counts once, in the numerator and in the denominator.")
    ref = _distinct(ref_list)
    if close(given, hits / len(ref)):
        return "The denominator is right, but 'Agra' is one shared entity however often either list repeats it."
    return None


register(
    Exercise(
        id="cer-1",
        question=(f"Deck E's Taj Mahal ground truth has the entities {TAJ_REFERENCE}. A third retrieved "
                  f"context yields {TAJ_CONTEXT}. What is its context entity recall?"),
        answer=lambda: metrics.context_entity_recall(TAJ_REFERENCE, TAJ_CONTEXT).score,
        hint="Count the reference entities the context also names, then divide by the number of reference entities.",
        explanation=("Taj Mahal, Yamuna and Agra are shared: 3 of the 6 reference entities, so 3/6 (Ragas' 1e-8 "
                     "in the denominator leaves 0.5 a hair lower). The context's extra entities do not matter."),
        diagnose=_diagnose_taj,
    ),
    Exercise(
        id="cer-2",
        question=(f"Reference entities {BRAZIL_REFERENCE}, context entities {BRAZIL_CONTEXT}. "
                  "Context entity recall as Ragas computes it (exact strings)?"),
        answer=lambda: metrics.context_entity_recall(BRAZIL_REFERENCE, BRAZIL_CONTEXT).score,
        hint="Compare the strings character by character, accents included.",
        explanation="Only 'Brazil' is written the same way in both lists: 1 of 3.",
        diagnose=_diagnose_brazil_exact,
    ),
    Exercise(
        id="cer-3",
        question="The same two lists as cer-2, with normalize=True. What is the score now?",
        answer=lambda: metrics.context_entity_recall(BRAZIL_REFERENCE, BRAZIL_CONTEXT, normalize=True).score,
        hint="Normalisation folds case, strips accents and collapses spaces. What does it not do?",
        explanation=("'Brasilia' now matches 'Brasília' (both have the key 'brasilia'), but the two dates are "
                     "still written differently: 2 of 3."),
        diagnose=_diagnose_brazil_normalized,
    ),
    Exercise(
        id="cer-4",
        question=(f"An extractor returned the reference entities {DUPLICATE_REFERENCE} and the context "
                  f"entities {DUPLICATE_CONTEXT}. Context entity recall?"),
        answer=lambda: metrics.context_entity_recall(DUPLICATE_REFERENCE, DUPLICATE_CONTEXT).score,
        hint="Both lists become sets before anything is counted.",
        explanation="The reference set is {Agra, Taj Mahal, Yamuna}; only Agra is shared: 1 of 3.",
        diagnose=_diagnose_duplicates,
    ),
)


# --- judgement: which form of context recall is harsher on a missing fact? ----------------------

#: The reference "The Eiffel Tower stands in Paris and was completed in 1889.", two ways; the context
#: names the tower, Paris and Gustave Eiffel, but gives no year.
EIFFEL_STATEMENTS = ["The Eiffel Tower stands in Paris.", "The Eiffel Tower was completed in 1889."]
EIFFEL_VERDICTS = ["yes", "no"]
EIFFEL_REFERENCE = ["Eiffel Tower", "Paris", "1889"]
EIFFEL_CONTEXT = ["Eiffel Tower", "Paris", "Gustave Eiffel"]
_FORMS = {"context recall": ("context recall", "statements", "statement", "statement form", "recall"),
          "context entity recall": ("context entity recall", "entities", "entity", "entity form",
                                    "context entities recall")}


def eiffel_scores() -> dict[str, float]:
    """Both forms of context recall on the Eiffel case, computed by the library."""
    return {"context recall": metrics.context_recall(EIFFEL_STATEMENTS, EIFFEL_VERDICTS).score,
            "context entity recall": metrics.context_entity_recall(EIFFEL_REFERENCE, EIFFEL_CONTEXT).score}


def _harsher() -> str:
    scores = eiffel_scores()
    return min(scores, key=scores.__getitem__)


def _form(given: Any) -> str | None:
    text = given.strip().lower() if isinstance(given, str) else ""
    return next((name for name, spellings in _FORMS.items() if text in spellings), None)


def _diagnose_harsher(given: Any, correct: str) -> str | None:
    scores = eiffel_scores()
    form = _form(given)
    if form is None:
        return "Answer 'context recall' or 'context entity recall'."
    return (f"The year is one of {len(EIFFEL_REFERENCE)} entities, so the entity form loses a third "
            f"({scores['context entity recall']:.3f}); it is one of {len(EIFFEL_STATEMENTS)} statements, so the "
            f"statement form loses half ({scores['context recall']:.3f}). A missing fact costs its share of the "
            "units the reference was cut into: fewer, larger units make each miss cost more.")


register(
    Exercise(
        id="cer-5",
        question=("Predict, then check. Reference: 'The Eiffel Tower stands in Paris and was completed in 1889.' "
                  "The retrieved context names the Eiffel Tower, Paris and Gustave Eiffel, but no year. As "
                  f"statements {EIFFEL_STATEMENTS} the judge says {EIFFEL_VERDICTS}; as entities the reference "
                  f"has {EIFFEL_REFERENCE} and the context {EIFFEL_CONTEXT}. Which metric is harsher on the "
                  "missing year: 'context recall' or 'context entity recall'?"),
        answer=_harsher, kind="choice",
        accept=lambda given, correct: _form(given) == correct,
        hint="Compute both: metrics.context_recall(statements, verdicts) and "
             "metrics.context_entity_recall(reference, context). What share of the units does the year make up?",
        explanation=("Context recall (statements): the year is half of the reference's statements but a third of "
                     "its entities. How the reference is cut into units decides how much one miss costs."),
        diagnose=_diagnose_harsher,
    ),
)


# -- cer-6: change a line. Count the reference's repeats: what does the current Ragas score? ----------------
register(change_exercise(
    id="cer-6", metric="context_entity_recall",
    old='n_ref = len(reference) if variant == "ragas_legacy" else len(RE)  # |RE|', new="n_ref = len(reference)",
    case=("the reference entities `['Paris', 'Paris', 'France']` against the context's `['Paris']`, under the "
          "`ragas` variant (ragas.metrics.collections)"),
    run=lambda core: core.context_entity_recall(["Paris", "Paris", "France"], ["Paris"], lambda e: e, "ragas")[0],
    hint="RE still holds each entity once; what is n_ref now, for every variant?",
    explanation=("n_ref is now the reference list's length for every variant, repeats included: the overlap "
                 "(Paris) is 1 of n_ref = 3, so 1 / (3 + 1e-8) = 0.3333, what the legacy ragas.metrics gives. "
                 "As the code is, the current API counts distinct entities: 1 / 2 = 0.5. The one line is where the "
                 "two APIs part."),
    slips=((lambda: 2 / 3, "The overlap counts distinct keys in both lists: Paris once, so 1, not 2."),),
))
