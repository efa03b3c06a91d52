"""Exercises of notebook 03 (contextual relevancy): statements are pooled over nodes, padding
dilutes, and the precision judge reads an input the relevancy judge never sees."""

from __future__ import annotations

import inspect
from typing import Any

from ... import designs, examples, metrics
from ...errors import InputError
from ...validate import verdict_list
from . import Exercise, as_name, as_number, close, register
from .changed_code import change_exercise

#: crel-1: a short node with one relevant statement, a long node with one relevant statement of four.
NODE_STATEMENTS = [["a1"], ["b1", "b2", "b3", "b4"]]
NODE_VERDICTS = [["yes"], ["yes", "no", "no", "no"]]
#: crel-2: the score to fall below, starting from deck E's high context (1 relevant sentence of 2).
TARGET = 0.2



def _diagnose_pooling(given: Any, correct: float) -> str | None:
    per_node = [sum(v == "yes" for v in vs) / len(vs) for vs in NODE_VERDICTS]
    if close(given, sum(per_node) / len(per_node)):
        return ("You averaged the per-node shares. The metric pools the statements of all nodes first, so a long "
                "node weighs as many times as it has statements.")
    if close(given, sum(any(v == "yes" for v in vs) for vs in NODE_VERDICTS) / len(NODE_VERDICTS)):
        return "You judged whole nodes. Contextual relevancy judges every statement of every node."
    return None


def _padding_needed() -> int:
    """Off-topic sentences to append to deck E's high context before the score drops below TARGET."""
    kwargs = examples.load("E-crel-france").case("high").kwargs
    statements, verdicts = list(kwargs["node_statements"][0]), list(kwargs["node_verdicts"][0])
    extra = 0
    while metrics.contextual_relevancy([statements + ["off topic"] * extra], [verdicts + ["no"] * extra],
                                       variant="ragas_sentences").score >= TARGET:
        extra += 1
    return extra


def _diagnose_padding(given: Any, correct: float) -> str | None:
    g = as_number(given)
    if g is not None and g == correct - 1:
        return (f"With {int(g)} extra sentences the score is exactly {TARGET}: not yet below it. "
                "One more sentence is needed.")
    return None


def _judge_input() -> str:
    """The input the precision judge reads and the relevancy judge does not (from the judge functions)."""
    shared = {"question", "nodes", "expected_output"}
    precision = set(inspect.signature(designs.context_precision).parameters) & shared
    relevancy = set(inspect.signature(designs.contextual_relevancy).parameters) & shared
    (only,) = precision - relevancy
    return only


def _diagnose_input(given: Any, correct: str) -> str | None:
    g = as_name(given)
    if g is None:
        return "Answer with one of the strings 'question', 'nodes' or 'expected_output'."
    if g == correct:
        return f"Right idea; write it as the parameter is spelled: {correct!r}."
    if g in ("question", "nodes"):
        return f"Both judges read the {g}. Look for the parameter only designs.context_precision takes."
    return None


def _lenient_low() -> float:
    """Deck E's low context when the opening sentence (France in Western Europe) also counts."""
    kwargs = examples.load("E-crel-france").case("low").kwargs
    verdicts = ["yes" if i == 0 else v for i, v in enumerate(kwargs["node_verdicts"][0])]
    return metrics.contextual_relevancy(kwargs["node_statements"], [verdicts], variant="ragas_sentences").score


def _diagnose_lenient(given: Any, correct: float) -> str | None:
    strict = examples.load("E-crel-france").compute("low").score
    if close(given, strict):
        return "That is the strict reading (only the Paris sentence). Count the opening sentence as relevant too."
    return None


register(
    Exercise(
        id="crel-1",
        question=("Node 1 is one relevant statement. Node 2 has four statements, only the first relevant. "
                  "What is the contextual relevancy?"),
        answer=lambda: metrics.contextual_relevancy(NODE_STATEMENTS, NODE_VERDICTS).score,
        hint="Pool the statements of both nodes, then divide relevant statements by all statements.",
        explanation="2 relevant statements of 5: 0.4. Averaging the nodes (1 and 1/4) would give 0.625 instead.",
        diagnose=_diagnose_pooling,
    ),
    Exercise(
        id="crel-2",
        question=("Deck E's high context scores 1/2 (one relevant sentence of two). How many off-topic sentences "
                  f"must be appended before the score falls below {TARGET}?"),
        answer=_padding_needed,
        hint="After m extra sentences the score is 1 / (2 + m). Find the smallest m that makes it smaller than 0.2.",
        explanation="1/(2+3) = 0.2 is not below 0.2; 1/(2+4) ≈ 0.167 is. Four sentences.",
        diagnose=_diagnose_padding,
    ),
    Exercise(
        id="crel-3",
        question=("Deck A's context precision marks the NLP and machine-learning nodes not relevant; its contextual "
                  "relevancy counts every statement of them relevant. Which input does the precision judge read "
                  "that the relevancy judge never sees? Answer 'question', 'nodes' or 'expected_output'."),
        answer=_judge_input,
        kind="choice",
        hint="Compare the parameters of designs.context_precision and designs.contextual_relevancy.",
        explanation="The expected output: precision asks whether a node helps reach it; relevancy only asks "
                    "whether a statement is on the question's topic.",
        diagnose=_diagnose_input,
    ),
    Exercise(
        id="crel-4",
        question=("Deck E's low context (4 sentences): a lenient judge also counts the opening sentence, 'France, "
                  "in Western Europe, ...', as relevant. What is the sentence-level score?"),
        answer=_lenient_low,
        hint="Two relevant sentences now; the number of sentences does not change.",
        explanation="2 of 4 sentences: 0.5 (the strict reading gives 1/4).",
        diagnose=_diagnose_lenient,
    ),
)


