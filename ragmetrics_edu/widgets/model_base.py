"""What the explorer models share: the observer list, position checks and small text helpers.

Each model holds what a learner can change, recomputes its
:class:`~ragmetrics_edu.results.MetricResult` on demand, and tells its observers when
something changed. Nothing here (or in any ``*_model`` module) imports ipywidgets or
matplotlib, so the models run (and are tested) in plain Python.

Positions (``i``, ``j``) are 0-based ranks in the *current* order; ``order`` lists the
original indices of the items in that order.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, NamedTuple

from ..errors import InputError
from ..results import MetricResult
from ..text import squash_spaces
from ..validate import as_list, integer, plain, text_list

__all__ = ["Change", "Observable", "Observer", "check_index", "check_permutation", "chip_label", "move_item", "parse_lines"]


class Change(NamedTuple):
    """What an observer receives: the model that changed and what changed in it."""

    owner: Any
    name: str


Observer = Callable[[Change], None]


class Observable(ABC):
    """A minimal observer list: views subscribe with :meth:`observe` and redraw on change."""

    def __init__(self) -> None:
        self._observers: list[Observer] = []
        self._result: MetricResult | None = None
        self._start: dict[str, Any] = {}

    def observe(self, callback: Observer) -> None:
        """Call ``callback(Change(model, name))`` after every change of this model."""
        if callback not in self._observers:
            self._observers.append(callback)

    def unobserve(self, callback: Observer) -> None:
        """Stop calling ``callback``."""
        if callback in self._observers:
            self._observers.remove(callback)

    def _changed(self, name: str) -> None:
        self._result = None
        change = Change(self, name)
        for callback in list(self._observers):
            callback(change)

    @property
    def result(self) -> MetricResult:
        """The MetricResult of the current state (recomputed only after a change)."""
        if self._result is None:
            self._result = self._compute()
        return self._result

    @property
    def score(self) -> float:
        """Shortcut for ``result.score``."""
        return self.result.score

    def state(self) -> dict[str, Any]:
        """Everything a learner can change in this model, as plain values (compared by :attr:`at_start`)."""
        raise TypeError(f"{type(self).__name__} must define state()")

    def _remember_start(self) -> None:
        """Keep the state the model starts from: what :meth:`reset` goes back to."""
        self._start = self.state()

    @property
    def at_start(self) -> bool:
        """True while the model is in the state it started from (its example, as the lesson describes it)."""
        return self.state() == self._start

    @abstractmethod
    def _compute(self) -> MetricResult:
        """Score the current state (each model defines how)."""


#: the most items a list widget holds (far beyond any lesson's list)
MAX_ITEMS = 10**6


def _size(n: Any) -> int:
    return integer("n", n, low=0, high=MAX_ITEMS, expected=f"the number of items (a whole number from 0 to {MAX_ITEMS:,})")


def check_index(field: str, value: Any, n: int) -> int:
    """A 0-based position in a list of ``n`` items, or an InputError naming the range."""
    n, value = _size(n), plain(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise InputError(field, f"a position from 0 to {n - 1}" if n else "a position, but the list is empty", value)
    return value


def check_permutation(field: str, order: Any, n: int) -> list[int]:
    """Check that ``order`` lists each of 0..n-1 exactly once."""
    n = _size(n)
    items = [plain(i) for i in as_list(field, order, f"a list holding each of 0..{n - 1} once")]
    if (len(items) != n  # first: a huge n is refused before range(n) is built
            or any(isinstance(i, bool) or not isinstance(i, int) for i in items) or sorted(items) != list(range(n))):
        raise InputError(field, f"a permutation of 0..{n - 1} (each original index exactly once)", order)
    return items


def move_item(order: list[int], i: int, j: int) -> None:
    """Take the item at position ``i`` out and insert it at position ``j`` (in place)."""
    if not isinstance(order, list):
        raise InputError("order", "a list (changed in place)", order)
    n = len(as_list("order", order, "a list (changed in place)"))
    i, j = check_index("i", i, n), check_index("j", j, n)
    order.insert(j, order.pop(i))


def chip_label(index: int, text: str | None, width: int = 13) -> str:
    """The short, unique tag shown for node ``index`` (0-based) in the drag-and-drop list.

    ``"N1 Machine Learn…"``: the number keeps chips unique, the start of the text makes
    them recognisable."""
    index = integer("index", index, low=0, expected="a node's 0-based index")
    if text is not None and not isinstance(text, str):
        raise InputError("text", "the node's text or None", text)
    width = plain(width)
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= 10_000:
        raise InputError("width", "a whole number of characters from 1 to 10000", width)
    label = f"N{index + 1}"
    if not text:
        return label
    text = squash_spaces(text)
    short = text if len(text) <= width else text[:width].rstrip() + "…"
    return f"{label} {short}"


def parse_lines(value: Any, field: str = "entities") -> list[str]:
    """A list of strings from a list, or from text with one item per line (blank lines dropped)."""
    if isinstance(value, str):
        return [line.strip() for line in value.splitlines() if line.strip()]
    return text_list(field, value)
