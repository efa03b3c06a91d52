"""ragmetrics-edu: RAG evaluation metrics worked step by step, for teaching.

``from ragmetrics_edu import metrics`` gives every metric; ``examples`` the decks'
worked examples. Submodules load on first use so ``import ragmetrics_edu`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import InputError, RagMetricsError
from .results import MetricResult

__version__ = "0.1.0"
__all__ = ["InputError", "MetricResult", "RagMetricsError", "__version__", "agreement", "data", "display", "embedding_texts",
           "embeddings", "evaluate", "examples", "exercises", "judges", "metrics", "plots", "ranking",
           "recorded_embeddings", "stats"]

_LAZY = {"agreement", "metrics", "examples", "embeddings", "ranking", "cli", "judges", "exercises", "plots", "data", "display",
         "embedding_texts", "recorded_embeddings", "stats"}


def evaluate(data: Any, metrics: Any = ("context_precision", "context_recall", "faithfulness", "answer_relevancy"),
             judge: Any = None, **options: Any) -> Any:
    """Score a dataset with a judge; see :func:`ragmetrics_edu.evaluation.evaluate`."""
    from .evaluation import evaluate as _evaluate

    return _evaluate(data, metrics, judge, **options)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'ragmetrics_edu' has no attribute {name!r}")
