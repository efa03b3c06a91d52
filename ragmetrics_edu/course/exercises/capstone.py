"""Exercises of notebook 16 (capstone): tag a failing row, pick the component, judge a comparison, change the
blame rule and predict its counts.

cap-1 to cap-4 are computed by :mod:`ragmetrics_edu.evaluation.failures`, :mod:`ragmetrics_edu.course.capstone.diagnosis`
and :mod:`ragmetrics_edu.stats` on the small made-up rows below; cap-5 runs the changed blame rule
(:func:`ragmetrics_edu.evaluation.failures.blame` with another ``recall_cut``) on the capstone's recorded rows.
"""

from __future__ import annotations

import math
from typing import Any

from ... import stats
from ...evaluation import failures
from ...studies.capstone import diagnosis
from ..capstone import systems as capstone
from . import Exercise, register

_REFERENCE = "The Sydney Opera House was designed by the Danish architect Jorn Utzon."
#: a made-up scored row: the answer passage at rank 2 under an off-topic one, a year nobody retrieved
_ROW: dict[str, Any] = {"question": "q09", "text": "Who designed the Sydney Opera House?", "kind": "lexical", "system": "bm25",
        "passages": ["bld-05", "bld-06", "bld-01"], "grades": [0, 2, 1],
        "contexts": ["(an off-topic passage)", "(the answer passage)", "(a partly relevant passage)"],
        "answer": "The Danish architect Jorn Utzon designed the Sydney Opera House, which opened in 1957.",
        "scores": {"faithfulness": 0.5, "context_precision": 0.5, "context_recall": 1.0},
        "verdicts": {"context_precision": [0, 1, 0]}, "items": {}, "errors": {}}
_A = [0.9, 0.7, 1.0, 0.6, 0.8, 0.5, 1.0, 0.9]   # made-up per-question scores of a changed system
_B = [0.6, 0.8, 0.7, 0.6, 0.5, 0.7, 0.8, 0.6]   # ... and of the system before the change


def _pair_rows() -> list[dict[str, Any]]:
    rows = []
    for q, (x, y) in zip(("q1", "q2", "q3"), ((1.0, 0.5), (math.nan, 1.0), (0.5, 0.5)), strict=True):
        for system, score in (("minilm", x), ("bm25", y)):
            rows.append(dict(_ROW, question=q, system=system,
                             scores={} if math.isnan(score) else {"faithfulness": score},
                             errors={"faithfulness": "no usable reply"} if math.isnan(score) else {}))
    return rows


def _row_tags() -> list[str]:
    return list(diagnosis.tag_row(_ROW, _REFERENCE, True))


def _as_tags(given: Any) -> set[str] | None:
    if isinstance(given, str):
        given = [given]
    if not isinstance(given, (list, tuple, set)) or not all(isinstance(t, str) for t in given):
        return None
    return {t.strip().lower().replace(" ", "_") for t in given}


def _accept_tags(given: Any, correct: list[str]) -> bool:
    return _as_tags(given) == set(correct)


def _diagnose_tags(given: Any, correct: list[str]) -> str | None:
    tags = _as_tags(given)
    if tags is None:
        return "Give a list of tag names, e.g. ['bad_ranking']; diagnosis.TAGS lists them."
    unknown = sorted(tags - set(diagnosis.TAGS))
    if unknown:
        return f"{unknown[0]!r} is not a tag of the taxonomy; the tags are {', '.join(diagnosis.TAGS)}."
    if "retrieval_miss" in tags:
        return ("The grade-2 passage bld-06 was retrieved (rank 2): a retrieval miss means no grade-2 passage in "
                "the top k at all. Being found late is a different tag.")
    if "incomplete_answer" in tags:
        return ("The answer names the architect and that he was Danish: most of the reference's words are there, "
                "so it is not incomplete. It says more than the passages, not less.")
    if "judge_error" in tags:
        return ("The judge's context-precision verdicts (0, 1, 0) agree with the grades (0, 2, 1): 'no' on the "
                "grade-0 passage, 'yes' on the grade-2 one. No contradiction, no judge error.")
    missing = [t for t in correct if t not in tags]
    if missing:
        return f"A row can carry several tags: one that fires here is missing ({len(missing)} missing)."
    return None


def _component() -> str:
    return diagnosis.COMPONENT["retrieval_miss"]


def _diagnose_component(given: Any, correct: str) -> str | None:
    if isinstance(given, str) and given.strip().lower() == "generator":
        return ("The generator can only answer from the passages it is handed; when the answer passage is not among "
                "them, a better prompt or model cannot find it. Change the part that chooses the passages.")
    if isinstance(given, str) and given.strip().lower() == "judge":
        return ("The tag is read off the corpus's own relevance grades, not the judge's verdicts: the judge is not "
                "involved in a retrieval miss.")
    return None


def _significant() -> bool:
    p = stats.permutation_test(_A, _B).p_value
    return p is not None and p < 0.05


