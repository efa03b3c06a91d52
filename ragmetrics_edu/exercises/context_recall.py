"""Exercises of notebook 02 (context recall): count statements, not nodes; order and
attribution do not move the score; what an empty expected output is worth."""

from __future__ import annotations

import math
from typing import Any

from .. import metrics
from . import Exercise, _as_number, register

#: cr-1 and cr-2: five statements of an expected output, three nodes retrieved.
#: Node 1 backs statements 1 and 2, node 3 backs statement 4, node 2 backs nothing.
STATEMENTS = ["s1", "s2", "s3", "s4", "s5"]
VERDICTS = ["yes", "yes", "no", "yes", "no"]
NODES = [1, 1, None, 3, None]
NODE_COUNT = 3


def _close(given: Any, value: float) -> bool:
    g = _as_number(given)
    return g is not None and abs(g - value) < 1e-3


def _recall(nodes: list[int | None] = NODES, variant: str = "deepeval") -> float:
    return metrics.context_recall(STATEMENTS, VERDICTS, nodes=nodes, variant=variant).score


def _reversed_nodes() -> list[int | None]:
    """The same attribution after the retriever returns its nodes in reverse order."""
    return [None if n is None else NODE_COUNT + 1 - n for n in NODES]


def _diagnose_counting(given: Any, correct: float) -> str | None:
    supporting = len({n for n in NODES if n is not None})
    attributable = sum(v == "yes" for v in VERDICTS)
    if _close(given, supporting / NODE_COUNT):
        return (f"You counted nodes: {supporting} of the {NODE_COUNT} nodes support something. Context recall "
                "counts the statements of the expected output that some node supports.")
    if _close(given, (len(VERDICTS) - attributable) / len(VERDICTS)):
        return "That is the share of statements the context does NOT support; recall counts the supported ones."
    if _close(given, attributable / NODE_COUNT):
        return (f"Right numerator ({attributable} attributable statements), wrong denominator: divide by the "
                f"{len(STATEMENTS)} statements, not by the {NODE_COUNT} nodes.")
    return None


def _diagnose_order(given: Any, correct: float) -> str | None:
    g = _as_number(given)
    if g is None:
        return None
    return ("The score moved with the order? Context recall only asks whether each statement is supported by "
            "some node; it does not look at where that node sits in the ranking.")


def _diagnose_empty(given: Any, correct: float) -> str | None:
    g = _as_number(given)
    if g is not None and math.isnan(g):
        return "NaN is what Ragas returns (0/0). DeepEval defines the score of an empty statement list differently."
    if g is not None and abs(g - 1.0) < 1e-9:
        return ("1.0 is DeepEval's value for an empty list in faithfulness and answer relevancy, not in "
                "context recall.")
    return None


def _pair() -> tuple[float, float]:
    """Deck B's deforestation case and a case whose expected output yields no statement (DeepEval)."""
    from .. import examples

    kwargs = dict(examples.load("B-cr-deforestation").case().kwargs, variant="deepeval")
    full = metrics.context_recall(**kwargs).score
    empty = metrics.context_recall([], [], variant="deepeval").score
    return full, empty


def _diagnose_mean(given: Any, correct: float) -> str | None:
    full, _ = _pair()
    if _close(given, full):
        return ("That is the mean with the empty case left out, which is what you get from Ragas: its NaN is "
                "skipped by pandas' mean. DeepEval scores the empty case 0, and that 0 counts in the mean.")
    return None


register(
    Exercise(
        id="cr-1",
        question=("An expected output splits into 5 statements; the retriever returns 3 nodes. Node 1 supports "
                  "statements 1 and 2, node 3 supports statement 4, node 2 supports none, and statements 3 and 5 "
                  "are supported by no node. What is the context recall?"),
        answer=lambda: _recall(),
        hint="Numerator: statements some node supports. Denominator: all statements of the expected output.",
        explanation="3 of the 5 statements are attributable to a node: 3/5 = 0.6. Node 2 being useless does not "
                    "enter recall (it would hurt context precision).",
        diagnose=_diagnose_counting,
    ),
    Exercise(
        id="cr-2",
        question=("The same retriever returns the same 3 nodes in reverse order (node 3 first, node 1 last). "
                  "What is the context recall now?"),
        answer=lambda: _recall(_reversed_nodes()),
        hint="Which statements are supported does not change when the nodes are reordered.",
        explanation="Still 3/5 = 0.6: recall is a set measure; only the attribution labels change (node 1 is now "
                    "called node 3).",
        diagnose=_diagnose_order,
    ),
    Exercise(
        id="cr-3",
        question="DeepEval variant: the expected output yields no statements at all. What score does context recall give?",
        answer=lambda: metrics.context_recall([], [], variant="deepeval").score,
        hint="The two libraries disagree here; section 6 prints the note each variant gives.",
        explanation="DeepEval returns 0 when there is nothing to recall; Ragas returns NaN.",
        diagnose=_diagnose_empty,
    ),
    Exercise(
        id="cr-4",
        question=("Two test cases scored with the DeepEval variant: deck B's deforestation case, and a case whose "
                  "expected output yields no statements. What is the mean context recall over the two?"),
        answer=lambda: sum(_pair()) / 2,
        hint="Score each case with the DeepEval rules (including the empty one), then average the two numbers.",
        explanation="(0.75 + 0) / 2 = 0.375. With Ragas the empty case is NaN: a plain Python mean becomes NaN, "
                    "pandas' mean skips it and reports 0.75.",
        diagnose=_diagnose_mean,
    ),
)
