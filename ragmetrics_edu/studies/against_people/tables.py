"""Lesson 14's tables, read from a choice log (:mod:`.choice`): every design's dev figures, the test figures at the
dev threshold, AUC by generating model or span kind, the model confound, and paired test differences."""

from __future__ import annotations

import math
from typing import Any

from ...agreement import auc_difference, validation_report
from ...errors import InputError
from ...validate import as_list, number
from .choice import MIN_SOURCES, checked_log, complete

__all__ = ["dev_table", "test_table", "flag_rule", "breakdown", "by_model", "threshold_of", "test_difference",
           "ci_text"]


def dev_table(log: dict[str, Any] | None = None) -> Any:
    """Every design's dev figures on the answers it shares with word overlap: how many answers, sources and
    hallucinated answers it rests on; RAGTruth and HaluEval AUC with intervals (no AUC under :data:`MIN_SOURCES`
    sources); F1 at the threshold best on these answers beside the F1 of flagging every answer; and its cost per
    answer (calls, tokens, seconds the recorded model took; a call two answers share counts once; NaN for a design
    that reads one call of a pass recorded with more, see :func:`_own_cost`)."""
    import pandas as pd  # lazy

    log = checked_log(log)
    rows = []
    for name, row in log["dev"]["designs"].items():
        rt, he = row.get("ragtruth"), row.get("halueval")
        enough = bool(rt) and rt["groups"] >= MIN_SOURCES
        rows.append({"design": name, "calls": row["calls"],
                     "answers": rt["answers"] if rt else 0, "sources": rt["groups"] if rt else 0,
                     "hallucinated": round(rt["base_rate"] * rt["answers"]) if rt else 0,
                     "ragtruth_auc": rt["auc"] if enough else math.nan,
                     "ragtruth_ci": ci_text(rt["ci"]) if enough else f"(under {MIN_SOURCES} sources)",
                     "vs_overlap": ci_text(row["ragtruth_vs_overlap"]["ci"], row["ragtruth_vs_overlap"]["difference"])
                     if enough else f"(under {MIN_SOURCES} sources)",
                     "f1": rt["f1"] if rt else math.nan,
                     "f1_flag_all": 2 * rt["base_rate"] / (1 + rt["base_rate"]) if rt else math.nan,
                     "halueval_auc": he["auc"] if he else math.nan,
                     "tokens_per_answer": rt["cost"]["tokens"] if rt and _own_cost(row) else math.nan,
                     "sec_per_answer": rt["cost"]["seconds"] if rt and _own_cost(row) else math.nan})
    return pd.DataFrame(rows)


def _own_cost(row: dict[str, Any]) -> bool:
    """False for a design that reads one call of a pass recorded with more (the critic's p(yes) reads the first of
    three votes): the recorded tokens and seconds are the whole pass's, not its own, so none is shown."""
    return not (row["calls"] == "1" and row["calls_max"] > 1.5)


def ci_text(ci: Any, value: float | None = None) -> str:
    """An interval as text, after ``value`` when given: "+0.012 [-0.010, 0.034]"."""
    if ci is not None:
        ci = as_list("ci", ci, "an interval (low, high), or None")
        if len(ci) != 2:
            raise InputError("ci", "an interval (low, high), or None", ci)
        ci = [number(f"ci[{i}]", v, "a number") for i, v in enumerate(ci)]
    value = None if value is None else number("value", value, "a number, or None")
    if ci is None:
        return "(too few groups)"
    head = "" if value is None else f"{value:+.3f} "
    return f"{head}[{ci[0]:.3f}, {ci[1]:.3f}]"


def flag_rule(threshold: float) -> str:
    """The answers a dev threshold flags, in words: "scored below 0.708", or "scored 0" for a threshold just above 0
    (a 3-decimal print would show 0.000, which reads as flagging nothing: scores are never below 0)."""
    threshold = number("threshold", threshold, "a threshold (flag when score < threshold)")
    return "scored 0" if 0 < threshold < 5e-4 else f"scored below {threshold:.3f}"


def test_table(log: dict[str, Any] | None = None) -> Any:
    """The test figures, scored once after the choice: AUC with interval, P/R/F1 at the dev threshold, with the
    answers, sources and hallucinated answers of each row. Rows on under :data:`MIN_SOURCES` sources are left out
    (the course lists them: ``course.against_people.study.test_left_out``)."""
    import pandas as pd  # lazy

    log = checked_log(log)
    if "test" not in log:
        raise InputError("log", "a choice log with test figures", "a log without them")
    return pd.DataFrame([{"design": name, "answers": row["answers"], "sources": row["groups"],
                          "hallucinated": round(row["base_rate"] * row["answers"]), "auc": row["auc"],
                          "ci": ci_text(row["ci"]), "threshold": row["threshold"], "flags": flag_rule(row["threshold"]),
                          "precision": row["precision"],
                          "recall": row["recall"], "f1": row["f1"], "base_rate": row["base_rate"]}
                         for name, row in log["test"].items() if row["groups"] >= MIN_SOURCES])


