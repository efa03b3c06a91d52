"""Contextual relevancy: the share of all statements, node by node, relevant to the question.

    contextual relevancy = relevant statements / all statements      (all nodes together)

    relevant = 1 when a statement's verdict is "yes", 0 when it is "no"
    no statements in any node: 0
    ragas_sentences (Ragas before 0.2): the items are the context's sentences, |S| / |T|; same count
"""

from .ratio import count_verdicts

#: the step table's columns this core fills
COLUMNS = ("node", "statement", "verdict", "relevant")

RELEVANT = {"yes": 1, "no": 0}


def contextual_relevancy(node_statements, node_verdicts):
    nodes = [n for n, statements in enumerate(node_statements, start=1) for _ in statements]
    statements = [statement for statements in node_statements for statement in statements]
    verdicts = [verdict for verdicts in node_verdicts for verdict in verdicts]
    score, relevant, counted = count_verdicts(verdicts, RELEVANT, 0.0)
    rows = [{"node": n, "statement": statement, "verdict": verdict, "relevant": r}
            for n, statement, verdict, r in zip(nodes, statements, verdicts, relevant)]
    return score, rows, {"relevant": counted["counted"], "total": counted["total"]}
