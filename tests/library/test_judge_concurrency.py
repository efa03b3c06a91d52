"""Bounded concurrency pays off when every reply takes a while (100 ms added latency)."""

import time

import pytest

from ragmetrics_edu import designs, judges
from scripted_server import schema_responder


@pytest.fixture
def slow_server(server):
    server.responder = schema_responder(delay=0.1)
    return server


def test_eight_at_once_is_several_times_faster_than_one(slow_server):
    work = [{"question": f"Q{i}?", "nodes": ["a", "b"], "expected_output": f"A{i}."} for i in range(24)]
    seconds = {}
    for concurrency in (1, 8):
        judge = judges.OpenAIJudge("scripted-model", base_url=slow_server.base_url, api_key="k", mode="json_schema",
                                   timeout=10.0, max_retries=0, max_concurrency=concurrency)
        assert judge.client is not None  # built before the clock starts: this times requests in flight only
        start = time.perf_counter()
        results = judges.score_cases(designs.context_precision, work, judge)
        seconds[concurrency] = time.perf_counter() - start
        assert len(results) == 24 and judge.usage.calls == 24
    assert seconds[1] >= 24 * 0.1                        # serial: at least the sum of the latencies
    assert seconds[1] / seconds[8] >= 4.0, seconds       # bench_judge.py measures the full figure
    assert slow_server.max_in_flight <= 8
