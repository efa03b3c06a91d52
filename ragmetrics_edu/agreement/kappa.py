"""Cohen's kappa: how far two raters (reference labels and a judge, say) agree beyond what chance would give.

Worked on the board in four steps: count the confusion matrix of the n items; the observed
agreement p_o is the share of items on its diagonal; the expected (chance) agreement p_e is
what two raters who kept their own label frequencies but labelled at random would reach,
the sum over classes of share_a(c) · share_b(c); then κ = (p_o − p_e) / (1 − p_e).

Weighted kappa (``weights="linear"`` or ``"quadratic"``) gives partial credit to a near miss
between *ordered* classes: a disagreement between classes at positions i and j of the order
costs |i − j|/(k − 1) (linear) or ((i − j)/(k − 1))² (quadratic), and
κ_w = 1 − Σ w·O / Σ w·E with O the observed and E the chance proportions (with 0/1 costs
this is the unweighted κ). As in scikit-learn's ``cohen_kappa_score``, the weights use the
classes' *positions* in the order, not their numeric values.

The interval is a percentile bootstrap over items: resample the n (a, b) pairs with
replacement (numpy ``default_rng(seed)``, the draws :mod:`ragmetrics_edu.stats` makes),
recompute κ on each resample, read the percentiles. Resamples in which κ is undefined
(every resampled item in one class for both raters) are dropped and counted.

With ``groups`` (one label per item: the case or the pair an item belongs to), the bootstrap
resamples whole groups instead (a grouped or cluster bootstrap): items that share a case are
not independent, and resampling them one by one makes the interval too narrow. Under
``min_groups`` groups (10 by default) no interval is given: too few units to tell.
"""

from __future__ import annotations

from typing import Any, Hashable, Sequence

from ..errors import InputError
from ..results import fmt
from ..stats import inputs as stat_inputs
from ..stats.bootstrap import describe, percentile_interval
from ..stats.grouped import group_indices
from ..stats.resample import draw_batches
from ..validate import integer
from . import inputs
from .result import AgreementResult

#: The order of the judge's verdicts for weighted kappa: "idk" sits between "yes" and "no".
VERDICT_ORDER: tuple[str, ...] = ("yes", "idk", "no")

NAN = float("nan")


