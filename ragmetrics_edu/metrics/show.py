"""``show_code(what)``: everything that sets a metric's number, for a notebook to show.

What a listing holds, in this order:

1. the **core**: the module of :mod:`ragmetrics_edu.cores` that the metric's arithmetic names with
   :func:`~ragmetrics_edu.cores.computed_by` (a judged design: the core that scores its verdicts). Its
   docstring is the formula, shown once, as the first lines of the listing;
2. the **cores it uses**, at every level (MRR uses the reciprocal rank, which uses the first relevant rank);
3. the **call**: the public function without its docstring, which turns the caller's input into the core's;
4. the **helpers** that call runs: every function of the package it calls by name, followed down
   (the tokenizer behind word overlap, the entity normaliser, the embedder's choice), the module-level
   tables they read (the stop words), and what a public function names with ``computed_by(...,
   runs=...)`` for a method called on an object (the offline hashing embedder's ``embed``).

Left out, because they cannot change a score: input checks (:mod:`ragmetrics_edu.validate` and the
``checks``/``inputs`` modules: each returns its input checked, or raises ``InputError``), errors, result
classes and the explanation modules (``*_explained``: they build the result from the core's numbers). A
default that changes a score lives in a core, so it is shown (G-Eval's scales, nDCG's ideal ranking, the
verdict words: ``tests/library/test_show_covers.py`` traces each seed path to check that nothing is missed).

``show_code`` takes a registered name (``"g_eval"``), a public function's name (``"g_eval_score"``), or the
function itself. A function with no core (those of :mod:`ragmetrics_edu.stats`,
:mod:`ragmetrics_edu.agreement` and :mod:`ragmetrics_edu.regression_gate`) is shown the same way: its
docstring's formula, its lines, then its helpers. The source is read when asked for, so importing
:mod:`ragmetrics_edu.metrics` stays cheap.
"""

from __future__ import annotations

import ast
import html
import importlib
import importlib.util
import inspect
import io
import keyword
import textwrap
import tokenize
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..validate import text
from .specs import SPECS

__all__ = ["Code", "Part", "code_lines", "show_code"]

#: The longest source :func:`code_lines` reads (a core is a few hundred characters).
MAX_SOURCE = 1_000_000
#: The package of the cores.
CORES = "ragmetrics_edu.cores"
#: The modules whose public functions ``show_code`` takes by name (besides the registered metrics).
PUBLIC = ("ragmetrics_edu.metrics", "ragmetrics_edu.stats", "ragmetrics_edu.agreement", "ragmetrics_edu.regression_gate")
#: Modules never listed (see the module docstring): checks, errors, results and explanations.
NOT_SHOWN = ("ragmetrics_edu.validate", "ragmetrics_edu.errors", "ragmetrics_edu.results", "ragmetrics_edu.metrics.show")
NOT_SHOWN_ENDINGS = ("_explained", ".checks", ".inputs")


@dataclass(frozen=True)
class Part:
    """One function (or table) a listing shows: where it is, its source, and the file's lines it covers."""

    heading: str  # ragmetrics_edu/text.py: tokenize
    file: str = field(repr=False)  # the file's full path (not in the repr: a notebook stores it)
    source: str
    lines: frozenset[int]  # the file's line numbers shown (from 1)


