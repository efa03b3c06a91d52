"""Issue 50 §5: DeepEval's own exports load, and every bad row is named before any metric runs.

The DeepEval files below are laid out as DeepEval 4.1.10 writes them (``EvaluationDataset.save_as`` in
``deepeval/dataset/dataset.py``): the CSV's twelve columns in its order, written by ``csv.writer``; the JSONL's
record keys; ``retrieval_context`` in both as ONE text, the passages joined by ``|``
(``deepeval/dataset/utils.py``: ``DELIMITER = "|"``, ``join_retrieval_context``), a passage with a source as
``deepeval_source=S,deepeval_context=C``."""

from __future__ import annotations

import csv
import json

import pytest
from evaluate_cases import CASES, by_hand

from ragmetrics_edu import InputError, cli, evaluate
from ragmetrics_edu.evaluation import read_cases
from ragmetrics_edu.evaluation.summary import summarize

# save_as("csv"), single-turn: the header row DeepEval writes, in its order
DEEPEVAL_CSV_HEADER = ["input", "actual_output", "expected_output", "retrieval_context", "context", "name", "comments",
                       "source_file", "tools_called", "expected_tools", "additional_metadata",
                       "custom_column_key_values"]


def _joined(passages: list[str]) -> str:
    return "|".join(passages)  # join_retrieval_context(retrieval_context, delimiter="|")


def _deepeval_csv(path, cases) -> None:
    with open(path, "w", newline="", encoding="utf-8") as file:  # as save_as opens it
        writer = csv.writer(file)
        writer.writerow(DEEPEVAL_CSV_HEADER)
        for c in cases:  # context (DeepEval's ground-truth context) joined the same way; the rest None
            writer.writerow([c["question"], c["answer"], c["reference"], _joined(c["contexts"]), None, None, None,
                             None, None, None, None, None])


def _deepeval_jsonl(path, cases) -> None:
    with open(path, "w", encoding="utf-8") as file:
        for c in cases:
            record = {"input": c["question"], "actual_output": c["answer"], "expected_output": c["reference"],
                      "retrieval_context": _joined(c["contexts"]), "context": None, "name": None, "comments": None,
                      "source_file": None, "tools_called": None, "expected_tools": None, "additional_metadata": None,
                      "custom_column_key_values": None}
            file.write(json.dumps(record, ensure_ascii=False) + "\n")


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_deepevals_save_as_files_load_with_their_passages(kind, tmp_path):
    path = tmp_path / f"dataset.{kind}"
    (_deepeval_csv if kind == "csv" else _deepeval_jsonl)(path, CASES)
    data = read_cases(str(path))
    assert [c["contexts"] for c in data.cases] == [c["contexts"] for c in CASES]  # ';' and ',' inside a passage kept
    table = evaluate(str(path), progress=False)
    for i, case in enumerate(CASES):
        for name, score in by_hand(case).items():
            assert table.loc[i, name] == pytest.approx(score)


def test_a_passage_deepeval_saved_with_its_source_is_read_as_its_context(tmp_path):
    path = tmp_path / "dataset.jsonl"
    case = {**CASES[2], "contexts": ["deepeval_source=wiki/Mars,deepeval_context=Mars has two moons.", "Phobos."]}
    _deepeval_jsonl(path, [case])
    assert read_cases(str(path)).cases[0]["contexts"] == ["Mars has two moons.", "Phobos."]


def test_a_plain_text_under_another_name_is_still_refused_and_the_message_names_the_bar(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text("question,answer,contexts\nq,a,first passage|second passage\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line 2: contexts: .*only DeepEval's column retrieval_context is split on '\|'"):
        read_cases(str(path))


def _jsonl(tmp_path, rows, name="cases.jsonl"):
    path = tmp_path / name
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_nan_and_numbers_are_refused_before_scoring_and_every_bad_row_is_named(tmp_path):
    rows = [dict(CASES[0]), {**CASES[1], "answer": 42}, dict(CASES[2]), {**CASES[0], "id": "q4", "answer": None}]
    lines = [json.dumps(r) for r in rows] + ['{"id": "q5", "question": "q", "answer": NaN, "contexts": ["c"], '
                                             '"reference": "r"}']
    with pytest.raises(InputError) as caught:
        evaluate(_jsonl(tmp_path, lines), progress=False)
    message = str(caught.value)
    assert message.startswith("cases.jsonl: 3 bad values")
    for line in ("line 2: answer", "line 4: answer", "line 5: answer"):
        assert line in message
    assert "42 (int)" in message and "nan (float)" in message


def test_empty_csv_cells_are_all_named_not_only_the_first(tmp_path):
    path = tmp_path / "cases.csv"
    path.write_text('question,answer,contexts\nq1,,"[""c""]"\nq2,a,"[""c""]"\nq3,,"[""c""]"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"^cases\.csv: 2 bad values.*line 2: answer.*line 4: answer"):
        evaluate(str(path), metrics=["word_overlap"], progress=False)


def test_unreadable_rows_are_all_named(tmp_path):
    rows = [{**CASES[0], "contexts": "one text"}, dict(CASES[1]), {**CASES[2], "contexts": [3]}]
    with pytest.raises(InputError, match=r"^cases\.jsonl: 2 bad rows.*line 1: contexts.*line 3: contexts\[0\]"):
        read_cases(_jsonl(tmp_path, rows))


def test_an_empty_answer_is_counted_unscored_never_scored_zero(tmp_path, capsys):
    rows = [dict(CASES[0]), {**CASES[1], "answer": "   "}, dict(CASES[2])]
    table = evaluate(_jsonl(tmp_path, rows), progress=False)
    assert table["word_overlap"].isna().tolist() == [False, True, False]
    assert "empty answer is counted unscored" in table.loc[1, "error"]
    assert "word_overlap" not in table.attrs["results"][1]
    found = {s.metric: s for s in summarize(table)}
    assert (found["word_overlap"].scored, found["word_overlap"].failed) == (2, 1)
    assert found["word_overlap"].mean == pytest.approx((by_hand(CASES[0])["word_overlap"]
                                                        + by_hand(CASES[2])["word_overlap"]) / 2)
    assert cli.main(["evaluate", _jsonl(tmp_path, rows, "again.jsonl")]) == 0
    err = capsys.readouterr().err
    assert "1 row has an empty answer" in err and "again.jsonl line 2" in err
