"""The one resampling kernel: bootstrap draws of unit indices with replacement, in batches.

Every bootstrap of the library (a mean, a grouped mean, kappa over items or groups, the AUC of the
validation report) draws its resamples here, from numpy's ``default_rng(seed)``, so the same seed
gives the same draws everywhere. A large job is drawn in batches of about :data:`BATCH_CELLS` cells
to bound memory; numpy draws the same numbers in batches as in one go.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..errors import InputError
from ..validate import integer
from . import inputs

__all__ = ["BATCH_CELLS", "generator", "draw", "draw_batches"]

#: Indices drawn per batch (rows × units); larger jobs are drawn in batches to bound memory (about 8 MB of
#: indices and 8 MB of drawn values per batch: a bootstrap of a large file stays small beside the file).
BATCH_CELLS = 1_000_000


def generator(seed: int | None) -> Any:
    """numpy's ``default_rng(seed)``: the one random stream a resampling draws from."""
    import numpy as np  # lazy: numpy loads only when resampling

    return np.random.default_rng(inputs.seed(seed))


def draw(rng: Any, units: int, rows: int, *, high: int | None = None) -> Any:
    """``rows`` resamples from ``rng`` (see :func:`generator`): an integer array (rows, units) of draws
    with replacement from 0 to ``high`` − 1 (``high`` defaults to ``units``)."""
    if not callable(getattr(rng, "integers", None)):
        raise InputError("rng", "a numpy random Generator (resample.generator(seed))", rng)
    units, rows = integer("units", units, low=1, high=10**9), integer("rows", rows, low=1, high=10**9)
    top = units if high is None else integer("high", high, low=1, high=10**9)
    return rng.integers(0, top, (rows, units))


def draw_batches(units: int, n_resamples: int, seed: int | None, *, high: int | None = None,
                 cells_per_row: int | None = None) -> Iterator[tuple[int, int, Any]]:
    """Yield ``(start, stop, drawn)``: resamples ``start`` to ``stop`` (exclusive), ``drawn`` an integer
    array of shape (stop − start, units), each row ``units`` draws with replacement from 0 to ``high`` − 1
    (``high`` defaults to ``units``: a bootstrap of the units; 2 gives the coin flips of a sign-flip test).

    ``cells_per_row`` (default ``units``) is what one resample costs in memory, to size the batches.
    """
    units = integer("units", units, low=1, high=10**9)
    n_resamples = inputs.resamples(n_resamples)
    width = units if cells_per_row is None else integer("cells_per_row", cells_per_row, low=1, high=10**12)
    rng = generator(seed)
    batch = max(1, BATCH_CELLS // width)
    for start in range(0, n_resamples, batch):
        stop = min(n_resamples, start + batch)
        yield start, stop, draw(rng, units, stop - start, high=high)
