"""The package's layout rules (docs/architecture.md), checked on the source of every module.

``python -m pytest tests/library/test_layout.py`` reads each module's syntax tree (nothing is imported) and
fails on:

- a library module importing the course (only ``cli`` may import both);
- an import that goes up a layer (a package imports its own modules and lower layers only);
- a cycle between modules (module-level imports, each also importing the packages it sits in);
- an import of a private (underscore) name from another module, or of a private module from
  outside its package;
- an import inside a function or class, unless it loads an optional heavy dependency (or a module
  of ours that imports one at its top) and says why in a comment;
- a module over 500 lines.

The checker is run on the package, and on a small fake package with one planted violation of each
rule, so a checker that stopped seeing a violation would fail too.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import plant_package

REPO = Path(__file__).resolve().parents[2]

#: Modules heavy or optional enough to be imported inside the function that needs them: third-party
#: ones by their top-level name, and two standard-library ones that load much (http.client, ssl, email).
HEAVY = frozenset({"torch", "sentence_transformers", "huggingface_hub", "openai", "pydantic", "ipywidgets",
                   "matplotlib", "pandas", "numpy", "scipy", "sklearn", "tqdm", "IPython", "llama_cpp",
                   "urllib.request", "urllib.error"})


@dataclass(frozen=True)
class Rules:
    """What the checker enforces on one package."""

    package: str
    #: the layers, bottom first: each a tuple of top-level units (modules or subpackages of ``package``)
    layers: tuple[tuple[str, ...], ...]
    course: str = "course"
    #: top-level units that may import the library and the course
    both: frozenset[str] = frozenset({"cli"})
    max_lines: int = 500
    heavy: frozenset[str] = HEAVY


@dataclass
class Import:
    """One import statement's target module, as seen from the module that holds it."""

    target: str          # the module imported (a name inside a module resolves to that module)
    names: tuple[str, ...]   # names taken from the target (``from target import a, b``); () for ``import target``
    line: int
    nested: bool         # inside a function or class body
    type_checking: bool  # under ``if TYPE_CHECKING:``
    commented: bool      # a comment on its line (or the line above)


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    lines: int
    imports: list[Import] = field(default_factory=list)
    private_uses: list[tuple[str, str, int]] = field(default_factory=list)   # (module alias target, attr, line)