def cohen_kappa(labels_a: Any, labels_b: Any, level: float | None = 0.95, seed: int | None = 0, n_resamples: int = 2000,
                weights: str | None = None, labels: Sequence[Hashable] | None = None,
                raters: tuple[str, str] = ("a", "b"), groups: Any = None, min_groups: int = 10) -> AgreementResult:
    """Cohen's kappa of two raters over the same items, with every intermediate and a bootstrap interval.

        p_o = 1 − Σ_ij cost_ij · n_ij / n              n_ij: the items a puts in class i and b in j
        p_e = 1 − Σ_ij cost_ij · (row_i / n) · (col_j / n)
        κ   = (p_o − p_e) / (1 − p_e)               cost_ij: 1 off the diagonal (or linear, quadratic)

    ``labels_a``/``labels_b``: one label per item (yes/no, yes/idk/no, grades, any hashable).
    ``weights``: None (every disagreement costs 1), ``"linear"`` or ``"quadratic"`` for ordered
    classes. The class order is ``labels`` when given (labels outside it are refused); else
    yes, idk, no for verdict words, ascending for numbers, sorted (or first seen) otherwise;
    weighted kappa on other labels needs ``labels``. Only classes present (or listed) count.
    ``raters`` names the two raters in the tables (e.g. ``("human", "judge")``). ``level=None`` gives
    the value and its tables without an interval (``.ci`` is None; nothing is resampled).
    ``groups``: one label per item (e.g. the pair each item belongs to); the bootstrap then draws
    whole groups with replacement, and gives no interval under ``min_groups`` distinct groups.

    Edge case: when both raters put every item in one and the same class, p_e = 1 and κ is
    0/0: the value is NaN with a note (scikit-learn also returns NaN there, with a warning).
    Empty input or lists of different lengths raise :class:`~ragmetrics_edu.InputError`.
    """
    a, b = inputs.labels("labels_a", labels_a), inputs.labels("labels_b", labels_b)
    inputs.same_length("labels_a", a, "labels_b", b)
    level = level
    wanted = level is not None
    level, count, rng_seed = (0.95 if level is None else stat_inputs.ci_level(level), stat_inputs.resamples(n_resamples),
                              stat_inputs.seed(seed))
    scheme = inputs.choice("weights", weights, (None, "linear", "quadratic"))
    names = inputs.rater_names(raters)
    classes, order_note = class_order(a, b, labels, scheme)
    index = {c: i for i, c in enumerate(classes)}
    codes_a, codes_b = [index[x] for x in a], [index[y] for y in b]
    k, n = len(classes), len(a)
    confusion = [[0] * k for _ in range(k)]
    for i, j in zip(codes_a, codes_b, strict=True):
        confusion[i][j] += 1
    cost = disagreement_weights(k, scheme)
    row_tot = [sum(r) for r in confusion]
    col_tot = [sum(confusion[i][j] for i in range(k)) for j in range(k)]
    agree = sum(confusion[i][i] for i in range(k))
    observed_cost = sum(cost[i][j] * confusion[i][j] for i in range(k) for j in range(k))
    expected_cost = sum(cost[i][j] * row_tot[i] * col_tot[j] for i in range(k) for j in range(k))
    p_o, p_e = 1 - observed_cost / n, 1 - expected_cost / n**2
    kappa = NAN if p_e >= 1 else (p_o - p_e) / (1 - p_e)
    notes = [order_note] if order_note else []
    if p_e >= 1:
        notes.append(f"Both raters put all {n} items in the class {classes[codes_a[0]]!r}: chance agreement "
                     "p_e = 1, so κ = 0/0 is undefined and reported as NaN (scikit-learn's cohen_kappa_score "
                     "also gives NaN). Percent agreement (100%) is the honest summary here.")
    top = max(range(k), key=lambda i: row_tot[i] + col_tot[i])
    if p_e < 1 and (row_tot[top] + col_tot[top]) / (2 * n) >= 0.8 and agree / n - kappa >= 0.2:
        notes.append(f"The class {classes[top]!r} holds {fmt(100 * (row_tot[top] + col_tot[top]) / (2 * n))}% of "
                     f"all labels. With classes this skewed, chance agreement is already p_e = {fmt(p_e)}, so κ "
                     f"stays low ({fmt(kappa)}) while percent agreement is high ({fmt(100 * agree / n)}%): the "
                     "raters agree mostly where chance would make them agree.")
    interval: tuple[float, float] | None = None
    defined: Any = ()
    undefined = 0
    members: list[list[int]] | None = None
    if groups is not None:
        min_groups = integer("min_groups", min_groups, low=1, expected="a whole number of at least 1")
        members = group_indices(stat_inputs.group_labels("groups", groups, n))[1]
        if len(members) < min_groups:
            notes.append(f"Only {len(members)} groups (fewer than {min_groups}): too few independent units for an "
                         "interval; the data is too small to tell.")
    if wanted and (members is None or len(members) >= min_groups):
        draws, undefined = (_bootstrap(codes_a, codes_b, cost, count, rng_seed) if members is None
                            else _grouped_bootstrap(codes_a, codes_b, cost, count, rng_seed, members))
        defined = draws[~_isnan(draws)]
        interval = (NAN, NAN) if len(defined) == 0 else percentile_interval(defined, level)
    if undefined:
        notes.append(f"{undefined} of {count} resamples had every item in one class for both raters (κ undefined) "
                     "and were left out of the interval.")
    if n < 20 and interval is not None and members is None:
        notes.append(f"With n = {n} items the bootstrap interval is rough; kappa on few items moves a lot.")
    if k > 2 and scheme is None:
        notes.append("Unweighted: a yes-vs-idk miss costs as much as yes-vs-no; weights='linear' gives partial "
                     "credit to near misses.")
    weighted = scheme is not None
    tables = _tables(classes, confusion, row_tot, col_tot, n, a, b, cost, weighted, names)
    if len(defined):
        tables["bootstrap"] = (("quantity", "value"), describe(defined, level))
    name = f"Cohen's kappa ({scheme} weights)" if weighted else "Cohen's kappa"
    tail = 100 * (1 - level) / 2
    return AgreementResult(
        metric=name, score=kappa, tables=tables,
        values={"n": n, "classes": list(classes), "confusion": confusion, "agreements": agree,
                "percent_agreement": 100 * agree / n, "p_o": p_o, "p_e": p_e, "kappa": kappa,
                "weights": scheme, "raters": list(names), "n_resamples": count if interval else 0, "seed": rng_seed,
                "undefined_resamples": undefined, "groups": len(members) if members else None, "ci_low": interval[0] if interval else None,
                "ci_high": interval[1] if interval else None},
        formula=(rf"\kappa = \frac{{p_o - p_e}}{{1 - p_e}} = \frac{{{fmt(p_o)} - {fmt(p_e)}}}{{1 - {fmt(p_e)}}}"
                 rf" = {fmt(kappa)}"),
        narrative=[
            f"Count the {n} items in a {k}×{k} confusion matrix (rows: {names[0]}, columns: {names[1]}; classes in "
            f"the order {', '.join(map(str, classes))}).",
            f"The raters agree on {agree} of {n} items: percent agreement {fmt(100 * agree / n)}%."
            + (f" Weighted: p_o = 1 − Σ cost·count / n = 1 − {fmt(observed_cost)}/{n} = {fmt(p_o)}." if weighted
               else f" p_o = {agree}/{n} = {fmt(p_o)}."),
            (f"Chance agreement with weights: p_e = 1 − Σ cost·total_a·total_b / n² = 1 − {fmt(expected_cost)}/"
             f"{n * n} = {fmt(p_e)}." if weighted else
             "Chance agreement: p_e = Σ share_a·share_b = "
             + " + ".join(f"{fmt(row_tot[i] / n)}·{fmt(col_tot[i] / n)}" for i in range(k)) + f" = {fmt(p_e)}."),
            f"κ = ({fmt(p_o)} − {fmt(p_e)}) / (1 − {fmt(p_e)}) = {fmt(kappa)}."]
        + ([f"Bootstrap: {count} resamples of the {len(members) if members else n} "
            f"{'groups' if members else 'items'} (seed {rng_seed}); the {fmt(tail)}th and "
            f"{fmt(100 - tail)}th percentiles of κ are {fmt(interval[0])} and {fmt(interval[1])}."] if interval else []),
        notes=notes, ci=interval, level=level, method=(("percentile bootstrap over groups" if members else "percentile bootstrap over items")
                if interval else ""),
        distribution=defined if interval else None, figure_kind="confusion")


