"""Score a whole dataset: one row per case, a score column per metric, the intermediates
and the judge's calls and tokens.

    from ragmetrics_edu import evaluate, judges
    table = evaluate("cases.jsonl")                        # no judge: word overlap and semantic similarity
    judge = judges.ReplayJudge("recording.json")          # or OpenAIJudge(...), GivenJudge(...)
    table = evaluate("cases.csv", metrics=["context_precision", "faithfulness"], judge=judge)

A case has ``question``, ``answer``, ``contexts`` (a list of texts), ``reference`` and an optional ``id``;
Ragas' and DeepEval's names for them work too, and files are JSONL, JSON, CSV or Parquet
(:mod:`ragmetrics_edu.evaluation.datasets` reads and checks them). With no judge the default metrics are
those that need none (:data:`DEFAULT_METRICS`); with one, the judged defaults come first
(:data:`JUDGED_DEFAULT`). One failing case records its error in its row and the batch goes on; its ``calls`` still
count the requests it made. A design's per-run stage (G-Eval's evaluation steps) is asked once per run,
before the cases, and shared by all of them; metrics that need no judge (word overlap, semantic
similarity) are computed inline, without the judge's thread pool. Interrupting the run (Ctrl-C, or the stop button) keeps the
finished rows: cases not started are cancelled, running ones stop before their next
request, and ``evaluate`` returns only when no request is left running. With an
``OpenAIJudge`` that has a ``cache_dir``, running again answers the finished cases from
the cache.
"""

from __future__ import annotations

from functools import lru_cache, partial
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping, Sequence

from .. import validate
from ..errors import InputError, show_value
from ..judges.base import Judge
from ..judges.batch import Outcome, run_tasks
from ..judges.records import tally
from ..metrics.scored import Scored
from ..metrics.specs import COLUMNS, SPECS, MetricSpec
from ..results import MetricResult
from .case_results import CaseResults
from .datasets import ALIASES, SHOWN, Dataset, field_at, field_names, load_cases, read_cases

__all__ = ["evaluate", "evaluated", "metric_names", "judge_free", "default_metrics", "plan", "load_cases", "read_cases",
           "ALIASES", "DEFAULT_METRICS", "JUDGED_DEFAULT"]

#: What evaluate() scores with no judge: the metrics that need none (word overlap is the faithfulness design the
#: course's written rule chose; semantic similarity compares the answer with the reference).
DEFAULT_METRICS = ("word_overlap", "semantic_similarity")
#: What a judge adds to the default, first: retrieval (precision and recall of the contexts) and answer relevancy.
JUDGED_DEFAULT = ("context_precision", "context_recall", "answer_relevancy")

def evaluated() -> list[MetricSpec]:
    """The registered metrics and designs evaluate() can score (those whose spec has an ``ask``), in order."""
    return SPECS.where(evaluated=True)


def metric_names() -> tuple[str, ...]:
    """Their names: what ``evaluate(metrics=...)`` accepts."""
    return tuple(spec.name for spec in evaluated())


def _call(name: str, judge: Any, case: Mapping[str, Any], embedder: Any, criteria: str | None,
          extra: Mapping[str, Any]) -> MetricResult:
    spec = SPECS[name]
    assert spec.ask is not None  # checked by _names
    passed = {**{c: case.get(c) for c in COLUMNS}, "judge": judge, "embedder": embedder, "criteria": criteria}
    return spec.directed(spec.ask(passed, **extra))