def find_modules(root: Path, package: str) -> dict[str, Module]:
    """Every module of the package in folder ``root`` (the package's own folder), by dotted name."""
    found: dict[str, Module] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        name = ".".join((package,) + (parts[:-1] if is_package else parts))
        source = path.read_text(encoding="utf-8")
        found[name] = Module(name, path, is_package, len(source.splitlines()))
    for module in found.values():
        _read_imports(module, found)
    return found


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.name.split(".") if module.is_package else module.name.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _read_imports(module: Module, modules: dict[str, Module]) -> None:
    source = module.path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    aliases: dict[str, str] = {}   # local name -> one of our modules

    def commented(node: ast.stmt) -> bool:
        near = lines[node.lineno - 1: (node.end_lineno or node.lineno)] + lines[max(0, node.lineno - 2): node.lineno - 1]
        return any("#" in line for line in near)

    def visit(node: ast.AST, nested: bool, type_checking: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                module.imports.append(Import(alias.name, (), node.lineno, nested, type_checking, commented(node)))
                if alias.asname and alias.name in modules:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, node)
            plain = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    module.imports.append(Import(sub, (), node.lineno, nested, type_checking, commented(node)))
                    aliases[alias.asname or alias.name] = sub
                else:
                    plain.append(alias.name)
            if plain or not node.names:
                module.imports.append(Import(base, tuple(plain), node.lineno, nested, type_checking, commented(node)))
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
              and _private(node.attr)):
            module.private_uses.append((aliases[node.value.id], node.attr, node.lineno))
        inner = nested or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
        guarded = type_checking or (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
        for child in ast.iter_child_nodes(node):
            visit(child, inner, guarded)

    visit(tree, False, False)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _unit(name: str, package: str) -> str | None:
    """The top-level unit (module or subpackage) a dotted name belongs to; None for the package itself."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == package else None


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _ours(name: str, modules: dict[str, Module]) -> str | None:
    """The module of ours ``name`` is, or lives in (``pkg.mod.attr`` -> ``pkg.mod``); None for a third party."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _is_heavy(target: str, rules: Rules) -> bool:
    return target in rules.heavy or target.split(".")[0] in rules.heavy


def _heavy_modules(modules: dict[str, Module], rules: Rules) -> set[str]:
    """Our modules that import a heavy module at their top."""
    return {m.name for m in modules.values() if any(not i.nested and _is_heavy(i.target, rules) for i in m.imports)}


def graph(modules: dict[str, Module], rules: Rules) -> dict[str, set[str]]:
    """Module -> the modules of ours its imports run (each target's enclosing packages included).

    Every import counts, at the top or inside a function; only ``if TYPE_CHECKING:`` ones do not."""
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for module in modules.values():
        own = set(_parents(module.name)) | {module.name}
        for imp in module.imports:
            target = _ours(imp.target, modules)
            if target is None or imp.type_checking:
                continue
            for name in _parents(target) + [target]:
                if name not in own and name in modules:
                    edges[module.name].add(name)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def problems(root: Path, rules: Rules) -> list[str]:
    """Every violation of ``rules`` in the package whose folder is ``root``, one line each."""
    modules = find_modules(root, rules.package)
    layer = {unit: i for i, units in enumerate(rules.layers) for unit in units}
    heavy = _heavy_modules(modules, rules)
    found: list[str] = []
    for module in modules.values():
        where = module.path.relative_to(root.parent).as_posix()
        unit = _unit(module.name, rules.package)
        if module.lines > rules.max_lines:
            found.append(f"{where}: {module.lines} lines, over {rules.max_lines}")
        if unit is not None and unit not in layer:
            found.append(f"{where}: {unit} is in no layer")
        for imp in module.imports:
            target = _ours(imp.target, modules)
            third_party = target is None
            if third_party and imp.target.split(".")[0] == rules.package:
                found.append(f"{where}:{imp.line}: imports {imp.target}, which does not exist")
                continue
            if imp.nested and not imp.type_checking:
                allowed = _is_heavy(imp.target, rules) if third_party else target in heavy
                if not allowed:
                    found.append(f"{where}:{imp.line}: imports {imp.target} inside a function "
                                 "(only optional heavy dependencies may be imported there)")
                elif not imp.commented:
                    found.append(f"{where}:{imp.line}: imports {imp.target} inside a function without "
                                 "a comment saying why")
            if third_party:
                continue
            assert target is not None
            for name in imp.names:
                if _private(name):
                    found.append(f"{where}:{imp.line}: imports the private name {name} from {target}")
            parent = target.rpartition(".")[0]
            if (_private(target.rpartition(".")[2]) and target != module.name
                    and not (module.name + ".").startswith(parent + ".")):
                found.append(f"{where}:{imp.line}: imports the private module {target} from outside {parent}")
            other = _unit(target, rules.package)
            if unit is None or other is None or other == unit:
                continue
            if other == rules.course and unit != rules.course and unit not in rules.both:
                found.append(f"{where}:{imp.line}: the library imports the course ({target})")
            elif unit in layer and other in layer and layer[other] >= layer[unit]:
                found.append(f"{where}:{imp.line}: {unit} (layer {layer[unit]}) imports {target} "
                             f"(layer {layer[other]}): imports go down")
        for target, attr, line in module.private_uses:
            if target != module.name:
                found.append(f"{where}:{line}: uses the private name {attr} of {target}")
    for component in cycles(graph(modules, rules)):
        found.append("import cycle: " + " -> ".join(component))
    return found


#: The layers of ragmetrics_edu, bottom first (docs/architecture.md draws the same picture).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("cores",),
    ("errors",),
    ("validate",),
    ("results", "data"),
    ("text",),
    ("embeddings", "ranking", "plots"),
    ("metrics",),
    ("stats", "baselines", "examples"),
    ("agreement", "regression_gate"),
    ("judges", "retrieval"),
    ("designs",),
    ("evaluation",),
    ("widgets", "studies"),
    ("course",),
    ("cli",),
)
RULES = Rules(package="ragmetrics_edu", layers=LAYERS)


def test_the_package_keeps_its_layout_rules() -> None:
    found = problems(REPO / "ragmetrics_edu", RULES)
    assert not found, "\n".join(found)


def test_the_library_top_level_stays_small() -> None:
    units = {p.stem for p in (REPO / "ragmetrics_edu").iterdir()
             if (p.suffix == ".py" or (p / "__init__.py").is_file()) and p.stem != "__init__"}
    assert "course" in units and 15 <= len(units - {"course", "cli"}) <= 21, sorted(units)  # 21: studies/ (issue 47)


