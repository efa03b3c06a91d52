"""The judge study's figure: each metric's kappa with the labels, judge beside word overlap, with intervals."""

from __future__ import annotations

from typing import Any, Mapping

from ...errors import InputError
from ...plots import new_figure
from ...validate import mapping

__all__ = ["agreement_figure"]


def agreement_figure(found: Mapping[str, Mapping[str, Any]]) -> Any:
    """Kappa with the labels per metric (``found``: metric -> :func:`~.agreement.verdict_agreement`'s result, with
    its baseline), judge and word overlap side by side, as dots with whiskers (the intervals resample pairs)."""
    found = mapping("found", found, "metric -> a verdict_agreement() result")
    for metric, value in found.items():
        if mapping(f"found[{metric!r}]", value, "a verdict_agreement() result", keys=("judge", "baseline"))["baseline"] is None:
            raise InputError(f"found[{metric!r}].baseline", "a baseline's kappa (verdict_agreement(baseline=True))", None)
    fig = new_figure((8, 3.4))  # no pyplot: a kernel's inline backend would also show a pyplot figure raw
    ax = fig.add_subplot()
    names = list(found)
    for who, colour, shift in (("judge", "#1f77b4", -0.12), ("baseline", "#ff7f0e", 0.12)):
        for i, metric in enumerate(names):
            r = found[metric][who]
            low, high = r.ci if r.ci else (r.score, r.score)
            ax.errorbar(r.score, i + shift, xerr=[[r.score - low], [high - r.score]], fmt="o", color=colour,
                        capsize=4, label=("1.5B judge" if who == "judge" else "word overlap") if i == 0 else None)
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_yticks(range(len(names)), [m.replace("_", " ") for m in names])
    ax.invert_yaxis()
    ax.set_xlabel("Cohen's kappa with the project's labels (95% interval, pairs resampled)")
    ax.legend(loc="lower right", fontsize=9)
    fig.tight_layout()
    return fig
