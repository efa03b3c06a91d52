"""Is the judge's p(yes) calibrated, and can it be? A reliability table and Platt scaling, on RAGTruth dev.

A sentence counts as **supported** when people marked no hallucinated span in its characters. Calibrated, the
sentences given p(yes) near 0.3 would be supported about 30 % of the time. :func:`reliability` bins the recorded
p(yes) and counts, in each bin, the share people left unmarked. **Platt scaling** fits a logistic regression of
that label on p(yes) (one signal: the combination code of :mod:`ragmetrics_edu.agreement.combine`), scored
leaving each source out so no sentence is calibrated by a fit that saw it. The expected calibration error (the
bins' gaps between mean p and the supported share, weighted by their sentences) is printed before and after.

Calibration alone is easy: predicting dev's share of supported sentences for every sentence (the **base rate**,
each source's sentences given the share over the other sources, as the Platt fit is evaluated) is calibrated and
tells no sentence from another. So each row also has the **Brier score** (the mean squared gap between p and the
label, which rewards telling sentences apart as well as calibration) and its **skill** against the base rate,
1 − Brier / Brier(base rate): 0 is no better than the constant, below 0 worse. One Platt fit is monotone, so it
keeps the order of the sentences it scales: it changes what a number means, not which sentences rank first.
"""

from __future__ import annotations

from typing import Any

from ...agreement import fit_combination
from ...data import ragtruth
from ...errors import InputError
from ...plots import new_figure
from ...validate import as_list, flag, integer, number

__all__ = ["BINS", "sentences", "reliability", "platt_scaled", "platt", "plot_reliability"]

#: equal-width bins of p(yes) from 0 to 1
BINS = 10


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


def reliability(p: list[float], supported: list[bool], bins: int = BINS) -> dict[str, Any]:
    """Per equal-width bin of ``p``: sentences, mean p and the share supported; and the expected calibration error."""
    bins = integer("bins", bins, low=2, high=100, expected="from 2 to 100 bins")
    p = [number(f"p[{i}]", v, "a probability from 0 to 1", low=0.0, high=1.0)
         for i, v in enumerate(as_list("p", p, "a list of probabilities"))]
    supported = [flag(f"supported[{i}]", v) for i, v in enumerate(as_list("supported", supported, "a list of True/False"))]
    if len(p) != len(supported) or not p:
        raise InputError("supported", f"one label per probability ({len(p)})", len(supported))
    rows = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        ks = [k for k, v in enumerate(p) if low <= v < high or (b == bins - 1 and v == 1.0)]
        if ks:
            rows.append({"low": low, "high": high, "sentences": len(ks), "mean_p": sum(p[k] for k in ks) / len(ks),
                         "supported_share": sum(supported[k] for k in ks) / len(ks)})
    ece = sum(r["sentences"] * abs(r["mean_p"] - r["supported_share"]) for r in rows) / len(p)
    brier = sum((v - y) ** 2 for v, y in zip(p, supported, strict=True)) / len(p)
    return {"rows": rows, "ece": ece, "brier": brier, "sentences": len(p), "supported_share": sum(supported) / len(p)}


def _base_rate(supported: list[bool], groups: list[str]) -> list[float]:
    """Each sentence's prediction by the constant base rate, left one source out: the share supported over the
    sentences of every other source (how the Platt fit is evaluated)."""
    total: dict[str, int] = {}
    kept: dict[str, int] = {}
    for y, g in zip(supported, groups, strict=True):
        total[g] = total.get(g, 0) + 1
        kept[g] = kept.get(g, 0) + y
    n, k = sum(total.values()), sum(kept.values())
    return [(k - kept[g]) / (n - total[g]) for g in groups]


def platt_scaled(log: Any) -> dict[str, Any]:
    """Platt scaling of every dev sentence's p(yes), each source's sentences scaled by the fit on the other
    sources: ``scaled`` (one calibrated p(supported) per sentence, in :func:`sentences`' order) and the fit's steps.
    (build_log stores this in the log, so the lesson does not wait for scikit-learn to load.)"""
    found = sentences(log)
    unsupported = [not s for s in found["supported"]]
    combo = fit_combination({"p_yes": found["p_yes"]}, unsupported, found["group"])
    return {"scaled": [float(v) for v in combo.cross_validated], "steps": list(combo.steps)}   # 1 - p(unsupported)


def platt(log: Any) -> dict[str, Any]:
    """The recorded p(yes), its Platt-scaled value (cross-validated by source; stored in the log when it holds
    them, else fitted here) and the constant base rate (left one source out), each with its reliability, Brier
    score and Brier skill against the base rate (``skill``)."""
    _dev_part(log)
    found = sentences(log)
    fitted = log.get("calibration") or platt_scaled(log)
    if len(fitted["scaled"]) != len(found["p_yes"]):
        raise InputError("log", f"one scaled value per dev sentence ({len(found['p_yes'])})", len(fitted["scaled"]))
    out = {"sentences": len(found["p_yes"]), "sources": len(set(found["group"])), "steps": fitted["steps"],
           "raw": reliability(found["p_yes"], found["supported"]),
           "scaled": reliability(fitted["scaled"], found["supported"]),
           "base_rate": reliability(_base_rate(found["supported"], found["group"]), found["supported"])}
    reference = out["base_rate"]["brier"]
    for key in ("raw", "scaled", "base_rate"):
        out[key]["skill"] = 1 - out[key]["brier"] / reference if reference > 0 else float("nan")
    return out


def plot_reliability(found: dict[str, Any]):
    """The reliability diagram: each bin's share supported against its mean p, before and after Platt scaling, with
    the constant base rate (one point: every sentence gets it)."""
    if not isinstance(found, dict) or "raw" not in found or "scaled" not in found:
        raise InputError("found", "the dict platt() returns", found)
    fig = new_figure(figsize=(5.2, 4.0))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], color="#999999", linestyle="--", label="calibrated")
    for key, label, colour in (("raw", "recorded p(yes)", "#c0392b"), ("scaled", "Platt-scaled", "#2a9d8f")):
        rows = found[key]["rows"]
        ax.plot([r["mean_p"] for r in rows], [r["supported_share"] for r in rows], marker="o", color=colour,
                label=f"{label} (ECE {found[key]['ece']:.3f})")
    if "base_rate" in found:
        rows = found["base_rate"]["rows"]
        ax.plot([r["mean_p"] for r in rows], [r["supported_share"] for r in rows], marker="s", linestyle="none",
                color="#264653", label=f"base rate, every sentence (ECE {found['base_rate']['ece']:.4f})")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("mean p in the bin")
    ax.set_ylabel("share of its sentences people left unmarked")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig
