"""The capstone's shared take-away (notebook 16 and deck 16) and its paired tests, on hand-checkable rows."""

from __future__ import annotations

import json

import pytest

from conftest import REPO
from ragmetrics_edu.course import course_plan
from ragmetrics_edu.course.capstone import summary as cs
from ragmetrics_edu.errors import InputError


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
    from ragmetrics_edu.course.capstone import diagnosis

    tagged = [{"system": "bm25", "tags": ["retrieval_miss", "incomplete_answer"]}, {"system": "bm25", "tags": []},
              {"system": "minilm", "tags": ["judge_error"]}]
    table = {row["tag"]: row for row in cs.tag_table(tagged)}
    assert table["retrieval_miss"] == {"tag": "retrieval_miss", "bm25": 1, "minilm": 0, "all": 1}
    assert table["judge_error"]["minilm"] == 1 and table["untagged"]["bm25"] == 1
    assert table["rows"] == {"tag": "rows", "bm25": 2, "minilm": 1, "all": 3}
    for entry in diagnosis.count_table(tagged):
        for name in (*diagnosis.TAGS, "untagged", "rows"):
            assert table[name][entry["system"]] == entry[name]


def _summary(blame, reading):
    hit = {"n": 50, "better": 9, "worse": 1, "mean minilm": 0.96, "mean bm25": 0.8, "interval": (0.04, 0.28),
           "p sign": 0.0216, "verdict": "minilm is better"}
    return {"rows": 16, "blame": blame, "retriever_bm25": 4, "unanswerable": 2, "blame_reading": reading,
            "retrievers": {"answer retrieved": hit}, "ar_rows": 16, "ar_full": 16, "read": 16, "agree": 11}


def test_takeaway_lines_print_every_number_of_the_summary():
    blame = {"retriever": 5, "generator": 3, "generator or judge": 3, "judge": 2, "no failure": 3}
    reading = {"retriever": 5, "generator": 5, "generator or judge": 0, "judge": 2, "no failure": 4}
    lines = cs.takeaway_lines(_summary(blame, reading))
    # 5 against the generator's 3 to 6 and a 5-5 tie in the reading: no single largest cause
    assert lines[0].startswith("No single largest cause on these picked rows: of the 13 rows that failed, 5 lost")
    assert "(4 of them BM25's)" in lines[0] and "3 were the generator's (an incomplete answer" in lines[0]
    assert "3 the generator's or the judge's (only the judge's unchecked faithfulness verdict)" in lines[0]
    assert "2 of those 6 on a question the corpus cannot answer; 2 were the judge's alone" in lines[0]
    assert "by the rules retriever 5, generator 3–6, judge 2–5" in lines[0]
    assert "retriever 5, generator 5, judge 2 of its 12 failing rows" in lines[0]
    assert "most" not in lines[0]
    assert "On all 50 answerable questions" in lines[1] and "96% against BM25's 80%" in lines[1]
    assert "gained 9 questions, lost 1" in lines[1] and "+0.04 to +0.28" in lines[1] and "p = 0.022" in lines[1]
    assert "16 of 16 rows" in lines[2] and "a language model" in lines[3] and "11 of 16 rows" in lines[3]


