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
    assert nb.title and nb.summary and nb.minutes is not None and nb.minutes >= 5   # the 90-minute limit: below
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

CLASS_LIMIT = 90   # issue 47: each lesson's class part fits a 90-minute class


def test_the_time_rule_adds_reading_skimming_exercises_figures_cells_and_methods_and_rounds_up_to_five():
    from ragmetrics_edu.course import time_plan

    # 750 words at 75 a minute = 10, 600 skimmed at 300 = 2, 2 exercises = 10, 3 figures = 6, 10 cells = 5,
    # 1 method = 3: 36 minutes, rounded up to 40
    assert time_plan.minutes(750, 600, 2, 3, 10, 1) == 40
    assert time_plan.minutes(750) == 10          # exactly on a multiple of 5 stays there
    assert time_plan.minutes(0) == 0
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(InputError):
            time_plan.minutes(bad)
    with pytest.raises(InputError):
        time_plan.minutes(0, methods=-2)


def test_the_rule_is_stated_in_words_from_its_constants():
    from ragmetrics_edu.course import time_plan

    for value in (time_plan.WORDS_PER_MINUTE, time_plan.SKIM_AFTER, time_plan.SKIM_WORDS_PER_MINUTE):
        assert f"{value}" in time_plan.RULE
    for value in (time_plan.PER_EXERCISE, time_plan.PER_FIGURE, time_plan.PER_CODE_CELL, time_plan.PER_METHOD):
        assert f"{value:g}" in time_plan.RULE
    assert time_plan.APPENDIX in time_plan.RULE and time_plan.METHOD_MARKER in time_plan.RULE


def _cell(kind, source, outputs=()):
    cell = {"cell_type": kind, "source": source}
    if kind == "code":
        cell["outputs"] = list(outputs)
    return cell


def _stream(words):
    return {"output_type": "stream", "text": " ".join(f"w{i}" for i in range(words)) + "\n"}


def test_the_counts_split_class_and_appendix_skim_long_output_and_keep_exercise_cells_in_the_exercise():
    from ragmetrics_edu.course import time_plan

    nb = {"cells": [
        _cell("markdown", ["# A title\n", "two words"]),
        _cell("code", "print(exercises.get('x').question)", [_stream(40)]),   # the exercise's, not a cell's
        _cell("code", "exercises.check('x', None)", [_stream(12)]),
        _cell("code", "plot()", [{"output_type": "display_data", "data": {"image/png": "...", "text/plain": "<F>"}}]),
        _cell("code", "table()", [_stream(time_plan.SKIM_AFTER + 25)]),      # long: 25 words skimmed
        _cell("code", "metrics.show_code('context_precision')\ndef wilson(k, n):\n    return k / n", []),
        _cell("code", "# method: Wilson interval\nmetrics.show_code('context_precision')", []),
        _cell("markdown", "## Appendix: more\nfour words here now"),
        _cell("code", "x = 1\n# Method: Wilson interval", [_stream(3)]),
        _cell("code", "# method: Brier score", []),
    ]}
    found = time_plan.counts(nb)
    assert found["class"] == {"words": 2 + 2 + time_plan.SKIM_AFTER, "skimmed": 25, "exercises": 1, "figures": 1,
                              "code_cells": 4, "methods": 3}
    # the appendix's method already explained in class is not new there
    assert found["appendix"] == {"words": 2 + 4 + 3, "skimmed": 0, "exercises": 0, "figures": 0, "code_cells": 2,
                                 "methods": 1}
    with pytest.raises(InputError):
        time_plan.counts({"no": "cells"})


def test_a_cells_printed_output_counts_as_one_however_the_kernel_chunked_it():
    # a kernel may send one print as two stream chunks, or two prints as one: the minutes must not change
    from ragmetrics_edu.course import time_plan

    whole = {"cells": [_cell("code", "report()", [_stream(time_plan.SKIM_AFTER + 40)])]}
    split = {"cells": [_cell("code", "report()", [_stream(time_plan.SKIM_AFTER - 10), _stream(50)])]}
    assert time_plan.counts(whole) == time_plan.counts(split)
    assert time_plan.counts(split)["class"]["skimmed"] == 40


def test_a_method_is_recognised_by_show_code_a_definition_or_the_marker():
    from ragmetrics_edu.course import time_plan

    assert time_plan.methods('metrics.show_code("faithfulness")') == ["faithfulness"]
    assert time_plan.methods("show_code(metrics.f_beta)") == ["metrics.f_beta"]
    assert time_plan.methods("def ece(p, y):\n    pass") == ["ece"]
    assert time_plan.methods("# method: Platt scaling") == ["platt scaling"]
    assert time_plan.methods("x = define(3)") == []


