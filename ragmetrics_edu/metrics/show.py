"""``show_code(name)``: a metric's core (its formula and the lines that compute it), for a notebook.

The core is the module of :mod:`ragmetrics_edu.cores` that the metric's arithmetic (``spec.compute``)
names with :func:`~ragmetrics_edu.cores.computed_by`; a judged design shows the core that scores its
verdicts. A core that uses shared math (the counting rule, the per-k loop, the cosine) shows that
core after its own. A metric registered without a core shows its arithmetic function's source.
The source is read when asked for, so importing :mod:`ragmetrics_edu.metrics` stays cheap.
"""

from __future__ import annotations

import ast
import html
import importlib
import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from .specs import SPECS

__all__ = ["Code", "show_code"]

#: The package of the cores.
CORES = "ragmetrics_edu.cores"


@dataclass(frozen=True)
class Code:
    """A metric's core: ``source`` is its Python source as plain text (``shared``: the cores it uses).

    In a notebook it shows the formula, the columns of the step table the code fills, and the code."""

    metric: str
    path: str  # where the source is, from the package's folder: ragmetrics_edu/cores/context_recall.py
    source: str
    formula: str  # the formula, as the core's docstring writes it
    columns: tuple[str, ...]  # the step table's columns the core fills (empty when it does not say)
    shared: tuple[Code, ...] = ()

    def __str__(self) -> str:
        return "\n\n".join([f"# {self.path}\n{self.source}"] + [f"# {s.path}\n{s.source}" for s in self.shared])

    def _parts(self) -> list[tuple[str, str]]:
        """(heading, code) for this core and each shared one."""
        return [(self.path, self.source)] + [(f"{s.path} (shared)", s.source) for s in self.shared]

    def _repr_markdown_(self) -> str:
        lines = [f"**The code of `{self.metric}`**: `{self.path}`", ""]
        if self.formula:
            lines += ["Formula:", "", "```text", self.formula, "```", ""]
        if self.columns:
            lines += ["It fills the step table's columns " + ", ".join(f"`{c}`" for c in self.columns) + ".", ""]
        for heading, code in self._parts():
            lines += [f"`{heading}`", "", "```python", code.rstrip("\n"), "```", ""]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        out = [f"<p><b>The code of <code>{html.escape(self.metric)}</code></b>: <code>{html.escape(self.path)}</code></p>"]
        if self.formula:
            out.append(f"<p>Formula:</p><pre>{html.escape(self.formula)}</pre>")
        if self.columns:
            out.append("<p>It fills the step table's columns "
                       + ", ".join(f"<code>{html.escape(c)}</code>" for c in self.columns) + ".</p>")
        for heading, code in self._parts():
            out.append(f"<p><code>{html.escape(heading)}</code></p><pre><code class=\"language-python\">"
                       f"{html.escape(code.rstrip())}</code></pre>")
        return "\n".join(out)


def show_code(name: str) -> Code:
    """The core of the registered metric or design ``name`` (see the module); an unknown name is an
    InputError listing the registered names."""
    name = SPECS.name("name", name)
    spec = SPECS[name]
    function = spec.compute if spec.compute is not None else (spec.ask.target if spec.ask else None)
    if function is None:
        raise InputError("name", "a metric with arithmetic of its own (spec.compute)", name)
    core = getattr(function, "__core__", None)
    if core is None:  # registered without a core: its arithmetic function is what there is to read
        source = inspect.getsource(function)
        return Code(name, _path(inspect.getsourcefile(function)), source, _formula(function.__doc__, 4), ())
    return _core(name, f"{CORES}.{core}")


def _core(metric: str, module_name: str) -> Code:
    module = importlib.import_module(module_name)
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    shared = tuple(_core(metric, f"{CORES}.{used}") for used in uses(source))
    return Code(metric, _path(module.__file__), source, _formula(module.__doc__),
                tuple(getattr(module, "COLUMNS", ())), shared)


def uses(source: str) -> list[str]:
    """The cores a core's ``source`` imports (``from .ratio import ...`` -> ``ratio``), in order."""
    found: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module and node.module not in found:
            found.append(node.module)
    return found


def _formula(doc: str | None, base: int = 0) -> str:
    """The docstring's formula: its first block of lines indented 4 more than the text (``base``: the text's
    indentation; 0 for a module's docstring, a function's body indentation for a function's)."""
    block: list[str] = []
    for line in (doc or "").expandtabs().splitlines()[1:]:
        if line.strip() and len(line) - len(line.lstrip()) >= base + 4:
            block.append(line[base + 4:])
        elif block and line.strip():
            break
        elif block:
            block.append("")
    return "\n".join(block).strip("\n")


def _path(file: Any) -> str:
    """``file`` from the package's folder on (ragmetrics_edu/...)."""
    parts = Path(str(file)).parts
    return "/".join(parts[parts.index("ragmetrics_edu"):]) if "ragmetrics_edu" in parts else str(file)