def class_order(a: list[Hashable], b: list[Hashable], labels: Any,
                scheme: str | None) -> tuple[list[Hashable], str]:
    """The classes in the order the matrix (and the weights) use, and a note saying which order that is."""
    seen = list(dict.fromkeys(a + b))
    if labels is not None:
        order = inputs.labels("labels", labels)
        if len(set(order)) != len(order):
            raise InputError("labels", "each class once", labels)
        allowed = set(order)
        for field, values in (("labels_a", a), ("labels_b", b)):
            for i, x in enumerate(values):
                if x not in allowed:
                    raise InputError(f"{field}[{i}]", f"one of the classes in labels {order}", x)
        return order, ""
    if all(isinstance(x, str) and x in VERDICT_ORDER for x in seen):
        return [c for c in VERDICT_ORDER if c in seen], ""
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in seen):
        return sorted(seen), ""  # type: ignore[type-var]
    if scheme is not None:
        raise InputError("labels", f"the order of the classes for {scheme} weights (e.g. labels=[...] lowest "
                         "to highest)", None, hint=f"the classes found were {seen}")
    try:
        return sorted(seen), ""  # type: ignore[type-var]
    except TypeError:
        return seen, "The classes cannot be sorted, so the matrix lists them in the order first seen."


def disagreement_weights(k: int, scheme: str | None) -> list[list[float]]:
    """The cost of rating class i against class j: 0 on the diagonal, 1 or a share of the distance off it."""
    span = max(k - 1, 1)
    if scheme == "linear":
        return [[abs(i - j) / span for j in range(k)] for i in range(k)]
    if scheme == "quadratic":
        return [[((i - j) / span) ** 2 for j in range(k)] for i in range(k)]
    return [[0.0 if i == j else 1.0 for j in range(k)] for i in range(k)]


