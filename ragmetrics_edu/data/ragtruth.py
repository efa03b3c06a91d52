"""The shipped RAGTruth QA rows (public part): real RAG answers with people's hallucination spans.

Each :class:`RagAnswer` is one answer a real model wrote from retrieved passages, with the spans
RAGTruth's annotators marked as hallucinated. Unlike HaluEval, nobody wrote these answers to be wrong:
the hallucinations are the models' own, often subtle, and reuse the passages' words. See
``data/ragtruth_qa/README.md`` for the source, the licence, who labelled what and the split rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import InputError
from ..validate import integer, member, optional_integer
from . import path

__all__ = ["Span", "RagAnswer", "SPLITS", "MODELS", "answers", "split_of", "SOURCE"]

#: the two parts: choose on ``dev``, report once on ``test``
SPLITS = ("dev", "test")

#: the six models whose answers RAGTruth labels
MODELS = ("gpt-4-0613", "gpt-3.5-turbo-0613", "llama-2-70b-chat", "llama-2-13b-chat", "llama-2-7b-chat",
          "mistral-7B-instruct")

SOURCE = ("RAGTruth QA (Niu et al., ACL 2024; ParticleMedia/RAGTruth, MIT licence; via vectara/FaithJudge "
          "commit ca35eb4): 105 test-split sources with source_id not divisible by 4; test = source_id // 4 odd")


@dataclass(frozen=True)
class Span:
    """A stretch of an answer that the annotators marked as hallucinated."""

    start: int
    end: int
    text: str
    label_type: str       # e.g. "Evident Baseless Info", "Subtle Conflict"
    implicit_true: bool   # true in the world, but not in the passages

    @property
    def evident(self) -> bool:
        return self.label_type.startswith("Evident")

    @property
    def conflict(self) -> bool:
        return "Conflict" in self.label_type


@dataclass(frozen=True)
class RagAnswer:
    """One answer with its source's question and passages and the people's spans."""

    source_id: int
    split: str
    question: str
    passages: str
    model: str
    answer: str
    spans: tuple[Span, ...]

    @property
    def id(self) -> str:
        return f"ragtruth-{self.source_id}-{self.model}"

    @property
    def hallucinated(self) -> bool:
        """Whether the annotators marked at least one span (the label a judge is checked against)."""
        return bool(self.spans)

    @property
    def context(self) -> list[str]:
        """The passages as a list, one text per "passage N:" block."""
        parts = [p.strip() for p in self.passages.split("\n\n") if p.strip()]
        return parts or [self.passages]

    @property
    def span_kind(self) -> str:
        """``none``, or the kind of the answer's spans: evident/subtle and conflict/baseless (``mixed`` if several)."""
        if not self.spans:
            return "none"
        kinds = {("evident" if s.evident else "subtle") + " " + ("conflict" if s.conflict else "baseless")
                 for s in self.spans}
        return kinds.pop() if len(kinds) == 1 else "mixed"


def split_of(source_id: int) -> str:
    """The part a source belongs to: ``test`` when ``source_id // 4`` is odd, else ``dev``."""
    source_id = integer("source_id", source_id, low=0, expected="a RAGTruth source id (an integer >= 0)")
    return "test" if source_id // 4 % 2 == 1 else "dev"


def _span(record: Any, where: str) -> Span:
    if not isinstance(record, dict):
        raise InputError(where, "a span object", record)
    try:
        return Span(start=int(record["start"]), end=int(record["end"]), text=str(record["text"]),
                    label_type=str(record["label_type"]), implicit_true=bool(record.get("implicit_true", False)))
    except KeyError as exc:
        raise InputError(where, "a span with start, end, text and label_type", f"no {exc.args[0]!r}") from None


@lru_cache(maxsize=1)
def _all() -> tuple[RagAnswer, ...]:
    file = path("ragtruth_qa/ragtruth_qa_public_split.jsonl")
    out = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        record: Any = json.loads(line)
        where = f"{file.name} line {number}"
        if not isinstance(record, dict) or not {"source_id", "split", "source", "responses"} <= set(record):
            raise InputError(where, "an object with source_id, split, source and responses", record)
        if record["split"] != split_of(record["source_id"]):
            raise InputError(f"{where}: split", split_of(record["source_id"]), record["split"])
        for i, response in enumerate(record["responses"]):
            spans = tuple(_span(s, f"{where}: responses[{i}].labels[{j}]") for j, s in enumerate(response["labels"]))
            out.append(RagAnswer(source_id=record["source_id"], split=record["split"],
                                 question=record["source"]["question"], passages=record["source"]["passages"],
                                 model=response["model"], answer=response["response"], spans=spans))
    return tuple(out)


def answers(split: str | None = None, *, model: str | None = None, limit_sources: int | None = None) -> list[RagAnswer]:
    """The answers of one part (``"dev"``, ``"test"``, None for both), in file order.

    ``model`` keeps one generating model's answers; ``limit_sources`` keeps the answers of the first n sources."""
    if split is not None:
        member("split", split, SPLITS, "'dev', 'test' or None")
    if model is not None:
        member("model", model, MODELS, "one of " + ", ".join(MODELS) + " or None")
    optional_integer("limit_sources", limit_sources, low=0, expected="an integer >= 0 or None")
    chosen = [a for a in _all() if (split is None or a.split == split) and (model is None or a.model == model)]
    if limit_sources is not None:
        keep = list(dict.fromkeys(a.source_id for a in chosen))[:limit_sources]
        chosen = [a for a in chosen if a.source_id in set(keep)]
    return chosen
