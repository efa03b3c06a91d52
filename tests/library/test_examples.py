"""The worked-example catalogue: every id of WORKED_EXAMPLES.md, every stated number matched."""

import re

import pytest

from conftest import SHARED
from ragmetrics_edu import examples

WORKED = SHARED / "WORKED_EXAMPLES.md"


def deck_ids():
    text = WORKED.read_text(encoding="utf-8")
    return re.findall(r"^\| ([A-E]-[a-z0-9-]+) \|", text, flags=re.MULTILINE)


@pytest.mark.skipif(not WORKED.exists(), reason="../shared/WORKED_EXAMPLES.md is not beside this clone")
def test_catalogue_has_every_id_of_worked_examples_in_order():
    expected = deck_ids()
    assert len(expected) == 29
    assert examples.ids() == expected


@pytest.mark.parametrize("example_id", examples.ids())
def test_every_example_computes_and_matches_every_stated_number(example_id):
    ex = examples.load(example_id)
    result = ex.compute()
    assert 0.0 <= result.score <= 1.0
    assert ex.deck in "ABCDE" and ex.citation.startswith(f"Deck {ex.deck}")
    checks = ex.checks()
    for check in checks:
        assert check["matches"], f"{example_id} [{check['case']}] {check['quantity']}: deck {check['stated']}, computed {check['computed']}"
    if not checks:
        assert ex.stated is None
        assert ex.assumed, "an example without stated numbers must say what it assumes"
    if ex.embedding_dependent:
        assert "embedder" in (ex.note or "").lower() or "embedd" in (ex.assumed or "").lower()


def test_catalog_frame_and_headline_examples():
    frame = examples.catalog()
    assert list(frame.columns)[:7] == ["id", "deck", "metric", "stated", "computed", "matches", "checked"]
    assert len(frame) == 29
    assert frame["matches"].dropna().all()
    a = examples.load("A-cp-what-is-ai")
    assert a.stated == pytest.approx(0.5833, abs=5e-5)
    assert a.compute().score == pytest.approx(7 / 12)


def test_deck_slips_are_reproduced_at_deck_precision():
    taj = examples.load("E-cer-taj-mahal")
    rows = {(c["case"], c["quantity"]): c for c in taj.checks()}
    assert rows[("CE1", "score")]["computed"] == "0.666"  # truncated, as the deck prints it
    assert rows[("CE1", "score")]["exact"] == pytest.approx(2 / 3, abs=1e-7)
    table = examples.load("D-cp-order-table")
    assert [table.compute(label).score for label in table.case_labels] == pytest.approx([1, 5 / 6, 7 / 12, 1 / 3])


def test_examples_state_notes_for_known_slips():
    assert "0.666" in (examples.load("E-cer-taj-mahal").note or "") or "trunc" in (examples.load("E-cer-taj-mahal").note or "").lower()
    assert examples.load("C-faith-sun-high").note
    assert examples.load("E-cp-france-low").note
