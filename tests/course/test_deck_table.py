"""The compact deck table of notebooks 01-03: every stated number reproduced, slips named, nothing typed."""

import pytest

from ragmetrics_edu import InputError, examples
from ragmetrics_edu.course import deck_table


def test_every_stated_number_of_the_examples_is_counted_and_matched():
    ids = ["A-cp-what-is-ai", "B-cp-desert", "E-cer-taj-mahal", "E-crel-france"]
    table = deck_table.rows(ids)
    assert sum(r.checked for r in table) == sum(len(examples.load(i).checks()) for i in ids)
    assert all(r.ok for r in table)
    # one row per case, plus one per stated ordering
    expected = sum(len(examples.load(i).cases) + len(examples.load(i).relations) for i in ids)
    assert len(table) == expected


def test_the_row_shows_the_decks_number_the_computed_one_and_the_exact_value():
    (row,) = deck_table.rows(["A-cp-what-is-ai"])
    assert (row.stated, row.computed) == ("0.5833", "0.5833")
    assert row.exact.startswith("7/12 = 0.58333")
    assert "rounds" in row.note and "to 0.5833" in row.note


def test_truncation_derived_numbers_and_unstated_cases_are_named():
    taj = {r.case: r for r in deck_table.rows(["E-cer-taj-mahal"])}
    assert taj["CE1"].computed == "0.666" and "truncates" in taj["CE1"].note
    desert = {r.case: r for r in deck_table.rows(["B-cp-desert"])}
    assert "derived by the project" in desert["reversed"].note
    assert "derived" not in desert["as given"].note
    assert desert["as given"].exact == "0.9999999999"  # Ragas' epsilon shows in the exact value
    high = {r.case: r for r in deck_table.rows(["E-cr-france"])}["high"]
    assert high.stated == "-" and high.checked == 0 and "states no number" in high.note


def test_a_mismatch_is_shown_not_hidden(monkeypatch):
    real = examples.Example.checks

    def broken(self, **kwargs):
        rows = real(self, **kwargs)
        rows[0] = dict(rows[0], matches=False)
        return rows

    monkeypatch.setattr(examples.Example, "checks", broken)
    text = deck_table.text(["C-cp-sun-high"])
    assert "MISMATCH" in text and "6 of 7 numbers" in text


def test_notes_are_added_by_id_or_case_and_unknown_keys_are_refused():
    rows = deck_table.rows(["E-cr-france"], notes={"E-cr-france [low]": "the lesson"})
    assert [r.case for r in rows if "the lesson" in r.note] == ["low"]
    with pytest.raises(InputError, match="notes"):
        deck_table.rows(["E-cr-france"], notes={"E-cr-nope": "x"})
    with pytest.raises(InputError, match="example_ids"):
        deck_table.rows("E-cr-france")


def test_printed_rows_fit_the_notebook_width():
    ids = [i for i in examples.ids() if not examples.load(i).embedding_dependent]
    assert max(len(line) for line in deck_table.text(ids).splitlines()) <= 100


def test_a_derived_number_is_not_said_to_be_rounded_by_the_deck():
    rows = {r.case: r for r in deck_table.rows(["D-cp-bm25-vs-semantic"])}
    assert "derived by the project" in rows["A"].note and "deck rounds" not in rows["A"].note
