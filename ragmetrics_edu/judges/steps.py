"""The LLM steps of every metric: ask a judge, then score with :mod:`ragmetrics_edu.metrics`.

Each function takes a judge and the case's texts, asks for the verdicts (statements,
claims, entities or questions) in as few calls as the metric allows, and returns the
same :class:`~ragmetrics_edu.results.MetricResult` the metric function gives, with
``.calls`` holding every call record. Calls per case at default settings:

==============================  =====  ================================================
step                            calls  what one call returns
==============================  =====  ================================================
context_precision                 1    a verdict per node, keyed node_1 … node_n
context_recall                    1    the expected output's statements, each with a node or null
contextual_relevancy              1    per node, its statements, each judged
context_entity_recall             1    the entities of the reference and of the context
faithfulness                      2    1: the answer's claims; 2: yes/no/idk per claim
answer_relevancy                  2    1: the answer's statements; 2: yes/no/idk per statement
answer_relevancy_embedding        1    n questions, each with a noncommittal flag
answer_correctness                2    1: statements of answer and ground truth; 2: TP/FP/FN
==============================  =====  ================================================

Given items (``claims=`` for faithfulness, ``statements=`` for answer_relevancy and
context_recall) skip the extraction: one call fewer, verdicts aligned with the items given
(see :mod:`.same_items`). A second call is skipped when the first found nothing to judge; a repair request is
added only when a reply is unusable. ``reason=True`` adds one call for a written
reason; without it, the explanation is the result's own steps and arithmetic.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import metrics
from ..metrics.embedding import MAX_GENERATED
from ..results import MetricResult
from ..validate import flag, integer, text, text_list
from .base import STEPS, Judge
from .prompting import Texts
from .records import CallList
from .requests import (
    MAX_ITEMS,
    ask,
    check_judge,
    extracted,
    finish,
    key_names,
    keyed_list,
    list_field,
    make_request,
    schema_models,
    sized,
    verdict_request,
)
from .same_items import given_items, mark_given

__all__ = ["STEPS", "MAX_ITEMS", "context_precision", "context_recall", "contextual_relevancy",
           "context_entity_recall", "faithfulness", "answer_relevancy", "answer_relevancy_embedding",
           "answer_correctness"]

# -- the metrics ----------------------------------------------------------------------------
def context_precision(
    judge: Judge, question: str, nodes: Sequence[str], expected_output: str, *,
    variant: str = "deepeval", total_relevant: int | None = None, threshold: float | None = None,
    reason: bool = False,
) -> MetricResult:
    """Ask whether each retrieved node helps reach the expected output (1 call for all nodes),
    then score the ranking with :func:`ragmetrics_edu.metrics.context_precision`."""
    judge, reason = check_judge(judge), flag("reason", reason)
    question, expected_output = text("question", question), text("expected_output", expected_output)
    nodes = sized("nodes", text_list("nodes", nodes))
    calls = CallList()
    verdicts: list[str] = []
    if nodes:
        request = verdict_request("context_precision", "context_precision", "node", len(nodes), idk=False,
                                   data={"question": question, "expected_output": expected_output,
                                         "nodes": Texts("node", nodes)})
        answer = judge.ask(request)
        calls.extend(answer.calls)
        verdicts = [answer.data[k] for k in key_names("node", len(nodes))]
    result = metrics.context_precision(verdicts, variant, nodes=nodes, total_relevant=total_relevant,
                                       threshold=threshold, question=question)
    return finish(result, judge, calls, reason)


def context_recall(
    judge: Judge, expected_output: str, nodes: Sequence[str], *, question: str | None = None,
    variant: str = "deepeval", threshold: float | None = None, reason: bool = False,
    statements: Sequence[str] | None = None,
) -> MetricResult:
    """Split the expected output into statements and attribute each to a node or none
    (1 call), then score with :func:`ragmetrics_edu.metrics.context_recall`.

    With ``statements`` (e.g. a labelled set's own), the judge only attributes those, each in
    its own data block (step ``context_recall.attribution``), so its verdicts align with them."""
    judge, reason = check_judge(judge), flag("reason", reason)
    expected_output = text("expected_output", expected_output)
    question = None if question is None else text("question", question)
    nodes = sized("nodes", text_list("nodes", nodes))
    n = len(nodes)
    if statements is not None:
        return _attribute_given(judge, expected_output, nodes, given_items("statements", statements, MAX_ITEMS),
                                question=question, variant=variant, threshold=threshold, reason=reason)

    def check(data: dict[str, Any]) -> str | None:
        bad = [f"statements.{i}.node = {s['node']}" for i, s in enumerate(data["statements"])
               if s["node"] is not None and not 1 <= s["node"] <= n]
        return f"node numbers must be between 1 and {n} or null ({', '.join(bad)})" if bad else None

    def shorthand(answer: Any) -> Any:
        if isinstance(answer, (list, tuple)):
            return {"statements": [dict(s) if isinstance(s, Mapping) else {"statement": s[0], "node": s[1]}
                                   for s in answer]}
        return answer

    request = make_request("context_recall", "context_recall", schema_models().Attribution,
                       f'a JSON object {{"statements": [{{"statement": "...", "node": 1..{n} or null}}]}}',
                       check=check, shorthand=shorthand, n=n,
                       data={"question_block": question, "nodes": Texts("node", nodes, "(no nodes were retrieved)"),
                             "expected_output": expected_output})
    answer = judge.ask(request)
    items = answer.data["statements"]
    result = metrics.context_recall([s["statement"] for s in items], ["yes" if s["node"] else "no" for s in items],
                                    nodes=[s["node"] for s in items], variant=variant, threshold=threshold,
                                    question=question)
    return finish(result, judge, CallList(answer.calls), reason)


def _attribute_given(judge: Judge, expected_output: str, nodes: list[str], statements: list[str], *,
                     question: str | None, variant: str, threshold: float | None, reason: bool) -> MetricResult:
    """Context recall on given statements: one call, a node number or null per ``statement_i``."""
    n, keys = len(nodes), key_names("statement", len(statements))

    def check(data: dict[str, Any]) -> str | None:
        bad = [f"{k} = {data[k]}" for k in keys if data[k] is not None and not 1 <= data[k] <= n]
        return f"node numbers must be between 1 and {n} or null ({', '.join(bad)})" if bad else None

    model = schema_models().keyed(f"context_recall_attribution_{len(keys)}", keys, "node_or_null")
    request = make_request("context_recall.attribution", "context_recall_attribution", model,
                       f"a JSON object with exactly the {len(keys)} keys {', '.join(keys)}, each a node number "
                       f"1..{n} or null", check=check, shorthand=keyed_list("statement"), legacy=False,
                       data={"question_block": question, "nodes": Texts("node", nodes, "(no nodes were retrieved)"),
                             "expected_output": expected_output, "statements": Texts("statement", statements)},
                       n=n, keys=", ".join(keys))
    answer = judge.ask(request)
    found = [answer.data[k] for k in keys]
    result = metrics.context_recall(statements, ["yes" if node else "no" for node in found], nodes=found,
                                    variant=variant, threshold=threshold, question=question)
    mark_given(result, "statements", statements, "context_recall (statements and attribution in one)")
    return finish(result, judge, CallList(answer.calls), reason)


def contextual_relevancy(
    judge: Judge, question: str, nodes: Sequence[str], *, variant: str = "deepeval",
    threshold: float | None = None, reason: bool = False,
) -> MetricResult:
    """Extract every node's statements and judge each against the question (1 call for
    all nodes), then score with :func:`ragmetrics_edu.metrics.contextual_relevancy`."""
    judge, reason = check_judge(judge), flag("reason", reason)
    question = text("question", question)
    nodes = sized("nodes", text_list("nodes", nodes))
    calls = CallList()
    node_statements: list[list[str]] = []
    node_verdicts: list[list[str]] = []
    if nodes:
        keys = key_names("node", len(nodes))

        def shorthand(answer: Any) -> Any:
            if isinstance(answer, (list, tuple)):
                return {k: [dict(s) if isinstance(s, Mapping) else {"statement": s[0], "verdict": s[1]} for s in items]
                        for k, items in zip(key_names("node", len(answer)), answer, strict=True)}
            return answer

        model = schema_models().keyed(f"contextual_relevancy_{len(nodes)}", keys, "judged_statements")
        request = make_request("contextual_relevancy", "contextual_relevancy", model,
                           f"a JSON object with exactly the {len(nodes)} keys {', '.join(keys)}, each a list of "
                           '{"statement": "...", "verdict": "yes" or "no"}',
                           shorthand=shorthand, data={"question": question, "nodes": Texts("node", nodes)},
                           keys=", ".join(keys))
        answer = judge.ask(request)
        calls.extend(answer.calls)
        node_statements = [[s["statement"] for s in answer.data[k]] for k in keys]
        node_verdicts = [[s["verdict"] for s in answer.data[k]] for k in keys]
    result = metrics.contextual_relevancy(node_statements, node_verdicts, nodes=nodes, variant=variant,
                                          threshold=threshold, question=question)
    return finish(result, judge, calls, reason)


def context_entity_recall(
    judge: Judge, reference: str, nodes: Sequence[str], *, normalize: bool = False,
    threshold: float | None = None, reason: bool = False,
) -> MetricResult:
    """Extract the entities of the reference and of the context (1 call returning both
    lists), then score with :func:`ragmetrics_edu.metrics.context_entity_recall`."""
    judge, reason = check_judge(judge), flag("reason", reason)
    reference = text("reference", reference)
    nodes = sized("nodes", text_list("nodes", nodes))

    def shorthand(answer: Any) -> Any:
        if isinstance(answer, (list, tuple)) and len(answer) == 2:
            return {"reference_entities": list(answer[0]), "context_entities": list(answer[1])}
        return answer

    request = make_request("context_entity_recall", "context_entity_recall", schema_models().Entities,
                       'a JSON object {"reference_entities": [...], "context_entities": [...]}',
                       shorthand=shorthand,
                       data={"reference": reference, "nodes": Texts("node", nodes, "(no nodes were retrieved)")})
    answer = judge.ask(request)
    result = metrics.context_entity_recall(answer.data["reference_entities"], answer.data["context_entities"],
                                           normalize=normalize, threshold=threshold)
    return finish(result, judge, CallList(answer.calls), reason)


def faithfulness(
    judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
    variant: str = "deepeval", penalize_ambiguous: bool = False, threshold: float | None = None,
    reason: bool = False, claims: Sequence[str] | None = None,
) -> MetricResult:
    """Extract the answer's claims (call 1), judge each yes/no/idk against the context
    (call 2), then score with :func:`ragmetrics_edu.metrics.faithfulness`.

    With ``claims`` given (e.g. a labelled set's own), call 1 is skipped: the verdict step
    judges exactly those claims, each in its own data block."""
    judge, reason = check_judge(judge), flag("reason", reason)
    answer_text = text("answer", answer)
    question = None if question is None else text("question", question)
    context = sized("context", text_list("context", context))
    given = None if claims is None else given_items("claims", claims, MAX_ITEMS)
    calls = CallList()
    if given is None:
        first = judge.ask(make_request("faithfulness.claims", "faithfulness_claims", schema_models().Claims,
                                   'a JSON object {"claims": ["...", ...]}', shorthand=list_field("claims"),
                                   data={"question_block": question, "answer": answer_text}))
        calls.extend(first.calls)
        claims = first.data["claims"]
    else:
        claims = given
    claims = list(claims)
    verdicts: list[str] = []
    extracted("faithfulness.claims", "claims", claims)
    if claims:
        second = ask(judge, verdict_request("faithfulness.verdicts", "faithfulness_verdicts", "claim", len(claims),
                                            idk=True, data={"context": Texts("node", context, "(no context)"),
                                                            "claims": Texts("claim", claims)}), calls)
        verdicts = [second.data[k] for k in key_names("claim", len(claims))]
    result = metrics.faithfulness(claims, verdicts, variant, penalize_ambiguous=penalize_ambiguous,
                                  context=context, threshold=threshold)
    if given is not None:
        mark_given(result, "claims", given, "faithfulness.claims")
    return finish(result, judge, calls, reason)


def answer_relevancy(
    judge: Judge, question: str, answer: str, *, threshold: float | None = None, reason: bool = False,
    statements: Sequence[str] | None = None,
) -> MetricResult:
    """DeepEval's statement form: extract the answer's statements (call 1), judge each
    against the question (call 2), then score with :func:`ragmetrics_edu.metrics.answer_relevancy`.

    With ``statements`` given, call 1 is skipped and the verdict step judges exactly those."""
    judge, reason = check_judge(judge), flag("reason", reason)
    question, answer_text = text("question", question), text("answer", answer)
    given = None if statements is None else given_items("statements", statements, MAX_ITEMS)
    calls = CallList()
    if given is None:
        first = judge.ask(make_request("answer_relevancy.statements", "answer_relevancy_statements",
                                   schema_models().Statements, 'a JSON object {"statements": ["...", ...]}',
                                   shorthand=list_field("statements"), data={"answer": answer_text}))
        calls.extend(first.calls)
        statements = first.data["statements"]
    else:
        statements = given
    statements = list(statements)
    verdicts: list[str] = []
    extracted("answer_relevancy.statements", "statements", statements)
    if statements:
        second = ask(judge, verdict_request("answer_relevancy.verdicts", "answer_relevancy_verdicts", "statement",
                                            len(statements), idk=True,
                                            data={"question": question, "statements": Texts("statement", statements)}), calls)
        verdicts = [second.data[k] for k in key_names("statement", len(statements))]
    result = metrics.answer_relevancy(statements, verdicts, question=question, threshold=threshold)
    if given is not None:
        mark_given(result, "statements", given, "answer_relevancy.statements")
    return finish(result, judge, calls, reason)


def answer_relevancy_embedding(
    judge: Judge, question: str, answer: str, *, embedder: Any = None, n: int = 3,
    threshold: float | None = None, reason: bool = False,
) -> MetricResult:
    """Ragas' form: generate ``n`` questions from the answer, each with a noncommittal flag
    (1 call), then score with :func:`ragmetrics_edu.metrics.answer_relevancy_embedding`.

    Ragas asks for the n generations as n samples of one request; here one reply holds
    all n, which a server without ``n>1`` support can also give.
    """
    judge, reason = check_judge(judge), flag("reason", reason)
    question, answer_text = text("question", question), text("answer", answer)
    n = integer("n", n, low=1, high=MAX_GENERATED, expected=f"an integer from 1 to {MAX_GENERATED} (Ragas asks for 3)")
    keys = key_names("question", n)

    def shorthand(given: Any) -> Any:
        if isinstance(given, (list, tuple)):
            return {k: ({"question": q, "noncommittal": False} if isinstance(q, str) else
                        dict(q) if isinstance(q, Mapping) else {"question": q[0], "noncommittal": q[1]})
                    for k, q in zip(key_names("question", len(given)), given, strict=True)}
        return given

    model = schema_models().keyed(f"generated_questions_{n}", keys, "generated_question")
    request = make_request("answer_relevancy_embedding", "answer_relevancy_questions", model,
                       f"a JSON object with exactly the {n} keys {', '.join(keys)}, each "
                       '{"question": "...", "noncommittal": true or false}',
                       shorthand=shorthand, data={"answer": answer_text}, n=n, keys=", ".join(keys))
    reply = judge.ask(request)
    generated = [reply.data[k]["question"] for k in keys]
    flags = [bool(reply.data[k]["noncommittal"]) for k in keys]
    result = metrics.answer_relevancy_embedding(question, generated, embedder, flags, threshold=threshold)
    return finish(result, judge, CallList(reply.calls), reason)


def answer_correctness(
    judge: Judge, question: str, answer: str, ground_truth: str, *, embedder: Any = None,
    similarity: float | None = None, weights: Sequence[float] = (0.75, 0.25), beta: float = 1.0,
    threshold: float | None = None, reason: bool = False,
) -> MetricResult:
    """Split answer and ground truth into statements (call 1), classify them (call 2: an
    answer statement the ground truth supports is TP, else FP; a ground-truth statement
    the answer leaves out is FN), then score with :func:`ragmetrics_edu.metrics.answer_correctness`.

    The similarity comes from ``embedder`` (offline default) unless given; it costs no LLM call.
    """
    judge, reason = check_judge(judge), flag("reason", reason)
    question, answer_text = text("question", question), text("answer", answer)
    ground_truth = text("ground_truth", ground_truth)
    first = judge.ask(make_request("answer_correctness.statements", "answer_correctness_statements",
                               schema_models().CorrectnessStatements,
                               'a JSON object {"answer_statements": [...], "ground_truth_statements": [...]}',
                               data={"question": question, "answer": answer_text, "ground_truth": ground_truth}))
    calls = CallList(first.calls)
    said, truth = first.data["answer_statements"], first.data["ground_truth_statements"]
    tp: list[str] = []
    fp: list[str] = []
    fn: list[str] = []
    extracted("answer_correctness.statements", "statements", said + truth)
    if said or truth:
        keys = key_names("answer", len(said)) + key_names("truth", len(truth))

        def shorthand(given: Any) -> Any:
            if isinstance(given, Mapping) and set(given) == {"answer", "ground_truth"}:
                return {**{f"answer_{i}": v for i, v in enumerate(given["answer"], 1)},
                        **{f"truth_{i}": v for i, v in enumerate(given["ground_truth"], 1)}}
            return given

        model = schema_models().keyed(f"correctness_{len(said)}_{len(truth)}", keys, "yes_no")
        second = ask(judge, make_request("answer_correctness.classification", "answer_correctness_classify", model,
                                    f"a JSON object with exactly the {len(keys)} keys {', '.join(keys)}, each "
                                    '"yes" or "no"', shorthand=shorthand, keys=", ".join(keys),
                                    data={"question": question, "answer_statements": Texts("answer", said, "(none)"),
                                          "truth_statements": Texts("truth", truth, "(none)")}), calls)
        for i, s in enumerate(said, start=1):
            (tp if second.data[f"answer_{i}"] == "yes" else fp).append(s)
        fn = [s for i, s in enumerate(truth, start=1) if second.data[f"truth_{i}"] == "no"]
    result = metrics.answer_correctness(tp, fp, fn, similarity, weights, beta=beta, answer=answer_text,
                                        ground_truth=ground_truth, embedder=embedder, threshold=threshold)
    return finish(result, judge, calls, reason)
