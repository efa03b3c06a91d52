"""Many cases through one judge step: a bounded thread pool, results in case order.

Kept apart from :mod:`.steps` (what each metric asks) because it is about running cases, not
about any one metric: threads, interruption and the progress bar.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable, Mapping

from ..errors import InputError
from ..results import MetricResult
from .base import Judge
from .requests import check_judge

__all__ = ["score_cases"]


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
        raise InputError("step", "a judge step such as judges.context_precision", step)
    if isinstance(cases, (str, bytes, Mapping)) or not isinstance(cases, Iterable):
        raise InputError("cases", "a list of dicts of the step's arguments", cases)
    cases = list(cases)
    for i, case in enumerate(cases):
        if not isinstance(case, Mapping) or not all(isinstance(k, str) for k in case):
            raise InputError(f"cases[{i}]", "a dict of the step's arguments (question=..., nodes=..., ...)", case)
    cases = [dict(c) for c in cases]
    if not isinstance(progress, bool):
        raise InputError("progress", "True or False", progress)
    workers = max_concurrency if max_concurrency is not None else judge.max_concurrency
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError("max_concurrency", "an integer >= 1", workers)
    bar = _progress(len(cases)) if progress else None
    results: list[MetricResult] = []
    pool = ThreadPoolExecutor(max_workers=min(workers, max(1, len(cases))), thread_name_prefix="ragmetrics-judge")
    try:
        futures = [pool.submit(step, judge, **case) for case in cases]
        if bar is not None:
            for future in futures:
                future.add_done_callback(lambda _f: bar.update(1))
        for index, future in enumerate(futures):
            try:
                results.append(future.result())
            except TypeError as exc:  # the case's keys do not match the step's parameters
                raise InputError(f"cases[{index}]", "the arguments of the step (" + ", ".join(
                    step.__code__.co_varnames[1:step.__code__.co_argcount + step.__code__.co_kwonlyargcount])
                    + ")" if hasattr(step, "__code__") else "the arguments of the step", cases[index]) from exc
            except Exception as exc:
                if hasattr(exc, "add_note"):
                    exc.add_note(f"(in case {index} of {len(cases)})")
                raise
    except BaseException:
        judge.stopping.set()  # failed or interrupted: running cases stop before their next request
        raise
    finally:
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        finally:
            judge.stopping.clear()
            if bar is not None:
                bar.close()
    return results


def _progress(total: int) -> Any:
    try:
        from tqdm.auto import tqdm  # lazy: tqdm is optional
    except ImportError:
        return None
    return tqdm(total=total, desc="judging", unit="case")
