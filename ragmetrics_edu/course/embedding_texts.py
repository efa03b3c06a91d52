"""Every text the course embeds, and the labelled pairs that teach calibration.

:func:`course_texts` gathers, from the files the package ships, each text a notebook, a
deck example or an exercise puts through an embedder, so a recording of a real model
(:mod:`ragmetrics_edu.embeddings.recorded`) can be checked to cover them all. The groups:

``decks``        inputs of the decks' embedding examples (``examples/catalogue.json``)
``exercises``    the texts of notebooks 06 and 07's exercises
``notebooks``    texts written into notebooks 06 and 07 (the course's generated questions)
``judge``        questions a recorded judge generated (``data/recordings/*``, Ragas' answer relevancy)
``datasets``     questions, answers and ground truths of the shipped evaluation data set
``retrieval``    notebook 09's corpus passages and questions (``data/retrieval_corpus.json``)
``calibration``  both sentences of every pair in ``data/calibration_pairs.json``

:func:`calibration_pairs` reads the labelled pairs (unrelated, related, paraphrase);
:mod:`ragmetrics_edu.studies.calibration` scores them with any embedder.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from .. import data
from ..embeddings.embedders import HashingEmbedder, embedder_name
from ..errors import InputError
from ..examples import CATALOGUE_PATH, embedding_dependent
from ..retrieval.corpus import load_corpus
from ..studies.calibration import LABELS
from .exercises import answer_relevancy, correctness

#: Texts typed into the notebooks (not in any shipped file): notebook 06 compares the statement
#: form with Ragas' embedding form on these questions, written by the course.
NOTEBOOK_TEXTS = (
    "In which direction does the Sun rise and in which does it set?",
    "Where does the Sun rise and where does it set?",
    "From what direction does the Sun rise, and where does it set?",
    "What is at the centre of our universe?",
    "In which direction does the Sun rise?",
    "What does the Sun orbit, and where does it rise?",
    "Where is France and what is its capital?",
    "In which part of Europe is France, and what is its capital city?",
    "What is the capital of France and where is the country located?",
)
#: Deck examples whose question notebook 06 embeds beside the course's generated questions.
NOTEBOOK_EXAMPLES = ("C-ar-sun-high", "C-ar-sun-low")


def _strings(value: Any) -> Iterable[str]:
    """Every string inside a JSON value (lists and dicts walked in order)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _deck_texts() -> list[str]:
    catalogue = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    out: list[str] = []
    for entry in catalogue["examples"]:
        embedded = entry.get("embedding_dependent") or any(
            embedding_dependent(c["call"]["metric"]) for c in entry.get("cases", []))
        if embedded:
            out += _strings(entry.get("inputs", {}))
            for case in entry.get("cases", []):
                out += _strings({k: v for k, v in case["call"]["kwargs"].items()
                                 if k in ("question", "generated_questions", "answer", "ground_truth")})
        if entry["id"] in NOTEBOOK_EXAMPLES:
            out += [s for k, s in entry.get("inputs", {}).items() if k in ("question", "input") and isinstance(s, str)]
    return out


def _exercise_texts() -> list[str]:
    return [answer_relevancy.FRANCE_QUESTION, *answer_relevancy.FRANCE_GENERATED,
            correctness.GROUND_TRUTH, correctness.HIGH_ANSWER]


def _judge_texts() -> list[str]:
    """Questions generated in the shipped judge recordings (step ``answer_relevancy_embedding``)."""
    out: list[str] = []
    for name in data.names():
        if not name.startswith("recordings/"):
            continue
        document = json.loads(data.path(name).read_text(encoding="utf-8"))
        for reply in document.get("replies", []) if isinstance(document, dict) else []:
            if reply.get("step") != "answer_relevancy_embedding":
                continue
            try:
                parsed = json.loads(reply["raw"])
            except (ValueError, KeyError, TypeError):
                continue  # a reply that did not validate is never used, so never embedded
            for item in parsed.values() if isinstance(parsed, dict) else []:
                if isinstance(item, dict) and isinstance(item.get("question"), str):
                    out.append(item["question"])
    return out


def _dataset_texts() -> list[str]:
    out: list[str] = []
    for line in data.path("deck_e_super_bowl.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out += [row[k] for k in ("question", "answer", "ground_truth") if isinstance(row.get(k), str)]
    return out


def _retrieval_texts() -> list[str]:
    corpus = load_corpus()
    return [p.text for p in corpus.passages] + [q.text for q in corpus.questions]


def course_text_groups() -> dict[str, list[str]]:
    """The texts the course embeds, by where they come from (see the module's docstring)."""
    pairs = calibration_pairs()
    groups = {
        "decks": _deck_texts(),
        "exercises": _exercise_texts(),
        "notebooks": list(NOTEBOOK_TEXTS),
        "judge": _judge_texts(),
        "datasets": _dataset_texts(),
        "retrieval": _retrieval_texts(),
        "calibration": [t for p in pairs for t in (p["a"], p["b"])],
    }
    return {name: list(dict.fromkeys(texts)) for name, texts in groups.items()}


def course_texts() -> list[str]:
    """Every text the course embeds, each once, in the order of :func:`course_text_groups`."""
    return list(dict.fromkeys(t for texts in course_text_groups().values() for t in texts))


def calibration_pairs() -> list[dict[str, str]]:
    """The labelled sentence pairs: dicts with ``label`` (one of :data:`LABELS`), ``a`` and ``b``."""
    document = json.loads(data.path("calibration_pairs.json").read_text(encoding="utf-8"))
    pairs = document["pairs"]
    for i, pair in enumerate(pairs):
        if pair.get("label") not in LABELS or not all(isinstance(pair.get(k), str) and pair[k] for k in "ab"):
            raise InputError(f"calibration_pairs.json pair {i}", f"a label in {LABELS} and two texts a, b", pair)
    return [{"label": p["label"], "a": p["a"], "b": p["b"]} for p in pairs]


#: How a number from the offline hashing embedder is labelled beside a recorded model's.
HASHING_SOURCE = "hashing stand-in, derived by the project"


def embedder_source(embedder: Any = None) -> str:
    """Where an embedder's numbers come from, in the words the course labels them with.

    A recording: ``recorded from all-MiniLM-L6-v2 (sha256 53aa51172d14…, 2026-11-23)``; the
    hashing embedder (or None): :data:`HASHING_SOURCE`; anything else: its name."""
    if embedder is None or isinstance(embedder, HashingEmbedder):
        return HASHING_SOURCE
    if all(hasattr(embedder, k) for k in ("model", "weights_sha256", "date")):
        return f"recorded from {embedder.model} (sha256 {embedder.weights_sha256[:12]}…, {embedder.date[:10]})"
    return embedder_name(embedder)
