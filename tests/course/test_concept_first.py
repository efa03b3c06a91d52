"""Notebooks 01-03 are lessons, not audits (issue 13, items 1, 2, 4, 5): the plan's opening and
closing, no section per deck, one compact table holding every deck example of the metric, the
decomposition explorer, the named averages and an analysis exercise."""

import json
import re

import pytest

from conftest import REPO
from ragmetrics_edu import examples

NOTEBOOKS = REPO / "notebooks"
#: notebook id -> (file stem, the catalogue metric its table must cover, its analysis exercise)
CONCEPT_FIRST = {
    "01": ("01_context_precision", "context_precision", "cp-6"),
    "02": ("02_context_recall", "context_recall", "cr-5"),
    "03": ("03_contextual_relevancy", "contextual_relevancy", "crel-5"),
}


def _cells(stem):
    return json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


def _source(cell):
    return "".join(cell["source"])


@pytest.mark.parametrize("nb_id", sorted(CONCEPT_FIRST))
def test_opens_with_the_plan_after_the_title_and_closes_with_it(nb_id):
    cells = _cells(CONCEPT_FIRST[nb_id][0])
    assert cells[0]["cell_type"] == "markdown" and _source(cells[0]).startswith("# ")
    assert f'course_plan.opening("{nb_id}")' in _source(cells[1])
    # the closing is the last cell of the class part: an appendix (reference, read after class) may follow it
    appendix = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and _source(c).startswith("## Appendix")]
    assert f'course_plan.closing("{nb_id}")' in _source(cells[appendix[0] - 1 if appendix else -1])


@pytest.mark.parametrize("nb_id", sorted(CONCEPT_FIRST))
def test_no_section_per_deck_and_one_table_with_every_deck_example(nb_id):
    stem, metric, _ = CONCEPT_FIRST[nb_id]
    cells = _cells(stem)
    headings = [line for c in cells if c["cell_type"] == "markdown" for line in _source(c).splitlines()
                if line.startswith("#")]
    assert [h for h in headings if re.match(r"#+ (\d+[a-z]?\. )?Deck [A-E]\b", h)] == []
    tables = [_source(c) for c in cells if c["cell_type"] == "code" and "deck_table.show(" in _source(c)]
    assert len(tables) == 1, "one compact table per notebook"
    shown = set(re.findall(r'"([A-E]-[a-z0-9-]+)"', tables[0].split("notes=")[0]))
    expected = {i for i in examples.ids() if examples.load(i).metric == metric}
    assert shown == expected


@pytest.mark.parametrize("nb_id", sorted(CONCEPT_FIRST))
def test_an_analysis_exercise_is_asked(nb_id):
    _, _, exercise = CONCEPT_FIRST[nb_id]
    code = "\n".join(_source(c) for c in _cells(CONCEPT_FIRST[nb_id][0]) if c["cell_type"] == "code")
    assert f'exercises.check("{exercise}", answer)' in code


def test_notebook_02_holds_the_decomposition_explorer_with_its_hint_and_both_deck_cases():
    cells = _cells("02_context_recall")
    code = [c for c in cells if c["cell_type"] == "code"]
    shown = next(c for c in code if "DecomposeExplorer(" in _source(c))
    plain = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in shown["outputs"])
    assert "DecomposeExplorer: run this cell in Jupyter" in plain
    text = "\n".join(_source(c) for c in code)
    assert '"A-cr-what-is-ai"' in text and '"E-faith-einstein"' in text
    prose = " ".join(_source(c) for c in cells if c["cell_type"] == "markdown")
    assert "how it was cut into" in prose


def test_notebook_03_defines_micro_and_macro_averages_before_using_them():
    prose = [_source(c) for c in _cells("03_contextual_relevancy") if c["cell_type"] == "markdown"]
    first_use = next(i for i, text in enumerate(prose) if "micro average" in text)
    assert "**micro average**" in prose[first_use] and "**macro average**" in prose[first_use]


@pytest.mark.parametrize("nb_id", sorted(CONCEPT_FIRST))
def test_title_and_stored_opening_are_the_plans(nb_id):
    from ragmetrics_edu.course import course_plan

    cells = _cells(CONCEPT_FIRST[nb_id][0])
    assert _source(cells[0]).splitlines()[0] == f"# {course_plan.get(nb_id).label}"
    shown = "".join(cells[1]["outputs"][0]["data"]["text/markdown"])
    assert shown == course_plan.opening_markdown(nb_id), "re-execute the notebook after changing the plan"
    assert "text/markdown" in json.dumps(cells[-1]["outputs"])


#: Glossary terms the notebooks also use in their everyday sense (as in tests/course/test_course_openings.py).
EVERYDAY = {"flip", "agreement"}


@pytest.mark.parametrize("nb_id", sorted(CONCEPT_FIRST))
def test_every_glossary_term_used_is_listed_in_this_or_an_earlier_opening(nb_id):
    from ragmetrics_edu.course import course_plan, glossary

    prose = " ".join(_source(c) for c in _cells(CONCEPT_FIRST[nb_id][0]) if c["cell_type"] == "markdown").lower()
    listed = {t for i in course_plan.ids() if i <= nb_id for t in course_plan.get(i).terms}
    unlisted = {}
    for term in glossary.TERMS:
        if term.name in EVERYDAY or term.name in listed:
            continue
        for m in re.finditer(rf"(?<![\w@-]){re.escape(term.name.lower())}(?![\w@-])", prose):
            # a pointer to the notebook that teaches the term ("... (notebook 05)") is not a use
            if not re.search(r"notebook \d\d", prose[max(0, m.start() - 160):m.end() + 40]):
                unlisted.setdefault(term.name, prose[max(0, m.start() - 60):m.end() + 20])
    assert unlisted == {}