def _diagnose_significant(given: Any, correct: bool) -> str | None:
    if given is True and not correct:
        result = stats.permutation_test(_A, _B)
        return (f"The mean difference is positive ({result.estimate:.4f}), but with 8 questions a difference that "
                f"size turns up often by chance: p = {result.p_value:.4f}. Run stats.permutation_test(a, b).")
    return None


def _compared() -> int:
    return len(diagnosis.paired_scores(_pair_rows(), "faithfulness")["ids"])


def _diagnose_compared(given: Any, correct: int) -> str | None:
    if given in (3, 3.0):
        return ("q2 has no minilm faithfulness score (the judge failed): a paired test needs both systems' score "
                "for a question, so q2 is left out, and reported as dropped.")
    if given in (5, 5.0, 6, 6.0):
        return "Count questions, not rows: a pair is one question scored by both systems."
    return None


#: the changed line of cap-5: retrieval must return every passage the reference was written from
_STRICT_CUT = 1.0


def _retriever_rows(cut: float) -> int:
    rows = diagnosis.tag_rows(capstone.scored())
    return sum(failures.blame(r, recall_cut=cut).startswith("retriever") for r in rows)


def _strict_retriever() -> int:
    return _retriever_rows(_STRICT_CUT)


def _diagnose_strict(given: Any, correct: int) -> str | None:
    if given == _retriever_rows(failures.RECALL_CUT):
        return ("That is the count with RECALL_CUT = 0.5. Which row has an incomplete answer and a source recall of "
                "at least 0.5 but under 1? Change the line in the rule's cell and re-run it.")
    if isinstance(given, (int, float)) and given < correct:
        return "Count both retriever lines: 'retriever' and 'retriever (partial recall)'."
    return None


register(
    Exercise(
        id="cap-1",
        question=("A scored row: retrieved grades [0, 2, 1] (the answer passage at rank 2), faithfulness 0.5 (the "
                  "answer adds an opening year no passage gives), context-precision verdicts [0, 1, 0], answer: '"
                  + _ROW["answer"] + "', reference: '" + _REFERENCE + "'. Which tags does the taxonomy give it? "
                  "(a list of tag names)"),
        answer=_row_tags, kind="list", accept=_accept_tags, diagnose=_diagnose_tags,
        hint="Walk through diagnosis.RULES one by one; a row can carry more than one tag.",
        explanation=("bad_ranking (the grade-2 passage sits below a grade-0 one) and unsupported_claim (faithfulness "
                     "< 1: the year is in no passage). Two components failed at once: the ranker and the generator."),
    ),
    Exercise(
        id="cap-2",
        question=("Most of a system's failing rows are tagged retrieval_miss. Which component do you change first: "
                  "retriever, generator or judge?"),
        answer=_component, kind="choice", diagnose=_diagnose_component,
        hint="diagnosis.COMPONENT maps each tag to the component it points at.",
        explanation=("The retriever (k, the retriever itself, the chunking): no generator can answer from passages "
                     "it never saw. Then measure the change with a paired test on the same questions."),
    ),
    Exercise(
        id="cap-3",
        question=(f"After a change, a system scores {_A} on eight questions, against {_B} before. Is the "
                  "improvement significant at the 5% level by the paired permutation test (True or False)?"),
        answer=_significant, kind="bool", diagnose=_diagnose_significant,
        hint="stats.permutation_test(after, before).p_value; compare it with 0.05.",
        explanation=("No: the mean difference is positive, but eight questions are too few to tell: the permutation "
                     "test's p-value is well above 0.05, and under ten questions the course quotes no interval at all. "
                     "Score more questions before you decide."),
    ),
    Exercise(
        id="cap-4",
        question=("Three questions, two systems, six rows. For q2 the judge gave no usable reply on minilm's "
                  "faithfulness (recorded as an error, no score). How many questions does the paired test of "
                  "faithfulness compare?"),
        answer=_compared, kind="number", diagnose=_diagnose_compared, tolerance=0,
        hint="A pair is one question scored by both systems: diagnosis.paired_scores(rows, 'faithfulness').",
        explanation=("Two: q1 and q3. q2 is dropped and reported, not filled with 0 (which would count the judge's "
                     "failure as the system's)."),
    ),
    Exercise(
        id="cap-5",
        question=("In the blame rule of 4.4, change RECALL_CUT = 0.5 to RECALL_CUT = 1.0: an incomplete answer is the "
                  "generator's only when retrieval returned every passage the reference was written from. Predict, "
                  "then re-run the rule's cell and the next one: by the rules, how many of the 16 rows are now "
                  "blamed on the retriever (both retriever lines together)?"),
        answer=_strict_retriever, kind="number", diagnose=_diagnose_strict, tolerance=0,
        hint="Read the source recall column of the rows whose blame is 'generator' today.",
        explanation=("Seven: q01 minilm retrieved three of the four passages its reference was written from (source "
                     "recall 0.75), so under the stricter line its incomplete answer moves from the generator to the "
                     "retriever. How strict to be is a choice; say it before counting."),
    ),
)
