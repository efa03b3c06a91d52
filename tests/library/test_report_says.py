"""Issue 50 §3: the evaluate report says what each number can and cannot see, shows each low case's question,
answer (matched words marked), contexts and reference, and names cases by id or 1-based row."""

from __future__ import annotations

import json
import re

import pytest
from evaluate_cases import CASES

from ragmetrics_edu import agreement, evaluate, metrics
from ragmetrics_edu.cli import main
from ragmetrics_edu.data import ragtruth
from ragmetrics_edu.evaluation.known_agreement import word_overlap_agreement
from ragmetrics_edu.evaluation.report import render_report
from ragmetrics_edu.evaluation.report_cases import find_case, marked_answer


def test_word_overlaps_agreement_is_computed_from_the_shipped_dev_answers():
    dev = ragtruth.answers("dev")
    scores = [metrics.word_overlap(a.answer, a.context).score for a in dev]
    auc = agreement.roc_auc([a.hallucinated for a in dev], scores)
    found = word_overlap_agreement()
    assert found.auc == pytest.approx(auc) and found.answers == len(dev)
    assert found.sources == len({a.source_id for a in dev}) and found.ci[0] < found.auc < found.ci[1]


def test_the_page_names_word_overlap_its_blind_spot_and_its_auc():
    table = evaluate(CASES, progress=False)
    page = render_report(table)
    assert "the share of the answer&#x27;s content words found in the contexts" in page
    assert "cannot see a contradiction that reuses the contexts" in page
    found = word_overlap_agreement()
    assert f'data-k="word_overlap.auc" data-v="{found.auc!r}"' in page
    assert page.count('<span class="tag">no judge</span>') == 2  # each card says whether it needs a judge
    assert "rule: word_overlap" in page and "rule: semantic_similarity" in page


def test_the_lowest_cases_show_contexts_and_reference_and_are_named_by_id():
    table = evaluate(CASES, progress=False)
    page = render_report(table, worst=3)
    for case in CASES:
        for passage in case["contexts"]:
            assert passage.replace("'", "&#x27;") in page
        assert f"<b>Reference:</b> {case['reference']}" in page
        assert f"id {case['id']}: {case['question']}" in page
    assert "case 0" not in page


def test_without_ids_a_case_is_its_one_based_row():
    rows = [{k: v for k, v in c.items() if k != "id"} for c in CASES]
    page = render_report(evaluate(rows, progress=False))
    assert "row 1: " in page and "row 3: " in page and "row 0" not in page


def test_matched_words_are_marked_by_the_overlap_tokeniser():
    shown = marked_answer("Sydney is the capital.", ["Canberra is the capital city of Australia."])
    assert "<mark>capital</mark>" in shown and '<span class="miss">Sydney</span>' in shown
    assert "is the" in shown  # stop words plain
    marked = re.findall(r"<mark>(\w+)</mark>", shown)
    result = metrics.word_overlap("Sydney is the capital.", ["Canberra is the capital city of Australia."])
    assert len(marked) == result.values["found"]


def test_explain_takes_an_id_or_a_one_based_row(tmp_path, capsys):
    assert find_case(["q1", "q2"], 2, "q2") == 1 and find_case(None, 3, "1") == 0 and find_case(None, 3, "row 3") == 2
    with pytest.raises(ValueError, match="row number from 1 to 3"):
        find_case(None, 3, "0")
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(json.dumps({k: v for k, v in c.items() if k != "id"}) + "\n" for c in CASES))
    assert main(["evaluate", str(path), "--explain", "2"]) == 0
    out = capsys.readouterr().out
    assert f"Case row 2: {CASES[1]['question']}" in out and f"Context 1: {CASES[1]['contexts'][0]}" in out
    assert f"Reference: {CASES[1]['reference']}" in out
