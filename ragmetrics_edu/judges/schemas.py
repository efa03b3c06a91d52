"""The JSON each step expects, as pydantic models, and their JSON Schemas.

Verdicts for n items are an object keyed ``node_1`` … ``node_n`` (or ``claim_i``,
``statement_i``), not a list: small local models keep a keyed object aligned with the
items, and a missing or extra key is caught by validation (``extra="forbid"``), so a
wrong count is never padded or truncated. Verdict words are read case-insensitively;
0/1 and true/false are read as no/yes, as everywhere else in the library. Where a step
allows "idk" (faithfulness and answer-relevancy verdicts), ``borderline`` is read as idk,
for judges that use that word for "the context does not say". DeepEval's ``FaithfulnessVerdict``
(deepeval/metrics/faithfulness/schema.py) and ``FaithfulnessMetric._calculate_score``
(faithfulness.py) use ``idk`` in the version ``data/bridges.json`` was checked against.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, BeforeValidator, ConfigDict, create_model


def _word(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and value in (0, 1):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.strip().lower()
    return value


def _word_or_borderline(value: Any) -> Any:
    """As :func:`_word`, and ``borderline`` (DeepEval's newer word for "the context says nothing") reads as idk."""
    word = _word(value)
    return "idk" if word == "borderline" else word


YesNo = Annotated[Literal["yes", "no"], BeforeValidator(_word)]
YesNoIdk = Annotated[Literal["yes", "no", "idk"], BeforeValidator(_word_or_borderline)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Claims(_Strict):
    """The claims of an answer (faithfulness, step 1)."""

    claims: list[str]


class GeneratedAnswer(_Strict):
    """A RAG system's answer (the capstone's generator, not a judge step)."""

    answer: str


class Statements(_Strict):
    """The statements of an answer (answer relevancy, step 1)."""

    statements: list[str]


class AttributedStatement(_Strict):
    """A statement of the expected output and the node it comes from (None: no node)."""

    statement: str
    node: Optional[int]


class Attribution(_Strict):
    """Context recall: every statement of the expected output, attributed."""

    statements: list[AttributedStatement]


class JudgedStatement(_Strict):
    """A statement taken from a node and whether it is relevant to the question."""

    statement: str
    verdict: YesNo


class GeneratedQuestion(_Strict):
    """A question the answer would answer, and whether the answer is noncommittal."""

    question: str
    noncommittal: bool


class Entities(_Strict):
    """Context entity recall: the entities of the reference and of the context."""

    reference_entities: list[str]
    context_entities: list[str]


class CorrectnessStatements(_Strict):
    """Answer correctness, step 1: statements of the answer and of the ground truth."""

    answer_statements: list[str]
    ground_truth_statements: list[str]


class QuotedVerdict(_Strict):
    """A three-way faithfulness verdict with the context's words that decide it (checked by string matching)."""

    verdict: Annotated[Literal["supported", "contradicted", "not_mentioned"], BeforeValidator(_word)]
    quote: str


class SupportVerdict(_Strict):
    """Is the claim supported? With the context's words that support it."""

    verdict: Annotated[Literal["supported", "not_supported"], BeforeValidator(_word)]
    quote: str


class Reason(_Strict):
    """The opt-in written reason."""

    reason: str


_VALUE_TYPES: dict[str, Any] = {
    "yes_no": YesNo,
    "yes_no_idk": YesNoIdk,
    "node_or_null": Optional[int],
    "judged_statements": list[JudgedStatement],
    "generated_question": GeneratedQuestion,
    "quoted_verdict": QuotedVerdict,
    "support_verdict": SupportVerdict,
}


class EvaluationSteps(_Strict):
    """G-Eval's evaluation steps, written by the judge from the criteria (step 1)."""

    steps: list[str]


class Verdict(_Strict):
    """An aspect critic's vote: does the answer meet the aspect?"""

    verdict: YesNo


@lru_cache(maxsize=16)
def rubric_score(low: int, high: int) -> type[BaseModel]:
    """G-Eval's score reply: one whole number from ``low`` to ``high`` (an enum, so a grammar allows only these)."""
    choices: Any = Literal[tuple(range(low, high + 1))]
    return create_model(f"RubricScore_{low}_{high}", __config__=ConfigDict(extra="forbid"), score=(choices, ...))


@lru_cache(maxsize=256)
def keyed(name: str, keys: tuple[str, ...], kind: str) -> type[BaseModel]:
    """A model with exactly the given keys, each holding a value of ``kind``."""
    value_type = _VALUE_TYPES[kind]
    fields: dict[str, Any] = {k: (value_type, ...) for k in keys}
    return create_model(name, __config__=ConfigDict(extra="forbid"), **fields)


@lru_cache(maxsize=256)
def _schema_text(model: type[BaseModel]) -> str:
    return json.dumps(clean_schema(model.model_json_schema()), sort_keys=False)


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema with references inlined, titles and descriptions dropped.

    Inlined, so llama.cpp's grammar converter and OpenAI's strict mode read it alike;
    without annotations, so the request stays short (the prompt says what each key means).
    """
    return json.loads(_schema_text(model))  # a model class is hashable


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline ``$defs`` references and drop ``title`` and ``description`` annotations."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(x) for x in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[-1]]
            return walk({k: v for k, v in target.items()})
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in ("$defs", "title", "description"):
                continue
            if key == "properties":
                out[key] = {name: walk(sub) for name, sub in value.items()}
            else:
                out[key] = walk(value)
        return out

    return walk(schema)
