"""The labelled judge-evaluation set: its shape, its pass-1 labels and the loader's checks."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from ragmetrics_edu import InputError, data
from ragmetrics_edu.agreement import cohen_kappa, match_items
from ragmetrics_edu.course.judge_study import labels as judge_eval
from ragmetrics_edu.studies.judge_study import cases as judge_cases

SOURCE = Path(__file__).resolve().parents[2] / "ragmetrics_edu" / "data" / "judge_eval"
HARD_TAGS = {"paraphrase", "partial_support", "wrong_number", "negation", "distractor", "unanswerable",
             "two_facts", "long_context"}


@pytest.fixture(scope="module")
def cases():
    return judge_eval.load_cases()


@pytest.fixture(scope="module")
def pass1():
    return judge_eval.load_labels("pass1")


def _raw(name):
    return json.loads((SOURCE / name).read_text(encoding="utf-8"))


def test_files_load_from_the_source_tree():
    # the package data these files need in pyproject: "data/judge_eval/*.json", "data/judge_eval/*.md"
    for name in ("cases.json", "labels_pass1.json", "README.md"):
        assert (SOURCE / name).is_file()
    assert data.path("judge_eval/cases.json") == (SOURCE / "cases.json")
    assert "judge_eval/cases.json" in data.names() and "judge_eval/labels_pass1.json" in data.names()


def test_case_texts_and_labels_are_separate_files():
    cases_text = (SOURCE / "cases.json").read_text(encoding="utf-8")
    for word in ("rationale", "not_mentioned", "contradicted"):
        assert word not in cases_text


def test_at_least_40_cases_with_unique_ids_and_2_to_6_nodes(cases):
    assert len(cases) >= 40
    assert len({c.id for c in cases}) == len(cases)
    assert all(2 <= len(c.contexts) <= 6 for c in cases)


def test_at_least_20_pairs_share_question_contexts_and_reference(cases):
    found = judge_cases.pairs(cases)
    assert len(found) >= 20
    for sup, uns in found:
        assert (sup.role, uns.role) == ("supported", "unsupported")
        assert sup.pair == uns.pair and sup.id != uns.id
        assert sup.question == uns.question and sup.contexts == uns.contexts and sup.answer != uns.answer


def test_every_hard_case_tag_occurs_at_least_twice(cases):
    counts = Counter(t for c in cases for t in c.tags)
    assert {t: counts[t] for t in HARD_TAGS if counts[t] < 2} == {}
    assert set(counts) <= HARD_TAGS


def test_long_context_cases_have_a_node_of_150_words(cases):
    for case in cases:
        if "long_context" in case.tags:
            assert max(len(n.split()) for n in case.contexts) >= 150, case.id


def test_every_item_is_labelled_once_with_a_rationale(cases, pass1):
    assert list(pass1.cases) == [c.id for c in cases]
    for case in cases:
        labels = pass1.cases[case.id]
        for metric in judge_cases.METRICS:
            got = getattr(labels, metric)
            assert [lab.item for lab in got] == list(range(1, len(case.items(metric)) + 1))
            assert all(lab.rationale.strip() for lab in got)


def test_label_values_are_allowed(cases, pass1):
    for metric, allowed in judge_cases.VALUES.items():
        assert set(judge_cases.label_vectors(pass1, metric)) <= set(allowed)
    for case in cases:
        for lab in pass1.cases[case.id].context_recall:
            assert lab.label is None or 1 <= lab.label <= len(case.contexts)


def test_supported_answers_are_fully_supported_and_unsupported_ones_are_not(pass1):
    for sup, uns in judge_cases.pairs(judge_eval.load_cases()):
        assert {lab.label for lab in pass1.cases[sup.id].faithfulness} == {"supported"}, sup.id
        assert {lab.label for lab in pass1.cases[uns.id].faithfulness} & {"contradicted", "not_mentioned"}, uns.id


def test_pair_members_share_their_context_labels(pass1):
    # node relevance and statement attribution depend only on question, contexts and reference
    for sup, uns in judge_cases.pairs(judge_eval.load_cases()):
        for metric in ("context_precision", "context_recall"):
            a, b = getattr(pass1.cases[sup.id], metric), getattr(pass1.cases[uns.id], metric)
            assert [x.label for x in a] == [y.label for y in b], (sup.id, metric)


def test_unanswerable_cases_have_an_unattributed_statement(cases, pass1):
    for case in cases:
        nodes = [lab.label for lab in pass1.cases[case.id].context_recall]
        assert (None in nodes) == ("unanswerable" in case.tags), case.id


def test_every_label_class_is_used(pass1):
    for metric, allowed in judge_cases.VALUES.items():
        assert set(judge_cases.label_vectors(pass1, metric)) == set(allowed), metric


def test_label_vectors_are_aligned_with_item_keys(cases, pass1):
    for metric in judge_cases.METRICS:
        keys, values = judge_cases.item_keys(pass1, metric), judge_cases.label_vectors(pass1, metric)
        assert len(keys) == len(values) == sum(len(c.items(metric)) for c in cases)
        assert len(set(keys)) == len(keys)


def test_kappa_sanity_on_the_labels(pass1):
    values = judge_cases.label_vectors(pass1, "faithfulness")
    same = cohen_kappa(values, values, n_resamples=200)
    assert same.score == pytest.approx(1.0)
    flipped = ["supported" if v != "supported" else "contradicted" for v in values]
    assert cohen_kappa(values, flipped, n_resamples=200).score < 0


def test_match_items_finds_the_claims_of_a_reworded_list(cases):
    claims = list(cases[0].answer_claims) + list(cases[2].answer_claims)
    result = match_items(claims, list(reversed(claims)))
    assert result.score == pytest.approx(1.0)


# --- the loader refuses bad data ---------------------------------------------------------------

@pytest.fixture()
def docs():
    return _raw("cases.json"), _raw("labels_pass1.json")


def _parse(case_doc, label_doc):
    return judge_cases.parse_labels(label_doc, judge_cases.parse_cases(case_doc))


def test_parsing_the_raw_files_gives_the_loaded_labels(docs, pass1):
    assert _parse(*docs).cases == pass1.cases


@pytest.mark.parametrize("change, field", [
    (lambda c, lab: lab["labels"].pop(), "labels"),                                         # a case unlabelled
    (lambda c, lab: lab["labels"].append(copy.deepcopy(lab["labels"][0])), "labels.case"),  # a case twice
    (lambda c, lab: lab["labels"][0].update(case="nope"), "labels.case"),                   # unknown case
    (lambda c, lab: lab["labels"][0]["faithfulness"].pop(), "p01a.faithfulness"),           # missing item
    (lambda c, lab: lab["labels"][0]["faithfulness"].append(
        dict(lab["labels"][0]["faithfulness"][0], claim=9)), "p01a.faithfulness.claim"),     # extra item
    (lambda c, lab: lab["labels"][0]["faithfulness"].append(
        dict(lab["labels"][0]["faithfulness"][0])), "p01a.faithfulness.claim"),              # item twice
    (lambda c, lab: lab["labels"][0]["faithfulness"][0].update(label="yes"),
     "p01a.faithfulness[claim 1].label"),                                                    # bad value
    (lambda c, lab: lab["labels"][0]["context_recall"][0].update(node=7),
     "p01a.context_recall[statement 1].node"),                                               # no such node
    (lambda c, lab: lab["labels"][0]["context_recall"][0].update(node=True),
     "p01a.context_recall[statement 1].node"),
    (lambda c, lab: lab["labels"][0]["answer_relevancy"][0].update(rationale=" "),
     "p01a.answer_relevancy[statement 1].rationale"),                                        # empty rationale
    (lambda c, lab: c["cases"][0]["answer_claims"].append("An extra claim."), "p01a.faithfulness"),
    (lambda c, lab: c["cases"][1].update(id="p01a"), "cases[1].id"),                         # duplicate case id
    (lambda c, lab: c["cases"][0].update(contexts=["only one node"]), "p01a.contexts"),
])
def test_bad_data_raises_a_named_input_error(docs, change, field):
    case_doc, label_doc = docs
    change(case_doc, label_doc)
    with pytest.raises(InputError) as err:
        _parse(case_doc, label_doc)
    assert err.value.field == field


def test_pairs_refuse_a_pair_with_different_contexts(docs):
    case_doc, _ = docs
    case_doc["cases"][1]["contexts"] = case_doc["cases"][1]["contexts"][:-1]
    with pytest.raises(InputError, match="same question, contexts and reference"):
        judge_cases.pairs(judge_cases.parse_cases(case_doc))


def test_pairs_refuse_two_cases_of_one_role(docs):
    case_doc, _ = docs
    case_doc["cases"][1]["role"] = case_doc["cases"][0]["role"]
    with pytest.raises(InputError, match="one supported and one unsupported"):
        judge_cases.pairs(judge_cases.parse_cases(case_doc))


@pytest.mark.parametrize("call", [
    lambda: judge_eval.load_labels("pass9"),
    lambda: judge_eval.load_labels("../cases"),
    lambda: judge_cases.label_vectors(judge_eval.load_labels(), "recall"),
    lambda: judge_cases.label_vectors({"labels": []}, "faithfulness"),
])
def test_bad_arguments_raise_input_error(call):
    with pytest.raises(InputError):
        call()


def test_both_passes_and_the_adjudication_are_kept_and_cover_every_disagreement():
    p1, p2 = judge_eval.load_labels("pass1"), judge_eval.load_labels("pass2")
    differ = judge_cases.disagreements(p1, p2)
    decisions = judge_eval.load_adjudication()
    assert {(d.case, d.metric, d.item) for d in decisions} == {(c, m, i) for c, m, i, _, _ in differ}
    final = judge_eval.final_labels()
    for d in decisions:
        label = next(lab for lab in getattr(final.cases[d.case], d.metric) if lab.item == d.item)
        assert label.label == d.final and d.final in (d.pass1, d.pass2) and d.reason


def test_inter_annotator_agreement_is_computed_per_metric_from_both_passes():
    kappas = judge_cases.annotator_agreement(judge_eval.load_labels("pass1"), judge_eval.load_labels("pass2"), judge_eval.load_cases())
    assert set(kappas) == set(judge_cases.METRICS)
    for metric, result in kappas.items():
        a = judge_cases.label_vectors(judge_eval.load_labels("pass1"), metric)
        b = judge_cases.label_vectors(judge_eval.load_labels("pass2"), metric)
        observed = sum(x == y for x, y in zip(a, b, strict=True)) / len(a)
        if observed == 1.0:
            assert result.values["p_o"] == 1.0
        assert result.values["groups"] == 22                       # the interval resamples pairs
        assert result.ci[0] <= result.score <= result.ci[1] or result.score == 1.0


def test_items_shared_by_both_cases_of_a_pair_count_once():
    """Both cases of a pair share question, contexts and reference: their context-precision and
    context-recall items are the same items (61 and 43 distinct, listed 122 and 86 times)."""
    cases = judge_eval.load_cases()
    listed = {m: sum(len(c.items(m)) for c in cases) for m in judge_cases.METRICS}
    distinct = {m: len(judge_cases.unique_items(m, cases)) for m in judge_cases.METRICS}
    assert (listed["context_precision"], distinct["context_precision"]) == (122, 61)
    assert (listed["context_recall"], distinct["context_recall"]) == (86, 43)
    assert distinct["faithfulness"] == listed["faithfulness"] and distinct["answer_relevancy"] == listed["answer_relevancy"]
    kappas = judge_cases.annotator_agreement(judge_eval.load_labels("pass1"), judge_eval.load_labels("pass2"), judge_eval.load_cases())
    assert kappas["context_precision"].values["n"] == 61 and kappas["context_recall"].values["n"] == 43
    for a, b in judge_cases.pairs(cases):
        assert judge_cases.content_key(a, "context_precision", 0) == judge_cases.content_key(b, "context_precision", 0)
        assert judge_cases.unit_of(a) == judge_cases.unit_of(b)
