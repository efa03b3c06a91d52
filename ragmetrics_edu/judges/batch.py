"""The one case runner: tasks that ask a judge, run in a bounded thread pool, outcomes in task order.

Every path that puts cases to a judge runs them here - :func:`score_cases` (one step over many
cases), :func:`ragmetrics_edu.judges.evaluate` (every metric on every case of a data set) and
the course's runs (the judge study, the deck cases, the capstone) - so they share one behaviour:

- a *task* is a no-argument callable that asks the judge and returns a result (a
  :class:`~ragmetrics_edu.results.MetricResult` with ``.calls``, or anything else);
- at most ``max_concurrency`` tasks run at once (default: the judge's), in plain threads (no
  asyncio), so it runs inside a notebook cell; outcomes come back in task order. Where no thread
  can start (Pyodide, the course's browser site) the tasks run one at a time, each when its turn
  comes, with the same outcomes, order and stopping rules;
- an error of a type in ``keep`` is kept in its :class:`Outcome` and the run goes on; any other
  stops the run: running tasks stop before their next request (``judge.stopping``), the rest are
  cancelled, and the error is raised with a note naming the task;
- each outcome's calls are counted the one way (:func:`ragmetrics_edu.judges.records.tally`):
  from the result's records, or from those a failed step carried (``error.calls``), because
  requests made before a failure were paid for too.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from ..errors import InputError
from ..results import MetricResult
from ..validate import as_list, flag, integer
from .base import Judge
from .records import CallTally, tally
from .requests import check_judge

__all__ = ["THREADS", "Outcome", "Run", "run_tasks", "score_cases"]

#: Whether this Python can start threads: not in Pyodide (WebAssembly in a browser), where a run goes
#: one task at a time.
THREADS = sys.platform != "emscripten"


class _Later:
    """A task that runs when its result is first asked for (a Future's shape, with no thread behind it)."""

    def __init__(self, task: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self._task, self._args = task, args
        self._callbacks: list[Callable[[Any], None]] = []

    def add_done_callback(self, callback: Callable[[Any], None]) -> None:
        self._callbacks.append(callback)

    def result(self) -> Any:
        try:
            return self._task(*self._args)
        finally:
            for callback in self._callbacks:
                callback(self)


class _OneAtATime:
    """The pool where threads cannot start: each task runs in the caller's thread, in task order."""

    def submit(self, task: Callable[..., Any], *args: Any) -> _Later:
        return _Later(task, args)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """Nothing runs in the background, so nothing is left to wait for."""


@dataclass
class Outcome:
    """One task of a run: its result, or the error it kept, and the call records it made."""

    result: Any = None
    error: BaseException | None = None
    records: list[Any] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the task returned a result (no error kept)."""
        return self.error is None

    @property
    def calls(self) -> CallTally:
        """What the task's calls cost (:func:`~ragmetrics_edu.judges.records.tally`)."""
        return tally(self.records)

    @property
    def error_text(self) -> str | None:
        """The kept error as ``Type: message`` (None when the task succeeded)."""
        return None if self.error is None else f"{type(self.error).__name__}: {self.error}"


class Run(list):
    """The outcomes of :func:`run_tasks`, in task order; ``interrupted`` when a KeyboardInterrupt cut it short."""

    interrupted: bool = False


def _attempt(task: Callable[[], Any], keep: tuple[type[BaseException], ...]) -> Outcome:
    try:
        result = task()
    except keep as exc:
        return Outcome(error=exc, records=list(getattr(exc, "calls", None) or []))
    return Outcome(result=result, records=list(getattr(result, "calls", None) or []))


def _workers(max_concurrency: Any, judge: Any) -> int:
    workers = max_concurrency if max_concurrency is not None else getattr(judge, "max_concurrency", 1)
    return integer("max_concurrency", workers, low=1, expected="an integer >= 1")


def run_tasks(tasks: Iterable[Callable[[], Any]], judge: Any = None, *, max_concurrency: int | None = None,
              progress: bool = False, keep: tuple[type[BaseException], ...] = (), interruptible: bool = False,
              desc: str = "judging", unit: str = "case",
              on_outcome: Callable[[int, Outcome], None] | None = None) -> Run:
    """Run ``tasks`` (no-argument callables, any iterable of them; see the module) and return their outcomes in order.

    ``judge``: the judge the tasks ask (its ``max_concurrency`` and ``stopping``; None when
    no task asks one). ``keep``: error types kept in the outcome instead of stopping the run.
    ``interruptible=True``: a KeyboardInterrupt stops the run and returns the outcomes so far
    (``Run.interrupted``) instead of raising. ``progress=True`` shows a tqdm bar (``desc``,
    ``unit``) when tqdm is installed. ``on_outcome(index, outcome)`` is called in task order as
    outcomes arrive (a recorder writes its file after each).
    """
    todo = as_list("tasks", tasks, "no-argument callables (a list of tasks)", iterables=True)
    for i, one in enumerate(todo):
        if not callable(one):
            raise InputError(f"tasks[{i}]", "a no-argument callable (a task)", one)
    progress = flag("progress", progress)
    workers = _workers(max_concurrency, judge)
    stopping = judge.stopping if isinstance(judge, Judge) else None  # a task given a non-judge fails in the step
    run = Run()
    bar = _progress(len(todo), desc, unit) if progress else None
    pool: Any = (ThreadPoolExecutor(max_workers=min(workers, max(1, len(todo))), thread_name_prefix="ragmetrics-judge")
                 if THREADS else _OneAtATime())
    try:
        futures = [pool.submit(_attempt, task, keep) for task in todo]
        if bar is not None:
            for future in futures:
                future.add_done_callback(lambda _f: bar.update(1))
        for index, future in enumerate(futures):
            try:
                outcome = future.result()
            except Exception as exc:
                if hasattr(exc, "add_note"):
                    exc.add_note(f"(in {unit} {index} of {len(todo)})")
                raise
            run.append(outcome)
            if on_outcome is not None:
                on_outcome(index, outcome)
    except KeyboardInterrupt:
        if stopping is not None:
            stopping.set()  # running tasks stop before their next request
        if not interruptible:
            raise
        run.interrupted = True
    except BaseException:
        if stopping is not None:
            stopping.set()  # failed: running tasks stop before their next request
        raise
    finally:
        try:
            pool.shutdown(wait=True, cancel_futures=True)  # no request goes on in a background thread afterwards
        finally:
            if stopping is not None:
                stopping.clear()
            if bar is not None:
                bar.close()
    return run


def score_cases(
    step: Callable[..., MetricResult], cases: Iterable[Mapping[str, Any]], judge: Judge, *,
    max_concurrency: int | None = None, progress: bool = False,
) -> list[MetricResult]:
    """Run ``step(judge, **case)`` for every case in a thread pool; results in case order.

    At most ``max_concurrency`` cases run at once (default: the judge's). Plain threads,
    no asyncio, so it runs inside a notebook cell. ``progress=True`` shows a tqdm bar
    when tqdm is installed. The first failing case stops the run and its error names it.
    """
    judge = check_judge(judge)
    if not callable(step):
        raise InputError("step", "a design's function such as designs.context_precision", step)
    cases = as_list("cases", cases, "a list of dicts of the step's arguments", iterables=True)
    for i, case in enumerate(cases):
        if not isinstance(case, Mapping) or not all(isinstance(k, str) for k in case):
            raise InputError(f"cases[{i}]", "a dict of the step's arguments (question=..., nodes=..., ...)", case)
    cases = [dict(c) for c in cases]
    progress = flag("progress", progress)
    _workers(max_concurrency, judge)
    names = (", ".join(step.__code__.co_varnames[1:step.__code__.co_argcount + step.__code__.co_kwonlyargcount])
             if hasattr(step, "__code__") else "")

    def task(index: int, case: Mapping[str, Any]) -> Callable[[], MetricResult]:
        def ask() -> MetricResult:
            try:
                return step(judge, **case)
            except TypeError as exc:  # the case's keys do not match the step's parameters
                raise InputError(f"cases[{index}]", f"the arguments of the step ({names})" if names
                                 else "the arguments of the step", case) from exc
        return ask

    run = run_tasks([task(i, case) for i, case in enumerate(cases)], judge, max_concurrency=max_concurrency,
                    progress=progress)
    return [outcome.result for outcome in run]


def _progress(total: int, desc: str, unit: str) -> Any:
    try:
        from tqdm.auto import tqdm  # lazy: tqdm is optional
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit=unit)
