"""A combination of signals learned from people's labels, and measured only on answers it was not fitted on.

Several signals each rank answers a little (word overlap, the share of numbers missing from the passages, a
judge's p(yes)). A logistic regression weighs them: it models the probability that people marked an answer
hallucinated as ``1 / (1 + exp(-(b + w1 * z1 + w2 * z2 + ...)))``, where each ``z`` is a signal standardised
(its dev mean subtracted, divided by its dev standard deviation) so the weights can be compared.

Fitted and scored on the same answers, any combination flatters itself. So the figure to quote is
**cross-validated by group** (by source): each source's answers are scored by a model fitted on the other
sources only (``folds=None``: leave one source out), and the answers' faithfulness score is ``1 - p(hallucinated)``.
The model fitted on every dev answer is the one to apply to new answers (:meth:`Combination.score`), once.

scikit-learn does the fitting (``LogisticRegression``, L2 penalty ``C=1.0``, ``StandardScaler``), imported when
this runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..errors import InputError
from ..validate import as_list, integer, number

__all__ = ["Combination", "fit_combination"]


@dataclass
class Combination:
    """A fitted combination: its signals, standardisation, weights, and the cross-validated dev scores."""

    signals: tuple[str, ...]
    means: dict[str, float]
    scales: dict[str, float]
    weights: dict[str, float]
    intercept: float
    cross_validated: list[float]          # 1 - p(hallucinated) for each dev answer, from a model that never saw its group
    groups: int
    steps: list[str] = field(default_factory=list)

    def score(self, features: Mapping[str, Sequence[float]]) -> list[float]:
        """1 - p(hallucinated) for new answers (their signals by name), with the model fitted on all of dev."""
        columns = _columns(features, self.signals)
        n = len(columns[self.signals[0]])
        out = []
        for i in range(n):
            z = self.intercept + sum(self.weights[s] * (columns[s][i] - self.means[s]) / self.scales[s] for s in self.signals)
            out.append(1.0 - 1.0 / (1.0 + math.exp(-z)))
        return out

    def line(self) -> str:
        """The fitted line, written out: logit p(hallucinated) = b + w1 * z1 + ..."""
        terms = " ".join(f"{'+' if w >= 0 else '-'} {abs(w):.3f} * z({s})" for s, w in self.weights.items())
        return f"logit p(hallucinated) = {self.intercept:.3f} {terms}"


def _columns(features: Any, names: Sequence[str] | None = None) -> dict[str, list[float]]:
    if not isinstance(features, Mapping) or not features:
        raise InputError("features", "a dict: signal name -> one number per answer", features)
    wanted = list(features) if names is None else list(names)
    missing = [n for n in wanted if n not in features]
    if missing:
        raise InputError("features", f"the signals {', '.join(wanted)}", f"no {missing[0]!r}")
    out = {n: [number(f"features[{n!r}][{i}]", v, "a finite number") for i, v in
               enumerate(as_list(f"features[{n!r}]", features[n], "one number per answer"))] for n in wanted}
    sizes = {len(v) for v in out.values()}
    if len(sizes) != 1:
        raise InputError("features", "the same number of answers for every signal", sorted(sizes))
    return out


def fit_combination(features: Mapping[str, Sequence[float]], failed: Sequence[bool], groups: Sequence[str], *,
                    folds: int | None = None, c: float = 1.0) -> Combination:
    """Fit a logistic regression of people's ``failed`` on the signals; cross-validate it by ``groups``.

        p(failed) = 1 / (1 + exp(−(b_0 + Σ_j b_j · signal_j))),  fitted on all but one fold, scored on it

    ``folds``: the number of group folds (None: leave one group out)."""
    import numpy as np  # lazy: numpy and scikit-learn load only when a combination is fitted
    from sklearn.linear_model import LogisticRegression  # lazy: as numpy
    from sklearn.model_selection import GroupKFold, LeaveOneGroupOut  # lazy: as numpy
    from sklearn.preprocessing import StandardScaler  # lazy: as numpy

    columns = _columns(features)
    names = tuple(columns)
    n = len(columns[names[0]])
    labels = as_list("failed", failed, "one True/False per answer (people marked it hallucinated)")
    if len(labels) != n or not all(isinstance(v, (bool, np.bool_)) for v in labels):
        raise InputError("failed", f"{n} True/False values, one per answer", labels)
    kinds = [str(g) for g in as_list("groups", groups, "one group (source) per answer")]
    if len(kinds) != n:
        raise InputError("groups", f"{n} groups, one per answer", f"{len(kinds)} groups")
    if len(set(kinds)) < 2:
        raise InputError("groups", "answers from at least 2 groups (the cross-validation leaves groups out)", kinds)
    y = np.array(labels, dtype=bool)
    if y.all() or not y.any():
        raise InputError("failed", "both hallucinated and faithful answers", "one class only")
    c = number("c", c, "the inverse strength of the L2 penalty, > 0", low=0.0, low_open=True)
    if folds is not None:
        folds = integer("folds", folds, low=2, high=len(set(kinds)), expected="from 2 to the number of groups, or None")
    x = np.column_stack([columns[s] for s in names])
    splitter = LeaveOneGroupOut() if folds is None else GroupKFold(n_splits=folds)
    scores = np.full(n, np.nan)
    for train, test in splitter.split(x, y, kinds):
        if y[train].all() or not y[train].any():  # a fold with one class cannot be fitted: its answers keep the base rate
            scores[test] = 1.0 - y[train].mean()
            continue
        scaler = StandardScaler().fit(x[train])
        model = LogisticRegression(C=c).fit(scaler.transform(x[train]), y[train])
        scores[test] = 1.0 - model.predict_proba(scaler.transform(x[test]))[:, 1]
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=c).fit(scaler.transform(x), y)
    scales = [float(s) if s > 0 else 1.0 for s in scaler.scale_]
    combo = Combination(signals=names, means={s: float(m) for s, m in zip(names, scaler.mean_, strict=True)},
                        scales=dict(zip(names, scales, strict=True)),
                        weights={s: float(w) for s, w in zip(names, model.coef_[0], strict=True)},
                        intercept=float(model.intercept_[0]), cross_validated=[float(v) for v in scores],
                        groups=len(set(kinds)))
    combo.steps = [
        "1. Standardise each signal with its dev mean and deviation: " + "; ".join(
            f"z({s}) = ({s} - {combo.means[s]:.3f}) / {combo.scales[s]:.3f}" for s in names) + ".",
        f"2. Fit on every dev answer: {combo.line()}.",
        "3. The faithfulness score of an answer is 1 - p(hallucinated).",
        f"4. The dev figure is cross-validated: each of the {combo.groups} sources is scored by a model fitted on the "
        + ("other sources." if folds is None else f"other folds ({folds} folds by source)."),
    ]
    return combo
