"""Does the server serve the model you named? Asked once, before the first request of a command.

A misspelt ``--model`` would otherwise cost a whole run: every request refused one by one (or, on a server that
answers any name with the one model it loaded, a recording under a name that is not the model's). So the command
lists the server's models (``GET /v1/models``) first and

- sends the name as given when the server serves it, or lists nothing (the first request will tell);
- accepts a model's file name for the path a llama.cpp server lists it by (``qwen`` or ``qwen.gguf`` for
  ``/models/qwen.gguf``), when exactly one served model has that file name;
- refuses any other name with an InputError that lists the served names and says how to pick one;
- stops at once on a server that does not answer ("Could not connect ... Is the server running").

Used by ``ragmetrics-edu evaluate``, ``compare`` and ``validate-judge``.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..validate import as_list
from .errors import JudgeError
from .openai_judge import OpenAIJudge

__all__ = ["served_models", "served_name", "check_served"]


def _openai_judge(judge: Any) -> OpenAIJudge:
    if not isinstance(judge, OpenAIJudge):
        raise InputError("judge", "an OpenAIJudge (an endpoint whose models can be listed)", judge)
    return judge


def served_models(judge: Any) -> list[str] | None:
    """The model names ``judge``'s server lists; None when it lists none (a server without ``/models``). A server
    that does not answer raises JudgeError."""
    judge = _openai_judge(judge)
    import openai  # lazy: openai is an optional extra (llm)

    try:
        listed = judge.client.models.list()
    except openai.APIConnectionError as exc:
        raise JudgeError(f"Could not connect to {judge.server}: {exc.__class__.__name__}. Is the server running, "
                         "and does --base-url end in /v1?") from None
    except openai.APIStatusError:
        return None  # no /models here: the first request will say whether the model exists
    names = [getattr(m, "id", None) for m in getattr(listed, "data", []) or []]
    return [n for n in names if isinstance(n, str)] or None


def _file_name(name: str) -> str:
    """``name`` without its folder and without ``.gguf`` (how a llama.cpp server's path names a model)."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base[:-5] if base.lower().endswith(".gguf") else base


def served_name(asked: str, served: list[str] | None) -> str:
    """The name to send for ``--model``: ``asked`` when the server serves it (or lists nothing); the one model it
    serves whose file name is ``asked``'s, with or without a folder and ``.gguf``; otherwise an InputError naming
    what it serves and how to pick."""
    if not isinstance(asked, str) or not asked.strip():
        raise InputError("--model", "the model's name (a text)", asked)
    if served is not None:
        served = as_list("served", served, "the names the server lists (a list of texts), or None")
        if not all(isinstance(n, str) for n in served):
            raise InputError("served", "the names the server lists (a list of texts), or None", served)
    if served is None or asked in served:
        return asked
    matching = [name for name in served if _file_name(name) == _file_name(asked)]
    if len(matching) == 1:
        return matching[0]
    if not served:
        raise InputError("--model", "a model the server serves (it lists none)", asked)
    raise InputError("--model", "a model the server serves: " + ", ".join(served), asked,
                     hint=f"run again with --model {served[0]!r}" + (" (or another name above)" if len(served) > 1
                                                                     else ""))


def check_served(judge: Any) -> str:
    """Ask ``judge``'s server which models it serves, set ``judge.model`` to the name to send (see
    :func:`served_name`) and return it: the check a command makes before its first request."""
    judge = _openai_judge(judge)
    judge.model = served_name(judge.model, served_models(judge))
    return str(judge.model)
