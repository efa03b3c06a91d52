"""After Run All, every explorer a notebook shows is still at its starting example.

The prose beside an explorer describes the example it starts from ("it holds deck A's five nodes",
"it starts from deck E's low answer"). A later cell that drives an explorer from code must use an
instance of its own, so the one on the student's screen is untouched until the student touches it.

Each notebook is run top to bottom in a fresh kernel (as Run All does); then one more cell looks at
every explorer a cell displayed (IPython's ``Out``: the value a cell ends with) and asks it whether it
is at its start (``explorer.at_start``: order, verdicts, metric, variant, switches, case, as built).
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"

#: Notebook -> how many explorers it displays (so a probe that finds none cannot pass).
DISPLAYED = {
    "00_start_here.ipynb": 1,
    "01_context_precision.ipynb": 2,
    "02_context_recall.ipynb": 2,
    "03_contextual_relevancy.ipynb": 1,
    "04_context_entity_recall.ipynb": 1,
    "05_faithfulness.ipynb": 1,
    "06_answer_relevancy.ipynb": 1,
    "08_ranking_measures.ipynb": 1,
    "09_evaluate_a_retriever.ipynb": 2,
}

PROBE = """
import json as _json
from ragmetrics_edu.widgets._common import Explorer as _Explorer
print("RME-EXPLORERS", _json.dumps([[number, type(value).__name__, bool(value.at_start)]
                                    for number, value in sorted(Out.items()) if isinstance(value, _Explorer)]))
"""


def explorers_after_run_all(path: Path) -> list[list]:
    """[cell execution count, explorer class, at its start] for each explorer a cell displayed."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    probe = nbformat.v4.new_code_cell(PROBE)
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        notebook.cells.append(probe)
        client.execute_cell(probe, len(notebook.cells) - 1)
    text = "".join(out.get("text", "") for out in probe.outputs if out.get("output_type") == "stream")
    line = next((ln for ln in text.splitlines() if ln.startswith("RME-EXPLORERS ")), None)
    assert line is not None, f"the probe printed no list: {probe.outputs}"
    return json.loads(line.removeprefix("RME-EXPLORERS "))


@pytest.mark.parametrize("name", list(DISPLAYED))
def test_each_displayed_explorer_is_at_its_starting_example_after_run_all(name: str) -> None:
    shown = explorers_after_run_all(NOTEBOOKS / name)
    assert len(shown) == DISPLAYED[name], f"{name}: expected {DISPLAYED[name]} displayed explorers, found {shown}"
    moved = [f"cell [{number}] {kind}" for number, kind, at_start in shown if not at_start]
    assert moved == [], (f"{name}: after Run All these displayed explorers are no longer at their starting "
                         f"example (a later cell drove them from code): {', '.join(moved)}")
