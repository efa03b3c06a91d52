"""Exercises of notebook 02 (context recall): count statements, not nodes; order and
attribution do not move the score; what an empty expected output is worth."""

from __future__ import annotations

import math
from typing import Any

from ... import examples, metrics
from ...widgets.decompose_model import DecomposeModel
from . import Exercise, as_number, close, register
from .changed_code import change_exercise

#: cr-1 and cr-2: five statements of an expected output, three nodes retrieved.
#: Node 1 backs statements 1 and 2, node 3 backs statement 4, node 2 backs nothing.
STATEMENTS = ["s1", "s2", "s3", "s4", "s5"]
VERDICTS = ["yes", "yes", "no", "yes", "no"]
NODES = [1, 1, None, 3, None]
NODE_COUNT = 3



def _recall(nodes: list[int | None] = NODES, variant: str = "deepeval") -> float:
    return metrics.context_recall(STATEMENTS, VERDICTS, nodes=nodes, variant=variant).score


def _reversed_nodes() -> list[int | None]:
    """The same attribution after the retriever returns its nodes in reverse order."""
    return [None if n is None else NODE_COUNT + 1 - n for n in NODES]


def _diagnose_counting(given: Any, correct: float) -> str | None:
    supporting = len({n for n in NODES if n is not None})
    attributable = sum(v == "yes" for v in VERDICTS)
    if close(given, supporting / NODE_COUNT):
        return (f"You counted nodes: {supporting} of the {NODE_COUNT} nodes support something. Context recall "
                "counts the statements of the expected output that some node supports.")
    if close(given, (len(VERDICTS) - attributable) / len(VERDICTS)):
        return "That is the share of statements the context does NOT support; recall counts the supported ones."
    if close(given, attributable / NODE_COUNT):
        return (f"Right numerator ({attributable} attributable statements), wrong denominator: divide by the "
                f"{len(STATEMENTS)} statements, not by the {NODE_COUNT} nodes.")
    return None


def _diagnose_order(given: Any, correct: float) -> str | None:
    g = as_number(given)
    if g is None:
        return None
    return ("The score moved with the order? Context recall only asks whether each statement is supported by "
            "some node; it does not look at where that node sits in the ranking.")


def _diagnose_empty(given: Any, correct: float) -> str | None:
    g = as_number(given)
    if g is not None and math.isnan(g):
        return "NaN is what Ragas returns (0/0). DeepEval defines the score of an empty statement list differently."
    if g is not None and abs(g - 1.0) < 1e-9:
        return ("1.0 is DeepEval's value for an empty list in faithfulness and answer relevancy, not in "
                "context recall.")
    return None


def _pair() -> tuple[float, float]:
    """Deck B's deforestation case and a case whose expected output yields no statement (DeepEval)."""
    kwargs = dict(examples.load("B-cr-deforestation").case().kwargs, variant="deepeval")
    full = metrics.context_recall(**kwargs).score
    empty = metrics.context_recall([], [], variant="deepeval").score
    return full, empty


def _diagnose_mean(given: Any, correct: float) -> str | None:
    full, _ = _pair()
    if close(given, full):
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
        hint="The two libraries disagree here; the section on DeepEval and Ragas prints the note each variant gives.",
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


# -- cr-5: design. Cut deck B's ground truth into claims so that recall is exactly 2/3. -----------
TARGET_RECALL = 2 / 3


def _deforestation_model():
    """Deck B's ground truth as pieces (one cause each) with the deck's verdicts; strict judge."""
    return DecomposeModel.from_example("B-cr-deforestation")


def _sizes(given: Any) -> list[int] | None:
    """The learner's cut as claim sizes, or None when it is not a list of whole numbers."""
    if isinstance(given, (str, bytes, dict)):
        return None
    try:
        items = list(given)
    except TypeError:
        return None
    if not items or any(isinstance(s, bool) or not isinstance(s, int) for s in items):
        return None
    return items


def _cuts(sizes: list[int]) -> list[bool]:
    """Claim sizes (pieces per claim, in order) as the model's cuts between neighbouring pieces."""
    cuts: list[bool] = []
    for size in sizes:
        cuts += [False] * (size - 1) + [True]
    return cuts[:-1]


def _recall_of(sizes: list[int]) -> float:
    model = _deforestation_model()
    model.set_cuts(_cuts(sizes))
    return model.score