@dataclass(frozen=True)
class Code:
    """A metric's core: ``source`` is its Python source as plain text (``shared``: the cores it uses;
    ``calls``: the public function and the helpers its call runs).

    In a notebook it shows the core (its docstring is the formula), the columns of the step table the code
    fills, the shared cores, then the call and its helpers. For a function with no core, ``source`` is the
    function's own and ``path`` says where it is."""

    metric: str
    path: str  # where the source is, from the package's folder: ragmetrics_edu/cores/context_recall.py
    source: str
    formula: str  # the formula, as the docstring writes it
    columns: tuple[str, ...]  # the step table's columns the core fills (empty when it does not say)
    shared: tuple[Code, ...] = ()
    calls: tuple[Part, ...] = ()
    file: str = field(default="", repr=False)  # the full path of ``path`` (not in the repr)
    lines: frozenset[int] = frozenset()  # the lines of ``file`` that ``source`` holds

    def __str__(self) -> str:
        return "\n\n".join(f"# {heading}\n{code}" for heading, code in self._parts())

    def _parts(self) -> list[tuple[str, str]]:
        """(heading, code) for this core, each shared one, the call and each helper."""
        return ([(self.path, self.source)] + [(f"{s.path} (shared)", s.source) for s in self.shared]
                + [(p.heading, p.source) for p in self.calls])

    def shown(self) -> dict[str, set[int]]:
        """{file: its line numbers} of everything the listing holds (what the coverage test compares)."""
        out: dict[str, set[int]] = {}
        for file, lines in [(self.file, self.lines)] + [(s.file, s.lines) for s in self.shared] + [
                (p.file, p.lines) for p in self.calls]:
            out.setdefault(file, set()).update(lines)
        return out

    def _repr_markdown_(self) -> str:
        lines = [f"**The code of `{self.metric}`**: `{self.path}`", ""]
        if self.columns:
            lines += ["It fills the step table's columns " + ", ".join(f"`{c}`" for c in self.columns) + ".", ""]
        for heading, code in self._parts():
            lines += [f"`{heading}`", "", "```python", code.rstrip("\n"), "```", ""]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        # JupyterLab shows this HTML rather than the Markdown above: it gets its own colours and a light box,
        # readable under a light or a dark theme; a long line scrolls sideways, never wraps mid-word.
        out = [f"<p><b>The code of <code>{html.escape(self.metric)}</code></b>: <code>{html.escape(self.path)}</code></p>"]
        if self.columns:
            out.append("<p>It fills the step table's columns "
                       + ", ".join(f"<code>{html.escape(c)}</code>" for c in self.columns) + ".</p>")
        for heading, code in self._parts():
            out.append(f"<p><code>{html.escape(heading)}</code></p><pre style=\"{_BOX}\"><code style=\"{_CODE}\">"
                       f"{highlight(code.rstrip())}</code></pre>")
        return "\n".join(out)


_BOX = ("font-family: monospace; background: #f6f8fa; color: #1f2328; padding: 0.6em 0.8em; "
        "margin: 0.3em 0 1em 0; border-radius: 4px; line-height: 1.35; white-space: pre; overflow-x: auto; "
        "word-break: normal; overflow-wrap: normal")
_CODE = "white-space: pre; word-break: normal; overflow-wrap: normal; background: none"
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


def show_code(name: Any) -> Code:
    """Everything that sets the number of ``name`` (see the module): a registered metric or design's name, a
    public function's name (of metrics, stats, agreement or regression_gate), or the function itself. Anything
    else is an InputError listing the names it takes."""
    function, label, registered = _function(name)
    core = getattr(function, "__core__", None)
    if core is None and registered:
        raise InputError("name", "a metric whose arithmetic names its core (ragmetrics_edu.cores.computed_by)", label)
    walked = _walk(function)
    if core is None:  # a function with no core (stats, agreement...): its docstring's formula, then its lines
        main = walked.parts[0]
        first_line = inspect.getsourcelines(function)[0][0]
        body = len(first_line) - len(first_line.lstrip()) + 4  # the docstring's indentation
        return Code(label, main.heading, main.source, _formula(function.__doc__, body), (),
                    _cores(walked.cores, set()), tuple(walked.parts[1:]), main.file, main.lines)
    module_name = core if "." in core else f"{CORES}.{core}"
    code = _core(label, module_name)
    extra = _cores(walked.cores, {module_name} | {_module_of(s) for s in code.shared})
    return Code(code.metric, code.path, code.source, code.formula, code.columns, code.shared + extra,
                tuple(walked.parts), code.file, code.lines)


