"""What a validate-judge run will send, before it sends anything: requests, tokens and time.

A request's prompt is the data it carries (passages, question, answer or sentence) plus what every request of
its pass repeats: the system prompt, the step's instructions, the few-shot examples, the labels between passages.
The old estimate counted the data at 4 characters a token and 150 tokens for the rest, and no reply tokens; a
user measured it 34 % under what a run used (34,320 against 51,873). The shipped recordings show why: the repeated
part is 700 to 2,700 characters a request, not 600; the Qwen tokenizer reads 3.6 to 4.0 characters a token; a
claims or quote reply is 30 to 85 tokens. On RAGTruth dev the old rule gives 35 to 55 % fewer tokens than this one.

Here each pass is calibrated on its shipped RAGTruth dev recording (a real local judge's run, which the course
loads: ``course.alignment.recordings.calibration_of``): requests per unit
(sentence, answer or question, read from the designs' ``calls``), the repeated characters a request (the recorded
characters less the data this module counts for the same answers), the characters a token, the reply tokens and
the seconds a request, and the requests a run shares (G-Eval's evaluation steps). The data of the run at hand is
counted exactly. On the recordings it was not calibrated on (HaluEval dev, RAGTruth test) it comes within 1 to 9 %
of the tokens used (a test checks 20 %). Other tokenizers differ by some percent; the time is the recorded judge's
speed (Qwen2.5-Coder-1.5B, Q4_K_M, 2 CPU threads) until the first answers give the server's own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...errors import InputError
from ...text import sentence_spans
from ...validate import as_list, number
from ..against_people.designs import Item
from .designs import JUDGED

__all__ = ["Calibration", "calibration", "unit", "data_chars", "estimate", "describe", "minutes"]

def unit(pass_name: str) -> str:
    """What a pass asks about, read from its designs' ``calls`` ("1/sentence", "1/question", else per answer)."""
    if not isinstance(pass_name, str):
        raise InputError("pass_name", "a pass name, e.g. 'support'", pass_name)
    calls = [d.calls for d in JUDGED.values() if d.recording == pass_name]
    if not calls:
        raise InputError("pass_name", "a pass a validate-judge design reads: " + ", ".join(
            sorted({str(d.recording) for d in JUDGED.values()})), pass_name)
    return "sentence" if calls[0].endswith("/sentence") else "question" if calls[0].endswith("/question") else "answer"


def data_chars(pass_name: str, item: Item) -> list[int]:
    """The data characters of each unit ``pass_name`` asks about for ``item``: every sentence with the passages
    and the question; the answer with them; or the question with its passages."""
    if not isinstance(item, Item):
        raise InputError("item", "an Item", item)
    context = sum(len(c) for c in item.context) + len(item.question)
    kind = unit(pass_name)
    if kind == "sentence":
        return [context + (end - start) for start, end in sentence_spans(item.answer)] or [context]
    return [context + (len(item.answer) if kind == "answer" else 0)]


def _units(pass_name: str, chosen: list[Item]) -> list[int]:
    """The data characters of every unit for ``chosen`` (a question asked about once, whatever its answers)."""
    seen: set[str] = set()
    out: list[int] = []
    per_question = unit(pass_name) == "question"
    for item in chosen:
        if per_question:
            if item.group in seen:
                continue
            seen.add(item.group)
        out += data_chars(pass_name, item)
    return out


@dataclass(frozen=True)
class Calibration:
    """One pass's costs measured on its recording: repeated characters, characters a token, reply tokens and
    seconds, each per request; ``shared`` requests are sent once a run (G-Eval's evaluation steps)."""

    pass_name: str
    calls_per_unit: float
    repeated_chars: float
    chars_per_token: float
    completion_tokens: float
    seconds: float
    shared: int
    shared_tokens: float
    recorded_calls: int