def _a_cut_for_two_thirds() -> list[int]:
    """The first cut (in the model's enumeration) whose recall is 2/3, as claim sizes."""
    model = _deforestation_model()
    for cuts, score in model.every_cut():
        if math.isclose(score, TARGET_RECALL):
            sizes, run = [], 1
            for cut in cuts:
                if cut:
                    sizes.append(run)
                    run = 1
                else:
                    run += 1
            return sizes + [run]
    raise AssertionError("no cut of deck B's ground truth gives 2/3")


def _valid(sizes: list[int] | None) -> bool:
    n = len(_deforestation_model().pieces)
    return sizes is not None and all(s >= 1 for s in sizes) and sum(sizes) == n


def _accept_cr5(given: Any, correct: list[int]) -> bool:
    sizes = _sizes(given)
    return sizes is not None and _valid(sizes) and math.isclose(_recall_of(sizes), TARGET_RECALL)


def _diagnose_cr5(given: Any, correct: list[int]) -> str | None:
    sizes = _sizes(given)
    n = len(_deforestation_model().pieces)
    if sizes is None:
        return "Give the cut as a list of whole numbers, the causes in each claim in order, e.g. [2, 2]."
    if any(s < 1 for s in sizes):
        return "Every claim holds at least one cause: a size of 0 or less is not a claim."
    if sum(sizes) != n:
        return f"The ground truth has {n} pieces (one cause each); your sizes add up to {sum(sizes)}."
    score = _recall_of(sizes)
    return (f"That cut gives context recall {score:.4g} ({sum(1 for _ in sizes)} claims). Under a strict judge the "
            "claim that holds wildfires fails as a whole, whatever else it holds; for 2/3 you need three claims "
            "with that one the only failure.")


register(
    Exercise(
        id="cr-5",
        question=("Deck B's ground truth reads 'The primary causes of deforestation are logging, agriculture, "
                  "urbanization, and wildfires.' The judge finds logging, agriculture and urbanization in the "
                  "context, not wildfires. Cut the ground truth into claims so that a strict judge (a claim counts "
                  "only when all of it is supported) gives context recall exactly 2/3. Give the cut as the number of "
                  "causes in each claim, in order: [2, 2] means 'logging and agriculture' + 'urbanization and "
                  "wildfires'."),
        answer=_a_cut_for_two_thirds,
        kind="list",
        hint="Three claims, and wildfires must share its claim with nothing that could have saved another claim.",
        explanation=("Any cut into three claims works: [1, 1, 2], [1, 2, 1] or [2, 1, 1] each give 2 supported "
                     "claims of 3. The deck's cut [1, 1, 1, 1] gives 3/4, one claim gives 0, [2, 2] gives 1/2: the "
                     "same verdicts, four different scores. Most real differences between two evaluations of the "
                     "same answer come from how it was cut into claims."),
        diagnose=_diagnose_cr5,
        accept=_accept_cr5,
    ),
)


def _deforestation() -> tuple[list[str], list[str]]:
    """Deck B's deforestation statements and their verdicts, written as the core reads them ('yes'/'no')."""
    kwargs = examples.load("B-cr-deforestation").case().kwargs
    return list(kwargs["statements"]), ["yes" if v in (1, "yes", True) else "no" for v in kwargs["verdicts"]]


# -- cr-6: change a line. Half credit for an unsupported statement: what does deck B score? ----------------
register(change_exercise(
    id="cr-6", metric="context_recall", old='ATTRIBUTABLE = {"yes": 1, "no": 0}',
    new='ATTRIBUTABLE = {"yes": 1, "no": 0.5}',
    case="deck B's deforestation reference (verdicts yes, yes, yes, no)",
    run=lambda core: core.context_recall(*_deforestation(), "ragas")[0],
    hint="The shared counting rule adds each verdict's number from the table and divides by the statements.",
    explanation=("The table now gives a 'no' 0.5, so the count is 1 + 1 + 1 + 0.5 = 3.5 over 4 statements: "
                 "0.875. The table is where a verdict becomes a number; the counting rule (ratio.py) only adds "
                 "and divides, so any partial credit a metric gives lives in its table."),
    slips=((lambda: 3.5, "That is the count; the rule divides it by the 4 statements."),
           (lambda: 0.5, "Only the 'no' statement changed; the three 'yes' still count 1 each.")),
))
