"""The course as a whole: every notebook present, every worked example shown in one."""

import json

from conftest import REPO
from ragmetrics_edu import examples

NOTEBOOKS = REPO / "notebooks"
EXPECTED = ["00_start_here", "01_context_precision", "02_context_recall", "03_contextual_relevancy",
            "04_context_entity_recall", "05_faithfulness", "06_answer_relevancy", "07_similarity_and_correctness",
            "08_ranking_measures", "09_evaluate_a_retriever", "10_llm_as_judge"]


def _sources():
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(NOTEBOOKS.glob("*.ipynb"))}


def test_every_notebook_of_the_course_is_there():
    assert sorted(_sources()) == EXPECTED


def test_every_catalogue_example_is_reproduced_in_a_notebook():
    code = {name: "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
            for name, nb in _sources().items()}
    missing = [i for i in examples.ids() if not any(f'"{i}"' in text for text in code.values())]
    assert missing == []


def test_notebooks_are_stored_executed_small_and_without_machine_paths():
    for name, nb in _sources().items():
        cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert all(c.get("execution_count") is not None for c in cells), f"{name} has cells that never ran"
        assert len(json.dumps(nb["metadata"].get("widgets", {}))) < 50_000, f"{name} stores widget state"
        text = json.dumps(nb)
        for marker in ("/work/", "/tmp/", "/root/"):
            assert marker not in text, f"{name} shows a machine path {marker}"
        checked = [c for c in cells if "nbval-check-output" in c["metadata"].get("tags", [])]
        assert len(checked) >= 2, f"{name} checks too little"


def test_test_markers_are_cell_tags_not_comments_in_the_students_code():
    for name, nb in _sources().items():
        for i, cell in enumerate(nb["cells"]):
            assert "NBVAL" not in "".join(cell["source"]), f"{name} cell {i} carries an nbval comment marker"
