"""Compare two retrievers question by question, with intervals and paired tests.

Builds on :mod:`ragmetrics_edu.stats` and the rows of
:func:`ragmetrics_edu.retrieval.evaluate_retriever`:

- :func:`compare_retrievers` – each system's mean with its bootstrap interval, the paired
  bootstrap interval of the difference, the permutation test and the sign test, for one measure;
- :func:`neither_answers` – questions on which both systems score 0 (say so separately: they
  carry no information about which system is better, only that both failed);
- :func:`intervals_by_size` – the bootstrap interval of a mean over the first n questions, for
  several n (the sample-size lesson: the width shrinks roughly like 1/sqrt(n)).
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import stats
from ..errors import InputError
from ..validate import as_list, number, plain


def _scores(field: str, rows: Any, measure: str) -> list[float]:
    rows = as_list(field, rows, "a non-empty list of evaluate_retriever rows")
    if not rows:
        raise InputError(field, "a non-empty list of evaluate_retriever rows", rows)
    if not isinstance(measure, str) or not all(isinstance(r, dict) and measure in r for r in rows):
        raise InputError("measure", f"a measure present in every row of {field}", measure)
    return [number(f"{field}[{i}][{measure!r}]", r[measure], "a finite score") for i, r in enumerate(rows)]


def _question_ids(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]]) -> list[Any]:
    rows_a, rows_b = as_list("rows_a", rows_a), as_list("rows_b", rows_b)
    ids_a, ids_b = [r.get("question") for r in rows_a], [r.get("question") for r in rows_b]
    if ids_a != ids_b:
        raise InputError("rows_b", "rows for the same questions, in the same order as rows_a", ids_b)
    return ids_a


def compare_retrievers(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], measure: str,
                       labels: tuple[str, str] = ("a", "b"), level: float = 0.95, n_resamples: int = 10_000,
                       seed: int | None = 0) -> dict[str, Any]:
    """Everything needed to say whether two retrievers differ on ``measure``.

    Returns a dict of :class:`~ragmetrics_edu.stats.StatResult`: ``labels[0]`` and
    ``labels[1]`` (each mean with its bootstrap interval), ``paired_bootstrap`` (interval of
    the mean difference a − b), ``permutation`` (sign-flip permutation test) and ``sign``
    (exact sign test), plus ``neither`` (questions where both score 0) and ``measure``."""
    level = level
    a, b = _scores("rows_a", rows_a, measure), _scores("rows_b", rows_b, measure)
    ids = _question_ids(rows_a, rows_b)
    return {
        "measure": measure,
        labels[0]: stats.bootstrap_ci(a, level=level, n_resamples=n_resamples, seed=seed, ids=ids),
        labels[1]: stats.bootstrap_ci(b, level=level, n_resamples=n_resamples, seed=seed, ids=ids),
        "paired_bootstrap": stats.paired_bootstrap(a, b, level=level, n_resamples=n_resamples, seed=seed,
                                                   labels=labels, ids=ids),
        "permutation": stats.permutation_test(a, b, n_resamples=n_resamples, seed=seed, level=level,
                                              labels=labels, ids=ids),
        "sign": stats.sign_test(a, b, level=level, labels=labels, ids=ids),
        "neither": neither_answers(rows_a, rows_b, measure),
    }


def neither_answers(rows_a: Sequence[dict[str, Any]], rows_b: Sequence[dict[str, Any]], measure: str) -> list[Any]:
    """The questions on which both systems score exactly 0 on ``measure``."""
    a, b = _scores("rows_a", rows_a, measure), _scores("rows_b", rows_b, measure)
    ids = _question_ids(rows_a, rows_b)
    return [q for q, x, y in zip(ids, a, b, strict=True) if x == 0 and y == 0]


def intervals_by_size(values: Sequence[float], sizes: Sequence[int], level: float = 0.95,
                      n_resamples: int = 10_000, seed: int | None = 0) -> list[dict[str, Any]]:
    """The bootstrap interval of the mean of ``values[:n]`` for each n in ``sizes``.

    Rows: ``n``, ``mean``, ``low``, ``high``, ``width``. Taking the *first* n questions (not a
    random subset) mirrors a collection growing over time."""
    values = as_list("values", values, "a non-empty list of per-question scores")
    if not values:
        raise InputError("values", "a non-empty list of per-question scores", values)
    sizes = [plain(n) for n in as_list("sizes", sizes, f"a non-empty list of integers between 1 and {len(values)}")]
    if not sizes or len(sizes) > 100 or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(values) for n in sizes):
        raise InputError("sizes", f"a non-empty list of integers between 1 and {len(values)}", sizes)
    rows = []
    for n in sizes:
        result = stats.bootstrap_ci(list(values[:n]), level=level, n_resamples=n_resamples, seed=seed)
        assert result.ci is not None
        low, high = result.ci
        rows.append({"n": n, "mean": result.score, "low": low, "high": high, "width": high - low})
    return rows


__all__ = ["compare_retrievers", "intervals_by_size", "neither_answers"]
