"""What every step's JSON is built from: the verdict words, a strict object, a keyed object, the JSON Schema.

A reply model is a class of plain annotations (``claims: list[str]``) on :class:`Strict`. From them
this module makes two things: the JSON Schema sent with the request (so a server's grammar or
OpenAI's strict mode allows only that shape) and the check of a parsed reply. The check reads a
reply as pydantic 2 does in its lax mode, with the same error types and messages (a test holds the
two to agreeing), but needs nothing beyond the standard library, so a recorded judge replays in a
browser (Pyodide), where pydantic's compiled core is not available.

Verdicts for n items are an object keyed ``node_1`` … ``node_n`` (or ``claim_i``,
``statement_i``), not a list: small local models keep a keyed object aligned with the
items, and a missing or extra key is caught by the check (no key besides the fields), so a
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
import math
import re
import typing
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Callable, Literal


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


@dataclass(frozen=True)
class Before:
    """In ``Annotated[T, Before(f)]``: ``f`` reads the value first (e.g. :func:`word`), then ``T`` checks it."""

    read: Callable[[Any], Any]


YesNo = Annotated[Literal["yes", "no"], Before(word)]
YesNoIdk = Annotated[Literal["yes", "no", "idk"], Before(_word_or_borderline)]


class InvalidReply(ValueError):
    """A reply that does not fit its model. ``errors()`` lists each problem as ``{loc, type, msg}``."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(f"{'.'.join(map(str, p['loc'])) or 'reply'}: {p['msg']}" for p in problems))
        self._problems = problems

    def errors(self) -> list[dict[str, Any]]:
        return list(self._problems)


class _Problems(list[dict[str, Any]]):
    """Problems found so far, each at its place in the reply (``loc``)."""

    def add(self, loc: tuple[Any, ...], kind: str, msg: str) -> None:
        self.append({"loc": loc, "type": kind, "msg": msg})


_MISSING = object()
_TRUE = {"1", "on", "t", "true", "y", "yes"}
_FALSE = {"0", "off", "f", "false", "n", "no"}
_INTEGER = re.compile(r"[+-]?\d+")


class Strict:
    """A reply object with exactly the annotated keys, no others. Subclass it and annotate the fields.

    ``Model.check(data)`` returns the reply as plain JSON data, or raises :class:`InvalidReply`;
    ``Model.json_schema()`` is its JSON Schema, with every object written out in place.
    """

    @classmethod
    def fields(cls) -> dict[str, Any]:
        """Each field's name and type, in the order they were written (a subclass's after its base's)."""
        return typing.get_type_hints(cls, include_extras=True)

    @classmethod
    def check(cls, data: Any) -> dict[str, Any]:
        problems = _Problems()
        value = _check(cls, data, (), problems)
        if problems:
            raise InvalidReply(problems)
        return value

    @classmethod
    def json_schema(cls) -> dict[str, Any]:
        return _schema(cls)


class Reason(Strict):
    """The opt-in written reason."""

    reason: str


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, Strict)


