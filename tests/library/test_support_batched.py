"""Support per sentence in one request, against a real HTTP server on 127.0.0.1: one call for all sentences, each
sentence's p(yes) read at its own verdict token (not the word the reply chose), the word where no probabilities."""

import json
import math

import pytest

from ragmetrics_edu.designs.faithfulness_support_batched import faithfulness_support_batched
from ragmetrics_edu.judges import GivenJudge
from scripted_server import Scripted, scripted_judge

ANSWER = "The bridge opened in 1932. It is 503 m long. The passages do not say who paid for it."
CONTEXT = ["The bridge opened in 1932 after six years of work.", "Its main span is 503 m long."]


def _certain(token):
    return {"token": token, "logprob": 0.0, "bytes": None, "top_logprobs": [{"token": token, "logprob": 0.0}]}


def reply_tokens(p_yes, words):
    """The tokens of {"sentence_1":"yes",...} as a server sends them; at each verdict, yes and no with p_yes[i]."""
    out = [_certain('{"')]
    for i, (p, word) in enumerate(zip(p_yes, words, strict=True), start=1):
        out += [_certain("sentence"), _certain("_"), _certain(str(i)), _certain('":"')]
        out.append({"token": word, "logprob": math.log(p if word == "yes" else 1 - p), "bytes": None,
                    "top_logprobs": [{"token": "yes", "logprob": math.log(p)}, {"token": "no", "logprob": math.log(1 - p)}]})
        out.append(_certain('","' if i < len(p_yes) else '"}'))
    return out


def test_one_request_and_each_sentences_p_yes_from_its_own_token(server):
    p_yes, words = [0.9, 0.3, 0.6], ["yes", "yes", "no"]   # the word can differ from the likelier one
    content = json.dumps({f"sentence_{i}": w for i, w in enumerate(words, start=1)})
    server.responder = lambda body: Scripted(content=content, logprobs=reply_tokens(p_yes, words))
    r = faithfulness_support_batched(scripted_judge(server), ANSWER, CONTEXT, question="How long is it?")
    assert server.hits == 1
    assert [row["p_yes"] for row in r.rows] == pytest.approx(p_yes)
    assert r.score == pytest.approx(0.3)
    body = server.requests[0]
    assert body["logprobs"] is True and body["top_logprobs"] == 5
    prompt = body["messages"][-1]["content"]
    assert prompt.index("Passages:") < prompt.index("Sentences to check:")   # the passages first: a shared opening
    assert all(f'name="sentence_{i}"' in prompt for i in (1, 2, 3))


def test_without_probabilities_the_words_decide_and_the_result_says_so():
    judge = GivenJudge({"faithfulness.support_all": ["yes", "no", "yes"]})
    r = faithfulness_support_batched(judge, ANSWER, CONTEXT)
    assert [row["p_yes"] for row in r.rows] == [1.0, 0.0, 1.0]
    assert any("without token probabilities" in note for note in r.notes)
    assert faithfulness_support_batched(judge, "", CONTEXT).calls == []   # no sentence, no call