def _options(options: Any, names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``options`` checked: metric name -> keyword arguments its design's function takes (a variant, ...)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InputError("options", 'a dict: metric name -> its keyword arguments, e.g. {"faithfulness": '
                         '{"variant": "ragas"}}', options)
    checked: dict[str, dict[str, Any]] = {}
    for name, given in options.items():
        if not isinstance(name, str) or name not in names:
            raise InputError("options", "keys among the metrics asked for: " + ", ".join(names), name)
        spec = SPECS[name]
        assert spec.ask is not None  # checked by _names
        allowed = sorted(spec.ask.options())
        if not isinstance(given, Mapping):
            raise InputError(f"options[{name!r}]", "a dict of keyword arguments from: " + (", ".join(allowed) or "none"),
                             given)
        for key, value in given.items():
            if not isinstance(key, str) or key not in allowed:
                raise InputError(f"options[{name!r}]", f"keywords {name} takes: " + (", ".join(allowed) or "none"), key)
            if key == "variant" and spec.named_variants:
                validate.choice(f"options[{name!r}]['variant']", value, spec.named_variants)
        checked[name] = dict(given)
    return checked


def _once(names: Sequence[str], judge: Any, embedder: Any, criteria: str | None,
          options: dict[str, dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each design's per-run stage, asked once: (metric -> the keyword arguments it adds to every case, or the
    error it raised; metric -> what it did, for ``frame.attrs["once"]``)."""
    extra: dict[str, Any] = {}
    shown: dict[str, Any] = {}
    for name in names:
        ask = SPECS[name].ask
        assert ask is not None  # checked by _names
        if ask.once is None or ask.once[0] in options.get(name, {}):
            continue  # no stage, or the caller gave its value
        keyword, stage = ask.once
        before = len(judge.calls) if isinstance(judge, Judge) else 0
        try:
            value = stage({"judge": judge, "embedder": embedder, "criteria": criteria})
        except Exception as exc:  # noqa: BLE001 - the stage's failure is every case's, recorded in the rows
            extra[name] = exc
            shown[name] = {keyword: None, "error": f"{type(exc).__name__}: {exc}"}
            continue
        records = list(judge.calls[before:]) if isinstance(judge, Judge) else []
        extra[name] = {keyword: value}
        shown[name] = {keyword: value, "calls": tally(records)}
    return extra, shown


def judge_free() -> tuple[str, ...]:
    """The metrics evaluate() scores with no judge (word overlap, semantic similarity, and any registered one)."""
    return tuple(spec.name for spec in evaluated() if not spec.judged)


def default_metrics(judged: bool) -> tuple[str, ...]:
    """What ``evaluate(metrics=None)`` asks for: :data:`DEFAULT_METRICS`, after :data:`JUDGED_DEFAULT` when ``judged``."""
    return (JUDGED_DEFAULT if validate.flag("judged", judged) else ()) + DEFAULT_METRICS


def _names(metrics: Any) -> list[str]:
    """The metric names asked for: one name or a list of names from :func:`metric_names`."""
    known = metric_names()
    if isinstance(metrics, str):
        metrics = [metrics]
    if isinstance(metrics, (bytes, Mapping)) or not isinstance(metrics, Iterable):
        raise InputError("metrics", "a list of metric names from: " + ", ".join(known), metrics)
    try:
        names = list(metrics)
    except Exception as exc:  # noqa: BLE001 - an iterable that breaks is bad input
        raise InputError("metrics", "a list of metric names from: " + ", ".join(known), metrics,
                         hint=f"reading it failed ({type(exc).__name__})") from None
    if not names:
        raise InputError("metrics", "at least one metric name from: " + ", ".join(known), names)
    for name in names:
        if not isinstance(name, str) or name not in known:
            raise InputError("metrics", "names from: " + ", ".join(known), name)
    return list(dict.fromkeys(names))


def _defaults(data: Dataset, judged: bool) -> tuple[list[str], dict[str, str]]:
    """The default metrics the data can feed, and why each other default was left out (a field no row has)."""
    names, left_out = [], {}
    for name in default_metrics(judged):
        missing = [c for c in SPECS[name].needs if all(case.get(c) is None for case in data.cases)]
        if missing:
            left_out[name] = "needs " + " and ".join(field_names(c) for c in missing) + ", which no row has"
        else:
            names.append(name)
    if not names:
        absent = list(dict.fromkeys(c for n in left_out for c in SPECS[n].needs
                                    if all(case.get(c) is None for case in data.cases)))
        present = sorted({SHOWN.get(k, k) for case in data.cases for k, v in case.items() if v is not None})
        raise InputError(f"{data.source}: " + " and ".join(field_names(c) for c in absent),
                         f"a field of the rows (the default metrics {' and '.join(left_out)} read it)", present)
    return names, left_out


#: The fields a metric reads that must be text (contexts are checked as a list of texts when the file is read).
TEXT_FIELDS = ("question", "answer", "ground_truth")
#: The most bad rows one error message lists (the count says how many more).
SHOWN_BAD_ROWS = 20


def empty_answer(case: Mapping[str, Any]) -> bool:
    """Whether a case's answer is text with nothing in it (``""`` or spaces): such a case is counted unscored by
    every metric that reads the answer (its ``error`` says so), never scored 0 as if it were an answer."""
    answer = case.get("answer")
    return isinstance(answer, str) and not answer.strip()


def _bad_rows(data: Dataset, names: Sequence[str]) -> list[tuple[str, str, Any]]:
    """Every row's problem with the fields the metrics read, as (field, expected, got): missing (absent, null, an
    empty CSV cell) or not text (a number, NaN, a list). One pass over all rows, so every bad row is named."""
    needs = {c: [n for n in names if c in SPECS[n].needs] for n in names for c in SPECS[n].needs}
    bad = []
    for where, case in zip(data.where, data.cases, strict=True):
        for column, readers in needs.items():
            value = case.get(column)
            if value is None or column in TEXT_FIELDS and not isinstance(value, str):
                bad.append((field_at(where, SHOWN.get(column, column)),
                            f"{'a' if value is None else 'a text'} value (read by {', '.join(readers)})", value))
    return bad


def _check(data: Dataset, names: Sequence[str], judge: Any) -> None:
    if judge is not None and not isinstance(judge, Judge):
        raise InputError("judge", "a judge: judges.ReplayJudge, judges.GivenJudge or judges.OpenAIJudge", judge)
    judged = [n for n in names if SPECS[n].judged]
    if judge is None and judged:
        raise InputError("judge", f"a judge for {', '.join(judged)}: judges.ReplayJudge(recording) offline, "
                         "judges.GivenJudge(...) for typed verdicts, or judges.OpenAIJudge(model, base_url=...)", None,
                         hint="Without one, ask for the metrics that need none: " + ", ".join(judge_free()))
    for name in names:
        needs = SPECS[name].needs
        for column in needs:
            if data.source != "data" and all(case.get(column) is None for case in data.cases):
                raise InputError(f"{data.source}: {field_names(column)}",
                                 f"a column {SHOWN.get(column, column)} (metric {name} reads "
                                 f"{', '.join(SHOWN.get(c, c) for c in needs)})",
                                 sorted({k for c in data.cases for k in c}), hint="no row has it")
    bad = _bad_rows(data, names)
    if len(bad) == 1:
        raise InputError(*bad[0])
    if bad:  # every one named (up to SHOWN_BAD_ROWS, then counted), not only the first
        listed = [f"{where} (got {show_value(got)})" for where, _, got in bad[:SHOWN_BAD_ROWS]]
        more = f"; and {len(bad) - SHOWN_BAD_ROWS} more" if len(bad) > SHOWN_BAD_ROWS else ""
        raise InputError(f"{data.source}: {len(bad)} bad values", "a text value in every field the metrics read "
                         "(nothing is scored until every row is right)", f"{len(bad)} bad values",
                         hint="; ".join(listed) + more)


def plan(data: Any, metrics: Iterable[str] | None = None, judge: Any = None) -> tuple[list[str], dict[str, str]]:
    """What :func:`evaluate` would score, checked before any work: (the metric names, the defaults left out and
    why). Raises the InputError evaluate() would raise for a bad row, a bad name or a missing judge."""
    data = read_cases(data)
    if metrics is None:
        names, left_out = _defaults(data, isinstance(judge, Judge))
    else:
        names, left_out = _names(metrics), {}
    _check(data, names, judge)
    return names, left_out


@lru_cache(maxsize=256)
def _design_of(metric: str, variant: str | None) -> str:
    return metric + (f" ({variant})" if variant else "")


def _design(result: MetricResult | Scored) -> str:
    """The design and variant a result came from, e.g. ``semantic_similarity (ragas)`` (one string shared by
    every row that has it)."""
    return _design_of(result.metric, result.variant)


def _row(index: int, case: dict[str, Any], names: Sequence[str], outcomes: Sequence[Outcome],
         judged: bool) -> dict[str, Any]:
    """One case's row from its outcomes (one per metric, in ``names`` order); call columns when ``judged``."""
    row: dict[str, Any] = {"case": index, **({"id": case["id"]} if "id" in case else {}),
                           "question": case.get("question"), "answer": case.get("answer")}
    results: dict[str, MetricResult] = {}  # the judged metrics' results (a judge-free one is recomputed when asked)
    errors = []
    for name, outcome in zip(names, outcomes, strict=True):
        if not outcome.ok:  # one failure must not stop the batch: it is recorded in the row
            row[name] = float("nan")
            errors.append(f"{name}: {outcome.error_text}")
            continue
        result = outcome.result  # a MetricResult, or a batch path's Scored (score and values, no step table)
        results[name] = result  # evaluate() keeps the judged ones (CaseResults)
        row[name] = result.score
        row[f"{name}_design"] = _design(result)
        row[f"{name}_values"] = dict(result.values)
        column = SPECS[name].verdict_column
        if column is not None and isinstance(result, MetricResult) and column in result.columns:
            row[f"{name}_verdicts"] = [r[column] for r in result.rows]
    if judged:
        spent = tally(record for outcome in outcomes for record in outcome.records)
        row.update(calls=spent.calls, repairs=spent.repairs, cache_hits=spent.cache_hits,
                   prompt_tokens=spent.prompt_tokens, completion_tokens=spent.completion_tokens)
    row["error"] = "; ".join(errors) or None
    row["_results"] = results  # taken out again by evaluate()
    return row


#: A row's kept results when no judged metric scored it (one read-only mapping shared by those rows).
NONE_KEPT: Mapping[str, MetricResult] = MappingProxyType({})


@lru_cache(maxsize=256)
def _shared(names: tuple[str, ...]) -> tuple[str, ...]:
    """One tuple for every row scored by the same metrics (not one each)."""
    return names


class _Columns:
    """Rows added one at a time, held as columns: a list per column, in the order the columns first appear, and
    NaN where a row has no value (what pandas makes of a list of dicts), without a dict kept per row."""

    def __init__(self) -> None:
        self.columns: dict[str, list[Any]] = {}
        self.rows = 0

    def add(self, row: Mapping[str, Any]) -> None:
        for key, value in row.items():
            column = self.columns.get(key)
            if column is None:
                column = self.columns[key] = [float("nan")] * self.rows
            column.append(value)
        self.rows += 1
        if len(row) < len(self.columns):  # a column this row has no value for
            for column in self.columns.values():
                if len(column) < self.rows:
                    column.append(float("nan"))


#: How many rows a judge-free metric's batch path scores at a time (its scores are held only for these rows).
BATCH_ROWS = 1024


def _batch_scores(name: str, cases: Sequence[Mapping[str, Any]], embedder: Any, criteria: str | None) -> list[Any]:
    """``name``'s batch path on ``cases`` (:attr:`~ragmetrics_edu.metrics.specs.Ask.batch`): one Scored or None per
    case. A batch that fails leaves every case to the per-case function, which records each one's error."""
    ask = SPECS[name].ask
    assert ask is not None and ask.batch is not None  # checked by the caller
    passed = {"embedder": embedder, "criteria": criteria}
    try:
        found = list(ask.batch(*(passed[a] if a in passed else [c.get(a) for c in cases] for a in ask.args)))
    except Exception:  # noqa: BLE001 - the per-case function says what is wrong, case by case
        return [None] * len(cases)
    return found if len(found) == len(cases) else [None] * len(cases)


def _inline(task: Any) -> Outcome:
    """A metric with no judge, computed in the calling thread (its error kept, as a judged task's is)."""
    try:
        return Outcome(result=task())
    except Exception as exc:  # noqa: BLE001 - one failure must not stop the batch: it is recorded in the row
        return Outcome(error=exc)


def _bar(total: int, shown: bool) -> Any:
    """A progress bar for the cases scored inline (a judged run has run_tasks' own), or None."""
    if not shown or not total:
        return None
    try:
        from tqdm.auto import tqdm  # lazy: tqdm is optional (the llm extra)
    except ImportError:
        return None
    return tqdm(total=total, desc="scoring", unit="case")


def _unscored() -> Any:
    raise InputError("answer", "an answer to score (an empty answer is counted unscored, never scored 0)", "")


def _failed(error: BaseException) -> Any:
    def task() -> Any:
        raise RuntimeError(f"its per-run stage failed ({type(error).__name__}: {error})")
    return task


def evaluate(
    data: Any,
    metrics: Iterable[str] | None = None,
    judge: Any = None,
    *,
    embedder: Any = None,
    max_concurrency: int | None = None,
    progress: bool = True,
    criteria: str | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
):
    """Score every case with every metric; return a pandas DataFrame, one row per case.

    ``data``: a JSONL, JSON, CSV or Parquet file, a DataFrame or a list of dicts (the row schema:
    :mod:`ragmetrics_edu.evaluation.datasets`). ``metrics=None`` scores the defaults the data can feed
    (:func:`default_metrics`: the judge-free ones, and the judged ones when a judge is given); a default
    left out for want of a field is named in ``frame.attrs["left_out"]``. A metric that needs a judge,
    asked for without one, is refused.

    Columns: ``case``, ``id`` (when the rows have ids), ``question``, ``answer`` (so rows that share a question can be told
    apart), a score column per metric, ``<metric>_design`` (the design and variant the score came
    from, e.g. ``faithfulness_reanswer (recall, grounding_weight 0.9)``), ``<metric>_values`` and ``<metric>_verdicts`` (the
    intermediates), ``calls`` (requests the judge answered by asking its server, its recording
    or the verdicts given in code, repairs included), ``repairs``, ``cache_hits`` (answered from the on-disk cache),
    token counts and ``error`` (see :mod:`ragmetrics_edu.judges.records` for what a call is; the call
    columns are there only when a metric asks a judge). The MetricResults themselves are in
    ``frame.attrs["results"]`` (one dict per case). Each judged metric on each case is one task of
    :func:`~ragmetrics_edu.judges.batch.run_tasks`: at most ``max_concurrency`` run at once (default: the
    judge's); a KeyboardInterrupt returns the cases scored so far (``frame.attrs["interrupted"]``). A metric
    with no judge is computed inline. A design's per-run stage (G-Eval's evaluation steps) is asked once,
    before the cases; what it returned and the calls it made are in ``frame.attrs["once"]``.

    ``criteria``: what the rubric judges (``"g_eval"``, ``"aspect_critic"``) grade, in your words (default:
    faithfulness to the contexts). ``options``: per metric, keyword arguments for its design's function,
    e.g. ``{"faithfulness": {"variant": "ragas"}, "g_eval": {"variant": "deepeval"}}`` (a variant is
    checked against the spec's variants; ``SPECS[name].ask.options()`` lists what a metric takes).
    """
    import pandas as pd  # lazy: pandas loads only when a table is asked for

    data = read_cases(data)
    names, left_out = plan(data, metrics, judge)
    progress = validate.flag("progress", progress)
    cases = data.cases
    if criteria is not None and (not isinstance(criteria, str) or not criteria.strip()):
        raise InputError("criteria", "the criterion the rubric judges grade, in words (or None)", criteria)
    chosen = _options(options, names)
    extra, shown = _once(names, judge, embedder, criteria, chosen)
    pooled = [n for n in names if SPECS[n].judged and not isinstance(extra.get(n), BaseException)]

    def call(name: str, case: Mapping[str, Any]) -> Any:
        stage = extra.get(name, {})
        if isinstance(stage, BaseException):  # the per-run stage failed: so does every case, without a call
            return _failed(stage)
        if "answer" in SPECS[name].needs and empty_answer(case):
            return _unscored
        return partial(_call, name, judge, case, embedder, criteria, {**stage, **chosen.get(name, {})})

    def recompute(i: int, name: str) -> MetricResult:  # a judge-free result, built again when a case is looked at
        return call(name, cases[i])()

    tasks = [call(name, case) for case in cases for name in pooled]
    run = run_tasks(tasks, judge, max_concurrency=max_concurrency, progress=progress, keep=(Exception,),
                    interruptible=True, desc="evaluating", unit="score") if pooled else None
    done = len(cases) if run is None else len(run) // len(pooled)  # an interrupted run keeps the cases scored in full
    table = _Columns()
    kept: list[Mapping[str, MetricResult]] = []
    scored: list[tuple[str, ...]] = []
    bar = _bar(done, progress and run is None)
    batched = [n for n in names if getattr(SPECS[n].ask, "batch", None) is not None and not chosen.get(n)]
    fast: dict[str, list[Any]] = {}
    reads_answer = {n for n in names if "answer" in SPECS[n].needs}

    def outcome(name: str, i: int, asked: Iterator[Outcome]) -> Outcome:
        if name in pooled:
            return next(asked)
        scored = fast[name][i % BATCH_ROWS] if name in fast else None
        if scored is None or name in reads_answer and empty_answer(cases[i]):
            return _inline(call(name, cases[i]))  # the per-case function: its result, or its error for the row
        return Outcome(result=scored)

    for i in range(done):
        if bar is not None:
            bar.update(1)
        if i % BATCH_ROWS == 0:  # the next rows' judge-free scores, many cases at once
            fast = {n: _batch_scores(n, cases[i:i + BATCH_ROWS], embedder, criteria) for n in batched}
        asked = iter(run[i * len(pooled):(i + 1) * len(pooled)] if run is not None else ())
        outcomes = [outcome(name, i, asked) for name in names]
        row = _row(i, cases[i], names, outcomes, any(SPECS[n].judged for n in names))
        done_by = row.pop("_results")  # judge-free results are dropped here (rebuilt when asked), not kept per row
        scored.append(_shared(tuple(n for n in done_by if not SPECS[n].judged)))
        kept.append({n: r for n, r in done_by.items() if SPECS[n].judged} or NONE_KEPT)
        table.add(row)
    if bar is not None:
        bar.close()
    frame = pd.DataFrame(table.columns)
    frame.attrs["results"] = CaseResults(names, kept, scored, recompute, cases)
    frame.attrs["interrupted"] = bool(run is not None and run.interrupted)
    frame.attrs["once"] = shown
    frame.attrs["metrics"] = list(names)
    frame.attrs["left_out"] = left_out
    frame.attrs["source"] = data.source
    frame.attrs["judge"] = getattr(judge, "describe", lambda: None)() if judge is not None else None
    return frame
