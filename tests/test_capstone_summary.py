"""The capstone's shared take-away (notebook 15 and deck 15) and its paired tests, on hand-checkable rows."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from ragmetrics_edu.course import capstone_summary as cs
from ragmetrics_edu.course import course_plan


def _row(question, system, faith):
    return {"question": question, "text": "q?", "kind": "synonym", "system": system, "passages": ["p0"],
            "grades": [2], "contexts": ["text p0"], "answer": "a", "scores": {"faithfulness": faith},
            "verdicts": {}, "items": {}, "errors": {}}


def _rows(minilm, bm25):
    out = []
    for i, (x, y) in enumerate(zip(minilm, bm25, strict=True)):
        out += [_row(f"x{i}", "minilm", x), _row(f"x{i}", "bm25", y)]
    return out


def test_under_ten_questions_there_is_no_interval_and_the_verdict_says_too_few():
    t = cs.paired(_rows([1.0, 0.5, 0.0], [0.5, 0.5, 0.5]), "faithfulness")
    assert (t["n"], t["better"], t["worse"], t["same"]) == (3, 1, 1, 1)
    assert t["difference"] == 0.0 and t["interval"] is None
    assert t["verdict"].startswith("too few to tell") and "3 questions" in t["verdict"]


def test_twelve_wins_out_of_twelve_give_an_interval_and_a_winner():
    t = cs.paired(_rows([1.0] * 12, [0.0] * 12), "faithfulness")
    assert t["interval"] == (1.0, 1.0) and t["verdict"] == "minilm is better"
    assert t["p sign"] == pytest.approx(2 * 0.5 ** 12)          # exact two-sided sign test, by hand


def test_an_interval_that_includes_zero_says_the_data_cannot_tell():
    t = cs.paired(_rows([1.0, 0.0] * 6, [0.0, 1.0] * 6), "faithfulness")
    assert t["interval"] is not None and t["interval"][0] < 0 < t["interval"][1]
    assert "cannot tell them apart" in t["verdict"] and t["p sign"] == 1.0


def test_a_question_one_system_did_not_score_is_left_out():
    rows = _rows([1.0, 0.5], [0.5, 0.5])
    rows[0]["scores"] = {}
    t = cs.paired(rows, "faithfulness")
    assert t["n"] == 1 and list(t["dropped"]) == ["x0"]


def test_component_counts_count_tags_not_rows():
    tagged = [{"tags": ["retrieval_miss", "unsupported_claim"]}, {"tags": ["judge_error", "bad_ranking"]},
              {"tags": []}]
    assert cs.component_counts(tagged) == {"retriever": 2, "generator": 1, "judge": 1}


def test_tag_table_is_the_count_table_on_its_side():
    from ragmetrics_edu.course import diagnosis

    tagged = [{"system": "bm25", "tags": ["retrieval_miss", "incomplete_answer"]}, {"system": "bm25", "tags": []},
              {"system": "minilm", "tags": ["judge_error"]}]
    table = {row["tag"]: row for row in cs.tag_table(tagged)}
    assert table["retrieval_miss"] == {"tag": "retrieval_miss", "bm25": 1, "minilm": 0, "all": 1}
    assert table["judge_error"]["minilm"] == 1 and table["untagged"]["bm25"] == 1
    assert table["rows"] == {"tag": "rows", "bm25": 2, "minilm": 1, "all": 3}
    for entry in diagnosis.count_table(tagged):
        for name in (*diagnosis.TAGS, "untagged", "rows"):
            assert table[name][entry["system"]] == entry[name]


def test_takeaway_lines_print_every_number_of_the_summary():
    summary = {"rows": 4, "components": {"retriever": 1, "generator": 3, "judge": 2},
               "context_precision": {"better": 2, "worse": 1, "n": 4, "p perm": 0.625, "p sign": 1.0,
                                     "verdict": "too few to tell (4 questions, under 10)"},
               "ar_rows": 4, "ar_full": 4, "read": 4, "agree": 3}
    lines = cs.takeaway_lines(summary)
    assert lines[0].startswith("Most failures are not the retriever's: of the 6 failure tags on the 4 rows, 1 point")
    assert "on 2 of 4 questions and lowered it on 1" in lines[1] and "p = 0.62" in lines[1]
    assert "too few to tell" in lines[1] and "4 of 4 rows" in lines[2]
    assert "a language model" in lines[3] and "3 of 4 rows" in lines[3]
    summary["components"] = {"retriever": 4, "generator": 1, "judge": 1}
    assert cs.takeaway_lines(summary)[0].startswith("Not all failures")


def test_the_plot_draws_one_panel_per_metric():
    fig = cs.plot_paired(_rows([1.0, 0.5, 0.0], [0.5, 0.5, 0.5]), ["faithfulness"])
    assert len(fig.axes) == 1 and "higher 1 · lower 1 · same 1" in fig.axes[0].get_title()


def _sources(path):
    return ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]


def test_notebook_15_deck_15_and_the_course_plan_tell_the_same_take_away():
    notebook = "\n".join(_sources(REPO / "notebooks" / "15_capstone_diagnose_a_rag_system.ipynb"))
    deck = _sources(REPO / "slides" / "15_capstone.ipynb")
    assert "capstone_summary.takeaway_lines(" in notebook
    take = [i for i, s in enumerate(deck) if s.startswith("## Take-aways")]
    assert len(take) == 1 and "capstone_summary.takeaway_lines(summary)" in deck[take[0] + 1]
    assert "summary = capstone_summary.takeaway(rows)" in deck[0]
    deck_text = "\n".join(deck)
    assert "Fix the component the tags point at" not in deck_text          # the contradicted take-away
    plan = " ".join(course_plan.get("15").takeaways)
    assert "too few to tell" in plan and "retriever alone" in plan
