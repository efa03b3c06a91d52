"""Every notebook prints within 100 columns.

A learner reads a notebook's printed output in JupyterLab, where a line longer than the output area
wraps in the middle of a word or a number. So every stored printed line of every notebook in
``notebooks/`` (whatever notebooks exist) is held to :data:`WIDTH` columns: stream output (``print``)
and ``text/plain`` results shown as text. A ``text/plain`` that sits beside a richer representation
(Markdown, HTML, an image) is only the fallback Jupyter does not show, and is not held to it.
"""

from __future__ import annotations

import json

import pytest

from conftest import REPO

WIDTH = 100
NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _joined(text) -> str:
    return "".join(text) if isinstance(text, list) else str(text)


def printed_text(output: dict) -> str | None:
    """What a learner sees of one stored output as text: a stream's text, or a result whose only
    representation is ``text/plain``; None for anything shown otherwise (a figure, Markdown, HTML)."""
    if output.get("output_type") == "stream":
        return _joined(output.get("text", ""))
    data = output.get("data", {})
    if "text/plain" in data and set(data) == {"text/plain"}:
        return _joined(data["text/plain"])
    return None


def long_lines(notebook: dict, width: int = WIDTH) -> list[tuple[int, int, str]]:
    """(cell index, length, start of the line) of every stored printed line over ``width`` columns."""
    found = []
    for i, cell in enumerate(notebook.get("cells", [])):
        for output in cell.get("outputs", []):
            text = printed_text(output)
            for line in (text or "").splitlines():
                if len(line) > width:
                    found.append((i, len(line), line[:60]))
    return found


def test_the_check_finds_a_planted_long_line_and_passes_a_short_one():
    long, short = "x" * (WIDTH + 1), "y" * WIDTH
    notebook = {"cells": [
        {"cell_type": "markdown", "source": long},                                      # prose: not printed
        {"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout",
                                           "text": [short + "\n", "ok\n"]}]},
        {"cell_type": "code", "outputs": [{"output_type": "stream", "name": "stdout",
                                           "text": "first\n" + long + "\n"}]},
        {"cell_type": "code", "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                                           "data": {"text/plain": [long]}}]},
        {"cell_type": "code", "outputs": [{"output_type": "display_data", "metadata": {},   # shown as Markdown
                                           "data": {"text/plain": long, "text/markdown": "short"}}]},
        {"cell_type": "code", "outputs": [{"output_type": "display_data", "metadata": {},
                                           "data": {"image/png": "iVBOR", "text/plain": long}}]},
    ]}
    assert long_lines(notebook) == [(2, WIDTH + 1, long[:60]), (3, WIDTH + 1, long[:60])]
    assert long_lines({"cells": notebook["cells"][:2]}) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_prints_within_100_columns(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = long_lines(notebook)
    assert found == [], (f"{path.name}: printed lines over {WIDTH} columns (cell, length, start): {found}; "
                         "wrap them (ragmetrics_edu.course.display.say, textwrap.fill) or print fewer columns")


def test_the_course_has_notebooks_to_check():
    assert len(NOTEBOOKS) >= 10


def test_say_wraps_each_line_and_indents_what_follows(capsys):
    from ragmetrics_edu.course.display import say

    say("  note: " + "word " * 40, indent="    ")
    say("one\n\ntwo", width=20)
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    assert lines[0].startswith("  note: word") and lines[1].startswith("      word")   # its own indent, then more
    assert lines[-3:] == ["one", "", "two"]
