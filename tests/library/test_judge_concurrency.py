"""Bounded concurrency: up to ``max_concurrency`` requests are in flight at once, never more.

What makes concurrency pay off when every reply takes a while is requests waiting together, so
that is what is checked, with no clock to miss on a busy machine: the server holds each request
until eight are waiting at once (a judge that never sends eight together fails after 30 s), and
counts the most it ever held. ``benchmarks/bench_judge.py`` measures the speed-up itself (7.5x at
concurrency 8 against replies that each take 100 ms).
"""

import threading

from ragmetrics_edu import designs, judges
from scripted_server import schema_responder

WIDTH = 8


class Together:
    """A responder that answers only once ``width`` requests wait at once, and counts the most that waited."""

    def __init__(self, width: int) -> None:
        self.barrier = threading.Barrier(width, timeout=30)
        self.answer = schema_responder()
        self.lock = threading.Lock()
        self.waiting = 0
        self.most = 0
        self.broken = False

    def __call__(self, body):
        with self.lock:
            self.waiting += 1
            self.most = max(self.most, self.waiting)
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            self.broken = True  # answered all the same; the test reports it
        finally:
            with self.lock:
                self.waiting -= 1
        return self.answer(body)


def judge_for(server, concurrency: int) -> judges.OpenAIJudge:
    return judges.OpenAIJudge("scripted-model", base_url=server.base_url, api_key="k", mode="json_schema",
                              timeout=60.0, max_retries=0, max_concurrency=concurrency)


WORK = [{"question": f"Q{i}?", "nodes": ["a", "b"], "expected_output": f"A{i}."} for i in range(24)]


def test_eight_at_once_are_in_flight_together_and_never_more(server):
    together = Together(WIDTH)
    server.responder = together
    judge = judge_for(server, WIDTH)
    results = judges.score_cases(designs.context_precision, WORK, judge)
    assert not together.broken, f"{WIDTH} requests never waited together within 30 s (at most {together.most} did)"
    assert len(results) == 24 and judge.usage.calls == 24
    assert together.most == WIDTH, together.most     # eight waited at once (three rounds of eight), never nine
    assert server.max_in_flight <= WIDTH


def test_one_at_a_time_sends_one_at_a_time(server):
    server.responder = schema_responder(delay=0.02)  # long enough for a second request to overlap, were one sent
    judge = judge_for(server, 1)
    results = judges.score_cases(designs.context_precision, WORK[:8], judge)
    assert len(results) == 8 and judge.usage.calls == 8
    assert server.max_in_flight == 1


def test_where_no_thread_can_start_the_cases_go_one_at_a_time_in_order(server, monkeypatch):
    """Pyodide (the browser site) cannot start a thread: a judge asked for eight at once sends one at a time."""
    from ragmetrics_edu.judges import batch

    def no_threads(*args, **kwargs):
        raise RuntimeError("can't start new thread")  # what Pyodide raises

    monkeypatch.setattr(batch, "THREADS", False)
    monkeypatch.setattr(batch, "ThreadPoolExecutor", no_threads)
    server.responder = schema_responder(delay=0.02)
    judge = judge_for(server, WIDTH)
    seen: list[int] = []
    run = batch.run_tasks([lambda case=case: designs.context_precision(judge, **case) for case in WORK[:6]], judge,
                          on_outcome=lambda index, outcome: seen.append(index))
    assert seen == list(range(6)) and all(o.ok for o in run)
    assert [o.result.score for o in run] == [designs.context_precision(judge, **c).score for c in WORK[:6]]
    assert server.max_in_flight == 1


def test_one_at_a_time_a_failure_stops_the_run_with_the_task_named(monkeypatch):
    from ragmetrics_edu.judges import batch

    monkeypatch.setattr(batch, "THREADS", False)
    ran: list[int] = []

    def task(i: int):
        ran.append(i)
        if i == 2:
            raise ValueError("no reply")
        return i

    try:
        batch.run_tasks([lambda i=i: task(i) for i in range(5)])
    except ValueError as exc:
        assert "(in case 2 of 5)" in " ".join(getattr(exc, "__notes__", []))
    else:
        raise AssertionError("the failure was not raised")
    assert ran == [0, 1, 2]  # the tasks after the failure never ran
    kept = batch.run_tasks([lambda i=i: task(i) for i in range(5)], keep=(ValueError,))
    assert [o.ok for o in kept] == [True, True, False, True, True]
