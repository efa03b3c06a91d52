"""The HaluEval study and its recorder put their cases through the one case runner (judges.batch.run_tasks),
one at a time and in order: the replayed scores keep their NaNs, and a recording made against a scripted
server holds every call in the order made, rewritten after each pair."""

from __future__ import annotations

import json
import math

from ragmetrics_edu.course.halueval import record as halueval_record
from ragmetrics_edu.course.halueval import study as halueval_study
from ragmetrics_edu.judges import batch
from ragmetrics_edu.judges.replay import ReplayJudge
from ragmetrics_edu.studies.halueval.designs import DESIGNS
from scripted_server import Scripted, ScriptedServer, schema_responder


def spied(calls: list[dict]):
    def run_tasks(tasks, judge=None, **options):
        tasks = list(tasks)
        calls.append({"tasks": len(tasks), **options})
        return batch.run_tasks(tasks, judge, **options)
    return run_tasks


def test_the_study_replays_through_the_runner(monkeypatch):
    calls: list[dict] = []
    monkeypatch.setattr(halueval_study, "run_tasks", spied(calls))
    halueval_study.forget_scores()
    try:
        rows = halueval_study.pair_scores("checked_defaults", "dev")
        overlap = halueval_study.pair_scores("word_overlap", "dev")
    finally:
        halueval_study.forget_scores()
    assert [c["tasks"] for c in calls] == [2 * len(rows), 2 * len(overlap)]  # one task per answer
    assert all(c["max_concurrency"] == 1 for c in calls)
    nan = [r for r in rows if math.isnan(r["right"]) or math.isnan(r["hallucinated"])]
    assert nan and all(r["outcome"] == 0.5 for r in nan)  # a reply the judge could not give scores NaN, a tie
    assert rows == halueval_study.pair_scores("checked_defaults", "dev")  # the same numbers without the spy


def test_the_recorder_goes_through_the_runner(monkeypatch, tmp_path):
    base = schema_responder()
    pairs = halueval_study.pairs_for(DESIGNS["checked_defaults"], "dev")
    wrong = pairs[0].hallucinated_answer

    def respond(body):  # every request about the first pair's hallucinated answer gets a reply that is not JSON
        asked = " ".join(str(m.get("content")) for m in body["messages"])
        return Scripted(content="not json") if wrong in asked else base(body)

    calls: list[dict] = []
    monkeypatch.setattr(halueval_record, "run_tasks", spied(calls))
    server = ScriptedServer().start()
    server.responder = respond
    said: list[str] = []
    try:
        target = halueval_record.record(
            "checked", "dev", base_url=server.base_url, model="scripted", out_dir=str(tmp_path / "out"),
            provenance={"server": "scripted 1.0", "gguf": {"file": "x.gguf", "sha256": "0" * 64}},
            cache_dir=str(tmp_path / "cache"), say=said.append)
    finally:
        server.stop()
        halueval_study.forget_scores()
    assert calls == [{"tasks": len(pairs), "max_concurrency": 1, "on_outcome": calls[0]["on_outcome"],
                      "desc": "checked dev", "unit": "pair"}]
    progress = [line for line in said if " calls, " in line]
    assert [line.split(" ")[2] for line in progress] == [f"{i}/{len(pairs)}" for i in range(1, len(pairs) + 1)]
    assert any("judge error, answer left unscored" in line for line in said)
    errors = [line for line in said if "judge error" in line]
    assert len(errors) == 1 and errors[0].startswith(pairs[0].id)
    assert said.index(errors[0]) < said.index(progress[0])  # reported with its pair, before the pair's line
    replies = json.loads(target.read_text("utf-8"))["replies"]
    assert len(replies) == int(progress[-1].split(": ")[1].split(" ")[0]) > 0
    ReplayJudge(target)  # the file reads back as a recording