# -- crel-5: design. A context whose micro average is above 0.5 and whose macro average is below. ----
def _node_verdicts(given: Any) -> list[list[str]] | None:
    """The learner's nodes as lists of yes/no verdicts, or None when that is not what was given."""
    if isinstance(given, (str, bytes)):
        return None
    try:
        nodes = [verdict_list("node", list(node)) for node in given if not isinstance(node, (str, bytes))]
        if len(nodes) != len(list(given)) or not nodes or any(not node for node in nodes):
            return None
    except (TypeError, InputError):
        return None
    return nodes


def _micro_macro(nodes: list[list[str]]) -> tuple[float, float]:
    """The pooled share (the metric, a micro average) and the mean of per-node shares (a macro average)."""
    micro = metrics.contextual_relevancy([[f"s{i}" for i in range(len(n))] for n in nodes], nodes).score
    macro = sum(n.count("yes") / len(n) for n in nodes) / len(nodes)
    return micro, macro


def _accept_crel5(given: Any, correct: Any) -> bool:
    nodes = _node_verdicts(given)
    if nodes is None:
        return False
    micro, macro = _micro_macro(nodes)
    return micro > 0.5 > macro


def _smallest_disagreement() -> list[list[str]]:
    """One long all-relevant node and as few one-statement irrelevant nodes as needed (found by search)."""
    for long in range(1, 10):
        for short in range(1, 10):
            nodes = [["yes"] * long] + [["no"]] * short
            if _accept_crel5(nodes, None):
                return nodes
    raise AssertionError("no disagreement found")


def _diagnose_crel5(given: Any, correct: Any) -> str | None:
    nodes = _node_verdicts(given)
    if nodes is None:
        return ("Give a list of nodes, each a non-empty list of 'yes'/'no' verdicts on its statements, e.g. "
                "[['yes', 'no'], ['no']].")
    micro, macro = _micro_macro(nodes)
    problems = []
    if micro <= 0.5:
        problems.append(f"the pooled score (the micro average, the metric) is {micro:.4g}, not above 0.5")
    if macro >= 0.5:
        problems.append(f"the mean of the per-node shares (the macro average) is {macro:.4g}, not below 0.5")
    return ("For your nodes " + " and ".join(problems) + ". The two averages part when nodes differ in length: "
            "a long node weighs once per statement in the micro average, once in all in the macro average.")


register(
    Exercise(
        id="crel-5",
        question=("Design a retrieved context, as a list of nodes each holding the verdicts on its statements (e.g. "
                  "[['yes', 'no'], ['no']]), for which contextual relevancy (pooled over all statements: a micro "
                  "average) is above 0.5 while the mean of the per-node shares (a macro average) is below 0.5."),
        answer=_smallest_disagreement,
        kind="list",
        hint="Make one node long and on topic, and add short off-topic nodes.",
        explanation=("E.g. one node of three relevant statements and two one-statement nodes off topic: pooled 3/5 = "
                     "0.6, per node (1 + 0 + 0) / 3 = 0.33. The metric rewards a retriever whose relevant nodes are "
                     "long; a per-node average would call most of the context off topic."),
        diagnose=_diagnose_crel5,
        accept=_accept_crel5,
    ),
)


def _what_is_ai() -> tuple[list[list[str]], list[list[str]]]:
    """Deck A's statements per node and their verdicts, as the core reads them."""
    kwargs = examples.load("A-crel-what-is-ai").case().kwargs
    return kwargs["node_statements"], kwargs["node_verdicts"]


# -- crel-6: change a line. One verdict per node: what does deck A score? ---------------------------------
register(change_exercise(
    id="crel-6", metric="contextual_relevancy",
    old="verdicts = [verdict for verdicts in node_verdicts for verdict in verdicts]",
    new="verdicts = [max(verdicts) for verdicts in node_verdicts]",
    note=("`max` of 'yes' and 'no' is 'yes', so each node now gives one verdict: yes when any of its statements "
          "is relevant."),
    case=("deck A's five nodes for \"What is AI?\" (statement verdicts `[no]`, `[no]` and `[yes, yes, yes]` "
          "three times)"),
    run=lambda core: core.contextual_relevancy(*_what_is_ai())[0],
    hint="Count nodes now, not statements: how many of the five nodes have a relevant statement?",
    explanation=("The list now holds one verdict per node: no, no, yes, yes, yes, so the score is 3 / 5 = 0.6, "
                 "where the code as it is pools the 11 statements (9 relevant: 0.8182). Pooling statements weighs "
                 "a node by how many statements it has: the relevant nodes, with three each, outweigh the two "
                 "off-topic ones."),
    slips=((lambda: 2 / 5, "That is the share of off-topic nodes; the score counts the relevant ones."),),
))
