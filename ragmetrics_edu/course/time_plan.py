"""How long a notebook takes a class, by one written rule applied to the notebook's file, not a typed guess.

:data:`RULE` states the rule in words, built from the constants below; :func:`minutes` applies it to the counts
:func:`counts` takes from a notebook's JSON (as nbformat stores it, with outputs). Only the class part counts:
every cell from a Markdown cell that starts with ``## Appendix`` on is reference material, read outside the class
(its minutes are reported separately). :func:`notebook_minutes` finds a notebook of the course by its id and
applies the rule, so a notebook's time follows its file whenever it changes.

    python -m ragmetrics_edu.course.time_plan notebooks/*.ipynb    # the counts and minutes of each
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..validate import integer, text

__all__ = ["WORDS_PER_MINUTE", "SKIM_AFTER", "SKIM_WORDS_PER_MINUTE", "PER_EXERCISE", "PER_FIGURE",
           "PER_CODE_CELL", "PER_METHOD", "APPENDIX", "METHOD_MARKER", "RULE", "FIELDS", "minutes", "counts",
           "methods", "notebook_path", "notebook_minutes"]

#: prose, and the first SKIM_AFTER words of each printed output, read together in class
WORDS_PER_MINUTE = 75
#: a cell's printed output (its streams and text results together) longer than this many words is skimmed after them
SKIM_AFTER = 60
SKIM_WORDS_PER_MINUTE = 300
#: an exercise, with the cells that print its question and check the answer, and their output
PER_EXERCISE = 5.0
PER_FIGURE = 2.0
PER_CODE_CELL = 0.5
#: a method an instructor explains, counted once per notebook
PER_METHOD = 3.0
#: a Markdown cell whose first line starts with this opens the appendix
APPENDIX = "## Appendix"
#: a code-cell comment that declares the method the cell computes in view: ``# method: Wilson interval``
METHOD_MARKER = "# method:"

RULE = (f"prose read at {WORDS_PER_MINUTE} words a minute; printed output too, except that a cell's output longer than "
        f"{SKIM_AFTER} words is skimmed after its first {SKIM_AFTER}, at {SKIM_WORDS_PER_MINUTE} a minute; "
        f"{PER_EXERCISE:g} minutes an exercise (its question, answer and feedback), {PER_FIGURE:g} a figure, "
        f"{PER_CODE_CELL:g} any other code cell, and {PER_METHOD:g} for each method an instructor explains "
        f"(each name shown with show_code, each function a cell defines, each '{METHOD_MARKER}' comment; "
        f"once per notebook); only the class part counts, not the '{APPENDIX}' that may end a notebook; "
        "the total is rounded up to 5 minutes")

_WORD = re.compile(r"[A-Za-z0-9][\w'.,%-]*")
_FIGURES = ("image/png", "image/svg+xml", "application/vnd.jupyter.widget-view+json")
_EXERCISE_CELL = ("exercises.check(", "exercises.get(")
_SHOW_CODE = re.compile(r"""show_code\(\s*(?:["']([\w.]+)["']|([\w.]+))""")
_DEF = re.compile(r"^\s*def (\w+)\(", re.M)
FIELDS = ("words", "skimmed", "exercises", "figures", "code_cells", "methods")
#: the largest count :func:`minutes` takes: far beyond any notebook, and small enough for float arithmetic
MAX_COUNT = 10**12


def minutes(words: int, skimmed: int = 0, exercises: int = 0, figures: int = 0, code_cells: int = 0,
            methods: int = 0) -> int:
    """The class minutes :data:`RULE` gives these counts (0 for an empty notebook)."""
    given = (words, skimmed, exercises, figures, code_cells, methods)
    n = {name: integer(name, value, low=0, high=MAX_COUNT, expected=f"a count from 0 to {MAX_COUNT:.0e}")
         for name, value in zip(FIELDS, given, strict=True)}
    raw = (n["words"] / WORDS_PER_MINUTE + n["skimmed"] / SKIM_WORDS_PER_MINUTE + PER_EXERCISE * n["exercises"]
           + PER_FIGURE * n["figures"] + PER_CODE_CELL * n["code_cells"] + PER_METHOD * n["methods"])
    return 5 * math.ceil(raw / 5 - 1e-9)


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def methods(source: str) -> list[str]:
    """The methods a code cell's source explains, by the rule's three signs: ``show_code(name)``, ``def name(``
    and a ``# method: name`` comment."""
    source = text("source", source)
    found = [a or b for a, b in _SHOW_CODE.findall(source)] + _DEF.findall(source)
    found += [line.split(":", 1)[1].strip().lower() for line in source.splitlines()
              if line.strip().lower().startswith(METHOD_MARKER)]
    return [name for name in found if name]


def _shown(output: dict[str, Any]) -> str:
    data = output.get("data") or {}
    return _text(output.get("text")) or _text(data.get("text/markdown")) or _text(data.get("text/plain"))


def counts(notebook: Any) -> dict[str, dict[str, int]]:
    """The counts :func:`minutes` reads (:data:`FIELDS`), for the class (``"class"``) and the appendix
    (``"appendix"``) of a notebook given as its JSON (a dict with ``cells``)."""
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise InputError("notebook", "a notebook's JSON (a dict with a 'cells' list)", notebook)
    out = {part: dict.fromkeys(FIELDS, 0) for part in ("class", "appendix")}
    seen: dict[str, set[str]] = {"class": set(), "appendix": set()}
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
        new = set(methods(source)) - seen["class"] - seen[part]
        seen[part] |= new
        out[part]["methods"] += len(new)
        outputs = cell.get("outputs", [])
        out[part]["figures"] += sum(any(kind in (o.get("data") or {}) for kind in _FIGURES) for o in outputs)
        if any(sign in source for sign in _EXERCISE_CELL):       # inside the exercise's minutes
            out[part]["exercises"] += "exercises.check(" in source
            continue
        out[part]["code_cells"] += 1
        # the cell's printed text as one: how a kernel splits it into stream chunks varies from run to run
        printed = "\n".join(_shown(o) for o in outputs if not any(kind in (o.get("data") or {}) for kind in _FIGURES))
        n = len(_WORD.findall(printed))
        out[part]["words"] += min(n, SKIM_AFTER)
        out[part]["skimmed"] += max(0, n - SKIM_AFTER)
    return out


def _notebook_dirs() -> list[Path]:
    here = [Path(os.environ["RME_NOTEBOOKS"])] if os.environ.get("RME_NOTEBOOKS") else []
    return here + [Path(__file__).resolve().parents[2] / "notebooks", Path.cwd(), Path.cwd() / "notebooks"]


def notebook_path(notebook_id: str) -> Path | None:
    """The course's notebook file ``NN_*.ipynb`` (looked for in ``$RME_NOTEBOOKS``, the repository's
    ``notebooks/`` and the working folder), or None when none is found."""
    if not isinstance(notebook_id, str) or not re.fullmatch(r"\d\d", notebook_id):
        raise InputError("notebook_id", "a two-digit notebook id such as '05'", notebook_id)
    for folder in _notebook_dirs():
        found = sorted(folder.glob(f"{notebook_id}_*.ipynb")) if folder.is_dir() else []
        if found:
            return found[0]
    return None


def notebook_minutes(notebook_id: str) -> dict[str, int] | None:
    """``{"class": ..., "appendix": ...}``: the minutes the rule gives the notebook's file as it is now, or
    None when the file is not found (a copy of the library without the course's notebooks)."""
    path = notebook_path(notebook_id)
    if path is None:
        return None
    found = counts(json.loads(path.read_text(encoding="utf-8")))
    return {part: minutes(**c) for part, c in found.items()}


def _main(argv: list[str]) -> None:
    """Print each notebook's counts and minutes."""
    print(f"The rule: {RULE}.")
    for name in argv:
        parts = counts(json.loads(Path(name).read_text(encoding="utf-8")))
        print(Path(name).name, json.dumps(parts), {p: minutes(**c) for p, c in parts.items()})


if __name__ == "__main__":
    import sys

    _main(sys.argv[1:])
