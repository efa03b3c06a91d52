"""Notebooks 01-08 show the core of the metric they teach (``metrics.show_code``) and ask one exercise read off
that code: change one line, predict the number; the check runs the changed core."""

import json

import pytest

from conftest import REPO
from ragmetrics_edu import metrics
from ragmetrics_edu.course import exercises
from ragmetrics_edu.course.exercises import changed_code, code_lines

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
def test_the_exercise_changes_one_line_of_the_core_shown_and_checks_by_running_it(nb_id):
    _, metric, exercise = SHOWN[nb_id]
    item = exercises.get(exercise)
    shown_metric, old, new = changed_code.CHANGES[exercise]
    assert shown_metric == metric and old != new
    code = metrics.show_code(metric)
    lines = [line.strip() for part in (code, *code.shared) for line in part.source.splitlines()]
    assert lines.count(old.strip()) == 1 and old in item.question and new in item.question
    answer = item.answer()
    assert exercises.check(exercise, answer).correct is True
    assert exercises.check(exercise, f"{answer!r}").correct is True          # a number written as a string
    wrong = exercises.check(exercise, answer + 0.37)
    assert wrong.correct is False and f"exercises.solution('{exercise}')" in wrong.message
    assert exercises.solution(exercise).startswith(f"Answer: {answer!r}.")


@pytest.mark.parametrize("nb_id", sorted(SHOWN))
def test_the_unchanged_core_s_score_is_explained_as_the_score_before_the_change(nb_id):
    import importlib

    _, metric, exercise = SHOWN[nb_id]
    _, old, new = changed_code.CHANGES[exercise]
    real = importlib.import_module(changed_code._module_name(metrics.show_code(metric).path))
    copy = changed_code.changed_core(metric, old, old)      # the line "changed" to itself: the library's code
    assert copy is not real and copy.__name__ == real.__name__
    before = exercises.get(exercise).diagnose
    answer = exercises.get(exercise).answer()
    # the number the code gives as it is differs from the changed one, and is explained as such
    probe = {"cp-7": 0.5833333, "cr-6": 0.75, "crel-6": 9 / 11, "cer-6": 0.5, "faith-7": 0.75, "ar-6": 1.6 / 3,
             "ac-6": 0.975, "rank-8": 7 / 18}[exercise]   # worked by hand from the stated cases
    assert abs(probe - answer) > 1e-3
    assert before is not None and "before the change" in before(probe, answer)


def test_the_changed_numbers_follow_from_the_arithmetic():
    # cp-7: without r_k every rank adds its precision@k; the sum is still divided by R
    rows = metrics.context_precision([0, 1, 1, 0, 0]).rows
    assert exercises.get("cp-7").answer() == pytest.approx(sum(r["precision_at_k"] for r in rows) / 2)
    assert exercises.get("cp-7").answer() > 1
    before = metrics.context_precision([0, 1, 1, 0, 0]).score
    assert "before the change" in exercises.check("cp-7", before).message
    # crel-6: one verdict per node (any statement relevant): 3 of deck A's 5 nodes
    assert exercises.get("crel-6").answer() == pytest.approx(3 / 5)
    # cer-6: the repeats counted: 1 of 3
    assert exercises.get("cer-6").answer() == pytest.approx(1 / 3, abs=1e-6)
    # faith-7: idk worth a half
    assert exercises.get("faith-7").answer() == pytest.approx((1 + 0.5 + 0 + 0.5) / 4)
    # ar-6: any flag zeroes the score (older Ragas' np.any)
    assert exercises.get("ar-6").answer() == 0.0
    # ac-6: F = 0 for no statements, blended with the similarity
    assert exercises.get("ac-6").answer() == pytest.approx(0.25 * 0.9)
    # rank-8: D = R, DeepEval's context precision
    assert exercises.get("rank-8").answer() == pytest.approx(metrics.context_precision([0, 1, 1, 0, 0]).score)
    # the library itself is untouched by the changed copies
    assert metrics.context_precision([0, 1, 1, 0, 0]).score == before


def test_a_change_of_a_line_that_is_not_there_names_the_exercise_to_update():
    from ragmetrics_edu import InputError

    with pytest.raises(InputError, match="update the exercise"):
        changed_code.changed_core("context_precision", "term = nowhere", "term = 1")
    with pytest.raises(InputError, match="occurs [0-9]+ times"):   # blank lines: many
        changed_code.changed_core("context_precision", "", "x = 1")


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
