"""Notebook 13's data: the project's references and hand diagnosis, and what the notebook prints."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from ragmetrics_edu import data
from ragmetrics_edu.course import capstone, diagnosis
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


def _hand_document():
    with open(data.path("capstone_diagnosis.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_the_hand_diagnosis_reads_existing_rows_with_known_tags_and_a_note():
    doc = _hand_document()
    assert doc["about"].strip()
    keys = {(r["question"], r["system"]) for r in capstone.scored()}
    seen = set()
    for row in doc["rows"]:
        key = (row["question"], row["system"])
        assert key in keys and key not in seen, key
        seen.add(key)
        assert set(row["tags"]) <= set(diagnosis.TAGS), key
        assert row["note"].strip() and len(row["note"]) <= 300, key


def test_the_hand_diagnosis_covers_the_lowest_rows():
    hand = diagnosis.hand_diagnosis()
    lowest = diagnosis.sort_rows(capstone.scored(), by="mean")[:6]
    assert all((r["question"], r["system"]) in hand for r in lowest)


def _outputs(nb):
    """The printed (stream) outputs: what the 110-character limit is about."""
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                yield "".join(out.get("text", ""))


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="notebook 13 not written")
def test_notebook_prints_the_library_counts_and_names_its_sources():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    text = "\n".join(_outputs(nb))
    table = diagnosis.text_table(diagnosis.count_table(diagnosis.tag_rows(capstone.scored()), by="system"),
                                 ["system", *diagnosis.TAGS, "untagged", "rows"])
    assert table in text
    source = "\n".join("".join(c["source"]) for c in nb["cells"])
    assert 'course_plan.opening("13")' in source and 'course_plan.closing("13")' in source
    assert "recorded from Qwen2.5-Coder-1.5B" in source and "exercises.solution(" in source
    assert all(len(line) <= 110 for line in text.splitlines()), "a printed line is wider than 110 characters"
