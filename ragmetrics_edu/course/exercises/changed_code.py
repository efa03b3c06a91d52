"""Exercises that change one line of a metric's core and ask for the number it then gives.

The learner reads the core ``metrics.show_code(name)`` displays, is told one line to change, and predicts
what the changed code scores on a stated input. The check runs the changed code: it takes the source the
display shows (the core's, then the shared cores'), replaces exactly that one line (keeping its indentation),
executes the copy as a fresh module and calls it. The answer is never typed in, and when the core changes so
that the line is gone, :func:`changed_core` says so and the exercise's test fails, naming it.
"""

from __future__ import annotations

import importlib
import math
import types
from typing import Any, Callable

from ... import metrics
from ...errors import InputError
from ...validate import identifier, text
from . import Exercise, as_number

#: (the wrong number a tempting slip gives, what that slip is)
Slip = tuple[Callable[[], float], str]
#: exercise id -> (metric, the line as it is, the line changed): every change exercise, for the tests
CHANGES: dict[str, tuple[str, str, str]] = {}


def _module_name(path: str) -> str:
    """``ragmetrics_edu/cores/per_k.py`` -> ``ragmetrics_edu.cores.per_k``."""
    return path.removesuffix(".py").replace("/", ".")


def _fresh(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__package__ = name.rpartition(".")[0]
    try:
        compiled = compile(source, f"<{name}, one line changed>", "exec")
    except SyntaxError as problem:
        raise InputError("new", "a line of Python that fits where the old one was", problem.text,
                         hint=f"the changed core does not compile: {problem.msg}") from None
    exec(compiled, module.__dict__)  # noqa: S102 (the course's own core)
    return module


def _one_line(field: str, value: Any) -> str:
    """One line of Python (the changed line): text with no line break."""
    value = text(field, value)
    if "\n" in value or len(value) > 200:
        raise InputError(field, "one line of Python, at most 200 characters", value)
    return value


def changed_core(metric: str, old: str, new: str) -> types.ModuleType:
    """The module of ``metric``'s core, run from its displayed source with the one line whose text is ``old``
    (stripped) replaced by ``new``. The line may be in the core or in a shared core it uses; the changed
    shared function then replaces the one the core imported. An InputError when ``old`` is not exactly one line."""
    old, new = text("old", old), _one_line("new", new)
    code = metrics.show_code(metric)
    parts = [code, *code.shared]
    hits = [(i, j) for i, part in enumerate(parts) for j, line in enumerate(part.source.splitlines())
            if line.strip() == old.strip()]
    if len(hits) != 1:
        raise InputError("old", f"a line that occurs once in show_code({metric!r}) (it occurs {len(hits)} times; "
                         "if the core changed, update the exercise)", old)
    at, row = hits[0]
    lines = parts[at].source.splitlines()
    lines[row] = lines[row][: len(lines[row]) - len(lines[row].lstrip())] + new.strip()
    changed = "\n".join(lines) + "\n"
    core_name = _module_name(parts[0].path)
    if at == 0:
        return _fresh(core_name, changed)
    core = _fresh(core_name, parts[0].source)
    shared_name = _module_name(parts[at].path)
    real, copy = importlib.import_module(shared_name), _fresh(shared_name, changed)
    for attr, value in list(vars(core).items()):
        if hasattr(copy, attr) and getattr(real, attr, None) is value and callable(value):
            setattr(core, attr, getattr(copy, attr))
    return core


def change_exercise(*, id: str, metric: str, old: str, new: str, case: str, run: Callable[[Any], float],
                    hint: str, explanation: str, slips: tuple[Slip, ...] = (), note: str = "",
                    tolerance: float = 1e-3) -> Exercise:
    """An exercise: "in ``metrics.show_code(metric)``, change ``old`` to ``new``: what does ``case`` score?"

    ``run(module)`` computes the case's score with a core module: the changed one for the answer, the library's
    own for the score before the change; ``slips`` are wrong numbers with the slip behind each.
    """
    id = identifier("id", id, "an exercise id such as 'cp-7'")
    note = text("note", note)
    changed_core(metric, old, new)          # the line is there, once, and the changed copy runs
    code = metrics.show_code(metric)
    path = next(p.path for p in (code, *code.shared) if any(line.strip() == old.strip()
                                                            for line in p.source.splitlines()))
    question = (f"Read `metrics.show_code(\"{metric}\")`. In `{path}`, change the line `{old}` to `{new}`, and "
                f"nothing else.{' ' + note if note else ''} Predict: what does {case} score with the changed code? "
                "Give a number.")

    CHANGES[id] = (metric, old, new)

    def answer() -> float:
        return run(changed_core(metric, old, new))

    def diagnose(given: Any, correct: float) -> str | None:
        g = as_number(given)
        if g is None:
            return None
        before = run(importlib.import_module(_module_name(metrics.show_code(metric).path)))
        if math.isclose(g, before, abs_tol=tolerance):
            return (f"{before:.4f} is what the code scores as it is, before the change. Follow the changed line "
                    "through the code: which numbers does it alter, and what is computed from them?")
        for wrong, why in slips:
            if math.isclose(g, wrong(), abs_tol=tolerance):
                return why
        return None

    return Exercise(id=id, question=question, answer=answer, hint=hint, explanation=explanation,
                    diagnose=diagnose, tolerance=tolerance)


__all__ = ["CHANGES", "change_exercise", "changed_core"]
