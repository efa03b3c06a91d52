"""What a browser is sent when an explorer changes: the rows a score belongs to arrive before it.

ipywidgets sends one message per widget change and the browser shows each as it arrives, in the
order sent. A run of the JupyterLab test once read the reorder explorer at the moment its new
score appeared and found ``order shown ['N3', 'N2', 'N3', ...]``: the score was sent first and the
rows after it, one message per row, so for a moment the page showed the new score beside an
order half moved (one node in two rows). Here the widgets talk to a comm that keeps every
message instead of sending it; the messages are replayed onto a copy of what the browser shows,
and at the message that shows the new score, the rows, their verdicts and the chips must already
be the model's, every node once. No browser and no clock: the order of the messages decides.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import comm
import pytest
from comm.base_comm import BaseComm

from ragmetrics_edu.widgets import PermutationExplorer, ReorderExplorer, StatementExplorer

#: (comm id, state) of every widget message the kernel sent, in order; comm_open carries the whole state.
SENT: list[tuple[str, dict[str, Any]]] = []


class KeptComm(BaseComm):
    """A comm that keeps what it would send to the browser (its open state and every update)."""

    kernel = True  # ipywidgets sends only through a comm with a kernel

    def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                    **keys: Any) -> None:
        data = data or {}
        if msg_type == "comm_open" or data.get("method") == "update":
            SENT.append((self.comm_id, dict(data.get("state", {}))))


@pytest.fixture(autouse=True)
def kept_messages(monkeypatch):
    monkeypatch.setattr(comm, "create_comm", lambda *args, **kwargs: KeptComm(*args, **kwargs))
    SENT.clear()
    yield SENT
    SENT.clear()


class Browser:
    """What the browser shows: every widget's state, built from the messages in the order sent."""

    def __init__(self) -> None:
        self.state: dict[str, dict[str, Any]] = {}
        self.read = 0

    def receive(self) -> list[str]:
        """Apply the messages sent since the last call; return the comm ids they changed, in order."""
        changed = []
        for comm_id, state in SENT[self.read:]:
            self.state.setdefault(comm_id, {}).update(state)
            changed.append(comm_id)
        self.read = len(SENT)
        return changed

    def local(self, widget: Any, **state: Any) -> None:
        """What the browser changes by itself on a click (a toggle's value, a dragged chip), before the kernel hears."""
        self.state[widget.model_id].update(state)

    def value(self, widget: Any, key: str = "value") -> Any:
        return self.state[widget.model_id][key]


def score_shown(browser: Browser, explorer: Any) -> str:
    return re.search(r"rme-score-value'>([^<]*)<", browser.value(explorer.score)).group(1)


def rows_shown(browser: Browser, explorer: Any) -> dict[str, Any]:
    """The node list as the browser shows it: node per row, verdict text per row, chips in order."""
    rows = explorer.node_list
    return {"nodes": [re.search(r"<b>(N\d+)</b>", browser.value(text)).group(1) for text in rows.texts],
            "verdicts": [browser.value(toggle, "description") for toggle in rows.toggles],
            "chips": list(browser.value(rows.tags))}


def rows_of(explorer: Any) -> dict[str, Any]:
    """The node list the model says should be shown."""
    model = explorer.model
    return {"nodes": [f"N{node + 1}" for node in model.order],
            "verdicts": ["relevant" if flag else "not relevant" for flag in model.verdicts],
            "chips": model.labels}


