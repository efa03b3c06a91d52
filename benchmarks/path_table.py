"""Issue 42's path table: what a learner reads from a notebook's call to the line that computes the score.

For each of the 13 seed paths, the public function is followed through every function of the package it
calls (by name, transitively), leaving out the bodies of ``validate``, ``results`` and ``errors`` (as the
issue did) and the explanation modules (``*_explained``: they build the narrative and the LaTeX, and compute
nothing the score depends on). A core module (``ragmetrics_edu/cores/``) is counted whole, and a core shared
by several paths is counted once in the total. Lines are non-blank lines of source.

Run: ``python benchmarks/path_table.py``.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import types

from ragmetrics_edu import metrics

SEEDS = ("context_precision", "context_recall", "contextual_relevancy", "context_entity_recall", "faithfulness",
         "answer_relevancy", "answer_relevancy_embedding", "answer_correctness", "semantic_similarity", "ndcg_at_k",
         "mean_reciprocal_rank", "word_overlap", "g_eval_score")
LEFT_OUT = ("ragmetrics_edu.validate", "ragmetrics_edu.results", "ragmetrics_edu.errors")


def nonblank(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def _skipped(module: str) -> bool:
    return module.startswith(LEFT_OUT) or module.endswith("_explained") or module == "ragmetrics_edu.cores"


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


def main() -> int:
    total_lines = 0
    all_cores: set[str] = set()
    print(f"{'path':28} {'files':>5} {'lines':>5}  (functions + cores)")
    for seed in SEEDS:
        functions, cores = path_of(getattr(metrics, seed))
        files = {name.rsplit(".", 1)[0] for name in functions} | cores
        files = {f for f in files if not any(f.startswith(n + ".") and n in functions for n in functions)}
        core_lines = sum(nonblank(inspect.getsource(importlib.import_module(c))) for c in cores)
        lines = sum(functions.values()) + core_lines
        modules = {name.rsplit(".", 1)[0] if "." not in name.split(".")[-2] else name for name in functions}
        n_files = len({inspect.getsourcefile(importlib.import_module(_module(n))) for n in functions} | cores)
        print(f"{seed:28} {n_files:5} {lines:5}  ({sum(functions.values())} + {core_lines}: "
              f"{', '.join(sorted(c.rsplit('.', 1)[1] for c in cores)) or 'no core'})")
        total_lines += sum(functions.values())
        all_cores |= cores
        del modules, files
    shared = sum(nonblank(inspect.getsource(importlib.import_module(c))) for c in all_cores)
    print(f"total, each core counted once: {total_lines + shared} lines ({total_lines} in public functions and "
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
