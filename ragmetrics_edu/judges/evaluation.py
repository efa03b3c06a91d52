"""Score a whole dataset: one row per case, a score column per metric, the intermediates
and the judge's calls and tokens.

    from ragmetrics_edu import evaluate, judges
    judge = judges.ReplayJudge("recording.json")          # or OpenAIJudge(...), GivenJudge(...)
    table = evaluate("cases.jsonl", metrics=["context_precision", "faithfulness"], judge=judge)

A case is a dict (or a DataFrame row, or a JSONL line) with ``question``, ``answer``,
``contexts`` (a list of texts) and ``ground_truth``, as in deck E's dataset; Ragas' newer
names ``user_input``, ``response``, ``retrieved_contexts`` and ``reference`` work too.
One failing case records its error in its row and the batch goes on; its ``calls`` still
count the requests it made. Interrupting the run (Ctrl-C, or the stop button) keeps the
finished rows: cases not started are cancelled, running ones stop before their next
request, and ``evaluate`` returns only when no request is left running. With an
``OpenAIJudge`` that has a ``cache_dir``, running again answers the finished cases from
the cache.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from .. import metrics
from ..errors import InputError
from ..results import MetricResult
from . import steps
from .base import Judge

ALIASES = {"user_input": "question", "response": "answer", "retrieved_contexts": "contexts", "reference": "ground_truth"}

#: metric name -> (the columns it needs, how to call it). ``None`` judge means no LLM is needed.
_NEEDS: dict[str, tuple[str, ...]] = {
    "context_precision": ("question", "contexts", "ground_truth"),
    "context_recall": ("question", "contexts", "ground_truth"),
    "contextual_relevancy": ("question", "contexts"),
    "context_entity_recall": ("contexts", "ground_truth"),
    "faithfulness": ("question", "answer", "contexts"),
    "answer_relevancy": ("question", "answer"),
    "answer_relevancy_embedding": ("question", "answer"),
    "answer_correctness": ("question", "answer", "ground_truth"),
    "semantic_similarity": ("answer", "ground_truth"),
}
METRICS = tuple(_NEEDS)


def _call(name: str, judge: Any, case: Mapping[str, Any], embedder: Any) -> MetricResult:
    fields: list[Any] = [case.get(k) for k in ("question", "answer", "contexts", "ground_truth")]
    q, a, ctx, gt = fields
    calls: dict[str, Callable[[], MetricResult]] = {
        "context_precision": lambda: steps.context_precision(judge, q, ctx, gt),
        "context_recall": lambda: steps.context_recall(judge, gt, ctx, question=q),
        "contextual_relevancy": lambda: steps.contextual_relevancy(judge, q, ctx),
        "context_entity_recall": lambda: steps.context_entity_recall(judge, gt, ctx),
        "faithfulness": lambda: steps.faithfulness(judge, a, ctx, question=q),
        "answer_relevancy": lambda: steps.answer_relevancy(judge, q, a),
        "answer_relevancy_embedding": lambda: steps.answer_relevancy_embedding(judge, q, a, embedder=embedder),
        "answer_correctness": lambda: steps.answer_correctness(judge, q, a, gt, embedder=embedder),
        "semantic_similarity": lambda: metrics.semantic_similarity(a, gt, embedder),
    }
    return calls[name]()


def load_cases(data: Any) -> list[dict[str, Any]]:
    """Cases from a DataFrame, a JSONL file path, or a list of dicts (aliases renamed)."""
    if isinstance(data, (str, Path)):
        path = Path(data)
        if not str(data).strip() or not path.is_file():
            raise InputError("data", "a DataFrame, a list of dicts or the path of an existing JSONL file", str(data))
        rows = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise InputError(f"data (line {number} of {path.name})", "one JSON object per line", line[:40]) from exc
    elif hasattr(data, "to_dict") and hasattr(data, "columns"):
        rows = data.to_dict(orient="records")
    elif isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        rows = list(data)
    else:
        raise InputError("data", "a DataFrame, a list of dicts or the path of a JSONL file", data)
    cases = []
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise InputError(f"data[{i}]", "a dict with question, answer, contexts, ground_truth", row)
        case = {ALIASES.get(k) or k: v for k, v in row.items()}
        if "contexts" in case and hasattr(case["contexts"], "tolist"):
            case["contexts"] = case["contexts"].tolist()
        cases.append(case)
    return cases


def _names(metrics: Any) -> list[str]:
    """The metric names asked for: one name or a list of names from :data:`METRICS`."""
    if isinstance(metrics, str):
        metrics = [metrics]
    if isinstance(metrics, (bytes, Mapping)) or not isinstance(metrics, Iterable):
        raise InputError("metrics", "a list of metric names from: " + ", ".join(METRICS), metrics)
    names = list(metrics)
    if not names:
        raise InputError("metrics", "at least one metric name from: " + ", ".join(METRICS), names)
    for name in names:
        if not isinstance(name, str) or name not in _NEEDS:
            raise InputError("metrics", "names from: " + ", ".join(METRICS), name)
    return names


def _check(cases: list[dict[str, Any]], names: Sequence[str], judge: Any) -> None:
    if judge is not None and not isinstance(judge, Judge):
        raise InputError("judge", "a judge: judges.ReplayJudge, judges.GivenJudge or judges.OpenAIJudge", judge)
    if judge is None and any(n != "semantic_similarity" for n in names):
        raise InputError("judge", "a judge for LLM-derived verdicts: judges.ReplayJudge(recording) offline, "
                         "judges.GivenJudge(...) for typed verdicts, or judges.OpenAIJudge(model, base_url=...)", None)
    for i, case in enumerate(cases):
        for name in names:
            for column in _NEEDS[name]:
                if case.get(column) is None:
                    raise InputError(f"data[{i}].{column}", f"a value (metric {name} needs {', '.join(_NEEDS[name])})", None)
        if "contexts" in case and (isinstance(case["contexts"], str) or not isinstance(case["contexts"], Sequence)):
            raise InputError(f"data[{i}].contexts", "a list of context texts", case["contexts"])


def _score_case(index: int, case: dict[str, Any], names: Sequence[str], judge: Any, embedder: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"case": index, "question": case.get("question"), "answer": case.get("answer")}
    results: dict[str, MetricResult] = {}
    errors = []
    calls: list[Any] = []
    for name in names:
        try:
            result = _call(name, judge, case, embedder)
        except Exception as exc:  # one failure must not stop the batch: record it in the row
            row[name] = float("nan")
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
            calls.extend(getattr(exc, "calls", None) or [])  # requests made before the failure were paid too
            continue
        calls.extend(result.calls or [])
        results[name] = result
        row[name] = result.score
        row[f"{name}_values"] = dict(result.values)
        if "verdict" in result.columns or "relevant" in result.columns:
            column = "verdict" if "verdict" in result.columns else "relevant"
            row[f"{name}_verdicts"] = [r[column] for r in result.rows]
    row["calls"] = sum(1 for c in calls if c.source in ("api",))
    row["cached_calls"] = sum(1 for c in calls if c.source in ("cache", "replay"))
    row["prompt_tokens"] = sum(c.prompt_tokens or 0 for c in calls)
    row["completion_tokens"] = sum(c.completion_tokens or 0 for c in calls)
    row["error"] = "; ".join(errors) or None
    row["_results"] = results
    return row


def evaluate(
    data: Any,
    metrics: Iterable[str] = ("context_precision", "context_recall", "faithfulness", "answer_relevancy"),
    judge: Any = None,
    *,
    embedder: Any = None,
    max_concurrency: int | None = None,
    progress: bool = True,
):
    """Score every case with every metric; return a pandas DataFrame, one row per case.

    Columns: ``case``, ``question``, ``answer`` (so rows that share a question can be told
    apart), a score column per metric, ``<metric>_values`` and ``<metric>_verdicts`` (the intermediates), ``calls``, ``cached_calls``, token counts and
    ``error``. The MetricResults themselves are in ``frame.attrs["results"]`` (one dict
    per case). At most ``max_concurrency`` cases run at once (default: the judge's).
    """
    import pandas as pd  # lazy: pandas loads only when a table is asked for

    names = _names(metrics)
    cases = load_cases(data)
    _check(cases, names, judge)
    workers = max_concurrency if max_concurrency is not None else getattr(judge, "max_concurrency", 1) or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError("max_concurrency", "an integer >= 1", workers)
    if not isinstance(progress, bool):
        raise InputError("progress", "True or False", progress)
    bar = _bar(len(cases)) if progress else None
    rows: dict[int, dict[str, Any]] = {}
    pool = ThreadPoolExecutor(max_workers=min(workers, max(1, len(cases))), thread_name_prefix="ragmetrics-eval")
    interrupted = False
    try:
        futures = {pool.submit(_score_case, i, c, names, judge, embedder): i for i, c in enumerate(cases)}
        for future, index in futures.items():
            rows[index] = future.result()
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        # Interrupted or failed: cancel the cases not started, let the running ones stop before their next
        # request, and wait for them, so no request goes on in a background thread after evaluate() returns.
        if judge is not None:
            judge.stopping.set()
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        finally:
            if judge is not None:
                judge.stopping.clear()
            if bar is not None:
                bar.close()
    ordered = [rows[i] for i in sorted(rows)]
    frame = pd.DataFrame([{k: v for k, v in r.items() if k != "_results"} for r in ordered])
    frame.attrs["results"] = [r["_results"] for r in ordered]
    frame.attrs["interrupted"] = interrupted
    frame.attrs["judge"] = getattr(judge, "describe", lambda: None)() if judge is not None else None
    return frame


def _bar(total: int) -> Any:
    try:
        from tqdm.auto import tqdm  # lazy: tqdm is optional
    except ImportError:
        return None
    return tqdm(total=total, desc="evaluating", unit="case")
