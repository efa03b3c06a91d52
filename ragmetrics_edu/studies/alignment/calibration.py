"""Lesson 15's calibration data: every RAGTruth dev sentence the support design asked about, its Platt fit for
the log, and the reliability diagram.

The lesson computes Platt scaling, the expected calibration error, the Brier score and its skill against the base
rate in view; the library's :mod:`ragmetrics_edu.agreement.calibration` checks them. A sentence counts as
**supported** when people marked no hallucinated span in its characters.
"""

from __future__ import annotations

from typing import Any

from ...agreement import fit_combination
from ...data import ragtruth
from ...errors import InputError
from ...plots import new_figure

__all__ = ["sentences", "platt_scaled", "plot_reliability"]


def _dev_part(log: Any) -> dict[str, Any]:
    if not isinstance(log, dict) or not isinstance(log.get("parts"), dict) or "ragtruth-dev" not in log["parts"]:
        raise InputError("log", "lesson 15's log (study.load_log())", log)
    part = log["parts"]["ragtruth-dev"]
    if "support" not in part.get("sentences", {}):
        raise InputError("log", "a log holding the support design's sentences on RAGTruth dev", sorted(part))
    return part


def sentences(log: Any) -> dict[str, list[Any]]:
    """Every dev sentence the support design asked about: its p(yes), whether people left it unmarked, its source."""
    part = _dev_part(log)
    spans = {a.id: a.spans for a in ragtruth.answers("dev")}
    out: dict[str, list[Any]] = {"p_yes": [], "supported": [], "group": []}
    for row, rows in zip(part["items"], part["sentences"]["support"], strict=True):
        marked = {c for s in spans[row["id"]] for c in range(s.start, s.end)}
        for r in rows:
            out["p_yes"].append(float(r["p_yes"]))
            out["supported"].append(not marked & set(range(r["start"], r["end"])))
            out["group"].append(row["group"])
    return out


def platt_scaled(log: Any) -> dict[str, Any]:
    """Platt scaling of every dev sentence's p(yes), each source's sentences scaled by the fit on the other
    sources (``scaled``: p(supported), in :func:`sentences`' order) and the fit's steps. build_log stores it in the
    log, so the lesson does not wait for scikit-learn to load."""
    found = sentences(log)
    unsupported = [not s for s in found["supported"]]
    combo = fit_combination({"p_yes": found["p_yes"]}, unsupported, found["group"])
    return {"scaled": [float(v) for v in combo.cross_validated], "steps": list(combo.steps)}   # 1 - p(unsupported)


def plot_reliability(tables: dict[str, dict[str, Any]]):
    """The reliability diagram: per predictor (name -> what agreement.calibration.reliability returns), each bin's
    share true against its mean p, beside the diagonal."""
    if not isinstance(tables, dict) or not tables or not all(isinstance(t, dict) and "rows" in t
                                                             for t in tables.values()):
        raise InputError("tables", "a dict: name -> agreement.calibration.reliability(...)", tables)
    fig = new_figure(figsize=(5.2, 4.0))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], color="#999999", linestyle="--", label="calibrated")
    for (name, table), colour in zip(tables.items(), ("#264653", "#c0392b", "#2a9d8f", "#e9c46a"), strict=False):
        rows = table["rows"]
        ax.plot([r["mean_p"] for r in rows], [r["share_true"] for r in rows], marker="o", color=colour,
                linestyle="none" if len(rows) == 1 else "-", label=f"{name} (ECE {table['ece']:.3f})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("mean p in the bin")
    ax.set_ylabel("share of its sentences people left unmarked")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig
