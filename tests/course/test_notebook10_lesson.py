"""Notebook 10 and deck 10 follow the rules they teach (issue 19, items 8 and 9)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ragmetrics_edu.course import bridges

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "10_llm_as_judge.ipynb"
DECK = REPO / "slides" / "10_llm_as_judge.ipynb"
#: a full version of a peer library cited in prose: "DeepEval 4.3.1", "Ragas 0.4.3"
CITED = re.compile(r"\b(DeepEval|deepeval|Ragas|ragas) (\d+\.\d+\.\d+(?:\+\d+)?)")
#: the Ragas versions deck E's era is cited from (bridges.json "ragas-0.1*" sources)
DECK_E_ERA = {s["version"] for k, s in bridges.sources().items() if k.startswith("ragas-0.1")}


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _text(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _outputs(cell: dict) -> str:
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append("".join(o["text"]))
        for value in o.get("data", {}).values():
            out.append(value if isinstance(value, str) else "".join(value) if isinstance(value, list) else "")
    return "\n".join(out)


def test_peer_versions_come_from_the_bridges_sources():
    assert bridges.PEER_VERSIONS == bridges.peer_versions()
    src = bridges.sources()
    assert bridges.PEER_VERSIONS == {"deepeval": src["deepeval"]["version"], "ragas": src["ragas"]["version"]}
    assert bridges.peer_versions_text() == (f"DeepEval {src['deepeval']['version']} and "
                                           f"Ragas {src['ragas']['version']}")


def test_notebooks_05_to_15_decks_and_readme_cite_the_peer_versions_the_bridges_were_checked_against():
    allowed = {"deepeval": {bridges.PEER_VERSIONS["deepeval"]}, "ragas": {bridges.PEER_VERSIONS["ragas"]} | DECK_E_ERA}
    paths = [p for p in sorted((REPO / "notebooks").glob("*.ipynb")) if "05" <= p.name[:2] <= "16"]
    paths += sorted((REPO / "slides").glob("[0-9]*.ipynb")) + [REPO / "README.md"]
    wrong = []
    for path in paths:
        if path.suffix == ".ipynb":
            texts = [_text(c) for c in _cells(path)] + [_outputs(c) for c in _cells(path)]
        else:
            texts = [path.read_text(encoding="utf-8")]
        for text in texts:
            wrong += [f"{path.name}: {m.group(0)}" for m in CITED.finditer(text)
                      if m.group(2) not in allowed[m.group(1).lower()]]
    assert wrong == []


def test_notebook_10_prints_within_100_columns_and_never_a_whole_sha256():
    for i, cell in enumerate(_cells(NOTEBOOK)):
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                for line in "".join(o["text"]).splitlines():
                    assert len(line) <= 100, (i, line)
        assert not re.search(r"[0-9a-f]{64}", _outputs(cell)), f"cell {i} prints a whole sha256"


def test_notebook_10_has_a_figure_take_away_first_and_no_project_history():
    cells = _cells(NOTEBOOK)
    assert any("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", [])), "no figure"
    assert "take-away" in _text(cells[0]).lower()
    prose = "\n".join(_text(c) for c in cells if c["cell_type"] == "markdown").lower()
    for history in ("issue", "an earlier version", "we first tried", "first prompts", "hand verdicts"):
        assert history not in prose, history


def test_notebook_10_gives_no_interval_under_ten_cases_and_says_only_what_was_measured():
    cells = _cells(NOTEBOOK)
    table = next(_outputs(c) for c in cells if "% interval (cases)" in _outputs(c))
    for line in table.splitlines()[1:]:
        parts = line.split()
        if len(parts) > 3 and parts[1].isdigit() and parts[2].isdigit() and int(parts[1]) > 0 and int(parts[2]) < 10:
            assert "too few to tell" in line and "[" not in line, line
    everything = "\n".join(_text(c) + _outputs(c) for c in cells)
    assert "makes the judge deterministic" not in everything
    assert re.search(r"temperature +0: (\d+) of \1 recorded replies the same in all 3 runs", everything)


def test_notebook_10_replays_the_claims_design_by_name_and_is_saved_with_answers_empty():
    cells = _cells(NOTEBOOK)
    code = "\n".join(_text(c) for c in cells if c["cell_type"] == "code")
    asked = re.findall(r"metrics=\[([^\]]*)\]", code)
    assert asked and all('"faithfulness"' in m for m in asked)  # the claims design's one name
    assert all('"faithfulness_claims"' not in m and '"word_overlap"' not in m for m in asked)
    for cell in cells:
        assert "✅" not in _outputs(cell) and "correct=True" not in _outputs(cell)
        if "exercises.check(" in _text(cell):
            assert re.search(r"^answer = None", _text(cell), re.M), _text(cell)
    prose = [_text(c) for c in cells if c["cell_type"] == "markdown"]
    for text in prose:
        if "**Predict.**" in text:
            after = text.split("**Predict.**", 1)[1]
            assert "<details><summary>Answer</summary>" in after


def test_deck_10_titles_state_a_message_and_keep_provenance_off_the_slides():
    cells = _cells(DECK)
    titles = [_text(c).splitlines()[0] for c in cells
              if c["cell_type"] == "markdown" and c["metadata"].get("slideshow", {}).get("slide_type") == "slide"]
    content = [t for t in titles[1:] if "Take-aways" not in t]
    assert content and all(len(t.split()) >= 6 for t in content), content
    code = "\n".join(_text(c) for c in cells if c["cell_type"] == "code")
    assert "sha256" not in code
    assert "too few to tell" in code


def test_notebook_10_names_where_the_default_faithfulness_was_chosen():
    # issue 37: the default faithfulness is word overlap, chosen in notebook 14, not "the design chosen in notebook 11"
    from ragmetrics_edu.course.metric_map import MAP

    row = MAP["word_overlap"]
    assert row.name.startswith("word overlap") and row.notebook == "14"
    prose = " ".join(" ".join(_text(c) for c in _cells(NOTEBOOK) if c["cell_type"] == "markdown").split())
    assert "the design chosen in notebook 11" not in prose
    assert "word overlap (`\"word_overlap\"`, no judge), the design notebook 14 chooses against people's labels" in prose
