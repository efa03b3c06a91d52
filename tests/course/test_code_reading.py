"""Notebooks 01-08 show the core of the metric they teach (``metrics.show_code``) and ask one exercise
read off that code (issue 42, item 4): the learner names a line, by its number or its text."""

import json

import pytest

from conftest import REPO
from ragmetrics_edu import metrics
from ragmetrics_edu.course import exercises
from ragmetrics_edu.course.exercises import code_lines

NOTEBOOKS = REPO / "notebooks"
#: notebook -> (its file stem, the core it shows, the exercise read off that core)
SHOWN = {
    "01": ("01_context_precision", "context_precision", "cp-7"),
    "02": ("02_context_recall", "context_recall", "cr-6"),
    "03": ("03_contextual_relevancy", "contextual_relevancy", "crel-6"),
    "04": ("04_context_entity_recall", "context_entity_recall", "cer-6"),
    "05": ("05_faithfulness", "faithfulness", "faith-7"),
    "06": ("06_answer_relevancy", "answer_relevancy_embedding", "ar-6"),
    "07": ("07_similarity_and_correctness", "answer_correctness", "ac-6"),
    "08": ("08_ranking_measures", "average_precision", "rank-8"),
}


def _cells(stem):
    return json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


def _source(cell):
    return "".join(cell["source"])


@pytest.mark.parametrize("nb_id", sorted(SHOWN))
def test_the_notebook_shows_its_core_with_stored_output_before_it_asks_about_it(nb_id):
    stem, metric, exercise = SHOWN[nb_id]
    cells = _cells(stem)
    code = [(i, _source(c)) for i, c in enumerate(cells) if c["cell_type"] == "code"]
    shown = [i for i, text in code if f'metrics.show_code("{metric}")' in text]
    asked = [i for i, text in code if f'exercises.check("{exercise}", answer)' in text]
    question = [i for i, text in code if f'exercises.get("{exercise}").question' in text]
    assert shown and asked and question, (stem, shown, asked, question)
    assert shown[0] < question[0] < asked[0]
    outputs = json.dumps(cells[shown[0]]["outputs"])
    assert "text/html" in outputs or "text/markdown" in outputs, "stored executed, shown as a display"
    assert "exercises.check" not in _source(cells[shown[0]])


@pytest.mark.parametrize("nb_id", sorted(SHOWN))
def test_the_exercise_accepts_the_line_copied_and_explains_another(nb_id):
    _, metric, exercise = SHOWN[nb_id]
    code = metrics.show_code(metric)
    lines = [line.strip() for part in (code, *code.shared) for line in part.source.splitlines()]
    answer = exercises.get(exercise).answer()
    assert lines.count(answer) >= 1 and answer
    raw = next(line for part in (code, *code.shared) for line in part.source.splitlines() if line.strip() == answer)
    for right in (answer, raw, "  " + "   ".join(answer.split()) + " ", f"`{answer}`"):
        assert exercises.check(exercise, right).correct is True, right
    at = lines.index(answer)
    other = next(line for line in lines[at + 1:] + lines[:at][::-1] if line and line != answer
                 and not line.startswith(("#", '"""')) and lines.count(line) == 1)
    wrong = exercises.check(exercise, other)
    assert wrong.correct is False and wrong.message.startswith(f"`{other}` ")
    assert f"exercises.solution('{exercise}')" in wrong.message
    for junk in ("zzz", "", "=", 1, True, [answer]):
        feedback = exercises.check(exercise, junk)
        assert feedback.correct is False and "names no single line" in feedback.message, junk
    assert exercises.solution(exercise).startswith(f"Answer: {answer!r}.")


@pytest.fixture
def planted(monkeypatch):
    """A made-up core of five lines in place of whatever show_code displays."""
    source = ["def score(verdicts):", "    counted = sum(v == 'yes' for v in verdicts)",
              "    total = len(verdicts)", "", "    return counted / total if total else 0.0"]
    monkeypatch.setattr(code_lines, "source_lines", lambda metric: list(source))
    return source


def test_a_line_is_named_by_its_whole_text_or_a_part_found_nowhere_else(planted):
    assert code_lines.named_line("x", "counted = sum(v == 'yes' for v in verdicts)") == planted[1].strip()
    assert code_lines.named_line("x", "  counted =  sum(v == 'yes' for v in verdicts)  ") == planted[1].strip()
    assert code_lines.named_line("x", "v == 'yes'") == planted[1].strip()
    assert code_lines.named_line("x", "total") is None          # in lines 3 and 5
    assert code_lines.named_line("x", "/ ") is None             # too short to name a line
    assert code_lines.named_line("x", 2) is None and code_lines.named_line("x", None) is None


def test_the_rule_must_pick_exactly_one_line(planted):
    assert code_lines.find_line("x", lambda line: "counted =" in line) == planted[1].strip()
    for rule in (lambda line: "total" in line, lambda line: "nowhere" in line):
        with pytest.raises(LookupError, match="update the exercise"):
            code_lines.find_line("x", rule)


def test_a_decoy_line_is_explained_by_what_it_does(planted):
    item = code_lines.line_exercise(
        id="test-1", metric="x", question="Which line makes a 'no' count as 0?",
        is_answer=lambda line: "== 'yes'" in line, hint="Where is a verdict compared?", explanation="ok",
        decoys=((lambda line: "return" in line, "divides; the 0s and 1s were decided before."),))
    assert item.answer() == planted[1].strip() and item.accept(" counted = sum(v == 'yes' for v in verdicts) ",
                                                               item.answer())
    assert item.diagnose("return counted", item.answer()).startswith(
        "`return counted / total if total else 0.0` divides")
    assert "Hint: Where is a verdict compared?" in item.diagnose("len(verdicts)", item.answer())
