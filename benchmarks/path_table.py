"""Issue 42's path table: what a learner reads from a notebook's call to the line that computes the score.

For each of the 13 seed paths, the public function is followed through every function of the package it
calls (by name, transitively), leaving out the bodies of ``validate``, ``results`` and ``errors`` (as the
issue did), the explanation modules (``*_explained``: they build the MetricResult, its narrative, its LaTeX and
its notes, and compute nothing the score depends on) and the check modules (``metrics/checks.py``,
``ranking/checks.py``: each function there only checks and converts a caller's input, raising ``InputError``;
like ``validate.py``, whose bodies the issue did not count). A core module (``ragmetrics_edu/cores/``) is
counted whole, and a core shared by several paths is counted once in the total.

Two counts per path: ``lines``, the non-blank lines of source (docstrings included, as the issue tagged
them), and ``code``, the lines of code without docstrings and comments (how the issue counts a core's 45
lines, and what its 450-line target for the 13 paths is read against here).

Run: ``python benchmarks/path_table.py``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import types

from ragmetrics_edu import metrics
from ragmetrics_edu.metrics.show import code_lines

SEEDS = ("context_precision", "context_recall", "contextual_relevancy", "context_entity_recall", "faithfulness",
         "answer_relevancy", "answer_relevancy_embedding", "answer_correctness", "semantic_similarity", "ndcg_at_k",
         "mean_reciprocal_rank", "word_overlap", "g_eval_score")
LEFT_OUT = ("ragmetrics_edu.validate", "ragmetrics_edu.results", "ragmetrics_edu.errors")
CHECKS = ("ragmetrics_edu.metrics.checks", "ragmetrics_edu.ranking.checks")


def nonblank(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def _skipped(module: str) -> bool:
    return (module.startswith(LEFT_OUT) or module.endswith("_explained") or module in CHECKS
            or module == "ragmetrics_edu.cores")


def path_of(function: types.FunctionType) -> tuple[dict[str, int], set[str]]:
    """{qualified function name: its lines} for the non-core functions on the path, and the core modules reached."""
    seen: dict[str, int] = {}
    cores: set[str] = set()
    work = [function]
    while work:
        f = work.pop()
        name = f"{f.__module__}.{f.__qualname__}"
        if name in seen or _skipped(f.__module__):
            continue
        if f.__module__.startswith("ragmetrics_edu.cores."):
            cores.add(f.__module__)
            continue
        source = inspect.getsource(f)
        seen[name] = nonblank(source)
        for node in ast.walk(ast.parse(source.lstrip() if source[0].isspace() else source)):
            if not isinstance(node, ast.Call):
                continue
            target = None
            if isinstance(node.func, ast.Name):
                target = f.__globals__.get(node.func.id)
            elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                owner = f.__globals__.get(node.func.value.id)
                target = getattr(owner, node.func.attr, None) if isinstance(owner, types.ModuleType) else None
            target = inspect.unwrap(target) if callable(target) else None
            if isinstance(target, types.FunctionType) and target.__module__.startswith("ragmetrics_edu"):
                work.append(target)
    for core in list(cores):  # a core's shared cores are on the path too
        from ragmetrics_edu.metrics.show import uses

        stack = [core]
        while stack:
            module = importlib.import_module(stack.pop())
            for used in uses(inspect.getsource(module)):
                full = f"ragmetrics_edu.cores.{used}"
                if full not in cores:
                    cores.add(full)
                    stack.append(full)
    return seen, cores


def _sources(functions: dict[str, int], cores: set[str]) -> tuple[list[str], list[str]]:
    own = []
    for name in functions:
        owner = importlib.import_module(_module(name))
        obj: object = owner
        for part in name[len(owner.__name__) + 1:].split("."):
            obj = getattr(obj, part)
        own.append(inspect.getsource(inspect.unwrap(obj)))  # type: ignore[arg-type]
    return own, [inspect.getsource(importlib.import_module(c)) for c in sorted(cores)]


def main() -> int:
    totals = {"lines": [0, 0], "code": [0, 0]}
    all_cores: set[str] = set()
    print(f"{'path':28} {'files':>5} {'lines':>5} {'code':>5}  (lines: functions + cores; code: functions + cores)")
    for seed in SEEDS:
        functions, cores = path_of(getattr(metrics, seed))
        own, core_sources = _sources(functions, cores)
        n_files = len({inspect.getsourcefile(importlib.import_module(_module(n))) for n in functions} | cores)
        f_lines, c_lines = sum(map(nonblank, own)), sum(map(nonblank, core_sources))
        f_code, c_code = sum(map(code_lines, own)), sum(map(code_lines, core_sources))
        print(f"{seed:28} {n_files:5} {f_lines + c_lines:5} {f_code + c_code:5}  ({f_lines} + {c_lines}; "
              f"{f_code} + {c_code}: {', '.join(sorted(c.rsplit('.', 1)[1] for c in cores)) or 'no core'})")
        totals["lines"][0] += f_lines
        totals["code"][0] += f_code
        all_cores |= cores
    core_sources = [inspect.getsource(importlib.import_module(c)) for c in all_cores]
    totals["lines"][1], totals["code"][1] = sum(map(nonblank, core_sources)), sum(map(code_lines, core_sources))
    for what, (own_total, shared) in totals.items():
        print(f"total {what}, each core counted once: {own_total + shared} ({own_total} in public functions and "
              f"their helpers, {shared} in {len(all_cores)} cores)")
    return 0


def _module(qualified: str) -> str:
    parts = qualified.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in sys.modules:
            return ".".join(parts[:i])
    return qualified


if __name__ == "__main__":
    raise SystemExit(main())
