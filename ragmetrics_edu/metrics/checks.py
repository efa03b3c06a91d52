"""Input checks that belong to one metric family, kept out of the public functions' way.

The checks every public function shares are :mod:`ragmetrics_edu.validate`'s; these are the few that
only a metric of this package needs.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..validate import YES, as_list, plain, same_length


def attribution(nodes: Any, marks: list[str]) -> list[int | None]:
    """Context recall's ``nodes``, checked: per statement, the 1-based node it is attributed to, or None
    (None for every statement when ``nodes`` is None; a node only for a statement judged "yes")."""
    if nodes is None:
        return [None] * len(marks)
    nodes = as_list("nodes", nodes, "a list with, per statement, a 1-based node index or None")
    same_length("verdicts", marks, "nodes", nodes)
    out: list[int | None] = []
    for i, (n, v) in enumerate(zip(nodes, marks, strict=True)):
        n = plain(n)
        if n is None:
            out.append(None)
        elif isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise InputError(f"nodes[{i}]", "a 1-based node index (1, 2, ...) or None", n)
        elif v != YES:
            raise InputError(f"nodes[{i}]", "None for a statement judged not attributable", n)
        else:
            out.append(n)
    return out
