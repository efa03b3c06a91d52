"""Check that the course's packages are installed at the versions it needs.

Run ``python -m ragmetrics_edu.course.envcheck`` or call :func:`check_environment` in the
start-here notebook; each package gets OK or a line that says what to install.
"""

from __future__ import annotations

import re
import sys
from importlib import metadata

from .. import errors
from ..errors import InputError
from ..validate import mapping, records

#: package -> minimum version: what `make lab` installs (pyproject.toml's core dependencies and the
#: ``notebook`` extra, which takes in ``llm``), so every package a notebook imports, at once or
#: when a cell runs (notebook 10's judge needs openai). tests/library/test_packaging.py
#: checks that this list and pyproject.toml agree, and that it covers the notebooks' imports.
REQUIRED = {
    "pandas": "1.5", "numpy": "1.23", "jupyterlab": "4.0", "ipywidgets": "8.0", "traitlets": "5.0", "matplotlib": "3.7",
    "openai": "1.40", "tqdm": "4.60", "scikit-learn": "1.3",
}
#: In a browser (the JupyterLite site) the kernel is Pyodide and the page is JupyterLab: what the notebooks
#: import there. The live judge's and the neural embedder's packages cannot run in a browser (no sockets):
#: :data:`IN_BROWSER_NOTE` says so, and those calls say it again in one line when made.
BROWSER_REQUIRED = {name: REQUIRED[name] for name in ("pandas", "numpy", "ipywidgets", "traitlets", "matplotlib")}
IN_BROWSER_NOTE = ("In the browser (JupyterLite): the notebooks replay recorded judges and embeddings; a live judge, "
                   "a neural embedder and judge-server need the course installed on your own machine (`make lab`).")
#: What to do when a row fails (the package is not on PyPI: it is installed from a clone).
FIX = "run `make lab` again, or `pip install -e \".[notebook]\"` in the repository"
PYTHON_MIN = (3, 10)


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def check_environment(required: dict[str, str] | None = None) -> list[dict[str, str | bool]]:
    """One row per requirement (Python first): name, needed, installed, ok."""
    rows: list[dict[str, str | bool]] = [{
        "package": "python", "needed": ">=" + ".".join(map(str, PYTHON_MIN)),
        "installed": ".".join(map(str, sys.version_info[:3])), "ok": sys.version_info[:2] >= PYTHON_MIN,
    }]
    expected = "a dict package -> minimum version (strings), or None"
    default = BROWSER_REQUIRED if errors.IN_BROWSER else REQUIRED
    chosen = mapping("required", required, expected) if required is not None else default
    for name, minimum in chosen.items():
        if not isinstance(name, str) or not isinstance(minimum, str):
            raise InputError("required", expected, {name: minimum})
    for name, minimum in (chosen or default).items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = ""
        ok = bool(installed) and _version_tuple(installed) >= _version_tuple(minimum)
        rows.append({"package": name, "needed": f">={minimum}", "installed": installed or "missing", "ok": ok})
    return rows


def report(rows: list[dict[str, str | bool]] | None = None) -> str:
    """The rows as text lines: ``OK`` or ``FAIL`` with what to do."""
    rows = records("rows", rows, "rows of check_environment()", keys=("package", "needed", "installed", "ok")) \
        if rows is not None else check_environment()
    lines = []
    for r in rows:
        status = "OK  " if r["ok"] else "FAIL"
        line = f"[{status}] {r['package']} {r['installed']} (needs {r['needed']})"
        if not r["ok"]:
            line += " -> " + FIX
        lines.append(line)
    if errors.IN_BROWSER:
        lines.append(IN_BROWSER_NOTE)
    return "\n".join(lines)


if __name__ == "__main__":
    rows = check_environment()
    print(report(rows))
    raise SystemExit(0 if all(r["ok"] for r in rows) else 1)
