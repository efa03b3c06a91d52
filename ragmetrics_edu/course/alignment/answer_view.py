"""The answer lesson 15 shows, replayed: the support design's result on it and its spans beside people's."""

from __future__ import annotations

from typing import Any

from ...designs.faithfulness_support import faithfulness_support
from ...errors import InputError
from ...judges.replay import ReplayJudge
from ...studies.against_people.spans import SpanView, span_view
from ...studies.alignment.analysis import answer_of
from ...studies.alignment.choice import candidate_figures
from ..against_people.study import recording_path

__all__ = ["one_answer", "support_view"]


def _threshold(log: Any) -> float:
    return float((candidate_figures(log)["support_min"] or {})["threshold"])


def one_answer(answer_id: str, log: Any) -> Any:
    """The support design's result on one dev answer, replayed from the recording (every sentence's p(yes)), with
    the sentences below support_min's dev threshold as its unsupported spans."""
    answer = answer_of(answer_id)
    path = recording_path("support", "ragtruth", "dev")
    if path is None:
        raise InputError("answer_id", "an answer of a recorded support pass", answer_id)
    return faithfulness_support(ReplayJudge(path), answer.answer, answer.context, question=answer.question,
                                threshold=min(1.0, _threshold(log)))


def support_view(answer_id: str, log: Any, threshold: float | None = None) -> SpanView:
    """One answer with people's spans and the support design's unsupported sentences (below ``threshold``, by
    default support_min's dev threshold) side by side."""
    part = log["parts"]["ragtruth-dev"] if isinstance(log, dict) and "parts" in log else None
    if part is None:
        raise InputError("log", "lesson 15's log (study.load_log())", type(log).__name__)
    answer = answer_of(answer_id)
    rows = part["sentences"]["support"][[row["id"] for row in part["items"]].index(answer_id)]
    if not rows:
        raise InputError("answer_id", "an answer the support design scored", answer_id)
    cut = _threshold(log) if threshold is None else threshold
    return span_view(answer, [answer.answer[r["start"]:r["end"]] for r in rows if r["p_yes"] < cut],
                     judge="the support judge")
