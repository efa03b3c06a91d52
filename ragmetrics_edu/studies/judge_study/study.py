"""What the judge study's tables are computed from: the labelled cases, their labels and the recorded rows.

The course builds one :class:`JudgeStudy` from the shipped files (its ``passes`` a mapping that replays a pass
the first time it is read); a test can build one from any cases, labels and rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ...errors import InputError
from ...stats.inputs import seed as checked_seed
from ...validate import flag, instance, mapping, records
from . import agreement
from .cases import Case, PassLabels, check_cases
from .passes import select

__all__ = ["JudgeStudy", "check_study"]


@dataclass(frozen=True)
class JudgeStudy:
    """The labelled ``cases``, their ``labels`` (the adjudicated ones) and ``passes``: pass (or family) name ->
    its rows (:mod:`~ragmetrics_edu.studies.judge_study.runs`); a pass missing from it was not recorded."""

    cases: tuple[Case, ...]
    labels: PassLabels
    passes: Mapping[str, Sequence[dict[str, Any]]]
    _memo: dict[tuple[Any, ...], dict[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cases", tuple(check_cases(self.cases)))
        instance("labels", self.labels, PassLabels, "a pass's labels (cases.parse_labels())")
        mapping("passes", self.passes, "pass name -> its rows")

    def has(self, *names: str) -> bool:
        """Whether every named pass was recorded."""
        return all(name in self.passes for name in names)

    def rows(self, name: str) -> list[dict[str, Any]]:
        """A copy of the rows of pass ``name``."""
        if name not in self.passes:
            raise InputError("name", "a recorded pass (one of " + ", ".join(self.passes) + ")", name)
        return [dict(r) for r in self.passes[name]]

    def restrict(self, found: Sequence[dict[str, Any]], selection: str) -> list[dict[str, Any]]:
        """The rows of the cases of a pass selection (:func:`~.passes.select`, e.g. "half": the first eleven pairs)."""
        ids = {c.id for c in select(list(self.cases), selection)}
        found = records("found", found, "rows of a pass", keys=("case",))
        return [r for r in found if str(r["case"]).split("+", 1)[0] in ids]

    def verdicts(self, name: str, metric: str, pipeline: str | None = None, binary: bool = False,
                 subset: str | None = None, baseline: bool = True, seed: int = 0) -> dict[str, Any]:
        """:func:`~.agreement.verdict_agreement` of pass ``name`` (optionally on a ``subset`` of its cases) with the
        labels, computed once per study: a notebook and its exercises ask for the same figures."""
        for field_, value in (("name", name), ("metric", metric), ("pipeline", pipeline), ("subset", subset)):
            if not isinstance(value, str) and (value is not None or field_ in ("name", "metric")):
                raise InputError(field_, "a string" + ("" if field_ in ("name", "metric") else " or None"), value)
        key = (name, metric, pipeline, flag("binary", binary), subset, flag("baseline", baseline), checked_seed(seed))
        if key not in self._memo:
            found = self.rows(name) if subset is None else self.restrict(self.rows(name), subset)
            self._memo[key] = agreement.verdict_agreement(found, metric, self.cases, self.labels, pipeline=pipeline,
                                                          binary=binary, seed=seed, baseline=baseline)
        return self._memo[key]


def check_study(study: Any) -> JudgeStudy:
    """``study`` if it is a :class:`JudgeStudy`, else an InputError."""
    return instance("study", study, JudgeStudy, "a JudgeStudy (the course's report.study())")
