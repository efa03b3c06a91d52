"""The entity explorer's model: reference and context entity lists for context entity recall.

Its view is :mod:`ragmetrics_edu.widgets.entities`; this module imports no widget library.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import examples, metrics
from ..errors import InputError
from ..results import MetricResult
from ..validate import flag
from .model_base import Observable, check_index, parse_lines

__all__ = ["EntityModel"]


class EntityModel(Observable):
    """Reference and context entity lists and the normalisation switch of context entity recall.

    The lists may be set as lists or as text with one entity per line (as typed in a
    Textarea); ``intersection`` lists the shared reference entities. ``verdicts`` says, per
    reference entity, whether the context names it, and ``toggle(i)`` flips that by adding
    the entity to the context or removing its matches.
    """

    def __init__(
        self,
        reference_entities: Sequence[str] | str = (),
        context_entities: Sequence[str] | str = (),
        *,
        normalize: bool = False,
        threshold: float | None = None,
    ) -> None:
        super().__init__()
        self._reference = parse_lines(reference_entities, "reference_entities")
        self._context = parse_lines(context_entities, "context_entities")
        normalize = flag("normalize", normalize)
        self._normalize = normalize
        self.threshold = threshold
        self._result = self._compute()
        self._remember_start()

    @classmethod
    def from_example(cls, example_id: str, case: str | None = None, **overrides: Any) -> "EntityModel":
        """The model of a context-entity-recall worked example."""
        chosen = examples.load(example_id).case(case)
        if chosen.metric != "context_entity_recall":
            raise InputError("example_id", "an example of context_entity_recall", f"{example_id} ({chosen.metric})")
        kwargs = dict(chosen.kwargs)
        kwargs.update(overrides)
        return cls(**kwargs)

    @property
    def reference(self) -> list[str]:
        """The reference entities (RE)."""
        return list(self._reference)

    @property
    def context(self) -> list[str]:
        """The context entities (CE)."""
        return list(self._context)

    @property
    def normalize(self) -> bool:
        """Whether entities are compared after folding case, accents and spaces."""
        return self._normalize

    def _key(self, entity: str) -> str:
        return metrics.normalize_entity(entity) if self._normalize else entity

    @property
    def verdicts(self) -> list[int]:
        """Per reference entity (in list order): 1 when the context names it, else 0."""
        found = {self._key(e) for e in self._context}
        return [int(self._key(e) in found) for e in self._reference]

    def toggle(self, i: int) -> None:
        """Flip whether reference entity ``i`` is in the context: add it, or remove every match."""
        entity = self._reference[check_index("i", i, len(self._reference))]
        key = self._key(entity)
        if self.verdicts[i]:
            self.set_context([e for e in self._context if self._key(e) != key])
        else:
            self.set_context(self._context + [entity])

    @property
    def intersection(self) -> list[str]:
        """Reference entities (their reference form) that the context also names."""
        return [r["entity"] for r in self.result.rows if r["in_reference"] and r["in_context"]]

    @property
    def only_reference(self) -> list[str]:
        """Reference entities the context misses."""
        return [r["entity"] for r in self.result.rows if r["in_reference"] and not r["in_context"]]

    @property
    def only_context(self) -> list[str]:
        """Context entities that are not reference entities."""
        return [r["entity"] for r in self.result.rows if r["in_context"] and not r["in_reference"]]

    def set_reference(self, entities: Sequence[str] | str) -> None:
        """Replace the reference entities (a list, or text with one entity per line)."""
        value = parse_lines(entities, "reference_entities")
        if value != self._reference:
            self._reference = value
            self._changed("reference")

    def set_context(self, entities: Sequence[str] | str) -> None:
        """Replace the context entities (a list, or text with one entity per line)."""
        value = parse_lines(entities, "context_entities")
        if value != self._context:
            self._context = value
            self._changed("context")

    def set_normalize(self, value: bool) -> None:
        """Switch normalisation on or off."""
        value = flag("normalize", value)
        if value != self._normalize:
            self._normalize = value
            self._changed("normalize")

    def toggle_normalize(self) -> None:
        """Flip the normalisation switch."""
        self.set_normalize(not self._normalize)

    def state(self) -> dict[str, Any]:
        """The reference and context entities and the normalisation switch."""
        return {"reference": list(self._reference), "context": list(self._context), "normalize": self._normalize}

    def reset(self) -> None:
        """Back to the entity lists and normalisation the model started with."""
        start = self._start
        self._reference, self._context = list(start["reference"]), list(start["context"])
        self._normalize = start["normalize"]
        self._changed("reset")

    def _compute(self) -> MetricResult:
        return metrics.context_entity_recall(self._reference, self._context, normalize=self._normalize,
                                             threshold=self.threshold)
