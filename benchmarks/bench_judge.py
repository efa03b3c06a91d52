"""Measure what the LLM judge costs and how it scales.

    python benchmarks/bench_judge.py [--recording ragmetrics_edu/data/recordings/FILE.json] [--cases 32]

1. Calls and prompt size per case, per metric, on the decks' examples, next to the
   figures measured for DeepEval 4.3.1 and Ragas 0.4.3 (see PEERS below). Prompt characters come
   from the requests themselves; tokens from a recording of a real model when given.
2. A cached re-run: the same cases again with the on-disk cache, counting requests.
3. Throughput at concurrency 1 and 8 against a local OpenAI-compatible server on
   127.0.0.1 that adds 100 ms to every reply (the tests' scripted server).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from ragmetrics_edu import designs, judges  # noqa: E402
from ragmetrics_edu.course.deck_cases import run_deck_cases  # noqa: E402
from scripted_server import ScriptedServer, schema_responder  # noqa: E402

#: Calls / prompt characters per test case at default settings, measured by running DeepEval 4.3.1 and
#: Ragas 0.4.3 on the decks' cases. The calls follow from their source: DeepEval's ``measure``
#: (deepeval/metrics/faithfulness/faithfulness.py: _generate_claims, _generate_truths,
#: _generate_verdicts, _generate_reason; contextual_relevancy.py: _generate_verdicts once per node)
#: and Ragas' ``_single_turn_ascore`` (src/ragas/metrics/_context_precision.py: one call per node).
PEERS = {
    "context_precision": ("2 / 4,434", "5 / 21,454"),
    "context_recall": ("2 / 3,102", "1 / 3,991"),
    "contextual_relevancy": ("6 / 10,548", "–"),
    "faithfulness": ("4 / 5,236", "2 / 5,507"),
    "answer_relevancy": ("3 / 3,758", "–"),
    "answer_relevancy_embedding": ("–", "1 (n=3) / 1,394"),
    "context_entity_recall": ("–", "2 / 5,433"),
    "answer_correctness": ("–", "3 / 8,716"),
}


def judge_for(server: ScriptedServer, cache: Path | None = None, concurrency: int = 1) -> judges.OpenAIJudge:
    return judges.OpenAIJudge("scripted-model", base_url=server.base_url, api_key="bench", mode="json_schema",
                              timeout=10.0, max_retries=0, cache_dir=cache, max_concurrency=concurrency)


def cost_table(server: ScriptedServer, recording: Path | None) -> None:
    runs = run_deck_cases(judge_for(server))
    per_metric: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for run in runs:
        if run.result is not None:
            calls = [c for c in run.result.calls if c.attempt == 0]
            per_metric[run.case.step].append((len(calls), sum(c.prompt_chars for c in calls)))
    tokens: dict[str, list[int]] = defaultdict(list)
    if recording:
        for entry in json.loads(recording.read_text())["replies"]:
            if entry.get("attempt", 0) == 0 and entry.get("prompt_tokens"):
                tokens[entry["step"].split(".")[0]].append(entry["prompt_tokens"])
    print("metric                        cases  calls/case  prompt chars/case  real prompt tokens/call  DeepEval        Ragas")
    for metric, rows in per_metric.items():
        calls = statistics.mean(r[0] for r in rows)
        chars = statistics.mean(r[1] for r in rows)
        tok = f"{statistics.mean(tokens[metric]):,.0f}" if tokens.get(metric) else "–"
        deepeval, ragas = PEERS.get(metric, ("?", "?"))
        print(f"{metric:<29} {len(rows):>5}  {calls:>10.2f}  {chars:>17,.0f}  {tok:>23}  {deepeval:<15} {ragas}")


def cached_rerun(server: ScriptedServer) -> None:
    with tempfile.TemporaryDirectory() as cache:
        run_deck_cases(judge_for(server, Path(cache)))
        before = server.hits
        again = judge_for(server, Path(cache))
        run_deck_cases(again)
        print(f"\ncached re-run of every deck case: {server.hits - before} requests, "
              f"{again.usage.cache_hits} answers from the cache")


def throughput(server: ScriptedServer, cases: int) -> None:
    server.responder = schema_responder(delay=0.1)
    nodes = ["Node one.", "Node two.", "Node three."]
    work = [{"question": f"Question {i}?", "nodes": nodes, "expected_output": f"Answer {i}."} for i in range(cases)]
    timings = {}
    for concurrency in (1, 8):
        judge = judge_for(server, concurrency=concurrency)
        judge.client  # built before the clock starts (OpenAIJudge builds it at the first request)
        start = time.perf_counter()
        judges.score_cases(designs.context_precision, work, judge)
        timings[concurrency] = time.perf_counter() - start
    print(f"\n{cases} context-precision cases, 100 ms added latency per reply:")
    for concurrency, seconds in timings.items():
        print(f"  concurrency {concurrency}: {seconds:.2f} s ({cases / seconds:.1f} cases/s)")
    print(f"  speed-up: {timings[1] / timings[8]:.1f}x (budget >= 6x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recording", type=Path, help="a recording of a real model, for real token counts")
    parser.add_argument("--cases", type=int, default=32)
    args = parser.parse_args()
    server = ScriptedServer().start()
    server.responder = schema_responder()
    try:
        cost_table(server, args.recording)
        cached_rerun(server)
        throughput(server, args.cases)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
