"""Answer correctness (Ragas): statements of answer and ground truth classified TP/FP/FN, plus a similarity.

Two calls: step ``answer_correctness.statements`` (prompt ``prompts/answer_correctness_statements.txt``), then
``answer_correctness.classification`` (``prompts/answer_correctness_classify.txt``). The arithmetic is
:func:`ragmetrics_edu.metrics.answer_correctness`.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .. import metrics
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, extracted, finish, key_names, make_request
from ..judges.schemas import YesNo, keyed
from ..metrics import Ask, MetricSpec, Step, inputs
from ..results import MetricResult
from ..validate import flag, text
from .common import PROMPTS, models

__all__ = ["STATEMENTS", "CLASSIFICATION", "SPEC", "answer_correctness"]


def _two_lists(given: Any) -> Any:
    if isinstance(given, Mapping) and set(given) == {"answer", "ground_truth"}:
        return {**{f"answer_{i}": v for i, v in enumerate(given["answer"], 1)},
                **{f"truth_{i}": v for i, v in enumerate(given["ground_truth"], 1)}}
    return given


STATEMENTS = Step("answer_correctness.statements", '{"answer_statements": [str], "ground_truth_statements": [str]}',
                  schema=lambda: models().CorrectnessStatements, prompts=PROMPTS)
CLASSIFICATION = Step("answer_correctness.classification", '{"answer_1": "yes"|"no", ..., "truth_1": "yes"|"no", ...}; '
                      'short form: {"answer": [verdicts], "ground_truth": [verdicts]}', shorthand=_two_lists,
                      prompts=PROMPTS)


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
    calls = CallList()
    first = ask(judge, make_request(STATEMENTS, "answer_correctness_statements", None,
                                   'a JSON object {"answer_statements": [...], "ground_truth_statements": [...]}',
                                   data={"question": question, "answer": answer_text, "ground_truth": ground_truth}), calls)
    said, truth = first.data["answer_statements"], first.data["ground_truth_statements"]
    tp: list[str] = []
    fp: list[str] = []
    fn: list[str] = []
    extracted(STATEMENTS.name, "statements", said + truth)
    if said or truth:

        keys = key_names("answer", len(said)) + key_names("truth", len(truth))
        model = keyed(f"correctness_{len(said)}_{len(truth)}", keys, YesNo)
        second = ask(judge, make_request(CLASSIFICATION, "answer_correctness_classify", model,
                                         f"a JSON object with exactly the {len(keys)} keys {', '.join(keys)}, each "
                                         '"yes" or "no"', keys=", ".join(keys),
                                         data={"question": question, "answer_statements": Texts("answer", said, "(none)"),
                                               "truth_statements": Texts("truth", truth, "(none)")}), calls)
        for i, s in enumerate(said, start=1):
            (tp if second.data[f"answer_{i}"] == "yes" else fp).append(s)
        fn = [s for i, s in enumerate(truth, start=1) if second.data[f"truth_{i}"] == "no"]
    result = metrics.answer_correctness(tp, fp, fn, similarity, weights, beta=beta, answer=answer_text,
                                        ground_truth=ground_truth, embedder=embedder, threshold=threshold)
    return finish(result, judge, calls, reason)


SPEC = metrics.register(MetricSpec(
    "answer_correctness", "Answer correctness", metrics.answer_correctness, component="end to end", embedder=True,
    ask=Ask(answer_correctness, ("judge", "question", "answer", "ground_truth"), (("embedder", "embedder"),)),
    design="TP/FP/FN statements, plus similarity", steps=(STATEMENTS, CLASSIFICATION), reads=inputs.STATEMENT_COUNTS.with_options(beta=(float, "answer_correctness: F-beta's beta (1 gives F1)")),
    example=dict(tp=["AI simulates intelligence."], fp=[], fn=["It learns from data."], similarity=0.5)))