def _function(what: Any) -> tuple[Any, str, bool]:
    """The function ``what`` names, the name to head the listing with, and whether it is a registered name's."""
    if isinstance(what, (types.FunctionType, types.MethodType)) or (callable(what) and hasattr(what, "__wrapped__")):
        function = inspect.unwrap(what)
        if not isinstance(function, types.FunctionType):
            raise InputError("name", "a Python function of the package", what)
        return function, function.__name__, False
    if not isinstance(what, str):
        raise InputError("name", "a registered metric's name, a public function's name, or a function", what)
    key = what.strip()
    if key.lower() in SPECS or key.lower().replace(" ", "") in SPECS:
        name = SPECS.name("name", key)
        spec = SPECS[name]
        function = spec.compute if spec.compute is not None else (spec.ask.target if spec.ask else None)
        if function is None:
            raise InputError("name", "a metric with arithmetic of its own (spec.compute)", name)
        return inspect.unwrap(function), name, True
    for module_name in PUBLIC:
        module = importlib.import_module(module_name)
        found = getattr(module, key, None) if key in getattr(module, "__all__", ()) else None
        function = inspect.unwrap(found) if callable(found) else None
        if isinstance(function, types.FunctionType):
            return function, key, False
    SPECS.name("name", what)  # the registry's own error, listing its names
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass
class _Walk:
    parts: list[Part]
    cores: list[str]


def _skipped(module: str) -> bool:
    return module.startswith(NOT_SHOWN) or module.endswith(NOT_SHOWN_ENDINGS) or module == CORES


def _walk(function: Any) -> _Walk:
    """The function's own part, then each helper it runs (see the module), and the cores it reaches."""
    walk = _Walk([], [])
    done: set[Any] = set()
    tables: set[str] = set()
    work = [function]
    first = True
    while work:
        f = work.pop(0)
        if f in done:
            continue
        done.add(f)
        if f.__module__.startswith(CORES + "."):
            if f.__module__ not in walk.cores:
                walk.cores.append(f.__module__)
            continue
        if _skipped(f.__module__) and not first:
            continue
        walk.parts.append(_function_part(f, keep_doc=not first or getattr(f, "__core__", None) is None))
        first = False
        work += [_resolve(name) for name in getattr(f, "__runs__", ())]
        tree = ast.parse(textwrap.dedent(inspect.getsource(f)))
        for defined in tree.body:  # a decorator (computed_by) is not part of the call
            if isinstance(defined, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defined.decorator_list = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):  # a call by name, or of a module's or a class's function
                target = _target(f, node.func)
                if target is not None:
                    work.append(target)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):  # a function passed on, or a table
                target = _target(f, node)
                if target is not None:
                    work.append(target)
                    continue
                table = _table(f, node.id)
                if table is not None and table.heading not in tables:
                    tables.add(table.heading)
                    walk.parts.append(table)
    return walk


def _target(f: Any, func: ast.expr) -> Any:
    """The package function (or a class's own ``__init__``) a call in ``f`` names, or None."""
    owner: Any = None
    if isinstance(func, ast.Name):
        owner = f.__globals__.get(func.id)
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        base = f.__globals__.get(func.value.id)
        if isinstance(base, (types.ModuleType, type)):
            owner = getattr(base, func.attr, None)
    if isinstance(owner, type):
        owner = owner.__dict__.get("__init__")
    owner = inspect.unwrap(owner) if callable(owner) else None
    if isinstance(owner, types.FunctionType) and owner.__module__ and owner.__module__.startswith("ragmetrics_edu") \
            and not owner.__code__.co_filename.startswith("<"):
        return owner
    return None


def _table(f: Any, name: str) -> Part | None:
    """The module-level assignment of ``name`` in ``f``'s module (a table or constant it reads), or None."""
    if name.startswith("__") or _skipped(f.__module__) or name not in f.__globals__:
        return None
    if not isinstance(f.__globals__[name], (str, int, float, tuple, frozenset, dict, list, set)):
        return None  # only plain data: a table or a constant (not a module, a class, a cache or an object)
    return _assignment(f.__module__, name)


