"""Context precision without reference (Ragas): arithmetic only; evaluate() does not ask for it."""

from __future__ import annotations

from .. import metrics
from ..metrics import MetricSpec
from ..metrics.reference_free import context_precision_without_reference

__all__ = ["SPEC"]

SPEC = metrics.register(MetricSpec(
    "context_precision_without_reference", "Context precision without reference",
    context_precision_without_reference, component="retr+gen", variants=("ragas",)))
