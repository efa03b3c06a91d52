"""All explorer models in one import (kept for existing code: ``from ragmetrics_edu.widgets.models import ...``).

Each model lives beside the view it serves: :mod:`.reorder_model` (view :mod:`.reorder`),
:mod:`.permutations_model` (:mod:`.permutations`), :mod:`.statements_model`
(:mod:`.statements`), :mod:`.entities_model` (:mod:`.entities`); what they share is in
:mod:`.model_base`. None of them imports ipywidgets or matplotlib.
"""

from __future__ import annotations

from .entities_model import EntityModel
from .model_base import Change, chip_label, parse_lines
from .offered import ranking_choices
from .permutations_model import PermutationModel, PermutationSummary
from .reorder_model import ReorderModel
from .statements_model import StatementModel

__all__ = [
    "Change", "EntityModel", "PermutationModel", "PermutationSummary", "ReorderModel", "StatementModel",
    "chip_label", "parse_lines", "ranking_choices",
]
