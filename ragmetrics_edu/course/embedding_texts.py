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

:func:`calibration_pairs` reads the labelled pairs (unrelated, related, paraphrase) and
:func:`calibration_cosines` scores them with any embedder.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Mapping

from .. import data
from ..embeddings.embedders import HashingEmbedder, cosine_parts, embedder_name, resolve
from ..errors import InputError
from ..examples import CATALOGUE_PATH, embedding_dependent
from ..plots import new_figure
from ..results import fmt
from ..retrieval.corpus import load_corpus
from ..validate import mapping, number, plain, records
from .exercises import answer_relevancy, correctness

#: The calibration classes, from least to most similar in meaning.
LABELS = ("unrelated", "related", "paraphrase")

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


def calibration_cosines(embedder: Any = None) -> list[dict[str, Any]]:
    """The cosine of every calibration pair under ``embedder`` (None: the offline hashing one).

    One row per pair: ``label``, ``a``, ``b``, ``cosine``; all texts are embedded in one batch."""
    emb = resolve(embedder)
    pairs = calibration_pairs()
    texts = list(dict.fromkeys(t for p in pairs for t in (p["a"], p["b"])))
    vectors = dict(zip(texts, emb.embed(texts), strict=True))
    return [{**p, "cosine": cosine_parts(vectors[p["a"]], vectors[p["b"]])[3]} for p in pairs]


def calibration_rows(field: str, rows: Any) -> list[dict[str, Any]]:
    """``rows`` checked as :func:`calibration_cosines` returns them: dicts with ``label``, ``a``, ``b``
    and a numeric ``cosine``."""
    items = records(field, rows, "calibration rows (calibration_cosines())", keys=("label", "a", "b", "cosine"))
    for i, row in enumerate(items):
        cosine = plain(row["cosine"])
        if isinstance(cosine, bool) or not isinstance(cosine, (int, float)):
            raise InputError(f"{field}[{i}].cosine", "a number", row["cosine"])
    return items


def calibration_summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per label: n, min, median, max and mean of the cosines in ``rows`` (from :func:`calibration_cosines`)."""
    rows = calibration_rows("rows", rows)
    out: dict[str, dict[str, float]] = {}
    for label in LABELS:
        values = sorted(r["cosine"] for r in rows if r["label"] == label)
        if not values:
            continue
        mid = len(values) // 2
        median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
        out[label] = {"n": len(values), "min": values[0], "median": median, "max": values[-1],
                      "mean": math.fsum(values) / len(values)}
    return out


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


def pair_cosines(pairs: Mapping[str, tuple[str, str]], embedders: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """The cosine of each named pair of texts under each named embedder: ``{pair: {embedder: cosine}}``."""
    for name, pair in mapping("pairs", pairs, "a dict name -> (text, text)").items():
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(isinstance(t, str) for t in pair)):
            raise InputError(f"pairs[{name!r}]", "two texts (a tuple of two strings)", pair)
    mapping("embedders", embedders, "a dict name -> embedder")
    texts = list(dict.fromkeys(t for a, b in pairs.values() for t in (a, b)))
    out: dict[str, dict[str, float]] = {name: {} for name in pairs}
    for label, embedder in embedders.items():
        vectors = dict(zip(texts, resolve(embedder).embed(texts), strict=True))
        for name, (a, b) in pairs.items():
            out[name][label] = cosine_parts(vectors[a], vectors[b])[3]
    return out


def threshold_splits(rows_a: list[dict[str, Any]], rows_b: list[dict[str, Any]],
                     threshold: float = 0.5) -> list[dict[str, Any]]:
    """Calibration pairs two embedders put on different sides of ``threshold``.

    ``rows_a`` and ``rows_b`` are :func:`calibration_cosines` of the same pairs under two
    embedders; each returned row has ``label``, ``a``, ``b``, ``cosine_a`` and ``cosine_b``."""
    rows_a, rows_b = calibration_rows("rows_a", rows_a), calibration_rows("rows_b", rows_b)
    if len(rows_a) != len(rows_b):
        raise InputError("rows_b", f"one row per row of rows_a ({len(rows_a)})", f"{len(rows_b)} rows")
    threshold = number("threshold", threshold, "a cosine threshold from -1 to 1", low=-1.0, high=1.0)
    out = []
    for x, y in zip(rows_a, rows_b, strict=True):
        if (x["a"], x["b"]) != (y["a"], y["b"]):
            raise InputError("rows_b", "calibration rows of the same pairs, in the same order as rows_a", y)
        if (x["cosine"] >= threshold) != (y["cosine"] >= threshold):
            out.append({"label": x["label"], "a": x["a"], "b": x["b"], "cosine_a": x["cosine"], "cosine_b": y["cosine"]})
    return out


CALIBRATION_COLOURS = {"unrelated": "#c8c8c8", "related": "#e9c46a", "paraphrase": "#2a9d8f"}


def plot_calibration(rows_by_embedder: dict[str, list[dict[str, Any]]], threshold: float | None = 0.5,
                     bin_width: float = 0.05):
    """Histograms of labelled pairs' cosines, one panel per embedder, one colour per label.

    ``rows_by_embedder``: panel title -> rows of
    :func:`calibration_cosines` (``label`` and ``cosine``).
    ``threshold`` draws a dashed line and counts, per label, the pairs at or above it."""
    expected = "a dict title -> calibration rows (calibration_cosines())"
    rows_by_embedder = {title: calibration_rows(f"rows_by_embedder[{title!r}]", rows)
                        for title, rows in mapping("rows_by_embedder", rows_by_embedder, expected).items()}
    if not rows_by_embedder:
        raise InputError("rows_by_embedder", "at least one embedder's rows", rows_by_embedder)
    if threshold is not None:
        threshold = number("threshold", threshold, "a cosine threshold from -1 to 1, or None", low=-1.0, high=1.0)
    bin_width = number("bin_width", bin_width, "a bin width from 0.001 to 1", low=0.001, high=1.0)
    fig = new_figure(figsize=(9, 1.9 * len(rows_by_embedder) + 0.6))
    axes = fig.subplots(len(rows_by_embedder), 1, sharex=True, squeeze=False)[:, 0]
    low = min(-0.2, min(r["cosine"] for rows in rows_by_embedder.values() for r in rows))
    start = bin_width * (low // bin_width)
    edges = [start + i * bin_width for i in range(round((1.0 - start) / bin_width) + 2)]
    for ax, (title, rows) in zip(axes, rows_by_embedder.items(), strict=True):
        groups = [[r["cosine"] for r in rows if r["label"] == label] for label in LABELS]
        names = []
        for label, values in zip(LABELS, groups, strict=True):
            above = f", {sum(v >= threshold for v in values)} at or above {fmt(threshold)}" if threshold is not None else ""
            names.append(f"{label} ({len(values)}{above})")
        ax.hist(groups, bins=edges, stacked=True, label=names,
                color=[CALIBRATION_COLOURS[label] for label in LABELS], edgecolor="#555555", linewidth=0.5)
        if threshold is not None:
            ax.axvline(threshold, color="#333333", linestyle="--", linewidth=1)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("pairs")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)  # beside, not on, the bars
    axes[-1].set_xlabel("cosine of the two sentences")
    axes[-1].set_xlim(edges[0], 1.0)
    fig.tight_layout()
    return fig
