"""The recorded passes of the judge study (notebooks 10 and 11): what each pass asked, and its rows.

Each pass ran the labelled set (or a named subset) through a real local model once, through
:mod:`ragmetrics_edu.course.judge_study.runs`, and was saved as a recording
(``data/recordings/judge_study/<pass>.json``). :func:`rows` replays a pass through
:class:`~ragmetrics_edu.judges.ReplayJudge`: the same library code runs on the model's own
replies, offline, so every figure in the notebooks is recomputed, never typed.
``ragmetrics-edu record-judge-study`` makes the recordings (see :mod:`.judge_recording`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ... import data
from ...errors import InputError
from ...judges.replay import ReplayJudge
from ...validate import identifier
from ..capstone import systems as capstone
from .labels import METRICS, Case, load_cases, pairs
from .runs import UndelimitedJudge, inject, inject_in_node, run

__all__ = ["Pass", "PASSES", "MODEL_NAMES", "REPEATS", "repeat_passes", "FAMILIES", "family_rows", "cases_for", "rows", "recording_path", "available", "SUBSET_PAIRS", "INJECTED_PAIRS"]

FOLDER = "recordings/judge_study/"
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


def cases_for(selection: str) -> list[Case]:
    """The cases a pass uses: all, the first n pairs (subset, half, full, repeat), or the injected answers (or clean)."""
    expected = ("all, subset, half, full, repeat, pairs:a-b, injected, injected_in_node, placebo_in_node or "
                "injected_clean")
    selection = identifier("selection", selection, expected)
    cases = load_cases()
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


#: passes recorded in parts (so each part could finish in the time there was); rows of a family join them
FAMILIES: dict[str, tuple[str, ...]] = {
    "qwen_full": ("qwen_full", "qwen_full_context_recall", "qwen_full_b"),
    "qwen_same_items_answer_relevancy": ("qwen_same_items_answer_relevancy", "qwen_same_items_answer_relevancy_b"),
    "qwen_full_answer_relevancy": ("qwen_full_answer_relevancy", "qwen_full_answer_relevancy_b"),
    "qwen_pipeline_same_items": ("qwen_pipeline_same_items", "qwen_pipeline_same_items_b"),
    "qwen_pipeline_full": ("qwen_pipeline_full", "qwen_pipeline_full_b"),
}


def family_rows(name: str) -> list[dict[str, Any]]:
    """The rows of every shipped part of a family (or of the one pass ``name``), without duplicates."""
    name = identifier("name", name, "a pass or a family of passes (judge_study.PASSES, FAMILIES)")
    shipped = set(available())
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for part in FAMILIES.get(name, (name,)):
        if part not in shipped:
            continue
        for row in rows(part):
            key = (row["case"], row["metric"], row["mode"], row["pipeline"], row["rotate"])
            if key not in seen:
                seen.add(key)
                out.append(row)
    return out


def repeat_passes() -> dict[str, list[str]]:
    """The repeat passes of each temperature, keyed by the temperature as printed ("0", "0.7")."""
    return {f"{t / 10:g}": [f"qwen_repeat_t{t}_run{r}" for r in runs] for t, runs in REPEATS.items()}


def recording_path(name: str) -> str:
    """The shipped recording of pass ``name``."""
    if not isinstance(name, str) or name not in PASSES:
        raise InputError("name", "one of " + ", ".join(PASSES), name)
    return str(data.path(f"{FOLDER}{name}.json"))


def available() -> list[str]:
    """The passes whose recording ships with the package (looked up one by one: listing every shipped
    file each time cost the course's tables a second of CPU)."""
    folder = data.root()
    return [name for name in PASSES if (folder / f"{FOLDER}{name}.json").is_file()]


def run_pass(judge: Any, spec: Pass, on_row: Any = None) -> list[dict[str, Any]]:
    """Every row of ``spec`` with ``judge`` (a live judge to record, or a ReplayJudge to replay)."""
    if spec.cases.startswith("capstone_"):
        if spec.cases == "capstone_answers":
            return capstone.answer_rows(judge)
        return capstone.score_rows(judge, capstone.answers())
    asker = UndelimitedJudge(judge) if spec.undelimited else judge
    jobs = [(case, metric, pipeline) for case in cases_for(spec.cases) for metric in spec.metrics
            for pipeline in (spec.pipelines if metric == "faithfulness" else (None,))]
    return run(asker, jobs, spec.mode, rotate=spec.rotate, on_row=on_row)


@lru_cache(maxsize=32)
def _rows(name: str) -> tuple[dict[str, Any], ...]:
    return tuple(run_pass(ReplayJudge(recording_path(name)), PASSES[name]))


def rows(name: str) -> list[dict[str, Any]]:
    """Replay pass ``name`` from its recording: one row per case, metric (and pipeline)."""
    if not isinstance(name, str) or name not in PASSES:
        raise InputError("name", "one of " + ", ".join(PASSES), name)
    return [dict(r) for r in _rows(name)]
