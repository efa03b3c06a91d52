"""Old names that keep working for one release, with a warning that names the new one.

The library renamed a few things so that one word means one thing: ``level=`` is the confidence
level (``ci=`` was used for it, and ``ci`` is also the interval), ``score`` is every result's
number (``value`` on agreement results), ``metric`` its name (``measure``), ``lookup()`` the
lookup of a quantity (``value()`` on metric results), and the regression gate lives in
:mod:`ragmetrics_edu.regression_gate` (``ci_gate`` read as "continuous integration" or as
"confidence interval"). Each old name still works and warns with
:class:`RagMetricsDeprecationWarning`, a ``DeprecationWarning``.
"""

from __future__ import annotations

import warnings
from typing import Any

from .errors import InputError

#: what users meet; warn_renamed and level_argument are the library's own helpers
__all__ = ["NOT_GIVEN", "RagMetricsDeprecationWarning"]


class RagMetricsDeprecationWarning(DeprecationWarning):
    """An old name of ragmetrics_edu was used: it works for one more release; the message names the new one."""


class _NotGiven:
    """The default of a deprecated keyword: tells "not passed" apart from any value (None included)."""

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Any = _NotGiven()


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is the previous name of ``new`` (``stacklevel`` points at the caller's code)."""
    warnings.warn(f"{old} is the old name of {new}; it works for one more release, then it goes. Use {new}.",
                  RagMetricsDeprecationWarning, stacklevel=stacklevel)


def level_argument(level: Any, ci: Any, default: Any = 0.95) -> Any:
    """The confidence level a function was given: ``level=``, or the deprecated ``ci=`` (with a warning).

    Giving both, with different values, is an :class:`InputError`: the call is ambiguous.
    """
    if ci is NOT_GIVEN:
        return level
    warn_renamed("ci= (the confidence level)", "level=", stacklevel=4)
    if level != default and level != ci:
        raise InputError("ci", "only one of level= and ci= (ci= is level='s old name)", ci)
    return ci
