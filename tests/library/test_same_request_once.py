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
