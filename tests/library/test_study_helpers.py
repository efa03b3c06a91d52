"""The small library helpers the course's loaders call: a family's merged rows, a recording's cost per answer,
and a recording's timings."""

from __future__ import annotations

import time

import pytest

from ragmetrics_edu.errors import InputError
from ragmetrics_edu.judges.records import CallRecord, timings
from ragmetrics_edu.studies.halueval.choosing import recorded_cost
from ragmetrics_edu.studies.judge_study.passes import merged_rows


def test_a_row_two_parts_hold_is_kept_once_from_the_first_part() -> None:
    first = [{"case": "c1", "metric": "faithfulness", "mode": "same_items", "pipeline": None, "rotate": 0, "from": 1}]
    second = [dict(first[0], **{"from": 2}), dict(first[0], case="c2", **{"from": 2})]
    merged = merged_rows([first, second])
    assert [(r["case"], r["from"]) for r in merged] == [("c1", 1), ("c2", 2)]
    with pytest.raises(InputError, match=r"parts\[1\]"):
        merged_rows([first, ["not a row"]])


def test_a_recordings_cost_is_its_totals_over_the_answers_it_scored() -> None:
    replies = [{"prompt_tokens": 100, "completion_tokens": 20, "latency_s": 3.0},
               {"prompt_tokens": 50, "completion_tokens": None, "latency_s": None}]
    assert recorded_cost(replies, 4) == {"calls_per_answer": 0.5, "tokens_per_answer": 42.5, "seconds_per_answer": 0.75}
    with pytest.raises(InputError, match="answers"):
        recorded_cost(replies, 0)


def test_timings_sum_the_latencies_and_count_the_wall_clock() -> None:
    calls = [CallRecord(step="s", messages=[], raw="{}", parsed={}, model="m", latency_s=seconds)
             for seconds in (1.25, None, 2.0)]
    found = timings(calls, time.monotonic() - 5.0)
    assert found["machine_time_s"] == 3.2 and 5.0 <= found["wall_time_s"] < 60