def as_if_from_browser(widget: Any, **state: Any) -> None:
    """Deliver a state change to the kernel's widget the way the browser's message does (echo included)."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def check_the_score_arrives_after_its_rows(explorer: Any, browser: Browser, act: Callable[[], None],
                                           shown: Callable[[Browser, Any], Any], expected: Callable[[Any], Any]) -> None:
    """Run ``act`` (a user's action), replay what the kernel sent, and check that at the message showing
    the new score the browser already shows ``expected(explorer)``."""
    before = score_shown(browser, explorer)
    act()
    seen_at_score = None
    for comm_id, state in SENT[browser.read:]:
        browser.state.setdefault(comm_id, {}).update(state)
        if comm_id == explorer.score.model_id:
            seen_at_score = shown(browser, explorer)
    browser.read = len(SENT)
    assert score_shown(browser, explorer) != before, "premise: the action changes the score"
    assert seen_at_score == expected(explorer), \
        f"when the new score appeared the browser showed {seen_at_score}, not {expected(explorer)}"
    assert shown(browser, explorer) == expected(explorer)          # and it stays so


def opened(explorer: Any) -> Browser:
    browser = Browser()
    browser.receive()
    assert rows_shown(browser, explorer) == rows_of(explorer)
    return browser


@pytest.mark.parametrize("kind", [ReorderExplorer, PermutationExplorer])
def test_a_move_shows_its_rows_before_its_score(kind) -> None:
    # Five nodes, verdicts that make each ↑ on rank 2 or 3 change the score, and two rows that change on a move.
    explorer = kind(nodes=[f"node {i}" for i in range(1, 6)], verdicts=[1, 0, 1, 0, 0])
    browser = opened(explorer)
    for pos in (2, 1, 3):
        if explorer.verdicts[pos] != explorer.verdicts[pos - 1]:
            check_the_score_arrives_after_its_rows(explorer, browser, explorer.up_buttons[pos].click,
                                                   rows_shown, rows_of)
    down = next(p for p in range(4) if explorer.verdicts[p] != explorer.verdicts[p + 1])
    check_the_score_arrives_after_its_rows(explorer, browser, explorer.down_buttons[down].click, rows_shown, rows_of)
    # A chip dragged from rank 4 to rank 1: the browser has moved the chips itself; the rows follow.
    order = explorer.model.order
    pos = next(p for p in range(1, 5) if explorer.verdicts[p] != explorer.verdicts[0])
    dragged = [explorer.model.chip(i) for i in [order[pos], *order[:pos], *order[pos + 1:]]]
    browser.local(explorer.tags, value=dragged)
    check_the_score_arrives_after_its_rows(explorer, browser, lambda: as_if_from_browser(explorer.tags, value=dragged),
                                           rows_shown, rows_of)
    check_the_score_arrives_after_its_rows(explorer, browser, explorer.reset_button.click, rows_shown, rows_of)
    explorer.close()


def test_the_deck_example_shows_no_node_twice_when_its_score_changes() -> None:
    # Notebook 01's explorer, every ↑ and ↓ that changes the score, then every verdict toggle.
    explorer = ReorderExplorer.from_example("A-cp-what-is-ai")
    browser = opened(explorer)
    n = explorer.model.n
    for pos in range(n):
        for button, other in ((explorer.up_buttons[pos], pos - 1), (explorer.down_buttons[pos], pos + 1)):
            if 0 <= other < n and explorer.verdicts[pos] != explorer.verdicts[other]:
                check_the_score_arrives_after_its_rows(explorer, browser, button.click, rows_shown, rows_of)
                assert len(set(rows_shown(browser, explorer)["nodes"])) == n
    for pos in range(n):
        toggle = explorer.toggles[pos]
        browser.local(toggle, value=not toggle.value)
        check_the_score_arrives_after_its_rows(
            explorer, browser, lambda: as_if_from_browser(toggle, value=not toggle.value), rows_shown, rows_of)
    explorer.close()


def test_a_statement_verdict_shows_before_its_score() -> None:
    explorer = StatementExplorer.from_example("C-faith-sun-high")
    browser = opened_statements(explorer)

    def verdicts_shown(b: Browser, e: Any) -> list[Any]:
        return [toggle.options[b.value(toggle, "index")] for toggle in e.toggles]  # ToggleButtons sync an index

    for pos in range(len(explorer.toggles)):
        current = explorer.model.verdicts[pos]
        new = next(v for v in explorer.model.allowed if v != current)
        check_the_score_arrives_after_its_rows(explorer, browser, lambda: explorer.model.set_verdict(pos, new),
                                               verdicts_shown, lambda e: list(e.model.verdicts))
    explorer.close()


def opened_statements(explorer: Any) -> Browser:
    browser = Browser()
    browser.receive()
    return browser


def test_a_cut_shows_its_statements_before_its_score() -> None:
    # Notebook 02's decomposition explorer: the ✂ merges two statements into one, and back.
    from ragmetrics_edu.widgets import DecomposeExplorer

    explorer = DecomposeExplorer.from_example("A-cr-what-is-ai")
    browser = opened_statements(explorer)

    def statements_shown(b: Browser, e: Any) -> int:
        return b.value(e.statements).count("<li>")

    cut = explorer.cut_buttons[0]
    for _ in range(2):
        browser.local(cut, value=not cut.value)
        check_the_score_arrives_after_its_rows(explorer, browser, lambda: as_if_from_browser(cut, value=not cut.value),
                                               statements_shown, lambda e: e.model.n)
    explorer.close()