def test_a_cause_is_largest_only_when_it_wins_with_the_ambiguous_rows_against_it():
    generator_first = {"retriever": 1, "generator": 6, "generator or judge": 0, "judge": 1, "no failure": 0}
    assert cs.takeaway_lines(_summary(generator_first, generator_first))[0].startswith(
        "The generator is the largest single cause on these picked rows, by the rules and by the reading")
    reading = dict(generator_first, retriever=7)
    assert cs.takeaway_lines(_summary(generator_first, reading))[0].startswith(
        "No component is the largest single cause by both")
    # the retriever's 6 beats the generator's 4 to 5 and the judge's 0 to 1: largest
    retriever_first = {"retriever": 6, "generator": 4, "generator or judge": 1, "judge": 0, "no failure": 0}
    assert cs.takeaway_lines(_summary(retriever_first, retriever_first))[0].startswith("The retriever is the largest")
    # a tie is not a win, and max() must not break it in the retriever's favour
    tie = {"retriever": 4, "generator": 4, "generator or judge": 0, "judge": 0, "no failure": 0}
    assert cs.takeaway_lines(_summary(tie, tie))[0].startswith("No single largest cause")
    # the retriever's 5 against the generator's 3 to 5 (two ambiguous rows): the ambiguous rows decide, so none
    edge = {"retriever": 5, "generator": 3, "generator or judge": 2, "judge": 0, "no failure": 0}
    assert cs.takeaway_lines(_summary(edge, edge))[0].startswith("No single largest cause")
    nothing = {b: 0 for b in cs.BLAME}
    assert cs.takeaway_lines(_summary(nothing, nothing))[0].startswith("No single largest cause")
    with pytest.raises(InputError, match="summary.blame"):
        cs.takeaway_lines(_summary({"retriever": 1}, generator_first))


@pytest.mark.parametrize("tags, blame", [
    (["retrieval_miss", "unsupported_claim", "incomplete_answer", "judge_error"], "retriever"),
    (["retrieval_miss"], "retriever"),
    (["bad_ranking", "incomplete_answer"], "generator"),
    # an incomplete answer is a word count: the generator's, whatever the judge did on the row
    (["incomplete_answer", "judge_error"], "generator"),
    (["unsupported_claim", "incomplete_answer", "judge_error"], "generator"),
    # an unsupported claim alone is the judge's faithfulness verdict, which no rule checks
    (["unsupported_claim"], "generator or judge"),
    (["unsupported_claim", "judge_error"], "generator or judge"),
    (["judge_error"], "judge"),
    (["bad_ranking"], "no failure"),
    ([], "no failure"),
])
def test_each_row_is_blamed_once_and_a_miss_is_the_retrievers_whatever_follows(tags, blame):
    assert cs.attribute({"tags": tags}) == blame


def test_a_read_row_s_unsupported_claim_is_the_generator_s_and_read_is_a_flag():
    assert cs.attribute({"tags": ["unsupported_claim"], "read": True}) == "generator"
    assert cs.attribute({"tags": ["unsupported_claim"], "read": False}) == "generator or judge"
    assert all(r["read"] is True for r in cs.reading_rows({("q1", "bm25"): {"tags": ["unsupported_claim"]}}))
    with pytest.raises(InputError, match="read"):
        cs.attribute({"tags": ["unsupported_claim"], "read": "yes"})


def test_attribution_counts_rows_not_tags_and_refuses_unknown_tags():
    tagged = [{"system": "bm25", "tags": ["retrieval_miss", "unsupported_claim"]},
              {"system": "bm25", "tags": ["unsupported_claim"]}, {"system": "minilm", "tags": []}]
    table = {r["blame"]: r for r in cs.attribution(tagged)}
    assert [r["blame"] for r in cs.attribution(tagged)] == list(cs.BLAME)
    assert table["retriever"] == {"blame": "retriever", "bm25": 1, "minilm": 0, "all": 1}
    assert table["generator or judge"]["all"] == 1 and table["no failure"]["minilm"] == 1
    assert sum(r["all"] for r in table.values()) == len(tagged)
    with pytest.raises(InputError, match="tags"):
        cs.attribute({"tags": ["retriever_missed"]})


def test_the_retriever_comparison_uses_every_answerable_question_and_its_grades():
    from ragmetrics_edu.course.capstone import diagnosis
    from ragmetrics_edu.course.capstone import systems as capstone
    from ragmetrics_edu.retrieval import load_corpus

    found = {r["measure"]: r for r in cs.retriever_comparison()}
    known = diagnosis.answerable()
    assert found["answer retrieved"]["n"] == len(known) == sum(q.id in known for q in load_corpus().questions)
    hits = {}
    for name, retriever in capstone.retrievers().items():
        grades = {q.id: [q.qrels.get(pid, 0) for pid, _ in retriever.search(q.text, 3)]
                  for q in load_corpus().questions if q.id in known}
        hits[name] = {q: float(2 in g) for q, g in grades.items()}
    d = [hits["minilm"][q] - hits["bm25"][q] for q in hits["bm25"]]
    row = found["answer retrieved"]
    assert (row["better"], row["worse"]) == (sum(v > 0 for v in d), sum(v < 0 for v in d))
    assert row["mean bm25"] == pytest.approx(sum(hits["bm25"].values()) / len(d))


