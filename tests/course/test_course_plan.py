"""The course plan: every notebook has objectives, take-aways, where next and real reading."""


import re

import pytest

from conftest import REPO
from ragmetrics_edu import InputError
from ragmetrics_edu.course import course_plan, glossary

NOTEBOOKS = REPO / "notebooks"
#: The notebooks this helper owns: each shows the plan's opening and closing.
OWNED = ["00", "04", "05", "06", "07", "08", "09", "12"]
#: Every id of the plan, in course order: 00-15, then the capstone 16.
PLAN_IDS = [f"{i:02d}" for i in range(17)]


def _present_ids():
    return sorted({p.name[:2] for p in NOTEBOOKS.glob("*.ipynb")})


def test_every_notebook_present_and_the_lead_s_10_11_15_have_an_entry():
    assert set(_present_ids()) | {"10", "11", "15"} <= set(course_plan.ids())
    assert course_plan.ids() == PLAN_IDS


@pytest.mark.parametrize("notebook_id", PLAN_IDS)
def test_each_entry_is_complete(notebook_id):
    nb = course_plan.get(notebook_id)
    assert nb.title and nb.summary and 5 <= nb.minutes <= 120
    assert 2 <= len(nb.objectives) <= 4
    assert nb.takeaways and nb.mistakes and nb.terms
    assert all(p < notebook_id for p in nb.prerequisites), "a prerequisite comes earlier in the course"
    assert nb.prerequisites or notebook_id == "00"
    assert len(nb.reading) >= 2 and all(r.ref for r in nb.reading)
    assert all(r.url.startswith("https://") for r in nb.reading if r.url)


@pytest.mark.parametrize("notebook_id", PLAN_IDS)
def test_where_next_lists_every_later_notebook_in_the_closing(notebook_id):
    later = [i for i in course_plan.ids() if i > notebook_id]
    assert [n.id for n in course_plan.where_next(notebook_id)] == later
    md, plain = course_plan.closing_markdown(notebook_id), course_plan.closing_text(notebook_id)
    for i in later:
        label = course_plan.get(i).label
        assert label in md and label in plain
    if not later:
        assert "last notebook" in md


def test_the_references_the_issue_asks_for_are_cited_where_they_belong():
    def reading(i):
        return " ".join(r.ref + " " + r.url for r in course_plan.get(i).reading)

    assert "Manning, Raghavan & Schütze" in reading("08") and "ch. 8" in reading("08")
    assert "Järvelin & Kekäläinen" in reading("08")
    assert "2309.15217" in reading("05")
    assert "deepeval.com/docs/metrics-faithfulness" in reading("05")
    assert "docs.ragas.io/en/stable/concepts/metrics/available_metrics/faithfulness" in reading("05")
    assert all("Judging LLM-as-a-Judge" in reading(i) for i in ("10", "11"))
    assert "Efron & Tibshirani" in reading("09") and "Smucker" in reading("09")


def test_the_opening_shows_objectives_prerequisite_time_and_terms_with_the_glossary_hint():
    md, plain = course_plan.opening_markdown("05"), course_plan.opening_text("05")
    nb = course_plan.get("05")
    for text in (md, plain):
        assert all(o in text for o in nb.objectives)
        assert "02 · Context recall" in text and f"about {nb.minutes} minutes" in text
        assert 'glossary.define("term")' in text and "idk verdict" in text


def test_the_closing_tells_a_stuck_student_about_the_solution():
    for notebook_id in course_plan.ids():
        assert "exercises.solution(" in course_plan.closing_markdown(notebook_id)
        assert "exercises.solution(" in course_plan.closing_text(notebook_id)


def test_opening_and_closing_print_plain_text_outside_jupyter(capsys):
    course_plan.opening("07")
    course_plan.closing("07")
    out = capsys.readouterr().out
    assert out.startswith("Notebook 07 · ") and "Take-aways" in out and "**" not in out


@pytest.mark.parametrize("asked", ["05", 5, "5", "05_faithfulness"])
def test_a_notebook_is_found_by_its_id_number_or_file_name(asked):
    assert course_plan.get(asked).title == "Faithfulness"


