"""What the built-in designs share: the folder of their prompts and their reply models, loaded lazily.

A design of one's own needs neither: its :class:`~ragmetrics_edu.metrics.Step` contracts name its own
prompt folder (beside its module) and its own schema.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Sequence

from ..judges.prompting import Texts
from ..validate import text_list
from . import schemas

__all__ = ["PROMPTS", "models", "passages", "QUESTION", "SAMPLE_TEMPERATURE"]

#: The built-in designs' prompt files (``designs/prompts/<name>.txt``; ``legacy_v1_<name>.txt`` renders a
#: step as the version-1 prompts did, so the recordings made with them keep replaying).
PROMPTS = resources.files(__package__).joinpath("prompts")

#: the temperature of sampled replies (G-Eval's samples without probabilities, a critic's votes when n > 1, the
#: support design's votes)
SAMPLE_TEMPERATURE = 0.7

#: The keyword most designs take the case's question by: ``Ask(..., kwargs=QUESTION)``.
QUESTION = (("question", "question"),)


def models() -> Any:
    """:mod:`ragmetrics_edu.designs.schemas` (the reply models), imported with the first request."""

    return schemas


def passages(context: Sequence[str]) -> Texts:
    """The context as the rubric and support designs show it: ``passage_1`` … (``(no context)`` when empty)."""
    return Texts("passage", text_list("context", context), "(no context)")
