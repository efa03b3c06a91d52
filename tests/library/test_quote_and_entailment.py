"""Two more ways to ask about one sentence, against a real HTTP server on 127.0.0.1: the NLI wording of support per
sentence (same reply, p(yes) from the token's probabilities) and quote-then-verify (the judge quotes, counting
words decides), with the verification's arithmetic by hand."""

import json

import pytest

from ragmetrics_edu import InputError, evaluate
from ragmetrics_edu.designs.faithfulness_quote import faithfulness_quote
from ragmetrics_edu.designs.faithfulness_support import faithfulness_support
from ragmetrics_edu.judges import GivenJudge
from ragmetrics_edu.judges.prompting import data_blocks
from ragmetrics_edu.metrics.quote import QUOTE_MATCH, quote_check, quote_score
from ragmetrics_edu.text import sentence_spans
from scripted_server import Scripted, scripted_judge, yes_no_tokens

ANSWER = "The bridge opened in 1932. It is 610 m long. It was painted red by Ann Lee."
CONTEXT = ["The bridge opened in 1932 after six years of work.", "Its main span is 503 m long."]



def test_the_entailment_wording_reads_p_yes_and_keeps_the_passages_first(server):
    supports = iter([0.8, 0.3, 0.1])
    server.responder = lambda body: (lambda p: Scripted(content="yes" if p >= 0.5 else "no",
                                                        logprobs=yes_no_tokens(p)))(next(supports))
    r = faithfulness_support(scripted_judge(server), ANSWER, CONTEXT, question="How long is it?", wording="entailment")
    assert [row["p_yes"] for row in r.rows] == pytest.approx([0.8, 0.3, 0.1]) and r.score == pytest.approx(0.1)
    prompts = [b["messages"][-1]["content"] for b in server.requests]
    assert all("Does the premise entail the hypothesis?" in p for p in prompts)
    assert [b.name for b in data_blocks(prompts[0])] == ["passage_1", "passage_2", "question", "sentence"]
    opening = prompts[0][:prompts[0].index("Hypothesis (the sentence)")]
    assert all(p.startswith(opening) for p in prompts)                        # still a shared opening
    assert r.inputs["wording"] == "entailment"


def test_the_wordings_are_checked_before_any_call():
    judge = GivenJudge({"faithfulness.support": lambda request: "yes"})
    with pytest.raises(InputError, match="wording"):
        faithfulness_support(judge, ANSWER, CONTEXT, wording="nli")
    with pytest.raises(InputError, match="layout"):
        faithfulness_support(judge, ANSWER, CONTEXT, wording="entailment", layout="sentence_first")
    assert judge.calls == []


def test_a_quote_is_verified_by_its_words_and_the_sentence_by_the_quote():
    exact = quote_check("The bridge opened in 1932.", "The bridge opened in 1932", CONTEXT)
    assert exact["match"] == 1.0 and exact["verified"] and exact["support"] == 1.0
    # the judge copied the sentence, not the passage: of its 5 words (it, is, 610, m, long) the longest unbroken run
    # in the passages is "m long" -> match 2/5 < 0.8, not verified, support 0
    parrot = quote_check("It is 610 m long.", "It is 610 m long.", CONTEXT)
    assert parrot["match"] == pytest.approx(2 / 5) and not parrot["verified"] and parrot["support"] == 0.0
    # a real quote that lacks the sentence's number: verified, but "610" is not in it
    partial = quote_check("It is 610 m long.", "Its main span is 503 m long", CONTEXT)
    assert partial["verified"] and partial["content_words"] == 3 and partial["in_quote"] == 2   # {610, m, long}
    assert partial["support"] == pytest.approx(2 / 3)
    empty = quote_check("It was painted red by Ann Lee.", "", CONTEXT)
    assert empty["match"] == 0.0 and not empty["verified"] and empty["support"] == 0.0
    assert QUOTE_MATCH == 0.8


def test_the_answer_scores_its_least_supported_sentence_with_spans():
    quotes = ["The bridge opened in 1932", "Its main span is 503 m long", ""]
    r = quote_score(ANSWER, sentence_spans(ANSWER), quotes, CONTEXT)
    assert [row["p_yes"] for row in r.rows] == pytest.approx([1.0, 2 / 3, 0.0]) and r.score == 0.0
    assert [(s["start"], s["end"]) for s in r.values["spans"]] == [(45, 75)]          # below 0.5: the third only
    assert [row["verified"] for row in r.rows] == [True, True, False] and r.values["verified"] == 2
    assert quote_score(ANSWER, sentence_spans(ANSWER), quotes, CONTEXT, aggregate="mean").score == pytest.approx(5 / 9)
    assert quote_score("", [], [], CONTEXT).score == 1.0                                 # nothing claimed
    with pytest.raises(InputError, match="quotes"):
        quote_score(ANSWER, sentence_spans(ANSWER), quotes[:2], CONTEXT)


def test_quote_then_verify_asks_one_request_a_sentence_and_checks_what_comes_back(server):
    quotes = iter(["The bridge opened in 1932", "It is 610 m long", ""])
    server.responder = lambda body: Scripted(content=json.dumps({"quote": next(quotes)}))
    r = faithfulness_quote(scripted_judge(server), ANSWER, CONTEXT, question="How long is it?")
    assert server.hits == 3 and r.score == 0.0
    assert [row["verified"] for row in r.rows] == [True, False, False]                 # an invented quote fails
    prompts = [b["messages"][-1]["content"] for b in server.requests]
    assert [b.name for b in data_blocks(prompts[0])] == ["passage_1", "passage_2", "question", "sentence"]
    opening = prompts[0][:prompts[0].index("Sentence to find")]
    assert all(p.startswith(opening) for p in prompts)
    assert "response_format" in server.requests[0]                                    # a JSON reply, with its schema


def test_quote_then_verify_runs_from_evaluate_with_given_quotes():
    case = {"question": "When did it open?", "answer": "The bridge opened in 1932.", "contexts": CONTEXT}
    judge = GivenJudge({"faithfulness.quote": lambda request: "The bridge opened in 1932"})
    table = evaluate([case], metrics=["faithfulness_quote"], judge=judge, progress=False)
    assert table.loc[0, "faithfulness_quote"] == 1.0 and table.loc[0, "calls"] == 1
