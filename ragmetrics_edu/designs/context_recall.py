"""Context recall (DeepEval, Ragas): the expected output's statements, each attributed to a node or none.

One call: step ``context_recall`` (prompt ``prompts/context_recall.txt``) splits the expected output and
attributes each statement; with given statements, step ``context_recall.attribution`` only attributes
those. The arithmetic is :func:`ragmetrics_edu.metrics.context_recall`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import MAX_ITEMS, ask, check_judge, finish, key_names, keyed_list, make_request, sized
from ..judges.same_items import given_items, mark_given
from ..judges.schemas import keyed
from ..metrics import Ask, MetricSpec, Shape, StatementView, Step, inputs
from ..results import MetricResult
from ..validate import flag, text, text_list
from .common import PROMPTS, QUESTION, models

__all__ = ["STEP", "ATTRIBUTION", "SPEC", "context_recall"]


def _attributed(answer: Any) -> Any:
    if isinstance(answer, (list, tuple)):
        return {"statements": [dict(s) if isinstance(s, Mapping) else {"statement": s[0], "node": s[1]}
                               for s in answer]}
    return answer


STEP = Step("context_recall",
            '{"statements": [{"statement": str, "node": int|null}]}; short form: [(statement, node), ...]',
            shorthand=_attributed, schema=lambda: models().Attribution, prompts=PROMPTS)
ATTRIBUTION = Step("context_recall.attribution",
                   '{"statement_1": int|null, ...} for given statements; short form: a list of nodes',
                   shorthand=keyed_list("statement"), prompts=PROMPTS)


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

    request = make_request(STEP, "context_recall", None,
                           f'a JSON object {{"statements": [{{"statement": "...", "node": 1..{n} or null}}]}}',
                           check=check, n=n,
                           data={"question_block": question, "nodes": Texts("node", nodes, "(no nodes were retrieved)"),
                                 "expected_output": expected_output})
    calls = CallList()
    answer = ask(judge, request, calls)
    items = answer.data["statements"]
    result = metrics.context_recall([s["statement"] for s in items], ["yes" if s["node"] else "no" for s in items],
                                    nodes=[s["node"] for s in items], variant=variant, threshold=threshold,
                                    question=question)
    return finish(result, judge, calls, reason)


def _attribute_given(judge: Judge, expected_output: str, nodes: list[str], statements: list[str], *,
                     question: str | None, variant: str, threshold: float | None, reason: bool) -> MetricResult:
    """Context recall on given statements: one call, a node number or null per ``statement_i``."""
    n, keys = len(nodes), key_names("statement", len(statements))

    def check(data: dict[str, Any]) -> str | None:
        bad = [f"{k} = {data[k]}" for k in keys if data[k] is not None and not 1 <= data[k] <= n]
        return f"node numbers must be between 1 and {n} or null ({', '.join(bad)})" if bad else None


    model = keyed(f"context_recall_attribution_{len(keys)}", keys, models().NodeOrNull)
    request = make_request(ATTRIBUTION, "context_recall_attribution", model,
                           f"a JSON object with exactly the {len(keys)} keys {', '.join(keys)}, each a node number "
                           f"1..{n} or null", check=check, legacy=False,
                           data={"question_block": question, "nodes": Texts("node", nodes, "(no nodes were retrieved)"),
                                 "expected_output": expected_output, "statements": Texts("statement", statements)},
                           n=n, keys=", ".join(keys))
    calls = CallList()
    answer = ask(judge, request, calls)
    found = [answer.data[k] for k in keys]
    result = metrics.context_recall(statements, ["yes" if node else "no" for node in found], nodes=found,
                                    variant=variant, threshold=threshold, question=question)
    mark_given(result, "statements", statements, "context_recall (statements and attribution in one)")
    return finish(result, judge, calls, reason)


SPEC = metrics.register(MetricSpec(
    "context_recall", "Context recall", metrics.context_recall, component="retriever",
    ask=Ask(context_recall, ("judge", "ground_truth", "contexts"), QUESTION),
    design="an attribution per reference statement", steps=(STEP, ATTRIBUTION), verdict_column="verdict",
    view=StatementView(Shape.ATTRIBUTED, ("attributable", "attributable"), decompose=True,
                       hint="can each statement of the expected output be attributed to a retrieved node?"),
    reads=inputs.STATEMENT_VERDICTS,
    example=dict(statements=["Paris is in France.", "It has 2 million people."], verdicts=["yes", "no"])))
