"""Identical requests in flight at once are sent once: evaluate() pays once per distinct request."""

import threading

from ragmetrics_edu import evaluate
from scripted_server import Scripted, schema_responder, scripted_judge


def _cases(questions: int) -> list[dict]:
    """Each question twice, with a right and a wrong answer over the same context (as HaluEval's pairs)."""
    return [{"question": f"Who wrote book {i}?", "answer": answer, "contexts": [f"Book {i} was written by Ann Lee."]}
            for i in range(questions) for answer in (f"Ann Lee wrote book {i}.", f"Bob Ray wrote book {i}.")]


def test_twenty_questions_with_two_answers_each_cost_twenty_calls(server):
    server.responder = schema_responder(delay=0.2)  # slow enough that both answers' requests are in flight together
    judge = scripted_judge(server, max_concurrency=4)
    table = evaluate(_cases(20), metrics=["faithfulness_overlap_reanswer"], judge=judge, progress=False)
    assert table["error"].isna().all()
    assert server.hits == 20                      # one re-answer request per question, not per answer
    assert table["calls"].sum() == 20             # what the table says was paid
    assert table["cache_hits"].sum() == 20        # the other answer of each question shared the reply
    assert judge.usage.calls == 20


def test_a_shared_request_that_failed_is_asked_again_by_the_one_waiting(server):
    """The waiter never takes a failed request's place as if it had an answer: it asks for itself."""
    first_arrived = threading.Event()
    bodies = []

    def respond(body):
        bodies.append(body)
        if len(bodies) == 1:
            first_arrived.set()
            return Scripted(status=500, message="overloaded", delay=0.5)
        return schema_responder()(body)

    server.responder = respond
    judge = scripted_judge(server, max_concurrency=2)
    table = evaluate(_cases(1), metrics=["faithfulness_overlap_reanswer"], judge=judge, progress=False)
    assert first_arrived.is_set()
    assert server.hits == 2                        # the failed one, then the waiter's own request
    assert table["error"].notna().sum() == 1, table["error"].tolist()   # the 500 is the first one's alone
    assert table["calls"].sum() == 1               # the waiter's reply (a failed HTTP request leaves no record)


def test_six_answers_per_question_at_the_default_concurrency_send_each_question_once(server):
    """As RAGTruth has: six answers to each question. Twins arriving right behind the first reply (after it came
    back, before it was kept) used to send again; now the first reply is kept before its twins are released."""
    from ragmetrics_edu.judges import OpenAIJudge

    server.responder = schema_responder(delay=0.05)
    judge = OpenAIJudge("scripted-model", base_url=server.base_url, api_key="k", mode="json_schema", timeout=5.0,
                        max_retries=0)                                  # the default max_concurrency
    cases = [{"question": f"Who wrote book {i}?", "answer": f"Writer {k} wrote book {i}.",
              "contexts": [f"Book {i} was written by Ann Lee."]} for i in range(12) for k in range(6)]
    table = evaluate(cases, metrics=["faithfulness_overlap_reanswer"], judge=judge, progress=False)
    assert table["error"].isna().all()
    assert server.hits == 12                                            # one request per distinct question
    assert table["calls"].sum() == 12 and table["cache_hits"].sum() == 60


def test_an_identical_request_after_the_first_is_done_is_not_sent_again(server):
    server.responder = schema_responder()
    judge = scripted_judge(server)
    case = [{"question": "Who wrote book 1?", "answer": "Ann Lee.", "contexts": ["Book 1 was written by Ann Lee."]}]
    evaluate(case, metrics=["faithfulness_overlap_reanswer"], judge=judge, progress=False)
    evaluate(case, metrics=["faithfulness_overlap_reanswer"], judge=judge, progress=False)
    assert server.hits == 1