def _scored_part(log: dict[str, Any], part: Any, design: Any) -> dict[str, Any]:
    """The log's ``part``, checked to hold scores of ``design``."""
    if not isinstance(part, str) or part not in log["parts"]:
        raise InputError("part", "one of " + ", ".join(log["parts"]), part)
    p = log["parts"][part]
    if not isinstance(design, str) or design not in p["scores"]:
        raise InputError("design", "one of " + ", ".join(p["scores"]), design)
    return p


def breakdown(design: str, by: str, part: str = "ragtruth-dev", log: dict[str, Any] | None = None) -> Any:
    """AUC of ``design`` per generating model (``by="model"``) or span kind (``"span_kind"``), with intervals."""
    p = _scored_part(checked_log(log), part, design)
    if by not in ("model", "span_kind"):
        raise InputError("by", "'model' or 'span_kind'", by)
    import pandas as pd  # lazy

    idx = complete(p, [design])
    if by == "model":
        report = validation_report([p["items"][i]["failed"] for i in idx], [p["scores"][design][i] for i in idx],
                                   groups=[p["items"][i]["group"] for i in idx], by=[p["items"][i][by] for i in idx],
                                   threshold=0.5)
        return report.table("breakdown")
    # a span kind holds failing answers only: each kind is ranked against every passing answer of the part
    passing = [i for i in idx if not p["items"][i]["failed"]]
    rows = []
    for kind in dict.fromkeys(p["items"][i]["span_kind"] for i in idx if p["items"][i]["failed"]):
        chosen = passing + [i for i in idx if p["items"][i]["span_kind"] == kind]
        r = validation_report([p["items"][i]["failed"] for i in chosen], [p["scores"][design][i] for i in chosen],
                              groups=[p["items"][i]["group"] for i in chosen], threshold=0.5)
        rows.append({"group": kind, "hallucinated": len(chosen) - len(passing), "faithful": len(passing),
                     "auc": r.score, "auc_low": r.ci[0] if r.ci else math.nan,
                     "auc_high": r.ci[1] if r.ci else math.nan})
    return pd.DataFrame(rows, columns=["group", "hallucinated", "faithful", "auc", "auc_low", "auc_high"])


def by_model(design: str, part: str = "ragtruth-dev-all", log: dict[str, Any] | None = None) -> Any:
    """Per generating model: answers, share labelled hallucinated and the design's mean score (the confound)."""
    import pandas as pd  # lazy

    p = _scored_part(checked_log(log), part, design)
    idx = complete(p, [design])
    rows = []
    for model in dict.fromkeys(p["items"][i]["model"] for i in idx):
        mine = [i for i in idx if p["items"][i]["model"] == model]
        rows.append({"model": model, "answers": len(mine),
                     "share_hallucinated": sum(p["items"][i]["failed"] for i in mine) / len(mine),
                     f"mean_{design}": sum(p["scores"][design][i] for i in mine) / len(mine)})
    return pd.DataFrame(rows).sort_values("share_hallucinated").reset_index(drop=True)


def threshold_of(log: dict[str, Any], design: str) -> float:
    """The F1-best threshold of ``design`` on RAGTruth dev (as the log holds it)."""
    log = checked_log(log)
    row = log["dev"]["designs"].get(design) if isinstance(design, str) else None
    if not row or not row.get("ragtruth"):
        raise InputError("design", "a design with RAGTruth dev figures: " + ", ".join(log["dev"]["designs"]), design)
    return float(row["ragtruth"]["threshold"])


def test_difference(a: str, b: str, log: dict[str, Any] | None = None) -> Any:
    """AUC(a) − AUC(b) on the same RAGTruth test answers, with its paired interval resampling sources."""
    log = checked_log(log)
    if "ragtruth-test" not in log["parts"]:
        raise InputError("log", "a choice log with test scores", "a log without them")
    p = log["parts"]["ragtruth-test"]
    for field, name in (("a", a), ("b", b)):
        if not isinstance(name, str) or name not in p["scores"]:
            raise InputError(field, "a design scored on test: " + ", ".join(p["scores"]), name)
    idx = complete(p, [a, b])
    return auc_difference([p["items"][i]["failed"] for i in idx], [p["scores"][a][i] for i in idx],
                          [p["scores"][b][i] for i in idx], groups=[p["items"][i]["group"] for i in idx], names=(a, b))