@pytest.mark.parametrize("bad", ["17", "99", "x", "", None, 5.0, True, "05x", [5]])
def test_an_unknown_notebook_id_is_an_input_error(bad):
    with pytest.raises(InputError) as caught:
        course_plan.opening(bad)
    assert caught.value.field == "notebook_id" and "00" in caught.value.expected


def test_every_term_of_every_opening_is_a_glossary_entry_and_appears_in_the_opening():
    for notebook_id in course_plan.ids():
        md = course_plan.opening_markdown(notebook_id)
        for term in course_plan.get(notebook_id).terms:
            assert glossary.get(term).name == term and term in md


def test_the_plan_data_ship_with_the_package():
    from fnmatch import fnmatch

    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    globs = re.search(r'^ragmetrics_edu = \[(.*)\]$', text, re.M).group(1)
    assert any(fnmatch("data/course_plan.json", g.strip().strip('"')) for g in globs.split(","))


# --- the time rule (course.time_plan) -------------------------------------------------------------------------

#: the lessons whose time comes from the written rule (issue 44: four 2-hour classes)
TIMED_BY_RULE = ["13", "14", "15", "16"]


def test_the_time_rule_adds_reading_exercises_figures_and_cells_and_rounds_up_to_five():
    from ragmetrics_edu.course import time_plan

    # 750 words at 75 a minute = 10, 2 exercises = 10, 3 figures = 6, 10 cells = 5: 31 minutes, rounded up to 35
    assert time_plan.minutes(750, 2, 3, 10) == 35
    assert time_plan.minutes(750, 0, 0, 0) == 10          # exactly on a multiple of 5 stays there
    assert time_plan.minutes(0, 0, 0, 0) == 0
    with pytest.raises(InputError):
        time_plan.minutes(-1, 0, 0, 0)
    with pytest.raises(InputError):
        time_plan.minutes(1.5, 0, 0, 0)


def test_the_counts_split_class_and_appendix_and_count_what_the_rule_reads():
    from ragmetrics_edu.course import time_plan

    nb = {"cells": [
        {"cell_type": "markdown", "source": ["# A title\n", "two words"]},
        {"cell_type": "code", "source": "exercises.check('x', None)",
         "outputs": [{"output_type": "stream", "text": ["one two three\n"]}]},
        {"cell_type": "code", "source": "plot()", "outputs": [{"output_type": "display_data",
                                                              "data": {"image/png": "...", "text/plain": "<Figure>"}}]},
        {"cell_type": "markdown", "source": "## Appendix: more\nfour words here now"},
        {"cell_type": "code", "source": "x = 1", "outputs": []},
    ]}
    found = time_plan.counts(nb)
    assert found["class"] == {"words": 2 + 2 + 3, "exercises": 1, "figures": 1, "code_cells": 2}
    assert found["appendix"] == {"words": 2 + 4, "exercises": 0, "figures": 0, "code_cells": 1}
    with pytest.raises(InputError):
        time_plan.counts({"no": "cells"})


@pytest.mark.parametrize("notebook_id", TIMED_BY_RULE)
def test_lessons_13_to_16_take_the_time_the_rule_gives_their_notebooks_and_fit_a_2_hour_class(notebook_id):
    import json

    from ragmetrics_edu.course import time_plan

    nb = course_plan.get(notebook_id)
    assert nb.by_rule
    path = next(NOTEBOOKS.glob(f"{notebook_id}_*.ipynb"))
    fresh = time_plan.counts(json.loads(path.read_text(encoding="utf-8")))
    # the stored counts may lag a small edit; a larger one must refresh them (python -m ragmetrics_edu.course.time_plan)
    assert abs(time_plan.minutes(**fresh["class"]) - nb.minutes) <= 10, f"refresh the counts of {path.name}"
    assert abs(time_plan.minutes(**fresh["appendix"]) - nb.appendix_minutes) <= 10
    assert nb.minutes <= 120, "a lesson of 13-16 is planned as one 2-hour class"
    assert time_plan.RULE in course_plan.opening_text(notebook_id).replace("\n", " ")
