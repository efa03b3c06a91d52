"""ragmetrics-edu: RAG evaluation metrics worked step by step, for teaching.

Two rooms in one package (docs/architecture.md; ``tests/library/test_layout.py`` checks the rules):

- the library, bottom to top: ``errors``, ``results``, ``validate``, ``data`` -> ``text``
  (tokenising, normalising) -> ``embeddings``, ``ranking``, ``plots`` -> ``metrics`` (every
  metric, pure functions of verdicts, and the registry of specs) -> ``stats``, ``baselines``, ``examples``
  (the decks' worked examples) -> ``agreement``, ``regression_gate`` -> ``judges`` (where verdicts come
  from: the engine, naming no metric), ``retrieval`` -> ``designs`` (one module per metric design: its
  spec, judge steps and prompts) -> ``evaluation`` (:func:`evaluate`) -> ``widgets`` (explorers);
- ``course``: everything that exists to teach (judge study, capstone, exercises, course plan,
  glossary, deck helpers). The library never imports it; only ``cli`` sees both.

``from ragmetrics_edu import metrics`` gives every metric. Subpackages load on first use, so
``import ragmetrics_edu`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import InputError, RagMetricsError
from .results import MetricResult

__version__ = "0.1.0"

#: The library's subpackages and modules, loaded on first attribute access.
_MODULES = ("agreement", "baselines", "regression_gate", "data", "designs", "embeddings", "evaluation", "examples",
            "judges", "metrics", "plots", "ranking", "retrieval", "stats", "text", "widgets")
#: Names defined deeper in the library, loaded on first access: name -> module.
_NAMES = {"evaluate": "evaluation"}

__all__ = ["InputError", "MetricResult", "RagMetricsError", "__version__", "evaluate", *_MODULES]


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _NAMES:
        value = getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ragmetrics_edu' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
