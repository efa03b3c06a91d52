"""Support per sentence against a real HTTP server on 127.0.0.1: the layout, p(yes) from log-probabilities
and from votes, the spans' offsets, and the arithmetic by hand."""

import math

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.designs.faithfulness_support import faithfulness_support
from ragmetrics_edu.judges import GivenJudge
from ragmetrics_edu.judges.prompting import data_blocks
from ragmetrics_edu.metrics.support import abstains, support_score
from ragmetrics_edu.text import sentence_spans
from scripted_server import Scripted, scripted_judge, yes_no_tokens

ANSWER = "The bridge opened in 1932. It is 503 m long. The passages do not say who paid for it."
CONTEXT = ["The bridge opened in 1932 after six years of work.", "Its main span is 503 m long."]



def test_sentences_are_found_by_their_characters():
    spans = sentence_spans(ANSWER)
    assert [ANSWER[a:b] for a, b in spans] == ["The bridge opened in 1932.", "It is 503 m long.",
                                               "The passages do not say who paid for it."]
    other = "Dr. Lee, e.g. in 3.5 s, won.\n1. Next line"
    assert [other[a:b] for a, b in sentence_spans(other)] == ["Dr. Lee, e.g. in 3.5 s, won.", "1. Next line"]


def test_the_score_and_spans_by_hand():
    r = support_score(ANSWER, sentence_spans(ANSWER), [0.9, 0.3, 0.1])
    assert r.score == pytest.approx(0.1)                              # min(0.9, 0.3, 0.1)
    assert [(s["start"], s["end"]) for s in r.values["spans"]] == [(27, 44), (45, 85)]
    assert r.values["spans"][0] == {"start": 27, "end": 44, "confidence": pytest.approx(0.7), "text": "It is 503 m long."}
    assert support_score(ANSWER, sentence_spans(ANSWER), [0.9, 0.3, 0.1], aggregate="mean").score == pytest.approx(13 / 30)
    # the third sentence claims nothing: min over the claims only
    assert abstains(ANSWER[45:85]) and not abstains(ANSWER[:26])
    assert support_score(ANSWER, sentence_spans(ANSWER), [0.9, 0.3, 0.1], aggregate="min_claims").score == pytest.approx(0.3)


def test_edge_cases_are_defined():
    assert support_score("", [], []).score == 1.0
    only = "The passages do not mention it."
    assert support_score(only, sentence_spans(only), [0.0], aggregate="min_claims").score == 1.0
    assert support_score(only, sentence_spans(only), [0.0]).score == 0.0


@pytest.mark.parametrize("kwargs, field", [
    ({"supports": [0.5]}, "supports"), ({"supports": [0.5, 2.0, 0.1]}, "supports[1]"),
    ({"aggregate": "max"}, "aggregate"), ({"threshold": math.nan}, "threshold"),
    ({"offsets": [(0, 500), (1, 2), (2, 3)]}, "offsets[0]"),
])
def test_bad_input_names_its_field(kwargs, field):
    args = {"offsets": sentence_spans(ANSWER), "supports": [0.9, 0.3, 0.1], **kwargs}
    with pytest.raises(InputError) as caught:
        support_score(ANSWER, args.pop("offsets"), args.pop("supports"), **args)
    assert caught.value.field == field


def test_p_yes_is_read_from_the_reply_tokens_probabilities(server):
    supports = iter([0.9, 0.2, 0.05])
    server.responder = lambda body: (lambda p: Scripted(content="yes" if p >= 0.5 else "no",
                                                        logprobs=yes_no_tokens(p)))(next(supports))
    judge = scripted_judge(server)
    r = faithfulness_support(judge, ANSWER, CONTEXT, question="How long is the bridge?")
    assert [row["p_yes"] for row in r.rows] == pytest.approx([0.9, 0.2, 0.05])
    assert [row["from"] for row in r.rows] == ["logprobs"] * 3
    assert r.score == pytest.approx(0.05)
    assert server.hits == 3                                           # one request a sentence, no votes
    body = server.requests[0]
    assert body["max_tokens"] == 1 and body["logprobs"] is True and "response_format" not in body
    assert [s["start"] for s in r.values["spans"]] == [27, 45]


def test_the_passages_come_first_and_the_opening_is_shared(server):
    server.responder = lambda body: Scripted(content="yes", logprobs=yes_no_tokens(0.8))
    judge = scripted_judge(server)
    faithfulness_support(judge, ANSWER, CONTEXT, question="How long is the bridge?")
    faithfulness_support(judge, "It opened in 1932.", CONTEXT, question="How long is the bridge?")
    prompts = [b["messages"][-1]["content"] for b in server.requests]
    names = [b.name for b in data_blocks(prompts[0])]
    assert names == ["passage_1", "passage_2", "question", "sentence"]       # passages, question, then the sentence
    systems = {b["messages"][0]["content"] for b in server.requests}
    assert len(systems) == 1                                                 # one fence for the whole source
    opening = prompts[0][:prompts[0].index("Sentence to check")]
    assert all(p.startswith(opening) for p in prompts)                       # the shared prefix


def test_without_probabilities_votes_are_sampled_each_with_its_own_seed(server):
    replies = iter(["yes", "no", "yes", "yes"] + ["no"] * 4 + ["yes"] * 4)
    server.responder = lambda body: Scripted(content=next(replies))
    judge = scripted_judge(server, seed=7)
    r = faithfulness_support(judge, ANSWER, CONTEXT, votes=3)
    assert [row["p_yes"] for row in r.rows] == pytest.approx([0.75, 0.0, 1.0])
    assert [row["from"] for row in r.rows] == ["votes"] * 3
    assert any("sampled votes" in n for n in r.notes)
    seeds = [b.get("seed") for b in server.requests]
    sampled = [s for b, s in zip(server.requests, seeds, strict=True) if b.get("temperature", 0) > 0]
    assert len(sampled) == 9 and len(set(sampled)) == 9                      # no two votes share a seed


def test_a_given_judge_answers_the_step_by_its_word():
    r = faithfulness_support(GivenJudge({"faithfulness.support": "no"}), "It is red.", ["It is blue."], votes=0)
    assert r.score == 0.0 and r.rows[0]["from"] == "reply"


def test_a_bare_reply_outside_yes_and_no_is_repaired_not_guessed(server):
    replies = iter(["maybe", "no"])
    server.responder = lambda body: Scripted(content=next(replies))
    r = faithfulness_support(scripted_judge(server), "It is red.", ["It is blue."], votes=0)
    assert server.hits == 2 and r.score == 0.0


def test_the_sentence_first_layout_shares_nothing(server):
    server.responder = lambda body: Scripted(content="yes", logprobs=yes_no_tokens(0.8))
    faithfulness_support(scripted_judge(server), ANSWER, CONTEXT, question="How long?", layout="sentence_first")
    prompts = [b["messages"][-1]["content"] for b in server.requests]
    assert [b.name for b in data_blocks(prompts[0])] == ["sentence", "question", "passage_1", "passage_2"]
    assert len({p[:40] for p in prompts}) == 3                              # each request differs from the start
