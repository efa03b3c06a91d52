"""Where verdicts come from: verdicts given in code, a chat model, or a recording of one (the engine alone:
it names no metric; each metric design's steps, prompts and scoring are in :mod:`ragmetrics_edu.designs`).

One interface, three judges:

- :class:`GivenJudge`: verdicts given in code (by a person, a deck or a script), checked like a model's reply;
- :class:`OpenAIJudge`: the official ``openai`` client against OpenAI or any compatible
  server (llama.cpp, Ollama, vLLM, LM Studio) via ``base_url``;
- :class:`ReplayJudge`: answers from a recording made by an OpenAIJudge, offline.

and what every design's steps share: requests (:mod:`.requests`), prompts with the texts fenced
(:mod:`.prompting`), call records (:mod:`.records`) and the one case runner (:mod:`.batch`)::

    from ragmetrics_edu import designs, judges
    judge = judges.OpenAIJudge("gpt-4o-mini", seed=7, cache_dir=".judge-cache")
    r = designs.faithfulness(judge, answer="...", context=["...", "..."])
    r.score, r.steps, r.calls          # the score, the step table, every call made

Importing this package is cheap: ``openai`` loads when an OpenAIJudge is built, and the reply models
when the first request is made.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import JudgeAPIError as JudgeAPIError
from .errors import JudgeError as JudgeError
from .errors import JudgeSetupError as JudgeSetupError

_WHERE = {
    "Judge": "base", "GivenJudge": "base", "Request": "base", "Answer": "base", "Reply": "base",
    "parse_json_reply": "base",
    "OpenAIJudge": "openai_judge",
    "ReplayJudge": "replay", "write_recording": "files",
    "CallRecord": "records", "CallList": "records", "Usage": "records",
    "STEPS": "base", "score_cases": "batch",
}

__all__ = sorted(list(_WHERE) + ["JudgeAPIError", "JudgeError", "JudgeSetupError"])


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'ragmetrics_edu.judges' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
