"""What a prompt's layout costs on a llama.cpp server: support per sentence, passages first vs sentence first,
and G-Eval on the same answers in the same run (the cost goal: no more seconds an answer than G-Eval).

    python benchmarks/bench_layouts.py --base-url http://127.0.0.1:8080/v1 --server-log SERVER.log \\
        [--sources 1] [--answers 2] [--arms passages_first sentence_first g_eval] [--out layouts.json]

Needs a running ``make judge-server`` whose log (its stderr) is written to SERVER.log, and nothing else
talking to it. Each arm asks about the same answers, one request at a time, in source order, with no disk
cache (G-Eval's evaluation steps are asked once, by its first answer, as in a recorded pass);
llama-cpp-python's server keeps the previous prompt and prints, for each request,
``Llama.generate: N prefix-match hit, remaining M prompt tokens to eval``: M is what it really read. The
benchmark reports, per layout: seconds per answer, prompt tokens sent (the server's usage) and evaluated
(the log's M), and the share reused.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

from ragmetrics_edu.course.against_people.items import items
from ragmetrics_edu.designs.faithfulness_support import LAYOUTS, faithfulness_support
from ragmetrics_edu.designs.g_eval import g_eval
from ragmetrics_edu.judges import OpenAIJudge

EVALUATED = re.compile(r"remaining (\d+) prompt tokens to eval")


def _evaluated(log: Path, start: int) -> list[int]:
    """The tokens each request had the server read, from the log lines written after byte ``start``."""
    with open(log, "rb") as handle:
        handle.seek(start)
        text = handle.read().decode("utf-8", "replace")
    return [int(m) for m in EVALUATED.findall(text)]


#: what can be measured: the support design in each layout, and G-Eval
ARMS = (*LAYOUTS, "g_eval")


def _ask(arm: str, judge: OpenAIJudge, item) -> None:
    if arm == "g_eval":
        g_eval(judge, item.answer, list(item.context), question=item.question)
    else:
        faithfulness_support(judge, item.answer, list(item.context), question=item.question, layout=arm)


def run(base_url: str, model: str, log: Path, sources: int, answers: int,
        arms: tuple[str, ...] = ARMS) -> dict[str, dict[str, float]]:
    chosen = []
    for group in dict.fromkeys(i.group for i in items("ragtruth", "dev", groups=sources)):
        chosen += [i for i in items("ragtruth", "dev", groups=sources) if i.group == group][:answers]
    out: dict[str, dict[str, float]] = {}
    for layout in arms:
        judge = OpenAIJudge(model, base_url=base_url, api_key="local", mode="json_object_schema", temperature=0.0,
                            seed=7, timeout=900, max_retries=0, max_concurrency=1)
        start = log.stat().st_size
        began = time.monotonic()
        for item in chosen:
            _ask(layout, judge, item)
        seconds = time.monotonic() - began
        time.sleep(0.5)  # the server's log is flushed after the reply
        evaluated = _evaluated(log, start)
        sent = judge.usage.prompt_tokens
        out[layout] = {"answers": len(chosen), "requests": judge.usage.calls, "seconds_per_answer": seconds / len(chosen),
                       "prompt_tokens_sent": sent, "prompt_tokens_evaluated": sum(evaluated),
                       "reused_share": 1 - sum(evaluated) / sent if sent else float("nan")}
        print(f"{layout}: {out[layout]}", flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct-q4_k_m")
    parser.add_argument("--server-log", required=True, type=Path)
    parser.add_argument("--sources", type=int, default=1)
    parser.add_argument("--answers", type=int, default=2, help="answers per source")
    parser.add_argument("--arms", nargs="+", choices=ARMS, default=list(ARMS))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    found = run(args.base_url, args.model, args.server_log, args.sources, args.answers, tuple(args.arms))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        found_meta = {"date": time.strftime("%Y-%m-%d"), "base_url": args.base_url, "model": args.model,
                      "sources": args.sources, "answers_per_source": args.answers, "layouts": found}
        args.out.write_text(json.dumps(found_meta, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
