"""The calibration study of lessons 06-07: what cosines an embedder gives labelled sentence pairs.

A cosine means nothing alone: 0.5 is close for one model and far for another. The course ships
pairs labelled unrelated, related or paraphrase (``course.embedding_texts.calibration_pairs()``
loads them); :func:`calibration_cosines` scores them under an embedder, :func:`calibration_summary`
gives each label's range, :func:`threshold_splits` lists the pairs two embedders put on different
sides of a threshold and :func:`plot_calibration` draws the histograms.
"""

from __future__ import annotations

import math
from typing import Any, Mapping

from ..embeddings.embedders import cosine_parts, resolve
from ..errors import InputError
from ..plots import new_figure
from ..results import fmt
from ..validate import mapping, number, plain, records

#: The calibration classes, from least to most similar in meaning.
LABELS = ("unrelated", "related", "paraphrase")
CALIBRATION_COLOURS = {"unrelated": "#c8c8c8", "related": "#e9c46a", "paraphrase": "#2a9d8f"}


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


def calibration_cosines(pairs: Any, embedder: Any = None) -> list[dict[str, Any]]:
    """The cosine of every labelled pair under ``embedder`` (None: the offline hashing one).

    ``pairs``: dicts with ``label`` (one of :data:`LABELS`), ``a`` and ``b``. One row per pair:
    ``label``, ``a``, ``b``, ``cosine``; all texts are embedded in one batch."""
    pairs = records("pairs", pairs, "labelled pairs (embedding_texts.calibration_pairs())", keys=("label", "a", "b"))
    for i, p in enumerate(pairs):
        if p["label"] not in LABELS or not all(isinstance(p[k], str) and p[k] for k in "ab"):
            raise InputError(f"pairs[{i}]", f"a label in {LABELS} and two texts a, b", p)
    emb = resolve(embedder)
    texts = list(dict.fromkeys(t for p in pairs for t in (p["a"], p["b"])))
    vectors = dict(zip(texts, emb.embed(texts), strict=True))
    return [{"label": p["label"], "a": p["a"], "b": p["b"], "cosine": cosine_parts(vectors[p["a"]], vectors[p["b"]])[3]}
            for p in pairs]


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
