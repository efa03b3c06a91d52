"""What a validate-judge run will send, before it sends anything: requests, tokens and time.

A request's prompt is the data it carries (passages, question, answer or sentence) plus what every request of
its pass repeats: the system prompt, the step's instructions, the few-shot examples, the labels between passages.
The old estimate counted the data at 4 characters a token and 150 tokens for the rest; on a real run it came
out 34 % low (34,320 estimated, 51,873 used): the repeated part is 1,200 to 2,900 characters, not 600, the
Qwen tokenizer reads about 3.8 characters a token, not 4, and the reply tokens were not counted at all.

Here each pass is calibrated on its shipped RAGTruth dev recording (a real local judge's run): the repeated
characters a request (the recorded characters less the data this module counts for the same answers), the
characters a token, the reply tokens a request and the seconds a request. The data of the run at hand is counted
exactly. Other tokenizers differ by some percent; the time is the recorded judge's speed (Qwen2.5-Coder-1.5B,
Q4_K_M, 2 CPU threads) until the first answers give the server's own.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache

from ...errors import InputError
from ...text import sentence_spans
from ..against_people.items import Item, items
from ..against_people.study import recording_path

__all__ = ["Calibration", "calibration", "data_chars", "estimate", "describe", "minutes"]

#: passes that ask once per sentence of the answer
_PER_SENTENCE = ("support", "support_fewshot", "support_entailment", "support_quote", "stability")


def data_chars(pass_name: str, item: Item) -> list[int]:
    """The data characters of each request ``pass_name`` sends for ``item`` (the passes' request structure)."""
    if not isinstance(item, Item):
        raise InputError("item", "an Item", item)
    context = sum(len(c) for c in item.context)
    q, a = len(item.question), len(item.answer)
    if pass_name in _PER_SENTENCE:
        return [context + q + (end - start) for start, end in sentence_spans(item.answer)] or [context + q]
    if pass_name in ("g_eval", "support_batched"):
        return [context + q + a]
    if pass_name == "critic":
        return [context + q + a] * 3
    if pass_name == "claims":
        return [q + a, context + a]
    if pass_name == "checked":
        return [q + a, context + a]
    if pass_name == "reanswer":
        return [context + q]
    raise InputError("pass_name", "a judged pass (support, g_eval, critic, claims, checked, reanswer...)", pass_name)


def _calls(pass_name: str, chosen: list[Item]) -> list[int]:
    """The data characters of every request for ``chosen`` (reanswer asks once per question)."""
    seen: set[str] = set()
    out: list[int] = []
    for item in chosen:
        if pass_name == "reanswer":
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
    repeated_chars: float
    chars_per_token: float
    completion_tokens: float
    seconds: float
    shared: int
    shared_tokens: float
    recorded_calls: int


@lru_cache(maxsize=16)
def calibration(pass_name: str) -> Calibration:
    """Measure ``pass_name`` on its shipped RAGTruth dev recording (see the module)."""
    path = recording_path(pass_name, "ragtruth", "dev")
    if path is None:
        raise InputError("pass_name", "a pass with a RAGTruth dev recording", pass_name)
    meta = json.loads(path.read_text(encoding="utf-8"))
    replies = [r for r in meta["replies"] if r.get("prompt_tokens")]
    done = meta["pass"].get("answers_done") or meta["pass"].get("answers")
    chosen = items("ragtruth", "dev", groups=meta["pass"].get("groups"))[:done]
    planned = _calls(pass_name, chosen)
    steps = {r["step"] for r in replies}
    main = max(steps, key=lambda s: sum(r["step"] == s for r in replies))
    if pass_name in ("claims", "checked"):
        main_replies = replies  # every step is per answer
    else:
        main_replies = [r for r in replies if r["step"] == main]
    shared = [r for r in replies if r not in main_replies]
    chars = sum(sum(len(m["content"]) for m in r["messages"]) for r in main_replies)
    tokens = sum(r["prompt_tokens"] for r in main_replies)
    per_call = len(main_replies) / max(len(planned), 1)   # the recording may stop before its last answer
    repeated = (chars - per_call * sum(planned)) / max(len(main_replies), 1)
    return Calibration(pass_name=pass_name, repeated_chars=max(repeated, 0.0),
                       chars_per_token=chars / tokens,
                       completion_tokens=sum(r.get("completion_tokens") or 0 for r in main_replies) / len(main_replies),
                       seconds=sum(r.get("latency_s") or 0.0 for r in main_replies) / len(main_replies),
                       shared=1 if shared else 0,
                       shared_tokens=(sum(r["prompt_tokens"] + (r.get("completion_tokens") or 0) for r in shared)
                                      / len(shared)) if shared else 0.0,
                       recorded_calls=len(main_replies))


def estimate(pass_name: str, chosen: list[Item]) -> dict[str, float]:
    """Requests, prompt and reply tokens, and seconds at the recorded judge's speed, for ``chosen``, before caching."""
    if not isinstance(chosen, list) or not all(isinstance(i, Item) for i in chosen):
        raise InputError("chosen", "a list of Items", chosen)
    cal = calibration(pass_name)
    planned = _calls(pass_name, chosen)
    prompt = sum((cal.repeated_chars + c) / cal.chars_per_token for c in planned) + cal.shared * cal.shared_tokens
    completion = len(planned) * cal.completion_tokens
    calls = len(planned) + cal.shared
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
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
        raise InputError("seconds", "a finite number of seconds", seconds)
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"
