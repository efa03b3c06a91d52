"""How long a notebook takes a class, by a written rule instead of a guess.

The rule (:func:`minutes`): a class reads the notebook's prose and printed output at :data:`WORDS_PER_MINUTE`
(dense text full of numbers, read together, slower than reading alone), spends :data:`PER_EXERCISE` minutes on
each exercise, :data:`PER_FIGURE` on each figure and :data:`PER_CODE_CELL` on each code cell it runs and reads;
the total is rounded up to the next 5 minutes. :func:`counts` counts those four things in a notebook (its JSON,
as nbformat stores it, with outputs), separately for the class and for an appendix: every cell from a Markdown
heading that starts with ``## Appendix`` on is appendix, read outside the class.

The course plan (``data/course_plan.json``) stores a notebook's counts where its time comes from the rule, and
:mod:`.course_plan` turns them into minutes; tests/course/test_course_plan.py recounts the notebooks. After
editing such a notebook, refresh its counts with ``python -m ragmetrics_edu.course.time_plan NOTEBOOK...``
(prints them; ``--write`` stores them in the plan).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..validate import integer

__all__ = ["WORDS_PER_MINUTE", "PER_EXERCISE", "PER_FIGURE", "PER_CODE_CELL", "APPENDIX", "RULE", "minutes",
           "counts"]

WORDS_PER_MINUTE = 75
PER_EXERCISE = 5.0
PER_FIGURE = 2.0
PER_CODE_CELL = 0.5
#: a Markdown cell whose first line starts with this opens the appendix
APPENDIX = "## Appendix"

RULE = (f"words read (prose and printed output) at {WORDS_PER_MINUTE} a minute, {PER_EXERCISE:g} minutes an "
        f"exercise, {PER_FIGURE:g} a figure and {PER_CODE_CELL:g} a code cell, rounded up to 5 minutes")

_WORD = re.compile(r"[A-Za-z0-9][\w'.,%-]*")
_FIGURES = ("image/png", "image/svg+xml", "application/vnd.jupyter.widget-view+json")
FIELDS = ("words", "exercises", "figures", "code_cells")
#: the largest count :func:`minutes` takes: far beyond any notebook, and small enough for float arithmetic
MAX_COUNT = 10**12


def minutes(words: int, exercises: int, figures: int, code_cells: int) -> int:
    """The class minutes :data:`RULE` gives these counts (0 for an empty notebook)."""
    found = {name: integer(name, value, low=0, high=MAX_COUNT, expected=f"a count from 0 to {MAX_COUNT:.0e}")
             for name, value in zip(FIELDS, (words, exercises, figures, code_cells), strict=True)}
    raw = (found["words"] / WORDS_PER_MINUTE + PER_EXERCISE * found["exercises"] + PER_FIGURE * found["figures"]
           + PER_CODE_CELL * found["code_cells"])
    return 5 * math.ceil(raw / 5 - 1e-9)


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def counts(notebook: Any) -> dict[str, dict[str, int]]:
    """The four counts :func:`minutes` reads, for the class (``"class"``) and the appendix (``"appendix"``) of a
    notebook given as its JSON (a dict with ``cells``)."""
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise InputError("notebook", "a notebook's JSON (a dict with a 'cells' list)", notebook)
    out = {part: dict.fromkeys(FIELDS, 0) for part in ("class", "appendix")}
    part = "class"
    for cell in notebook["cells"]:
        source = _text(cell.get("source"))
        if cell.get("cell_type") == "markdown":
            if source.lstrip().startswith(APPENDIX):
                part = "appendix"
            out[part]["words"] += len(_WORD.findall(source))
            continue
        if cell.get("cell_type") != "code":
            continue
        out[part]["code_cells"] += 1
        out[part]["exercises"] += "exercises.check(" in source
        for output in cell.get("outputs", []):
            data = output.get("data") or {}
            shown = _text(output.get("text")) or _text(data.get("text/markdown")) or _text(data.get("text/plain"))
            if not any(kind in data for kind in _FIGURES):
                out[part]["words"] += len(_WORD.findall(shown))
            out[part]["figures"] += any(kind in data for kind in _FIGURES)
    return out


def _main(argv: list[str]) -> None:
    """Print each notebook's counts and minutes; with ``--write``, store the counts in the course plan."""
    write = "--write" in argv
    found = {}
    for name in (a for a in argv if a != "--write"):
        path = Path(name)
        found[path.name[:2]] = counts(json.loads(path.read_text(encoding="utf-8")))
        parts = found[path.name[:2]]
        print(path.name, json.dumps(parts), {p: minutes(**c) for p, c in parts.items()})
    if write:
        plan_path = Path(__file__).resolve().parents[1] / "data" / "course_plan.json"
        plan = json.loads(plan_path.read_text(encoding="utf-8"))
        for notebook_id, parts in found.items():
            plan["notebooks"][notebook_id]["counts"] = parts
        plan_path.write_text(json.dumps(plan, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import sys

    _main(sys.argv[1:])
