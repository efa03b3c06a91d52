"""What notebook 16 and deck 16 load for the blame and the comparison, the deck's paired figure, and the take-away
they share: each claim recomputed from the recorded rows, the corpus and the annotator's reading."""

from __future__ import annotations

import json
import math

import pytest

from conftest import REPO
from ragmetrics_edu import stats
from ragmetrics_edu.course import course_plan
from ragmetrics_edu.course.capstone import systems as capstone
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.evaluation import failures
from ragmetrics_edu.retrieval import load_corpus
from ragmetrics_edu.studies.capstone import checks as capstone_checks
from ragmetrics_edu.studies.capstone import diagnosis
from ragmetrics_edu.studies.capstone import summary as cs

NOTEBOOK = REPO / "notebooks" / "16_capstone_diagnose_a_rag_system.ipynb"
DECK = REPO / "slides" / "16_capstone.ipynb"


def _row(question, system, faith):
    return {"question": question, "text": "q?", "kind": "synonym", "system": system, "passages": ["p0"],
            "grades": [2], "contexts": ["text p0"], "answer": "a", "scores": {"faithfulness": faith},
            "verdicts": {}, "items": {}, "errors": {}}


def _sources(path):
    return ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]


def _prose(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return " ".join(" ".join("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown")


def _blames():
    tagged = diagnosis.tag_rows(capstone.scored())
    reading = cs.reading_rows(capstone.annotator_diagnosis(), tagged)
    return tagged, [failures.blame(r) for r in tagged], reading, [failures.blame(r) for r in reading]


def _spans(blames):
    either = blames.count("generator or judge")
    retriever = blames.count("retriever") + blames.count("retriever (partial recall)")
    return {"retriever": (retriever, retriever),
            "generator": (blames.count("generator"), blames.count("generator") + either),
            "judge": (blames.count("judge"), blames.count("judge") + either)}


def _largest(blames):
    span = _spans(blames)
    won = [c for c, (low, _) in span.items() if all(low > high for o, (_, high) in span.items() if o != c)]
    return won[0] if won else None


def test_the_reading_rows_carry_the_retrieval_of_their_recorded_row():
    tagged = diagnosis.tag_rows(capstone.scored())
    reading = cs.reading_rows(capstone.annotator_diagnosis(), tagged)
    by_key = {(r["question"], r["system"]): r for r in tagged}
    assert reading and all(r["read"] is True for r in reading)
    for r in reading:
        assert r["passages"] == by_key[r["question"], r["system"]]["passages"]
        assert r["source_recall"] == by_key[r["question"], r["system"]]["source_recall"]
    with pytest.raises(InputError, match="reading"):
        cs.reading_rows({("q99", "bm25"): {"tags": []}}, tagged)


def test_q01_bm25_is_a_partial_retrieval_blamed_on_the_retriever():
    """M2: on q01 BM25 returned one of the four passages the reference was written from, and the answer gives that
    one benefit: the rules and the reading blame the retriever (partial recall), not the generator."""
    refs = capstone.references()
    rows = {(r["question"], r["system"]): r for r in diagnosis.tag_rows(capstone.scored())}
    q01 = rows["q01", "bm25"]
    found = [p for p in refs["q01"]["supported_by"] if p in q01["passages"]]
    assert (len(found), len(refs["q01"]["supported_by"])) == (1, 4) and q01["source_recall"] == 0.25
    assert "incomplete_answer" in q01["tags"] and "retrieval_miss" not in q01["tags"]
    assert failures.blame(q01) == "retriever (partial recall)"
    reading = {(r["question"], r["system"]): r for r in cs.reading_rows(capstone.annotator_diagnosis(),
                                                                        list(rows.values()))}
    assert failures.blame(reading["q01", "bm25"]) == "retriever (partial recall)"
    assert "one of the four benefit passages" in capstone.annotator_diagnosis()["q01", "bm25"]["note"].lower() \
        or "only one of the four" in capstone.annotator_diagnosis()["q01", "bm25"]["note"].lower()
    # q01 minilm retrieved three of the four: the passages held the reference, the answer left it out
    assert rows["q01", "minilm"]["source_recall"] == 0.75 and failures.blame(rows["q01", "minilm"]) == "generator"


def test_the_blame_counts_and_the_largest_cause_recomputed():
    _, rules, _, reading = _blames()
    span = _spans(rules)
    assert span["retriever"][0] > max(span["generator"][1], span["judge"][1])     # retriever 6 against at most 5
    assert _largest(rules) == _largest(reading) == "retriever"
    shown = " ".join("".join("".join(o.get("text", "")) for o in c.get("outputs", []))
                     for c in json.loads(NOTEBOOK.read_text("utf-8"))["cells"] if "def spans(" in "".join(c["source"]))
    for name, blames in (("the rules", rules), ("the reading", reading)):
        text = ", ".join(f"{c} {lo}" if lo == hi else f"{c} {lo}–{hi}" for c, (lo, hi) in _spans(blames).items())
        assert f"by {name:<11}: {text} of {len(blames) - blames.count('no failure')} failing" in shown
    source = next("".join(c["source"]) for c in json.loads(NOTEBOOK.read_text("utf-8"))["cells"]
                  if "def spans(" in "".join(c["source"]))
    assert "most rows here: " in source and "largest cause" not in source     # issue 47: a fact of the picked rows
    # the stored outputs carry the label of the last execution (the lead re-executes after a merge)
    assert max(shown.count("most rows here: retriever"), shown.count("largest cause: retriever")) == 2


def test_the_notebook_s_rule_in_view_is_checked_against_the_library():
    cell = next(s for s in _sources(NOTEBOOK) if "def blame(row):" in s)
    assert len([line for line in cell.splitlines() if line.strip()]) <= 20
    check = next(s for s in _sources(NOTEBOOK) if "read_rows = capstone_summary.reading_rows(" in s)
    assert "failures.blame(r, recall_cut=RECALL_CUT)" in check and check.count("assert ") == 2
    # the rule is code, not a prose copy: no Markdown cell restates its lines
    prose = _prose(NOTEBOOK)
    assert "**generator**: only where retrieval succeeded" not in prose
    assert "capstone_summary.attribute" not in "".join(_sources(NOTEBOOK))


def test_the_retrieved_rows_are_every_answerable_question_with_its_grades():
    kinds, found = cs.retrieved()
    known = diagnosis.answerable()
    assert set(kinds) == known and len(found["bm25"]) == len(found["minilm"]) == len(known)
    for name, retriever in capstone.retrievers().items():
        for row, q in zip(found[name], [q for q in load_corpus().questions if q.id in known], strict=True):
            grades = [q.qrels.get(pid, 0) for pid, _ in retriever.search(q.text, capstone.K)]
            assert row["question"] == q.id and row["answer_retrieved"] == float(2 in grades)
    found["bm25"][0]["answer_retrieved"] = 99.0                  # a caller's change does not reach the cache
    assert cs.retrieved()[1]["bm25"][0]["answer_retrieved"] in (0.0, 1.0)
    with pytest.raises(InputError, match="k"):
        cs.retrieved(0)


def test_the_sign_test_in_view_is_one_test_with_the_sign_flip_test_on_a_0_1_measure():
    _, found = cs.retrieved()
    a = [r["answer_retrieved"] for r in found["minilm"]]
    b = [r["answer_retrieved"] for r in found["bm25"]]
    gained = sum(x > y for x, y in zip(a, b, strict=True))
    m = gained + sum(x < y for x, y in zip(a, b, strict=True))
    by_hand = sum(math.comb(m, j) for j in range(m + 1) if math.comb(m, j) <= math.comb(m, gained)) / 2 ** m
    assert stats.sign_test(a, b).p_value == pytest.approx(by_hand) == stats.permutation_test(a, b).p_value
    assert by_hand < 0.05
    shown = " ".join("".join("".join(o.get("text", "")) for o in c.get("outputs", []))
                     for c in json.loads(NOTEBOOK.read_text("utf-8"))["cells"])
    assert f"sign test (= exact sign-flip test on a 0/1 measure), two-sided: p = {by_hand:.4f}" in shown


def test_the_plot_draws_one_panel_per_metric():
    rows = []
    for i, (x, y) in enumerate(zip([1.0, 0.5, 0.0], [0.5, 0.5, 0.5], strict=True)):
        rows += [_row(f"x{i}", "minilm", x), _row(f"x{i}", "bm25", y)]
    fig = cs.plot_paired(rows, ["faithfulness"])
    assert len(fig.axes) == 1 and "higher 1 · lower 1 · same 1" in fig.axes[0].get_title()


def test_notebook_deck_and_course_plan_tell_the_same_take_away_and_it_holds():
    notebook, deck = _sources(NOTEBOOK), _sources(DECK)
    take = [i for i, s in enumerate(deck) if s.startswith("## Take-aways")]
    assert len(take) == 1 and 'course_plan.get("16").takeaways' in deck[take[0] + 1]
    assert 'course_plan.get("16").takeaways' in notebook[3]
    plan = course_plan.get("16").takeaways
    assert len(plan) == 3 and all(len(line.split()) <= 35 for line in plan)          # three short sentences
    # 1: the generator never said the passages lack the answer; the picking built the retriever's lead in (recomputed)
    tagged, rules, _, reading = _blames()
    assert "(here never)" in plan[0] and "largest single cause" not in plan[0]
    lacking = [r for r in tagged if not (r["question"] in diagnosis.answerable() and 2 in r["grades"])]
    assert len(lacking) == 7 and not any("do not contain" in r["answer"].lower() or "not in the passages"
                                         in r["answer"].lower() for r in lacking)
    assert "picked where retrievers differ" in plan[0] and "no evidence either way" in plan[0]
    assert "only because" not in plan[0] and _largest(rules) == _largest(reading) == "retriever"
    # 2: M5, no "under ten, no interval" as if ten were enough
    assert "before seeing the outcome" in plan[1] and "30 or more" in plan[1]
    # 3: answer relevancy gave every row a full 1.0
    checks = capstone_checks.check_rows(capstone.scored())
    assert "every row a full 1.0" in plan[2] and {c["ar"] for c in checks} == {1.0}
    assert "counting tags instead of blaming" in " ".join(course_plan.get("16").mistakes)


def test_the_reading_of_the_blame_says_what_the_counts_show():
    prose = _prose(NOTEBOOK)
    tagged, rules, _, reading = _blames()
    retriever = [r for r, b in zip(tagged, rules, strict=True) if b.startswith("retriever")]
    assert "By the rules and by the reading, the retriever has the most failing rows on these picked rows" in prose
    assert "built in by the picking" in prose and "the retriever is the largest single cause" not in prose
    assert "Most of the retriever's rows are BM25's" in prose
    assert sum(r["system"] == "bm25" for r in retriever) > len(retriever) / 2
    assert "the rules blame the generator alone only for an incomplete answer" in prose
    assert all("incomplete_answer" in r["tags"] for r, b in zip(tagged, rules, strict=True) if b == "generator")
    read = {(r["question"], r["system"]): b for r, b in zip(cs.reading_rows(capstone.annotator_diagnosis(), tagged),
                                                           reading, strict=True)}
    assert "on q51, which the corpus cannot answer, the generator answered from memory on both systems" in prose
    q51 = [r for r, b in zip(tagged, rules, strict=True) if b == "generator or judge" and r["question"] == "q51"]
    assert {r["system"] for r in q51} == set(capstone.SYSTEMS)
    assert all(read["q51", s] == "generator" for s in capstone.SYSTEMS)
    assert "on q09 minilm the annotator calls the low faithfulness the judge's" in prose
    assert read["q09", "minilm"] == "judge"
    assert "no single component comes out ahead" not in prose


def test_deck_16_counts_the_blame_with_the_library_rule_and_states_the_gate_in_quadrature():
    deck = "\n".join(_sources(DECK))
    assert "failures.blame(r)" in deck and "capstone_summary.attribution" not in deck
    assert r"\sqrt{h^2 + \left(z \cdot s_{\text{shift}} \sqrt{2}\right)^2}" in deck        # issue 47 M3: notebook 12's shift
    assert r"s_{\text{run}}" not in deck and "how far the mean score moves between repeat runs" not in deck
    notebook = "\n".join(_sources(NOTEBOOK))
    assert r"\sqrt{h^2 + (z \cdot s_{shift}\sqrt{2})^2}" in notebook and "s_{run}" not in notebook
    assert "Act on a judged difference only when it is larger than the judge's own noise" not in notebook


def test_issue_47_faithfulness_moves_with_the_retriever_and_the_judge_tag_on_q08_minilm_is_the_rule_s():
    rows = capstone.scored()
    pair = diagnosis.paired_scores(rows, "faithfulness", a="minilm", b="bm25")
    moved = [(x, y) for x, y in zip(pair["a"], pair["b"], strict=True) if x != y]
    assert sum(x > y for x, y in moved) == 3 and sum(x < y for x, y in moved) == 2     # rises and falls cancel
    assert abs(sum(pair["a"]) - sum(pair["b"])) / len(pair["a"]) < 0.05
    prose = _prose(NOTEBOOK)
    assert "it judges the **generator**, which did not change" not in prose
    assert "it scores the answer against the passages retrieved" in prose
    tagged = {(r["question"], r["system"]): r for r in diagnosis.tag_rows(rows)}
    q08 = tagged["q08", "minilm"]
    assert q08["tags"] == ["judge_error"] and "yes" in q08["reasons"]["judge_error"]
    assert "caffeine" in q08["contexts"][2] and "Coffee contains caffeine" in capstone.references()["q08"]["reference"]
    assert "judge_error" not in capstone.annotator_diagnosis()["q08", "minilm"]["tags"]


def test_both_systems_were_judged_in_one_run_so_a_run_shift_cancels():
    """nb16 c36: "Both systems were judged in one run (one recording)": one pass, at temperature 0, that scored
    every row of both systems; so a shift of the run is in both scores of each pair and cancels."""
    import json

    from ragmetrics_edu import data

    recording = json.loads(data.recording("judge_study/qwen_capstone_judged").read_text(encoding="utf-8"))
    assert recording["parameters"]["temperature"] == 0
    rows = capstone.scored()
    assert {r["system"] for r in rows} == set(capstone.SYSTEMS)
    prose = _prose(NOTEBOOK)
    assert "judged in **one run**" in prose and "need no band" in prose