def _check(tp: Any, value: Any, loc: tuple[Any, ...], problems: _Problems) -> Any:
    """``value`` read as type ``tp`` (problems are added, and the value returned as it is, when it does not fit)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        for extra in args[1:]:
            if isinstance(extra, Before):
                value = extra.read(value)
        return _check(args[0], value, loc, problems)
    if origin is typing.Union:  # Optional[X]: None, or an X
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _check(inner, value, loc, problems)
    if origin is Literal:
        return _check_choice(args, value, loc, problems)
    if origin is list:
        if not isinstance(value, (list, tuple)):
            problems.add(loc, "list_type", "Input should be a valid list")
            return value
        return [_check(args[0], item, loc + (i,), problems) for i, item in enumerate(value)]
    if _is_model(tp):
        return _check_object(tp, value, loc, problems)
    if tp is str:
        if isinstance(value, str):
            return value
        problems.add(loc, "string_type", "Input should be a valid string")
        return value
    if tp is bool:
        return _check_bool(value, loc, problems)
    if tp is int:
        return _check_int(value, loc, problems)
    raise TypeError(f"a reply model cannot hold a field of type {tp!r}")


def _check_object(model: type[Strict], value: Any, loc: tuple[Any, ...], problems: _Problems) -> Any:
    if not isinstance(value, dict):
        problems.add(loc, "model_type", f"Input should be a valid dictionary or instance of {model.__name__}")
        return value
    fields = model.fields()
    out: dict[str, Any] = {}
    for name, tp in fields.items():
        got = value.get(name, _MISSING)
        if got is _MISSING:
            problems.add(loc + (name,), "missing", "Field required")
        else:
            out[name] = _check(tp, got, loc + (name,), problems)
    for name in value:
        if name not in fields:
            problems.add(loc + (name,), "extra_forbidden", "Extra inputs are not permitted")
    return out


def _check_choice(choices: tuple[Any, ...], value: Any, loc: tuple[Any, ...], problems: _Problems) -> Any:
    for choice in choices:  # a word must be that word; a number equal to it (3.0 is 3), never a string of it
        if isinstance(choice, str) and isinstance(value, str) and value == choice:
            return choice
        if isinstance(choice, int) and isinstance(value, (int, float)) and not isinstance(value, str) \
                and value == choice:
            return choice
    shown = [repr(c) if isinstance(c, str) else str(c) for c in choices]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    problems.add(loc, "literal_error", f"Input should be {listed}")
    return value


def _check_bool(value: Any, loc: tuple[Any, ...], problems: _Problems) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
        return value.lower() in _TRUE
    if isinstance(value, (str, int, float)):
        problems.add(loc, "bool_parsing", "Input should be a valid boolean, unable to interpret input")
    else:
        problems.add(loc, "bool_type", "Input should be a valid boolean")
    return value


def _check_int(value: Any, loc: tuple[Any, ...], problems: _Problems) -> Any:
    if isinstance(value, int):  # True and False too, as 1 and 0
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            problems.add(loc, "finite_number", "Input should be a finite number")
        elif not value.is_integer():
            problems.add(loc, "int_from_float", "Input should be a valid integer, got a number with a fractional part")
        else:
            return int(value)
        return value
    if isinstance(value, str):
        if _INTEGER.fullmatch(value.strip()):
            return int(value.strip())
        problems.add(loc, "int_parsing", "Input should be a valid integer, unable to parse string as an integer")
        return value
    problems.add(loc, "int_type", "Input should be a valid integer")
    return value


def _schema(tp: Any) -> dict[str, Any]:
    """The JSON Schema of type ``tp``, every object written out in place, with no titles."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return _schema(args[0])
    if origin is typing.Union:
        return {"anyOf": [_schema(a) for a in args if a is not type(None)] + [{"type": "null"}]}
    if origin is Literal:
        kinds = {type(a) for a in args}
        named = {str: "string", int: "integer"}.get(kinds.pop()) if len(kinds) == 1 else None
        return {"enum": list(args), **({"type": named} if named else {})}
    if origin is list:
        return {"items": _schema(args[0]), "type": "array"}
    if _is_model(tp):
        fields = tp.fields()
        return {"additionalProperties": False, "properties": {n: _schema(t) for n, t in fields.items()},
                "required": list(fields), "type": "object"}
    named_type = {str: "string", int: "integer", bool: "boolean"}.get(tp)
    if named_type is None:
        raise TypeError(f"a reply model cannot hold a field of type {tp!r}")
    return {"type": named_type}


def model(name: str, fields: dict[str, Any]) -> type[Strict]:
    """A :class:`Strict` model named ``name`` with these fields (name -> type), built at run time."""
    return type(name, (Strict,), {"__annotations__": dict(fields), "__module__": __name__})


@lru_cache(maxsize=256)
def keyed(name: str, keys: tuple[str, ...], value_type: Any) -> type[Strict]:
    """A model with exactly the given keys, each holding a value of ``value_type`` (e.g. :data:`YesNo`)."""
    return model(name, {k: value_type for k in keys})


@lru_cache(maxsize=16)
def rubric_score_model(low: int, high: int) -> type[Strict]:
    """A reply of one whole number from ``low`` to ``high`` (an enum, so a grammar allows only these)."""
    choices: Any = Literal[tuple(range(low, high + 1))]
    return model(f"RubricScore_{low}_{high}", {"score": choices})


@lru_cache(maxsize=256)
def _schema_text(reply_model: Any) -> str:  # a model class (hashable)
    return json.dumps(reply_model.json_schema(), sort_keys=False)


def schema_of(reply_model: Any) -> dict[str, Any]:
    """The model's JSON Schema, every object written out in place, with no titles or descriptions.

    Written out in place, so llama.cpp's grammar converter and OpenAI's strict mode read it alike;
    without annotations, so the request stays short (the prompt says what each key means).
    """
    return json.loads(_schema_text(reply_model))  # a Strict subclass: a class is hashable