def _tables(classes: list[Hashable], confusion: list[list[int]], row_tot: list[int], col_tot: list[int], n: int,
            a: list[Hashable], b: list[Hashable], cost: list[list[float]], weighted: bool,
            names: tuple[str, str]) -> dict[str, Any]:
    k, (ra, rb) = len(classes), names
    heads = [f"{rb}: {c}" for c in classes]
    total = f"total {ra}"
    matrix = [{"": f"{ra}: {c}", **{h: confusion[i][j] for j, h in enumerate(heads)}, total: row_tot[i]}
              for i, c in enumerate(classes)]
    matrix.append({"": f"total {rb}", **{h: col_tot[j] for j, h in enumerate(heads)}, total: n})
    per_class = [{"class": str(c), "count_a": row_tot[i], "count_b": col_tot[i], "share_a": row_tot[i] / n,
                  "share_b": col_tot[i] / n, "both": confusion[i][i], "chance": row_tot[i] * col_tot[i] / n**2}
                 for i, c in enumerate(classes)]
    index = {c: i for i, c in enumerate(classes)}
    items = [{"item": m, ra: str(x), rb: str(y), "agree": x == y, "cost": cost[index[x]][index[y]]}
             for m, (x, y) in enumerate(zip(a, b, strict=True), 1)]
    tables: dict[str, Any] = {
        "confusion matrix": (("", *heads, total), matrix),
        "per class": (("class", "count_a", "count_b", "share_a", "share_b", "both", "chance"), per_class),
        "items": (("item", ra, rb, "agree", "cost"), items),
    }
    if weighted:
        tables["weights"] = (("", *heads), [{"": f"{ra}: {c}", **{h: cost[i][j] for j, h in enumerate(heads)}}
                                            for i, c in enumerate(classes)][:k])
    return tables



def _isnan(values: Any) -> Any:
    import numpy as np  # lazy: numpy loads only when resampling

    return np.isnan(values)


def _bootstrap(codes_a: list[int], codes_b: list[int], cost: list[list[float]], count: int,
               seed: int | None) -> tuple[Any, int]:
    """κ on ``count`` resamples of the items: the grouped bootstrap with one item per group (same draws)."""
    return _grouped_bootstrap(codes_a, codes_b, cost, count, seed, [[i] for i in range(len(codes_a))])


def _grouped_bootstrap(codes_a: list[int], codes_b: list[int], cost: list[list[float]], count: int,
                       seed: int | None, members: list[list[int]]) -> tuple[Any, int]:
    """κ on ``count`` resamples of whole groups (NaN where undefined) and how many were undefined.

    Each group's items are summed into a k×k count table; a resample draws as many groups as
    there are, with replacement, and adds their tables.
    """
    import numpy as np  # lazy: numpy loads only when resampling

    k, g = len(cost), len(members)
    stat_inputs.draws(count, max(g, k * k))
    pair = np.asarray(codes_a) * k + np.asarray(codes_b)
    tables = np.zeros((g, k * k))
    for i, m in enumerate(members):
        tables[i] = np.bincount(pair[m], minlength=k * k)
    w = np.asarray(cost, dtype=float)
    out = np.empty(count)
    for start, stop, drawn in draw_batches(g, count, seed, cells_per_row=max(g, k * k)):
        rows = stop - start
        times = np.zeros((rows, g))
        np.add.at(times, (np.arange(rows)[:, None], drawn), 1)
        counts = (times @ tables).reshape(rows, k, k)
        observed = counts / counts.sum(axis=(1, 2))[:, None, None]
        expected = observed.sum(axis=2)[:, :, None] * observed.sum(axis=1)[:, None, :]
        num, den = (w * observed).sum(axis=(1, 2)), (w * expected).sum(axis=(1, 2))
        with np.errstate(divide="ignore", invalid="ignore"):
            out[start:stop] = np.where(den > 0, 1 - num / np.where(den > 0, den, 1), np.nan)
    return out, int(np.isnan(out).sum())