def _notebook_json(notebook_id):
    import json

    return json.loads(next(NOTEBOOKS.glob(f"{notebook_id}_*.ipynb")).read_text(encoding="utf-8"))


@pytest.mark.parametrize("notebook_id", PLAN_IDS)
def test_every_notebook_s_class_part_fits_90_minutes_by_the_rule(notebook_id):
    from ragmetrics_edu.course import time_plan

    found = time_plan.counts(_notebook_json(notebook_id))
    class_minutes = time_plan.minutes(**found["class"])
    assert 0 < class_minutes <= CLASS_LIMIT, (
        f"notebook {notebook_id}: {class_minutes} class minutes by the rule {found['class']}; move reference "
        f"material after a '{time_plan.APPENDIX}' heading, or split the lesson")


@pytest.mark.parametrize("notebook_id", PLAN_IDS)
def test_the_plan_s_time_is_the_rule_applied_to_the_notebook_file_as_it_is(notebook_id):
    from ragmetrics_edu.course import time_plan

    found = time_plan.counts(_notebook_json(notebook_id))
    nb = course_plan.get(notebook_id)
    assert nb.minutes == time_plan.minutes(**found["class"])
    assert nb.appendix_minutes == time_plan.minutes(**found["appendix"])
    assert f"about {nb.minutes} minutes of class" in course_plan.opening_text(notebook_id).replace("\n", " ")


def test_no_typed_time_is_left_in_the_plan_data():
    import json

    from conftest import REPO as repo

    raw = json.loads((repo / "ragmetrics_edu" / "data" / "course_plan.json").read_text(encoding="utf-8"))
    for notebook_id, entry in raw["notebooks"].items():
        assert "minutes" not in entry and "counts" not in entry, notebook_id


def test_a_missing_notebook_file_gives_no_time_rather_than_a_made_up_one(monkeypatch, tmp_path):
    from ragmetrics_edu.course import time_plan

    monkeypatch.setattr(time_plan, "_notebook_dirs", lambda: [tmp_path])
    assert time_plan.notebook_minutes("05") is None and course_plan.get("05").minutes is None
    assert "not found" in course_plan.opening_text("05")
    with pytest.raises(InputError):
        time_plan.notebook_path("5")


def test_the_workshop_path_fits_one_afternoon_and_starts_at_00():
    why, path = course_plan.workshop()
    assert path[0].id == "00" and why
    assert sum(nb.minutes for nb in path) <= course_plan.AFTERNOON
    assert [nb.id for nb in path] == sorted(nb.id for nb in path)


def test_notebook_00_s_stored_map_is_the_plan_computed_from_the_notebooks_now():
    cell = next(c for c in _notebook_json("00")["cells"] if "course_plan.overview()" in "".join(c["source"]))
    tables = ["".join(o["data"]["text/markdown"]) for o in cell["outputs"] if "text/markdown" in o.get("data", {})]
    assert tables, "notebook 00 stores its course map as Markdown"
    assert tables[0] == course_plan.overview_markdown(), (
        "notebook 00's stored course map is stale: re-execute notebook 00 (twice, since its own time is in the map)")


def test_the_map_gives_every_notebook_s_class_minutes_the_total_and_the_rule():
    from ragmetrics_edu.course import time_plan

    md = course_plan.overview_markdown()
    minutes = [course_plan.get(i).minutes for i in course_plan.ids()]
    for notebook_id, m in zip(course_plan.ids(), minutes, strict=True):
        assert f"| **{course_plan.get(notebook_id).label}** |" in md and f"| {m} min |" in md
    assert f"**{sum(minutes)} min (about {sum(minutes) / 60:.1f} hours)**" in md
    assert time_plan.RULE in md and "one-afternoon workshop" in md
    plain = course_plan.overview_text()
    assert f"{sum(minutes)} min" in plain and "one-afternoon workshop" in plain.replace("\n", " ")


def test_the_readme_s_course_plan_is_the_map_computed_now():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert course_plan.readme_part(readme) == course_plan.overview_markdown(), (
        "regenerate it: python -m ragmetrics_edu.course.course_plan --readme README.md")
    fresh = course_plan.with_readme_part(readme)
    assert fresh == readme
    with pytest.raises(InputError):
        course_plan.readme_part("no markers here")
