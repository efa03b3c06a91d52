"""What every step's JSON is built from: the verdict words, a strict object, a keyed object, the JSON Schema.

Verdicts for n items are an object keyed ``node_1`` … ``node_n`` (or ``claim_i``,
``statement_i``), not a list: small local models keep a keyed object aligned with the
items, and a missing or extra key is caught by validation (``extra="forbid"``), so a
wrong count is never padded or truncated. Verdict words are read case-insensitively;
0/1 and true/false are read as no/yes, as everywhere else in the library. Where a step
allows "idk", ``borderline`` is read as idk, for judges that use that word for "the context
does not say". DeepEval's ``FaithfulnessVerdict`` (deepeval/metrics/faithfulness/schema.py) and
``FaithfulnessMetric._calculate_score`` (faithfulness.py) use ``idk`` in the version
``data/bridges.json`` was checked against.

The designs' own reply models are built from these (:mod:`ragmetrics_edu.designs.schemas`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, create_model


def word(value: Any) -> Any:
    """A verdict word as the schemas read it: lower-cased and stripped; True/1 -> "yes", False/0 -> "no"."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and value in (0, 1):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.strip().lower()
    return value


def _word_or_borderline(value: Any) -> Any:
    """As :func:`word`, and ``borderline`` (DeepEval's newer word for "the context says nothing") reads as idk."""
    said = word(value)
    return "idk" if said == "borderline" else said


YesNo = Annotated[Literal["yes", "no"], BeforeValidator(word)]
YesNoIdk = Annotated[Literal["yes", "no", "idk"], BeforeValidator(_word_or_borderline)]


class Strict(BaseModel):
    """A reply object with no keys besides its fields."""

    model_config = ConfigDict(extra="forbid")


class Reason(Strict):
    """The opt-in written reason."""

    reason: str


@lru_cache(maxsize=256)
def keyed(name: str, keys: tuple[str, ...], value_type: Any) -> type[BaseModel]:
    """A model with exactly the given keys, each holding a value of ``value_type`` (e.g. :data:`YesNo`)."""
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
