"""Notebook 13's data: the project's references and its annotator's reading (a language model's), and what
the notebook prints and says."""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO
from ragmetrics_edu import data
from ragmetrics_edu.course import capstone, capstone_summary, diagnosis
from ragmetrics_edu.retrieval.corpus import load_corpus

NOTEBOOK = REPO / "notebooks" / "13_capstone_diagnose_a_rag_system.ipynb"


def _questions():
    return {q.id: q for q in load_corpus().questions}


def test_every_answerable_capstone_question_has_a_reference_from_its_grade_2_passages():
    refs, questions = capstone.references(), _questions()
    answerable = [q for q in capstone.QUESTIONS if any(g == 2 for g in questions[q].qrels.values())]
    assert set(answerable) <= set(refs)
    for qid, entry in refs.items():
        grade_2 = {p for p, g in questions[qid].qrels.items() if g == 2}
        assert set(entry["supported_by"]) == grade_2, qid
        assert entry["reference"].strip() and entry["rationale"].strip(), qid
        assert 1 <= entry["reference"].count(". ") + 1 <= 3, f"{qid}: one to three sentences"


def test_the_unanswerable_question_has_no_reference():
    assert "q51" in capstone.QUESTIONS and "q51" not in capstone.references()
    assert not any(g == 2 for g in _questions()["q51"].qrels.values())


def _reading_document():
    with open(data.path("capstone_diagnosis.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_the_annotators_reading_covers_existing_rows_with_known_tags_and_a_note():
    doc = _reading_document()
    assert doc["about"].strip()
    keys = {(r["question"], r["system"]) for r in capstone.scored()}
    seen = set()
    for row in doc["rows"]:
        key = (row["question"], row["system"])
        assert key in keys and key not in seen, key
        seen.add(key)
        assert set(row["tags"]) <= set(diagnosis.TAGS), key
        assert row["note"].strip() and len(row["note"]) <= 300, key


def test_the_annotators_reading_covers_the_lowest_rows():
    hand = diagnosis.annotator_diagnosis()
    lowest = diagnosis.sort_rows(capstone.scored(), by="mean")[:6]
    assert all((r["question"], r["system"]) in hand for r in lowest)


def _outputs(nb):
    """The printed (stream) outputs: what the 100-column limit is about."""
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                yield "".join(out.get("text", ""))


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="notebook 13 not written")
def test_notebook_prints_the_library_counts_and_names_its_sources():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    text = "\n".join(_outputs(nb))
    table = diagnosis.text_table(capstone_summary.tag_table(diagnosis.tag_rows(capstone.scored()), by="system"),
                                 ["tag", *capstone.SYSTEMS, "all"])
    assert table in text
    source = "\n".join("".join(c["source"]) for c in nb["cells"])
    assert 'course_plan.opening("13")' in source and 'course_plan.closing("13")' in source
    assert "recorded from Qwen2.5-Coder-1.5B" in source and "exercises.solution(" in source
    assert all(len(line) <= 100 for line in text.splitlines()), "a printed line is wider than 100 columns"


def _notebook():
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def _markdown_text(nb):
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_readings_data_says_its_annotators_are_language_models():
    for name in ("capstone_diagnosis.json", "capstone_references.json"):
        with open(data.path(name), encoding="utf-8") as handle:
            about = json.load(handle)["about"]
        assert "language model" in about and "by hand" not in about.lower(), name


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="notebook 13 not written")
def test_notebook_never_calls_the_annotators_reading_hand_made_or_human():
    nb = _notebook()
    text = _markdown_text(nb) + "\n".join(_outputs(nb)) + "\n".join(
        "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    for phrase in ("by hand", "hand reading", "hand-made", "human", "hand only", "read by hand"):
        assert phrase not in text.lower(), phrase
    assert "a language model" in _markdown_text(nb)


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="notebook 13 not written")
def test_notebook_opens_with_the_take_away_computed_by_the_library():
    nb = _notebook()
    headings = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown" and "".join(c["source"]).startswith("## ")]
    first = "".join(nb["cells"][headings[0]]["source"])
    assert "take-away" in first.lower(), "the take-away comes first, then the evidence"
    code = "".join(nb["cells"][headings[0] + 1]["source"])
    assert "capstone_summary.takeaway_lines(" in code
    printed = " ".join("".join(o.get("text", "")) for o in nb["cells"][headings[0] + 1].get("outputs", []))
    summary = capstone_summary.takeaway(capstone.scored())
    parts = summary["components"]
    cp = summary["context_precision"]
    flat_text = " ".join(printed.split())
    assert f"of the {sum(parts.values())} failure tags" in flat_text
    assert f"raised context precision on {cp['better']} of {cp['n']} questions" in flat_text
    assert "too few to tell" in flat_text


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="notebook 13 not written")
def test_notebook_gives_no_interval_on_under_ten_questions_and_no_project_history():
    nb = _notebook()
    printed = "\n".join(_outputs(nb))
    assert "too few to tell" in printed
    assert "95% interval [" not in printed and "interval of the mean difference [" not in printed
    assert "bootstrap_ci(values, n_resamples" not in "".join("".join(c["source"]) for c in nb["cells"])
    history = re.findall(r"\b(?:issue|turn|we first tried|now catches)\b", _markdown_text(nb), re.I)
    assert history == [], f"project history in a lesson: {history}"


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="notebook 13 not written")
def test_notebook_is_saved_with_the_exercise_answers_empty_and_its_answers_hidden():
    nb = _notebook()
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "exercises.check(" in source:
            assert "answer = None" in source, source[:80]
        for out in cell.get("outputs", []):
            shown = "".join(out.get("text", "")) + json.dumps(out.get("data", {}), ensure_ascii=False)
            assert "✅" not in shown and "correct=True" not in shown, source[:80]
    predicts = [c for c in nb["cells"] if c["cell_type"] == "markdown" and "**Predict:**" in "".join(c["source"])]
    assert len(predicts) >= 2
    for cell in predicts:
        assert "<details><summary>Answer" in "".join(cell["source"])
