"""Issue 43 §4: `ragmetrics-edu compare A B` and `ragmetrics-edu stats A B` pair rows by id, else by text,
never by position; they list what is unpaired, run the paired tests and the regression gate, and write
one row per pair."""

from __future__ import annotations

import csv
import json
import random
import re

import pytest

from ragmetrics_edu import metrics, regression_gate, stats
from ragmetrics_edu.cli import main
from ragmetrics_edu.evaluation import read_cases
from ragmetrics_edu.evaluation.pairing import pair_rows

N = 12
#: version A answers every question from its passage; version B gets a third of them wrong
A = [{"id": f"c{k:02d}", "question": f"What colour is box {k}?", "answer": f"Box {k} is red and square.",
      "contexts": [f"Box {k} is red and square, kept on shelf {k}."], "reference": f"Red, box {k}."} for k in range(N)]
B = [dict(c, answer=f"Box {k} is green and round." if k % 3 == 0 else c["answer"]) for k, c in enumerate(A)]


def overlap(case: dict) -> float:
    return metrics.word_overlap(case["answer"], case["contexts"]).score


def write(path, rows, drop_ids: bool = False) -> str:
    path.write_text("".join(json.dumps({k: v for k, v in r.items() if not (drop_ids and k == "id")}) + "\n"
                            for r in rows), encoding="utf-8")
    return str(path)


def read_pairs(path) -> dict[str, dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    key = "id" if "id" in rows[0] else "question"
    return {r[key]: r for r in rows}


def shuffled(rows: list[dict], seed: int) -> list[dict]:
    out = list(rows)
    random.Random(seed).shuffle(out)
    assert [r["question"] for r in out] != [r["question"] for r in rows]
    return out


@pytest.mark.parametrize("drop_ids", [False, True], ids=["by id", "by question text"])
def test_compare_pairs_the_same_cases_whatever_the_order_of_b(tmp_path, capsys, drop_ids):
    a = write(tmp_path / "a.jsonl", A, drop_ids)
    b = write(tmp_path / "b.jsonl", shuffled(B, 1), drop_ids)
    out = tmp_path / "pairs.csv"
    assert main(["compare", a, b, "--metrics", "word_overlap", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{N} cases paired by {'id' if not drop_ids else 'question text'}; 0 rows only in A, 0 rows only in B" in printed
    pairs = read_pairs(out)
    assert len(pairs) == N
    for case_a, case_b in zip(A, B, strict=True):
        row = pairs[case_a["question"] if drop_ids else case_a["id"]]
        assert float(row["word_overlap_A"]) == pytest.approx(overlap(case_a))
        assert float(row["word_overlap_B"]) == pytest.approx(overlap(case_b))
        assert float(row["word_overlap_difference"]) == pytest.approx(overlap(case_b) - overlap(case_a))
    new, old = [overlap(c) for c in B], [overlap(c) for c in A]
    expected = stats.paired_bootstrap(new, old, n_resamples=2000, seed=0)
    assert f"mean difference B − A {expected.score:+.4f}" in printed
    verdict = regression_gate.gate(new, old, noise=0.0, margin=0.05, n_resamples=2000, seed=0).verdict
    assert f"gate: {verdict}" in printed and "regression gate (A accepted, B candidate)" in printed
    for test in ("paired bootstrap:", "permutation test:", "sign test:"):
        assert test in printed


def test_unpaired_rows_are_listed_and_a_repeated_question_pairs_with_its_answer(tmp_path, capsys):
    twice = dict(A[0], answer="Box 0 is red.")                  # the same question twice, told apart by the answer
    a = write(tmp_path / "a.jsonl", [*A, twice], drop_ids=True)
    b = write(tmp_path / "b.jsonl", shuffled([twice, *A[1:]], 2), drop_ids=True)   # B lacks A's first row
    assert main(["compare", a, b, "--metrics", "word_overlap"]) == 0
    printed = capsys.readouterr().out
    assert f"{N} cases paired by question text (and answer text where a question repeats); 1 row only in A" in printed
    assert "unpaired in A: a.jsonl line 1: the other side has no row with its text" in printed


def test_rows_that_share_no_key_are_never_paired_by_position(tmp_path, capsys):
    other = [dict(c, question=c["question"].replace("colour", "shape")) for c in A]
    a = write(tmp_path / "a.jsonl", A, drop_ids=True)
    b = write(tmp_path / "b.jsonl", other, drop_ids=True)
    assert main(["compare", a, b, "--metrics", "word_overlap"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: B: expected rows that pair with A's by question text") and err.count("\n") == 1


def test_pair_rows_matches_by_id_across_orders():
    a, b = read_cases(A), read_cases(list(reversed(B)))
    found = pair_rows(a, b)
    assert found.key == "id" and found.only_a == found.only_b == []
    assert all(a.cases[i]["id"] == b.cases[j]["id"] for i, j in found.pairs)
    assert [j for _, j in found.pairs] == list(range(N - 1, -1, -1))


def test_stats_compares_tables_already_scored_and_pairs_them_the_same_way(tmp_path, capsys):
    a_in, b_in = write(tmp_path / "a.jsonl", A), write(tmp_path / "b.jsonl", shuffled(B, 3))
    a_out, b_out = tmp_path / "a.csv", tmp_path / "b.csv"
    assert main(["evaluate", a_in, "--metrics", "word_overlap", "--out", str(a_out)]) == 0
    assert main(["evaluate", b_in, "--metrics", "word_overlap", "--out", str(b_out)]) == 0
    capsys.readouterr()
    pairs_stats, pairs_compare = tmp_path / "stats.csv", tmp_path / "compare.csv"
    assert main(["stats", str(a_out), str(b_out), "--metrics", "word_overlap", "--out", str(pairs_stats)]) == 0
    via_stats = capsys.readouterr().out
    assert main(["compare", a_in, b_in, "--metrics", "word_overlap", "--out", str(pairs_compare)]) == 0
    via_compare = capsys.readouterr().out
    assert read_pairs(pairs_stats) == read_pairs(pairs_compare)
    short = re.compile(r"word_overlap: mean difference .*")
    assert short.search(via_stats).group(0) == short.search(via_compare).group(0)


def test_a_score_column_from_elsewhere_needs_the_judges_noise_before_it_is_gated(tmp_path, capsys):
    a = write(tmp_path / "a.jsonl", [dict(c, judged=0.8) for c in A])
    b = write(tmp_path / "b.jsonl", [dict(c, judged=0.7 if k % 2 else 0.8) for k, c in enumerate(A)])
    assert main(["stats", a, b, "--metrics", "judged"]) == 0
    assert "gate not run: judged was scored elsewhere" in capsys.readouterr().out
    assert main(["stats", a, b, "--metrics", "judged", "--noise", "0.01"]) == 0
    assert "judge noise: per-run shift sd 0.0100, given (given (--noise))" in capsys.readouterr().out
    assert main(["stats", a, b, "--metrics", "missing_column"]) == 2
    assert "a.jsonl: missing_column: expected a column of missing_column scores" in capsys.readouterr().err
