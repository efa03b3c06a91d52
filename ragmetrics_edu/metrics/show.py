"""``show_code(name)``: a metric's core (its formula and the lines that compute it), for a notebook.

The core is the module of :mod:`ragmetrics_edu.cores` that the metric's arithmetic (``spec.compute``)
names with :func:`~ragmetrics_edu.cores.computed_by`; a judged design shows the core that scores its
verdicts. A core that uses shared math (the counting rule, the per-k loop, the cosine) shows that
core after its own. A metric whose arithmetic names no core is refused with an ``InputError`` (every
built-in metric has one: ``tests/library/test_cores.py``); a metric of one's own names its core module
by its dotted name (``computed_by("mypackage.my_core")``).
The source is read when asked for, so importing :mod:`ragmetrics_edu.metrics` stays cheap.
"""

from __future__ import annotations

import ast
import html
import importlib
import io
import keyword
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..validate import text
from .specs import SPECS

__all__ = ["Code", "code_lines", "show_code"]

#: The longest source :func:`code_lines` reads (a core is a few hundred characters).
MAX_SOURCE = 1_000_000
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
        # JupyterLab shows this HTML rather than the Markdown above: it gets its own colours and a light box,
        # readable under a light or a dark theme.
        out = [f"<p><b>The code of <code>{html.escape(self.metric)}</code></b>: <code>{html.escape(self.path)}</code></p>"]
        if self.formula:
            out.append(f"<p>Formula:</p><pre style=\"{_BOX}\">{html.escape(self.formula)}</pre>")
        if self.columns:
            out.append("<p>It fills the step table's columns "
                       + ", ".join(f"<code>{html.escape(c)}</code>" for c in self.columns) + ".</p>")
        for heading, code in self._parts():
            out.append(f"<p><code>{html.escape(heading)}</code></p><pre style=\"{_BOX}\"><code>"
                       f"{highlight(code.rstrip())}</code></pre>")
        return "\n".join(out)


_BOX = ("font-family: monospace; background: #f6f8fa; color: #1f2328; padding: 0.6em 0.8em; "
        "margin: 0.3em 0 1em 0; border-radius: 4px; line-height: 1.35; overflow-x: auto")
#: Colours for Python's token kinds (on the light box above).
_COLOURS = {"keyword": "#8250df", "string": "#0a6b2d", "comment": "#6e7781", "number": "#9a4d00"}


def highlight(code: str) -> str:
    """``code`` as HTML with keywords, strings, comments and numbers coloured (Python's own tokenizer)."""
    lines = code.splitlines(keepends=True)
    out: list[str] = []
    row, col = 1, 0
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return html.escape(code)
    for token in tokens:
        (start_row, start_col), (end_row, end_col) = token.start, token.end
        if token.type == tokenize.ENDMARKER:
            break
        out.append(html.escape(_between(lines, (row, col), (start_row, start_col))))
        text = html.escape(token.string)
        kind = ("keyword" if token.type == tokenize.NAME and keyword.iskeyword(token.string) else
                "string" if token.type == tokenize.STRING else
                "comment" if token.type == tokenize.COMMENT else
                "number" if token.type == tokenize.NUMBER else "")
        out.append(f'<span style="color: {_COLOURS[kind]}">{text}</span>' if kind and text else text)
        row, col = end_row, end_col
    out.append(html.escape(_between(lines, (row, col), (len(lines) + 1, 0))))
    return "".join(out)


def _between(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    """The text of ``lines`` from ``start`` to ``end`` ((row from 1, column) pairs), white space the tokens skip."""
    (r0, c0), (r1, c1) = start, end
    if r0 == r1:
        return lines[r0 - 1][c0:c1] if r0 <= len(lines) else ""
    parts = [lines[r0 - 1][c0:]] if r0 <= len(lines) else []
    parts += lines[r0:r1 - 1]
    if r1 <= len(lines):
        parts.append(lines[r1 - 1][:c1])
    return "".join(parts)


def show_code(name: str) -> Code:
    """The core of the registered metric or design ``name`` (see the module); an unknown name is an
    InputError listing the registered names."""
    name = SPECS.name("name", name)
    spec = SPECS[name]
    function = spec.compute if spec.compute is not None else (spec.ask.target if spec.ask else None)
    if function is None:
        raise InputError("name", "a metric with arithmetic of its own (spec.compute)", name)
    core = getattr(function, "__core__", None)
    if core is None:
        raise InputError("name", "a metric whose arithmetic names its core (ragmetrics_edu.cores.computed_by)", name)
    return _core(name, core if "." in core else f"{CORES}.{core}")


def _core(metric: str, module_name: str) -> Code:
    module = importlib.import_module(module_name)
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    shared = tuple(_core(metric, f"{module.__package__}.{used}") for used in uses(source))
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


def code_lines(source: str) -> int:
    """How many lines of ``source`` hold code: not blank, not a comment, not part of a docstring. The measure of
    a core's size (at most 45: tests/library/test_cores.py) and of a path in benchmarks/path_table.py."""
    source = textwrap.dedent(text("source", source))
    if len(source) > MAX_SOURCE:
        raise InputError("source", f"Python source of at most {MAX_SOURCE:,} characters", f"{len(source):,} characters")
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise InputError("source", "Python source that parses", source[:60], hint=str(exc.msg)) from None
    except (MemoryError, RecursionError):  # what Python's parser raises for a line it cannot hold, not memory
        raise InputError("source", "Python source the parser can hold (not one enormous line or nesting)",
                         source[:60]) from None
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node) is not None:
            first = node.body[0]
            docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    skipped = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - docstrings)