def _assignment(module_name: str, name: str) -> Part | None:
    """The module-level assignment of ``name`` in ``module_name``, or in the module it imports ``name`` from."""
    module = importlib.import_module(module_name)
    file = str(module.__file__)
    source = Path(file).read_text(encoding="utf-8")
    lines = source.splitlines()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            home = importlib.util.resolve_name("." * node.level + (node.module or ""), module.__package__ or "")
            if home.startswith("ragmetrics_edu") and not _skipped(home):
                original = next(a.name for a in node.names if (a.asname or a.name) == name)
                return _assignment(home, original)
            return None
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        names = {t.id for t in targets if isinstance(t, ast.Name)} | {
            e.id for t in targets if isinstance(t, ast.Tuple) for e in t.elts if isinstance(e, ast.Name)}
        if name in names:
            start, end = node.lineno, node.end_lineno or node.lineno
            while start > 1 and lines[start - 2].lstrip().startswith("#:"):
                start -= 1
            return Part(f"{_path(file)}: {name}", file, "\n".join(lines[start - 1:end]) + "\n",
                        frozenset(range(start, end + 1)))
    return None


def _function_part(f: Any, keep_doc: bool) -> Part:
    """``f``'s source (without its docstring unless ``keep_doc``) and the lines of its file it covers."""
    file = str(inspect.getsourcefile(f))
    lines, start = inspect.getsourcelines(f)
    numbers = list(range(start, start + len(lines)))
    if not keep_doc:
        tree = ast.parse(textwrap.dedent("".join(lines)))
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        first = body[0] if body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            drop = set(range(first.lineno - 1, (first.end_lineno or first.lineno)))
            numbers = [n for i, n in enumerate(numbers) if i not in drop]
            lines = [line for i, line in enumerate(lines) if i not in drop]
    where = f"{_path(file)}: {f.__qualname__}"
    return Part(where, file, textwrap.dedent("".join(lines)), frozenset(numbers))


def _resolve(dotted: str) -> Any:
    """The function a dotted name (``package.module.Class.method``) names."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return inspect.unwrap(obj)
    raise ValueError(f"{dotted}: no such function")


def _cores(modules: list[str], already: set[str]) -> tuple[Code, ...]:
    """The cores ``modules`` name and every core they use, each once, leaving out ``already``."""
    out: list[Code] = []
    for module_name in modules:
        if module_name in already:
            continue
        code = _core("", module_name)
        for c in (code, *code.shared):
            key = _module_of(c)
            if key not in already:
                already.add(key)
                out.append(Code(c.metric, c.path, c.source, c.formula, c.columns, (), (), c.file, c.lines))
    return tuple(out)


def _module_of(code: Code) -> str:
    return code.path.removesuffix(".py").replace("/", ".")


def _core(metric: str, module_name: str) -> Code:
    """The core module and every core it uses, at every level, each once (in the order they are met)."""
    module = importlib.import_module(module_name)
    file = str(module.__file__)
    source = Path(file).read_text(encoding="utf-8")
    shared: list[Code] = []
    seen = {module_name}
    stack = [f"{module.__package__}.{used}" for used in uses(source)]
    while stack:
        name = stack.pop(0)
        if name in seen:
            continue
        seen.add(name)
        used_module = importlib.import_module(name)
        used_file = str(used_module.__file__)
        used_source = Path(used_file).read_text(encoding="utf-8")
        shared.append(Code(metric, _path(used_file), used_source, _formula(used_module.__doc__),
                           tuple(getattr(used_module, "COLUMNS", ())), (), (), used_file,
                           frozenset(range(1, len(used_source.splitlines()) + 1))))
        stack += [f"{module.__package__}.{u}" for u in uses(used_source)]
    return Code(metric, _path(file), source, _formula(module.__doc__), tuple(getattr(module, "COLUMNS", ())),
                tuple(shared), (), file, frozenset(range(1, len(source.splitlines()) + 1)))


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
