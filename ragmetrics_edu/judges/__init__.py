"""Where verdicts come from: verdicts given in code, a chat model, or a recording of one.

One interface, three judges:

- :class:`GivenJudge`: verdicts given in code (by a person, a deck or a script), checked like a model's reply;
- :class:`OpenAIJudge`: the official ``openai`` client against OpenAI or any compatible
  server (llama.cpp, Ollama, vLLM, LM Studio) via ``base_url``;
- :class:`ReplayJudge`: answers from a recording made by an OpenAIJudge, offline.

and one function per metric that asks a judge and scores the answer::

    from ragmetrics_edu import judges
    judge = judges.OpenAIJudge("gpt-4o-mini", seed=7, cache_dir=".judge-cache")
    r = judges.faithfulness(judge, answer="...", context=["...", "..."])
    r.score, r.steps, r.calls          # the score, the step table, every call made

Importing this package is cheap: ``openai`` loads when an OpenAIJudge is built and
``pydantic`` when the first request is made.
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
    "STEPS": "steps", "score_cases": "batch",
    "context_precision": "steps", "context_recall": "steps", "contextual_relevancy": "steps",
    "context_entity_recall": "steps", "faithfulness": "steps", "answer_relevancy": "steps",
    "answer_relevancy_embedding": "steps", "answer_correctness": "steps",
    "faithfulness_reanswer": "reanswer", "faithfulness_checked": "checked",
    "g_eval": "rubric", "aspect_critic": "rubric", "evaluation_steps": "rubric",
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
