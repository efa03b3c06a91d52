"""The notebooks this helper owns open and close with the course plan (issue 13, item 1)."""

import json
import re

import pytest

from conftest import REPO
from ragmetrics_edu.course import course_plan, glossary, time_plan

NOTEBOOKS = REPO / "notebooks"
#: The notebooks whose openings and closings come from the plan (01-03 are restructured separately;
#: 10, 11 and 15 are the lead's).
OWNED = ["00", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16"]


def _notebook(notebook_id):
    path = next(NOTEBOOKS.glob(f"{notebook_id}_*.ipynb"))
    return json.loads(path.read_text(encoding="utf-8"))


def _code(nb):
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def _calls(nb, name, notebook_id):
    pattern = re.compile(rf'course_plan\.{name}\("{notebook_id}"\)')
    return [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and pattern.search("".join(c["source"]))]


@pytest.mark.parametrize("notebook_id", OWNED)
def test_each_owned_notebook_opens_with_the_plan_right_after_its_title_and_closes_with_it(notebook_id):
    nb = _notebook(notebook_id)
    cells = nb["cells"]
    opening, closing = _calls(nb, "opening", notebook_id), _calls(nb, "closing", notebook_id)
    assert cells[0]["cell_type"] == "markdown" and "".join(cells[0]["source"]).startswith(f"# {notebook_id} ")
    assert opening == [1], f"{notebook_id}: the opening is the cell after the title"
    # An appendix (time_plan.APPENDIX: read outside the class) may follow the closing; nothing else may.
    appendix = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
                and "".join(c["source"]).startswith(time_plan.APPENDIX)]
    end = appendix[0] if appendix else len(cells)
    assert closing == [end - 1], f"{notebook_id}: the closing is the last cell (before any appendix)"
    for i in opening + closing:
        shown = json.dumps(cells[i].get("outputs", []))
        assert "text/markdown" in shown, f"{notebook_id}: cell {i} stored executed, rendered as Markdown"


@pytest.mark.parametrize("notebook_id", OWNED)
def test_the_stored_opening_lists_the_plan_s_objectives_and_terms(notebook_id):
    cell = _notebook(notebook_id)["cells"][1]
    shown = "".join(cell["outputs"][0]["data"]["text/markdown"])
    assert shown == course_plan.opening_markdown(notebook_id), "re-execute the notebook after changing the plan"


def test_every_owned_notebook_with_a_title_in_the_plan_uses_the_plan_s_title():
    for notebook_id in OWNED:
        title = "".join(_notebook(notebook_id)["cells"][0]["source"]).splitlines()[0]
        assert title == f"# {course_plan.get(notebook_id).label}", (notebook_id, title)


def test_notebook_00_shows_the_course_map_and_the_glossary_after_its_opening():
    code = _code(_notebook("00"))
    opening = next(i for i, c in enumerate(code) if "course_plan.opening(" in c)
    shown = next(i for i, c in enumerate(code) if "glossary.show()" in c)
    assert opening < shown and "course_plan.overview()" in code[shown]
    cell = next(c for c in _notebook("00")["cells"] if "glossary.show()" in "".join(c["source"]))
    tables = [o for o in cell["outputs"] if "text/markdown" in o.get("data", {})]
    assert len(tables) == 2 and "".join(tables[1]["data"]["text/markdown"]) == glossary.markdown()


def test_notebook_00_defines_classic_average_precision_before_it_uses_total_relevant():
    cells = _notebook("00")["cells"]
    first_use = next(i for i, c in enumerate(cells) if c["cell_type"] == "code" and "total_relevant" in "".join(c["source"]))
    before = " ".join("".join(c["source"]) for c in cells[:first_use] if c["cell_type"] == "markdown")
    assert "classic average precision" in before and "`total_relevant=3`" in before


@pytest.mark.parametrize("notebook_id, exercise_ids", [
    ("04", ["cer-5"]), ("05", ["faith-5", "faith-6"]), ("06", ["ar-5"]), ("07", ["ac-5"]),
    ("08", ["rank-6", "rank-7"]), ("09", ["ret-4"]),
])
def test_each_metric_notebook_asks_its_judgement_exercises(notebook_id, exercise_ids):
    code = "\n".join(_code(_notebook(notebook_id)))
    for exercise_id in exercise_ids:
        assert f'exercises.check("{exercise_id}", answer)' in code
        assert f'exercises.get("{exercise_id}").question' in code


#: Glossary terms the notebooks also use in their everyday sense ("flip a verdict", "agreement with the
#: context"), which the check below would otherwise take for the technical one.
EVERYDAY = {"flip", "agreement"}


@pytest.mark.parametrize("notebook_id", OWNED)
def test_every_glossary_term_a_notebook_uses_is_listed_in_its_opening_or_an_earlier_one(notebook_id):
    nb = _notebook(notebook_id)
    prose = " ".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown").lower()
    listed = {t for i in course_plan.ids() if i <= notebook_id for t in course_plan.get(i).terms}
    used = [t.name for t in glossary.TERMS if t.name not in EVERYDAY
            and re.search(rf"(?<![\w@-]){re.escape(t.name.lower())}(?![\w@-])", prose)]
    assert [t for t in used if t not in listed] == []
