"""The judge study's recorded passes: what each asked (which model, which cases, which metrics, how).

Each pass ran the labelled set (or a named subset, :func:`select`) through a real local model once, through
:mod:`ragmetrics_edu.studies.judge_study.runs`, and was saved as a recording
(``data/recordings/judge_study/<pass>.json``, replayed by ``ragmetrics_edu.course.judge_study.passes``).
Some passes were recorded in parts (:data:`FAMILIES`), so each part could finish in the time there was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...errors import InputError
from ...validate import as_list, identifier, records
from .cases import METRICS, Case, check_cases, pairs
from .runs import inject, inject_in_node

__all__ = ["merged_rows", "Pass", "PASSES", "MODEL_NAMES", "REPEATS", "FAMILIES", "repeat_passes", "select", "SUBSET_PAIRS",
           "INJECTED_PAIRS"]

#: sizes chosen so the passes fit the machine's time budget (2 cores shared with other work:
#: 12-25 s a call for the 1.5B model, measured while recording)
SUBSET_PAIRS = 6     # the small model
HALF_PAIRS = 11      # answer relevancy (the first eleven pairs, 22 cases)
FULL_PAIRS = 5       # the first parts of the full-pipeline passes (the first five pairs, 10 cases)
REPEAT_PAIRS = 5     # repeat runs (10 cases)
INJECTED_PAIRS = 11  # injection (the unsupported answers of the first eleven pairs)
#: the repeat runs: temperature (tenths) → run numbers; pass ``qwen_repeat_t{t}_run{r}``
REPEATS = {0: (1, 2, 3), 7: (1, 2, 3)}
_ALL = tuple(METRICS)
#: the short name of each model a pass can use (the recording's GGUF header gives the full one)
MODEL_NAMES = {"qwen": "Qwen2.5-Coder-1.5B", "smol": "SmolLM2-135M"}


@dataclass(frozen=True)
class Pass:
    """One recorded pass: which model, which cases, which metrics, how."""

    name: str
    what: str
    model: str = "qwen"            # a key of MODEL_NAMES
    cases: str = "all"             # "all", "subset" or "injected"
    metrics: tuple[str, ...] = _ALL
    mode: str = "same_items"
    pipelines: tuple[str | None, ...] = (None,)
    rotate: int = 0
    undelimited: bool = False
    temperature: float = 0.0
    seed: int = 7
    extra: dict[str, Any] = field(default_factory=dict)


PASSES: dict[str, Pass] = {p.name: p for p in (
    Pass("qwen_same_items", "every case, the case's own items (verdicts only)",
         metrics=("context_precision", "context_recall", "faithfulness")),
    Pass("qwen_same_items_answer_relevancy", "answer relevancy on the case's own statements (first eleven pairs)",
         cases="half", metrics=("answer_relevancy",)),
    Pass("qwen_full", "first five pairs, the judge extracts the claims, then judges them",
         cases="full", metrics=("faithfulness",), mode="full"),
    Pass("qwen_full_answer_relevancy", "first five pairs, the judge extracts the answer's statements, then "
         "judges them", cases="full", metrics=("answer_relevancy",), mode="full"),
    Pass("qwen_pipeline_same_items", "faithfulness pipeline changes on the case's own claims (every case)", metrics=("faithfulness",), pipelines=("quoted", "quotes_checked", "contradiction_apart")),
    Pass("qwen_same_items_answer_relevancy_b", "answer relevancy on the case's own statements (pairs 12-22)",
         cases="pairs:12-22", metrics=("answer_relevancy",)),
    Pass("qwen_full_context_recall", "first five pairs, the judge splits the reference, then attributes",
         cases="full", metrics=("context_recall",), mode="full"),
    Pass("qwen_full_b", "pairs 6-22, the judge extracts its own items, then judges them",
         cases="pairs:6-22", metrics=("context_recall", "faithfulness"), mode="full"),
    Pass("qwen_full_answer_relevancy_b", "pairs 6-22, the judge extracts the answer's statements, then judges them",
         cases="pairs:6-22", metrics=("answer_relevancy",), mode="full"),
    Pass("qwen_pipeline_same_items_b", "contradiction asked apart on top of unchecked quotes (every case)",
         metrics=("faithfulness",), pipelines=("apart_unchecked",)),
    Pass("qwen_pipeline_full", "faithfulness pipeline changes, the judge extracting its own claims (first five "
         "pairs)", cases="full", metrics=("faithfulness",), mode="full",
         pipelines=("quoted", "question_and_answer_claims", "defaults")),
    Pass("qwen_pipeline_full_b", "faithfulness pipeline changes, the judge extracting its own claims (pairs 6-22)",
         cases="pairs:6-22", metrics=("faithfulness",), mode="full",
         pipelines=("quoted", "question_and_answer_claims", "defaults")),
    Pass("qwen_position", "context precision with the nodes moved round by one place (every case)",
         metrics=("context_precision",), rotate=1),
    Pass("qwen_injection", "eleven unsupported answers with a planted instruction in the context (data blocks)",
         cases="injected", metrics=("context_precision", "faithfulness")),
    Pass("qwen_injection_undelimited", "the same injected cases, prompts without data blocks",
         cases="injected", metrics=("context_precision", "faithfulness"), undelimited=True),
    Pass("qwen_clean_undelimited", "the same eleven cases without the instruction, prompts without data blocks",
         cases="injected_clean", metrics=("context_precision", "faithfulness"), undelimited=True),
    Pass("qwen_injection_in_node", "the same eleven answers, the instruction inside their second node (no node "
         "moves; control: qwen_same_items)", cases="injected_in_node", metrics=("context_precision", "faithfulness")),
    Pass("qwen_injection_in_node_undelimited", "the instruction inside the second node, prompts without data blocks "
         "(control: qwen_clean_undelimited)", cases="injected_in_node", metrics=("context_precision", "faithfulness"),
         undelimited=True),
    Pass("qwen_placebo_in_node", "the same eleven answers, a neutral sentence of the same length inside their "
         "second node (the placebo; control: qwen_same_items)", cases="placebo_in_node",
         metrics=("context_precision", "faithfulness")),
    Pass("qwen_placebo_in_node_undelimited", "the neutral sentence inside the second node, prompts without data "
         "blocks (control: qwen_clean_undelimited)", cases="placebo_in_node",
         metrics=("context_precision", "faithfulness"), undelimited=True),
    *(Pass(f"qwen_repeat_t{t}_run{r}", f"repeat run {r} at temperature {t / 10:g} on the first five pairs",
           cases="repeat", metrics=("context_precision", "faithfulness"), temperature=t / 10, seed=100 + 10 * t + r)
      for t, runs in REPEATS.items() for r in runs),
    Pass("smol_same_items", "SmolLM2-135M on the first six pairs, the case's own items", model="smol", cases="subset"),
    Pass("qwen_capstone_answers", "the capstone's generator: 8 questions, BM25 and MiniLM top-3",
         cases="capstone_answers", metrics=()),
    Pass("qwen_capstone_judged", "the capstone's answers judged: faithfulness and answer relevancy, and where a "
         "reference exists context precision and context recall", cases="capstone_judged", metrics=()),
)}


#: passes recorded in parts (so each part could finish in the time there was); rows of a family join them
FAMILIES: dict[str, tuple[str, ...]] = {
    "qwen_full": ("qwen_full", "qwen_full_context_recall", "qwen_full_b"),
    "qwen_same_items_answer_relevancy": ("qwen_same_items_answer_relevancy", "qwen_same_items_answer_relevancy_b"),
    "qwen_full_answer_relevancy": ("qwen_full_answer_relevancy", "qwen_full_answer_relevancy_b"),
    "qwen_pipeline_same_items": ("qwen_pipeline_same_items", "qwen_pipeline_same_items_b"),
    "qwen_pipeline_full": ("qwen_pipeline_full", "qwen_pipeline_full_b"),
}


def repeat_passes() -> dict[str, list[str]]:
    """The repeat passes of each temperature, keyed by the temperature as printed ("0", "0.7")."""
    return {f"{t / 10:g}": [f"qwen_repeat_t{t}_run{r}" for r in runs] for t, runs in REPEATS.items()}


def select(cases: list[Case], selection: str) -> list[Case]:
    """The cases a pass uses (:attr:`Pass.cases`): all, the first n pairs (subset, half, full, repeat), pairs a to b,
    or the unsupported answers of the first :data:`INJECTED_PAIRS` pairs, planted (injected, injected_in_node,
    placebo_in_node) or clean (injected_clean)."""
    expected = ("all, subset, half, full, repeat, pairs:a-b, injected, injected_in_node, placebo_in_node or "
                "injected_clean")
    selection = identifier("selection", selection, expected)
    cases = check_cases(cases)
    if selection == "all":
        return cases
    sizes = {"subset": SUBSET_PAIRS, "repeat": REPEAT_PAIRS, "half": HALF_PAIRS, "full": FULL_PAIRS}
    if selection in sizes:
        ids = {c.id for pair in pairs(cases)[:sizes[selection]] for c in pair}
        return [c for c in cases if c.id in ids]
    if (span := re.fullmatch(r"pairs:(\d+)-(\d+)", selection)) is not None:
        first, last = span.groups()
        ids = {c.id for pair in pairs(cases)[int(first) - 1:int(last)] for c in pair}
        return [c for c in cases if c.id in ids]
    if selection in ("injected", "injected_clean", "injected_in_node", "placebo_in_node"):
        chosen = [unsupported for _, unsupported in pairs(cases)[:INJECTED_PAIRS]]
        if selection == "placebo_in_node":
            return [inject_in_node(c, placebo=True) for c in chosen]
        if selection == "injected_in_node":
            return [inject_in_node(c) for c in chosen]
        return [inject(c) for c in chosen] if selection == "injected" else chosen
    raise InputError("selection", expected, selection)


def merged_rows(parts: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The rows of a family's parts as one list: a (case, metric, mode, pipeline, rotate) row that two parts both
    hold is kept once, from the first part that has it."""
    out, seen = [], set()
    for i, rows in enumerate(as_list("parts", parts, "a list of parts, each a list of the judge study's rows")):
        for row in records(f"parts[{i}]", rows, "a list of the judge study's rows (dicts)"):
            key = (row.get("case"), row.get("metric"), row.get("mode"), row.get("pipeline"), row.get("rotate"))
            if key not in seen:
                seen.add(key)
                out.append(row)
    return out
