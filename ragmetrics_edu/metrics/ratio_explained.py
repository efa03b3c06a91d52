"""The explanation of a "count the verdicts" score: its formula with the numbers, its narrative, its notes.

Context recall, contextual relevancy, faithfulness and answer relevancy (statement form) are computed by
their cores (:mod:`ragmetrics_edu.cores.ratio` holds the counting rule); :func:`ratio_result` wraps what
a core returned in a :class:`~ragmetrics_edu.results.MetricResult` and explains it. It computes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..results import MetricResult, fmt


@dataclass(frozen=True)
class Words:
    """How a ratio metric's explanation names its parts: the counted items (``numerator``), one item
    (``item``), the rule that counts one (``rule``) and what an empty list's score means (``empty``)."""

    numerator: str
    item: str
    rule: str
    empty: str


def ratio_result(metric: str, variant: str | None, core: tuple[float, list[dict[str, Any]], dict[str, Any]],
                 columns: tuple[str, ...], words: Words, narrative: list[str], notes: list[str],
                 threshold: float | None, inputs: dict[str, Any]) -> MetricResult:
    """The MetricResult of a ratio core's ``(score, rows, values)``; ``values`` holds the count and ``total``."""
    score, rows, values = core
    total = values["total"]
    counted = next(v for k, v in values.items() if k != "total")
    if total == 0:
        notes = [words.empty] + notes
        formula = rf"\text{{no {words.item}s}} \Rightarrow {fmt(score)}"
    else:
        formula = rf"\frac{{{counted}}}{{{total}}} = {fmt(score)}"
    narrative = narrative + [
        f"Count the {words.item}s that {words.rule}: {counted} of {total}.",
        f"Score = {counted} / {total} = {fmt(score)}." if total else f"There are no {words.item}s; the score is {fmt(score)}.",
    ]
    general = rf"\frac{{\text{{{words.numerator}}}}}{{\text{{all {words.item}s}}}}"
    return MetricResult(
        metric=metric, variant=variant, score=score, columns=columns, rows=rows, values=values,
        formula=formula, formula_general=general, narrative=narrative, notes=notes,
        threshold=threshold, inputs=inputs,
    )


# -- each metric's words, narrative and notes -------------------------------------------------------------

def context_recall_text(variant: str, n: int, attribution: list[int | None], given_nodes: bool, counted: int
                        ) -> tuple[Words, list[str], list[str]]:
    """Context recall's words, narrative and notes."""
    words = Words("attributable statements", "statement", "the context supports",
                  "No statements: DeepEval defines the score as 0." if variant == "deepeval"
                  else "No statements: Ragas returns NaN (0/0), on purpose: there is nothing to recall.")
    notes = []
    if variant == "ragas" and given_nodes:
        notes.append("Ragas joins the retrieved chunks into one text and returns 1 or 0 per statement; "
                     "the node column here is the attribution given with the verdicts (as DeepEval reports it).")
    narrative = [f"Split the expected output into {n} statements.",
                 "For each statement ask: can it be attributed to a node of the retrieved context?"]
    if given_nodes and counted:
        used = sorted({a for a in attribution if a is not None})
        narrative.append("Supporting nodes: " + ", ".join(f"node {a}" for a in used) + ".")
    return words, narrative, notes


def contextual_relevancy_text(variant: str, node_verdicts: list[list[str]]) -> tuple[Words, list[str], list[str]]:
    """Contextual relevancy's words, narrative and notes."""
    word = "sentence" if variant == "ragas_sentences" else "statement"
    words = Words(f"relevant {word}s", word, "are relevant", f"No {word}s in any node: the score is defined as 0.")
    per_node = [f"node {n}: {sum(v == 'yes' for v in marks)} of {len(marks)}"
                for n, marks in enumerate(node_verdicts, start=1)]
    where = "the node" if len(node_verdicts) == 1 else f"each of the {len(node_verdicts)} nodes"
    narrative = [f"Extract the {word}s of {where} and judge each one relevant to the question or not.",
                 "Per node: " + "; ".join(per_node) + "."]
    notes = []
    if variant == "ragas_sentences":
        notes.append("Ragas (before 0.2) counted relevant sentences of the context, |S| / |T|; "
                     "Ragas 0.4 removed this metric.")
    return words, narrative, notes


def faithfulness_text(variant: str, penalize_ambiguous: bool, marks: list[str]) -> tuple[Words, list[str], list[str]]:
    """Faithfulness's words, narrative and notes."""
    deepeval = variant == "deepeval"
    rule = "the context does not contradict" if deepeval and not penalize_ambiguous else "the context supports"
    words = Words("faithful claims", "claim", rule,
                  "No claims: DeepEval scores an answer with nothing to check as fully faithful (1.0)."
                  if deepeval else "No claims: Ragas returns NaN (0/0).")
    notes = []
    if "idk" in marks:
        notes.append("DeepEval counts an 'idk' claim (not in the context) as faithful"
                     + (" unless penalize_ambiguous is set; it is set here." if penalize_ambiguous else ".")
                     if deepeval else
                     "Ragas judges each claim 1 or 0: an 'idk' claim is not supported, so it counts 0.")
    narrative = [f"Split the answer into {len(marks)} claims.",
                 "Judge each claim against the retrieved context: yes, no, or idk."]
    return words, narrative, notes


def answer_relevancy_text(marks: list[str]) -> tuple[Words, list[str], list[str]]:
    """Answer relevancy's (statement form) words, narrative and notes."""
    words = Words("relevant statements", "statement", "address the question",
                  "No statements: DeepEval defines the score as 1.0.")
    notes = ["DeepEval counts an 'idk' statement as relevant."] if "idk" in marks else []
    narrative = [f"Split the answer into {len(marks)} statements.",
                 "Judge each statement: does it address the question (yes, no, idk)?"]
    return words, narrative, notes