# A fake package with one planted violation of each rule: the checker must report every one.
FAKE = {
    "__init__.py": "",
    "errors.py": "class InputError(ValueError):\n    pass\n\n\ndef _show(x):\n    return repr(x)\n",
    "low.py": "from .errors import _show\n",                                     # a private name
    "ring/__init__.py": "",
    "ring/a.py": "from . import b\n",                                           # a cycle ...
    "ring/b.py": "from .a import *\n",                                          # ... of two modules
    "lib.py": "from .course import lesson\n",                                    # library -> course
    "up.py": "from . import lib\n",                                              # up a layer (lib is higher)
    "lazy.py": "def f():\n    import json\n    return json\n",                   # a light import in a function
    "quiet.py": "def f():\n    import pandas\n    return pandas\n",              # heavy, but no comment why
    "fine.py": "def f():\n    import pandas  # lazy: pandas is heavy\n    return pandas\n",
    "peek.py": "from . import errors\n\nerrors._show(1)\n",                       # a private name, by attribute
    "pkg/__init__.py": "",
    "pkg/_hidden.py": "X = 1\n",
    "pkg/inside.py": "from ._hidden import X\n",                                 # allowed: its own package
    "outside.py": "from .pkg._hidden import X\n",                                # a private module from outside
    "long.py": "x = 1\n" * 501,                                                  # too long
    "course/__init__.py": "",
    "course/lesson.py": "from ..errors import InputError\n",
    "cli.py": "from . import lib\nfrom .course import lesson\n",                 # allowed: the CLI sees both
}
FAKE_LAYERS = (("errors",), ("pkg", "ring"), ("low", "up", "lazy", "quiet", "fine", "peek", "outside", "long"),
               ("lib",), ("course",), ("cli",))


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    return plant_package(tmp_path / "fakepkg", FAKE)


def test_the_checker_reports_each_planted_violation(fake: Path) -> None:
    found = problems(fake, Rules(package="fakepkg", layers=FAKE_LAYERS))
    text = "\n".join(found)
    expected = {
        "private name": "fakepkg/low.py:1: imports the private name _show from fakepkg.errors",
        "cycle": "import cycle: fakepkg.ring.a -> fakepkg.ring.b",
        "course": "fakepkg/lib.py:1: the library imports the course (fakepkg.course.lesson)",
        "layer": "fakepkg/up.py:1: up (layer 2) imports fakepkg.lib (layer 3): imports go down",
        "light import in a function": "fakepkg/lazy.py:2: imports json inside a function",
        "no comment": "fakepkg/quiet.py:2: imports pandas inside a function without a comment",
        "private attribute": "fakepkg/peek.py:3: uses the private name _show of fakepkg.errors",
        "private module": "fakepkg/outside.py:1: imports the private module fakepkg.pkg._hidden from outside",
        "too long": "fakepkg/long.py: 501 lines, over 500",
    }
    missing = {rule: line for rule, line in expected.items() if line not in text}
    assert not missing, f"not reported: {missing}\nreported:\n{text}"
    assert len(found) == len(expected), text   # and nothing else: fine.py, pkg/inside.py and cli.py are allowed


def test_a_cycle_through_a_package_init_is_a_cycle(tmp_path: Path) -> None:
    """ranking imported metrics.context_precision while metrics/__init__ imported ranking: importing
    ranking first failed. The package's __init__ runs before any of its modules, so it is an edge too."""
    root = tmp_path / "fakepkg"
    (root / "metrics").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "metrics" / "__init__.py").write_text("from ..ranking import ap\n")
    (root / "metrics" / "cp.py").write_text("def cp():\n    return 1\n")
    (root / "ranking.py").write_text("from .metrics.cp import cp\n\n\ndef ap():\n    return cp()\n")
    found = problems(root, Rules(package="fakepkg", layers=(("ranking", "metrics"),)))
    assert "import cycle: fakepkg.metrics -> fakepkg.ranking" in found


if __name__ == "__main__":   # python tests/library/test_layout.py: the package's problems, one a line
    FOUND = problems(REPO / "ragmetrics_edu", RULES)
    print("\n".join(FOUND) or "no problems")
    sys.exit(1 if FOUND else 0)
