"""Interactive explorers of the metrics, for Jupyter (ipywidgets 8).

- :class:`ReorderExplorer`: reorder retrieved nodes (drag the chips or use ↑/↓), flip
  verdicts, and watch context precision, precision@k, nDCG or MRR respond.
- :class:`PermutationExplorer`: the score of every ordering of the verdicts, and where
  the current order stands.
- :class:`StatementExplorer`: verdict toggles for context recall, contextual relevancy,
  faithfulness and answer relevancy.
- :class:`EntityExplorer`: edit entity lists for context entity recall.
- :class:`DecomposeExplorer`: cut a text into statements (or merge them) and watch context
  recall or faithfulness move.
- :class:`CorrectnessPanel`: sliders for answer correctness (TP, FP, FN, similarity, beta, weights).
- :class:`ExactFloatSlider`: a float slider that keeps the exact value it was given
  (the browser's snapping to the step never writes back).

Each explorer keeps its state in a model that imports neither ipywidgets nor matplotlib,
in a module beside its view: ``reorder_model.py`` (:class:`ReorderModel`) next to
``reorder.py``, and likewise ``permutations_model``, ``statements_model`` and
``entities_model``, ``decompose_model``; ``model_base`` holds what the models share, and ``models`` imports them
all. The views are imported on first use, so the models work without ipywidgets installed.
"""

from __future__ import annotations

import importlib
from typing import Any

from .decompose_model import DecomposeModel
from .entities_model import EntityModel
from .permutations_model import PermutationModel, PermutationSummary
from .reorder_model import ReorderModel
from .statements_model import StatementModel

_VIEWS = {
    "ReorderExplorer": "reorder",
    "PermutationExplorer": "permutations",
    "StatementExplorer": "statements",
    "EntityExplorer": "entities",
    "DecomposeExplorer": "decompose",
    "ExactFloatSlider": "sliders",
    "CorrectnessPanel": "correctness",
}

__all__ = ["CorrectnessPanel", "DecomposeExplorer", "DecomposeModel", "EntityExplorer", "EntityModel", "ExactFloatSlider", "PermutationExplorer", "PermutationModel", "PermutationSummary",
           "ReorderExplorer", "ReorderModel", "StatementExplorer", "StatementModel"]


def __getattr__(name: str) -> Any:
    if name in _VIEWS:
        return getattr(importlib.import_module(f".{_VIEWS[name]}", __name__), name)
    raise AttributeError(f"module 'ragmetrics_edu.widgets' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