def calibration(pass_name: str, recording: dict[str, Any], recorded: list[Item]) -> Calibration:
    """Measure ``pass_name`` on its ``recording`` (the JSON a recorder writes: its ``replies``) of the answers
    ``recorded`` (see the module)."""
    if not isinstance(recording, dict) or not isinstance(recording.get("replies"), list):
        raise InputError("recording", "a recording's JSON (a dict with its replies)", type(recording).__name__)
    recorded = as_list("recorded", recorded, "the Items the recording asked about")
    if not all(isinstance(i, Item) for i in recorded):
        raise InputError("recorded", "a list of Items", recorded)
    replies = [r for r in recording["replies"] if isinstance(r, dict) and r.get("prompt_tokens")]
    if not replies:
        raise InputError("recording", "a recording whose replies count their prompt tokens", len(recording["replies"]))
    planned = _units(pass_name, recorded)
    counts: dict[str, int] = {}
    for r in replies:
        counts[r["step"]] = counts.get(r["step"], 0) + 1
    # a step asked at most twice in the whole run is shared (G-Eval's evaluation steps); the rest are per unit
    shared = [r for r in replies if counts[r["step"]] <= 2 < len(replies)]
    main_replies = [r for r in replies if counts[r["step"]] > 2 or len(replies) <= 2]
    per_unit = len(main_replies) / max(len(planned), 1)
    chars = sum(sum(len(m["content"]) for m in r["messages"]) for r in main_replies)
    tokens = sum(r["prompt_tokens"] for r in main_replies)
    repeated = (chars - per_unit * sum(planned)) / max(len(main_replies), 1)
    return Calibration(pass_name=pass_name, calls_per_unit=per_unit, repeated_chars=max(repeated, 0.0),
                       chars_per_token=chars / tokens,
                       completion_tokens=sum(r.get("completion_tokens") or 0 for r in main_replies) / len(main_replies),
                       seconds=sum(r.get("latency_s") or 0.0 for r in main_replies) / len(main_replies),
                       shared=len(shared),
                       shared_tokens=(sum(r["prompt_tokens"] + (r.get("completion_tokens") or 0) for r in shared)
                                      / len(shared)) if shared else 0.0,
                       recorded_calls=len(main_replies))


def estimate(cal: Calibration, chosen: list[Item]) -> dict[str, float]:
    """Requests, prompt and reply tokens, and seconds at the recorded judge's speed, for ``chosen``, before caching
    (``cal``: the pass's :func:`calibration`)."""
    if not isinstance(cal, Calibration):
        raise InputError("cal", "a pass's Calibration (cost.calibration)", cal)
    chosen = as_list("chosen", chosen, "a list of Items")
    if not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a list of Items", chosen)
    planned = _units(cal.pass_name, chosen)
    prompt = (cal.calls_per_unit * sum((cal.repeated_chars + c) / cal.chars_per_token for c in planned)
              + cal.shared * cal.shared_tokens)
    calls = round(cal.calls_per_unit * len(planned)) + cal.shared
    completion = (calls - cal.shared) * cal.completion_tokens
    return {"answers": float(len(chosen)), "sources": float(len({i.group for i in chosen})), "calls": float(calls),
            "prompt_tokens": float(math.ceil(prompt)), "completion_tokens": float(math.ceil(completion)),
            "tokens": float(math.ceil(prompt + completion)), "seconds": calls * cal.seconds,
            "seconds_per_call": cal.seconds, "chars_per_token": cal.chars_per_token}


def describe(found: dict[str, float]) -> str:
    """One line: requests, tokens and the time at the recorded judge's speed."""
    if not isinstance(found, dict) or "tokens" not in found:
        raise InputError("found", "what estimate() returns", found)
    return (f"about {int(found['calls'])} requests and {int(found['tokens']):,} tokens ({int(found['prompt_tokens']):,} "
            f"prompt tokens + {int(found['completion_tokens']):,} reply tokens) before caching; about {minutes(found['seconds'])} at "
            f"the recorded local judge's speed ({found['seconds_per_call']:.1f} s a request: Qwen2.5-Coder-1.5B Q4_K_M "
            "on 2 CPU threads); a better time follows the first answers")


def minutes(seconds: float) -> str:
    """Seconds as "N s" under 90 s, else "N min"."""
    seconds = number("seconds", seconds, "a finite number of seconds")
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"
