"""The metrics' cores: one small module per metric, its formula and the lines that compute it.

Each core is written to be read from top to bottom: the formula in the module docstring, with the
symbols the course and the decks use, then the lines that compute it, in the same order and with the
same names as the formula and as the step table's columns. A core returns ``(score, rows, values)``:
the score, one row per step, and the named values.

A core is plain Python: it imports nothing from the package (only another core, for shared math, and
the standard library) and checks nothing. The public functions (:mod:`ragmetrics_edu.metrics`,
:mod:`ragmetrics_edu.ranking`) check the input, call their core and build the result with its
explanation; ``metrics.show_code(name)`` shows a metric's core in a notebook.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

#: The cores are read, not called with raw data: nothing here is exported (the API walk, which calls every
#: export with bad values, walks the checked public functions instead).
__all__: list[str] = []

F = TypeVar("F", bound=Callable[..., Any])


def computed_by(core: str, *, runs: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Mark a public function as computed by the core module ``core`` (``ragmetrics_edu.cores.<core>``, or a
    dotted module name for a core outside the package); ``metrics.show_code`` shows that module.

    ``runs``: the dotted names of functions the call runs that show_code cannot find by reading the code (a
    method called on an object, such as the default embedder's ``embed``); they are shown with it."""

    def mark(function: F) -> F:
        function.__core__ = core  # type: ignore[attr-defined]
        function.__runs__ = tuple(runs)  # type: ignore[attr-defined]
        return function

    return mark