def test_the_plot_draws_one_panel_per_metric():
    fig = cs.plot_paired(_rows([1.0, 0.5, 0.0], [0.5, 0.5, 0.5]), ["faithfulness"])
    assert len(fig.axes) == 1 and "higher 1 · lower 1 · same 1" in fig.axes[0].get_title()


def _sources(path):
    return ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]


def test_notebook_15_deck_15_and_the_course_plan_tell_the_same_take_away():
    notebook = "\n".join(_sources(REPO / "notebooks" / "16_capstone_diagnose_a_rag_system.ipynb"))
    deck = _sources(REPO / "slides" / "16_capstone.ipynb")
    assert "capstone_summary.takeaway_lines(" in notebook
    take = [i for i, s in enumerate(deck) if s.startswith("## Take-aways")]
    assert len(take) == 1 and "capstone_summary.takeaway_lines(summary)" in deck[take[0] + 1]
    assert "summary = capstone_summary.takeaway(rows)" in deck[0]
    deck_text = "\n".join(deck)
    assert "Fix the component the tags point at" not in deck_text          # the contradicted take-away
    plan = " ".join(course_plan.get("16").takeaways)
    assert "too few to tell" in plan and "before seeing the outcome" in plan and "retrieval succeeded" in plan
    assert "Counting tags" not in plan and "counting tags instead of blaming" in " ".join(
        course_plan.get("16").mistakes)


def test_the_reading_of_the_blame_says_what_the_counts_show():
    """The reading of 4.4 quotes no count (the take-away prints them); each claim it makes is recomputed from the
    recorded rows and the annotator's tags."""
    from ragmetrics_edu.course.capstone import diagnosis
    from ragmetrics_edu.course.capstone import systems as capstone

    notebook = json.loads((REPO / "notebooks" / "16_capstone_diagnose_a_rag_system.ipynb").read_text("utf-8"))
    prose = " ".join(" ".join("".join(c["source"]).split()) for c in notebook["cells"] if c["cell_type"] == "markdown")
    tagged = diagnosis.tag_rows(capstone.scored())
    blamed = [(r, cs.attribute(r)) for r in tagged]
    retriever = [r for r, b in blamed if b == "retriever"]
    generator = [r for r, b in blamed if b == "generator"]
    either = [r for r, b in blamed if b == "generator or judge"]
    read = {(r["question"], r["system"]): cs.attribute(r) for r in cs.reading_rows(diagnosis.annotator_diagnosis())}
    reading = list(read.values())
    assert "Most of the retriever's rows are BM25's misses" in prose
    assert sum(r["system"] == "bm25" for r in retriever) > len(retriever) / 2
    assert "the rules blame the generator alone only for an incomplete answer" in prose
    assert all("incomplete_answer" in r["tags"] for r in generator)
    assert "on q51, which the corpus cannot answer, the generator answered from memory on both systems" in prose
    q51 = [r for r in either if r["question"] not in diagnosis.answerable()]
    assert {r["question"] for r in q51} == {"q51"} and {r["system"] for r in q51} == set(capstone.SYSTEMS)
    assert all(read[r["question"], r["system"]] == "generator" for r in q51)
    assert "on q09 minilm the annotator calls the low faithfulness the judge's" in prose
    assert read["q09", "minilm"] == "judge"
    assert "no single component comes out ahead on these picked rows" in prose
    for counts in ([b for _, b in blamed], reading):     # no component wins by the rules nor by the reading
        shared = counts.count("generator or judge")
        assert counts.count("retriever") <= counts.count("generator") + shared
        assert counts.count("generator") <= counts.count("retriever")
    assert "most of the failing" not in prose and "the largest single cause, and" not in prose

