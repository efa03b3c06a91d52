"""A "Predict" question's answer stays hidden until the learner asks for it.

In every notebook, the markdown cell that asks the learner to predict, and the next markdown cell
after it, may hold the answer only inside a collapsed ``<details>`` block (or leave it to a call such
as ``exercises.solution(...)``): a visible "**Answer.**" right under the question gives it away.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
DETAILS = re.compile(r"<details\b.*?</details>", re.S | re.I)
VISIBLE_ANSWER = re.compile(r"\*\*Answer\.?\*\*|^\s*Answer\s*[.:]", re.M)


def _markdown(cells):
    return [("".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for c in cells if c["cell_type"] == "markdown"]


def answers_shown_under_predict(cells) -> list[str]:
    """The Predict questions whose own cell, or the next markdown cell, shows an answer outside <details>."""
    texts = _markdown(cells)
    found = []
    for i, text in enumerate(texts):
        if "predict" not in text.lower():
            continue
        for neighbour in texts[i:i + 2]:
            if VISIBLE_ANSWER.search(DETAILS.sub("", neighbour)):
                found.append(text.strip()[:80])
                break
    return found


def _md(text):
    return {"cell_type": "markdown", "source": text}


def _code(text):
    return {"cell_type": "code", "source": text}


def test_the_check_sees_a_visible_answer_and_passes_a_hidden_one():
    question = _md("**Predict:** which system has more misses?")
    shown = [question, _code("print(table)"), _md("**Answer.** bm25, on the synonyms.")]
    assert answers_shown_under_predict(shown) == ["**Predict:** which system has more misses?"]
    same_cell = [_md("**Predict:** which one?\n\n**Answer.** bm25.")]
    assert answers_shown_under_predict(same_cell)
    hidden = [_md("**Predict:** which one?\n\n<details><summary>Answer</summary>\n\n**Answer.** bm25.\n\n</details>"),
              _code("print(table)"), _md("## Next section")]
    assert answers_shown_under_predict(hidden) == []
    hidden_after = [question, _code("print(table)"),
                    _md("<details>\n<summary>Answer</summary>\n\n**Answer.** bm25.\n</details>")]
    assert answers_shown_under_predict(hidden_after) == []
    assert answers_shown_under_predict([_md("No question here."), _md("**Answer.** free-standing.")]) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_predict_question_is_followed_by_a_visible_answer(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    shown = answers_shown_under_predict(cells)
    assert shown == [], f"{path.name}: hide the answer in <details> (or behind a call) under: {shown}"
