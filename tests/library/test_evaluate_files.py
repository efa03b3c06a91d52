"""Issue 43 §2: your own file, scored. The row schema and its aliases, every file format, judge-free
defaults, and an InputError naming the row and the field for every bad row or file."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from evaluate_cases import CASES, DEEPEVAL, RAGAS, by_hand, write_csv

from ragmetrics_edu import InputError, evaluate, judges, metrics
from ragmetrics_edu.evaluation import DEFAULT_METRICS, JUDGED_DEFAULT, default_metrics, judge_free, read_cases


@pytest.mark.parametrize("kind", ["jsonl", "json", "ragas csv", "deepeval csv", "numbered csv", "pandas csv",
                                  "dataframe", "dicts"])
def test_every_form_gives_the_scores_the_metrics_give_by_hand(kind, tmp_path):
    path = tmp_path / "cases"
    if kind == "jsonl":
        data = str(path.with_suffix(".jsonl"))
        with open(data, "w") as f:
            f.writelines(json.dumps({RAGAS.get(k, k): v for k, v in c.items()}) + "\n" for c in CASES)
    elif kind == "json":
        data = str(path.with_suffix(".json"))
        with open(data, "w") as f:
            json.dump([{DEEPEVAL.get(k, k): v for k, v in c.items()} for c in CASES], f)
    elif kind in ("ragas csv", "deepeval csv", "numbered csv"):
        data = str(path.with_suffix(".csv"))
        write_csv(data, CASES, RAGAS if kind == "ragas csv" else DEEPEVAL, numbered=kind == "numbered csv")
    elif kind == "pandas csv":  # pandas writes a list column as Python's repr: ['...', '...']
        data = str(path.with_suffix(".csv"))
        pd.DataFrame([{RAGAS.get(k, k): v for k, v in c.items()} for c in CASES]).to_csv(data, index=False)
    elif kind == "dataframe":
        data = pd.DataFrame(CASES)
    else:
        data = [dict(c) for c in CASES]
    table = evaluate(data, progress=False)
    assert table.attrs["metrics"] == list(DEFAULT_METRICS) and table.attrs["left_out"] == {}
    assert list(table["id"]) == ["q1", "q2", "q3"]
    for i, case in enumerate(CASES):
        for name, score in by_hand(case).items():
            assert table.loc[i, name] == pytest.approx(score)
    # the passage holding ';' and ',' stays one passage (DeepEval's CSV loader would cut it in two)
    assert read_cases(data).cases[0]["contexts"] == CASES[0]["contexts"]


def test_parquet_is_read_through_pandas(tmp_path):
    path = tmp_path / "cases.parquet"
    pd.DataFrame(CASES).to_parquet(path)  # pyarrow is in the dev extra: a real Parquet file
    table = evaluate(str(path), progress=False)
    assert list(table["word_overlap"]) == pytest.approx([by_hand(c)["word_overlap"] for c in CASES])
    assert read_cases(str(path)).cases[0]["contexts"] == CASES[0]["contexts"]


def test_parquet_without_an_engine_is_refused_naming_what_to_install(tmp_path, monkeypatch):
    path = tmp_path / "cases.parquet"
    pd.DataFrame(CASES).to_parquet(path)

    def no_engine(*args, **kwargs):
        raise ImportError("Unable to find a usable engine; tried using: 'pyarrow', 'fastparquet'.")

    monkeypatch.setattr(pd, "read_parquet", no_engine)
    with pytest.raises(InputError, match=r"^data: .*pyarrow"):
        evaluate(str(path), progress=False)


def test_with_no_judge_the_default_is_the_judge_free_metrics_and_a_judge_adds_the_judged_ones():
    assert set(DEFAULT_METRICS) == set(judge_free()) == {"word_overlap", "semantic_similarity"}
    assert default_metrics(judged=True) == JUDGED_DEFAULT + DEFAULT_METRICS
    assert not any(metrics.SPECS[n].judged for n in default_metrics(judged=False))
    judge = judges.GivenJudge({"context_precision": ["yes"],
                               "context_recall": [["Canberra.", 1]],
                               "answer_relevancy.statements": ["a statement"], "answer_relevancy.verdicts": ["yes"]})
    table = evaluate([CASES[1]], judge=judge, progress=False)
    assert table.attrs["metrics"] == list(default_metrics(judged=True))


def test_a_default_metric_the_data_cannot_feed_is_left_out_and_named():
    no_reference = [{k: v for k, v in c.items() if k != "reference"} for c in CASES]
    table = evaluate(no_reference, progress=False)
    assert table.attrs["metrics"] == ["word_overlap"]
    assert "reference" in table.attrs["left_out"]["semantic_similarity"]


def test_a_judged_metric_without_a_judge_is_refused_naming_the_judge_free_ones():
    with pytest.raises(InputError) as caught:
        evaluate(CASES, metrics=["faithfulness", "word_overlap"], progress=False)
    message = str(caught.value)
    assert message.startswith("judge: ") and "faithfulness" in message
    assert "word_overlap" in message.split("need none")[1] and "semantic_similarity" in message.split("need none")[1]


def jsonl(tmp_path, lines: list[str], name: str = "cases.jsonl") -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


GOOD = json.dumps(CASES[0])


@pytest.mark.parametrize("lines, message", [
    ([GOOD, "{not json"], r"^cases\.jsonl line 2: expected one JSON object per line"),
    ([GOOD, "[1, 2]"], r"^cases\.jsonl line 2: expected a row"),
    ([GOOD, json.dumps({**CASES[1], "contexts": "one string"})], r"^cases\.jsonl line 2: contexts: expected a list"),
    ([GOOD, json.dumps({**CASES[1], "contexts": ["ok", 3]})], r"^cases\.jsonl line 2: contexts\[1\]: expected a passage"),
    ([GOOD, json.dumps({k: v for k, v in CASES[1].items() if k != "answer"})], r"^cases\.jsonl line 2: answer: expected a value"),
    ([GOOD, json.dumps({k: v for k, v in CASES[1].items() if k != "id"})], r"^cases\.jsonl line 2: id: expected an id on every row or on none"),
    ([GOOD, GOOD], r"^cases\.jsonl line 2: id: expected a different id on every row \(cases\.jsonl line 1 has it too\)"),
    ([GOOD, json.dumps({**CASES[1], "response": "twice"})], r"^cases\.jsonl line 2: expected one of 'answer' and 'response'"),
    (["", "  "], r"^data: expected at least one case, got 'cases\.jsonl'.*no rows"),
])
def test_every_bad_row_is_named_by_its_line_and_field(tmp_path, lines, message):
    with pytest.raises(InputError, match=message):
        evaluate(jsonl(tmp_path, lines), progress=False)


def test_a_column_no_row_has_is_named_with_its_aliases(tmp_path):
    rows = [json.dumps({k: v for k, v in c.items() if k != "answer"}) for c in CASES]
    with pytest.raises(InputError, match=r"^cases\.jsonl: answer \(or response, actual_output\): .*no row has it"):
        evaluate(jsonl(tmp_path, rows), metrics=["word_overlap"], progress=False)


@pytest.mark.parametrize("text, message", [
    ("", r"^data: expected at least one case"),
    ("question,answer,contexts\n", r"^data: expected at least one case"),
    ('question,answer,contexts\nq,a,first passage; second passage\n', r"^cases\.csv line 2: contexts: expected a list of "
     r"context texts: a JSON list in one cell.*never split"),
    ('question,answer,contexts\nq,a,"[""unclosed"""\n', r"^cases\.csv line 2: contexts: expected a JSON list"),
    ('question,answer,contexts,context_1\nq,a,"[""x""]",y\n', r"^cases\.csv line 2: expected contexts in one field"),
    ('question,answer,question\nq,a,b\n', r"^cases\.csv line 1: expected a header of distinct"),
    ('question,answer,contexts\nq,a,"[""x""]",extra\n', r"^cases\.csv line 2: expected at most 3 cells"),
])
def test_bad_csv_files_are_named_by_line(tmp_path, text, message):
    path = tmp_path / "cases.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        evaluate(str(path), metrics=["word_overlap"], progress=False)


def test_a_file_of_another_kind_is_refused_naming_the_kinds_read(tmp_path):
    path = tmp_path / "cases.txt"
    path.write_text("question: q\n")
    with pytest.raises(InputError, match=r"^data: .*\.jsonl.*\.csv"):
        evaluate(str(path), progress=False)


def test_ids_travel_with_their_rows_and_a_spreadsheet_id_is_an_id(tmp_path):
    frame = pd.DataFrame([{**c, "id": n} for c, n in zip(CASES, [7, 8, 9], strict=True)])
    table = evaluate(frame, progress=False)
    assert list(table.columns[:4]) == ["case", "id", "question", "answer"] and list(table["id"]) == [7, 8, 9]
    no_ids = evaluate([{k: v for k, v in c.items() if k != "id"} for c in CASES], progress=False)
    assert "id" not in no_ids.columns
    assert math.isfinite(no_ids.loc[0, "word_overlap"])
