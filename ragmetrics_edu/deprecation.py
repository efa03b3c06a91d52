"""How an old name would keep working for one release after a rename: a warning that names the new one.

No old name is kept today: the package (0.1.0) was never published, so the names renamed before a
release (``ci=`` for ``level=``, ``value``/``measure`` on agreement results, ``MetricResult.value()``,
the module ``ci_gate``) were removed rather than kept. :func:`warn_renamed` is what a rename after
a release would call; the tests turn :class:`RagMetricsDeprecationWarning` into an error.
"""

from __future__ import annotations

import warnings

#: what users meet; warn_renamed is the library's own helper
__all__ = ["RagMetricsDeprecationWarning"]


class RagMetricsDeprecationWarning(DeprecationWarning):
    """An old name of ragmetrics_edu was used: it works for one more release; the message names the new one."""


def warn_renamed(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is the previous name of ``new`` (``stacklevel`` points at the caller's code)."""
    warnings.warn(f"{old} is the old name of {new}; it works for one more release, then it goes. Use {new}.",
                  RagMetricsDeprecationWarning, stacklevel=stacklevel)
