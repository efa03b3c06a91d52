r"""One home per small idea, checked on the code (docs/architecture.md, "The rules").

- words are split with a regex (``re.findall``/``finditer``/``split``/``sub`` on ``\w`` or ``\W``) only in
  ``text.py`` (the one tokeniser), and white space is squashed
  by hand nowhere else either (``text.squash_spaces``);
- F1 is computed from a precision and a recall, or from counts, only in ``metrics/correctness.py``
  (``f1_from``, ``f1_counts``, ``f_beta``);
- random resamples are drawn only in ``stats/resample.py`` (numpy's generator, ``draw_batches``);
- a pool of threads or processes is started only in ``judges/batch.py`` (the one case runner);
- what the library knows about a metric is in its spec (its design's module in ``designs/``, the registry):
  no other module keeps a table keyed by metric names or dispatches on them (a lesson's own facts go
  in a ``MetricTable``, checked against the registry). A table is a module- or class-level dict with
  two or more metric names among its keys (other keys mixed in or not; a literal, ``dict(...)``, or a
  comprehension or ``dict.fromkeys`` over a literal of names), or such a dict looked up where it is
  written (``{...}[m]``, ``{...}.get(m)``). A dispatch is any one test on a metric name
  (``x == "<metric>"``, ``!=``, ``x in ("<metric>", ...)``, a ``match`` case), or ``x in NAMES`` where
  the module binds ``NAMES`` to a literal of metric names. Not counted: a row built in a function, a
  loop over a literal, ``"<metric>" in row``, and a test that only guards the input (an ``assert``, an
  ``if`` whose body only raises). :data:`ALLOWED` names the known exceptions, each with its reason.

Like the layering test, the checker runs on the package and on a small fake package with one
planted violation of each rule, so a checker that stopped seeing a violation would fail too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import plant_package

REPO = Path(__file__).resolve().parents[2]

#: each rule: (name, the one module allowed, what to use instead)
HOMES = {
    "regex words": ("text.py", "text.tokenize / text.words"),
    "squashed spaces": ("text.py", "text.squash_spaces"),
    "F1 by hand": ("metrics/correctness.py", "metrics.f1_from"),
    "own random draws": ("stats/resample.py", "stats.resample.draw_batches"),
    "own pool": ("judges/batch.py", "judges.batch.run_tasks"),
    "table keyed by metric names": ("designs/", "a field of MetricSpec, or a MetricTable"),
    "dispatch on metric names": ("designs/", "a field of MetricSpec (dispatch on it)"),
    "lookup in a set of metric names": ("designs/", "SPECS.where(...), or a MetricTable's keys"),
}
#: metric-name findings the checker lets stand: (module, rule, subject) -> why (each a known, named exception)
_AP = "context precision's variant named average_precision (ranking.precision.VARIANTS), not the metric"
_STEP = "a judge step's name (steps are named after their metric; each design's module holds its steps' contracts)"
ALLOWED: dict[tuple[str, str, str], str] = {
    ("evaluation/report.py", "dispatch on metric names", "metric"): "the report's one measured figure: word overlap "
        "is the only design whose agreement with people ships with the package (the RAGTruth dev rows); a spec "
        "field for it would make designs/ import agreement/ and data/, above their layer",
    ("metrics/variants.py", "table keyed by metric names", "VARIANTS"): "the variant names' one home, below the "
        "specs so that the checks read it too; MetricSpec fills its variants from it and refuses other names",
    ("studies/deck_agreement.py", "dispatch on metric names", "self.case.step"): _STEP + "; two entity lists",
    ("course/embedding_texts.py", "dispatch on metric names", "reply.get('step')"): _STEP + ", read from a recording",
    ("ranking/precision.py", "dispatch on metric names", "variant"): _AP,
    ("ranking/checks.py", "dispatch on metric names", "variant"): _AP,
    ("ranking/precision_explained.py", "dispatch on metric names", "variant"): _AP,
    ("cores/context_precision.py", "dispatch on metric names", "variant"): _AP,
    ("widgets/reorder.py", "dispatch on metric names", "model.variant"): _AP,
    ("widgets/reorder_model.py", "dispatch on metric names", "self.variant"): _AP,
    ("course/exercises/context_precision.py", "dispatch on metric names", "v"): _AP,
    ("course/exercises/context_precision.py", "dispatch on metric names", "name"): "a wrong answer a student may "
                                                                                   "type, recognised for feedback",
    ("course/exercises/choosing.py", "lookup in a set of metric names", "_CANDIDATES"): "the exercise's answer "
                                                                                        "options (map names)",
    ("course/judge_study/passes.py", "dispatch on metric names", "metric"): "a pass's pipelines are faithfulness's "
                                                                           "pipeline variants (designs.faithfulness_checked)",
}

_WORD_PATTERN = re.compile(r"\\[wW]")
_F1 = re.compile(r"^2 \* (\w+) \* (\w+) / \((\1 \+ \2|\2 \+ \1)\)$")
#: F1 from counts, 2 tp / (... tp ...) (the home is metrics.f1_counts / f_beta)
_F1_COUNTS = re.compile(r"^2 \* (\w+) / \(.*\b\1\b.*\)$")
_POOLS = {"ThreadPoolExecutor", "ProcessPoolExecutor", "Thread", "Pool"}
#: the regex calls that cut a text into words (matching one identifier with \w is not splitting)
_SPLITTERS = {"re.findall", "re.finditer", "re.split", "re.sub"}
_LITERALS = (ast.Tuple, ast.List, ast.Set)


def _is_name(node: ast.AST | None, names: frozenset[str]) -> bool:
    """Whether ``node`` is a string constant that is a metric name."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names


def _holds_names(node: ast.AST, names: frozenset[str]) -> bool:
    """Whether ``node`` is a tuple, list or set literal with a metric name in it."""
    return isinstance(node, _LITERALS) and any(_is_name(e, names) for e in node.elts)


def _keyed_by_names(node: ast.AST, names: frozenset[str]) -> bool:
    """A dict built with metric names as keys: a literal with two or more of them among its keys (other keys
    may be mixed in), ``dict(name=...)`` with two or more, or a comprehension or ``dict.fromkeys`` over a
    literal of names."""
    if isinstance(node, ast.Dict):
        return sum(_is_name(k, names) for k in node.keys) >= 2
    if isinstance(node, ast.DictComp):
        return any(_holds_names(g.iter, names) for g in node.generators)
    if isinstance(node, ast.Call):
        func = ast.unparse(node.func)
        if func == "dict":
            return sum(k.arg in names for k in node.keywords) >= 2
        if func == "dict.fromkeys":
            return bool(node.args) and _holds_names(node.args[0], names)
    return False


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _guard(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether ``node`` sits in a check of the input (an ``assert``, or the test of an ``if`` that only raises)."""
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.Assert):
            return True
        if isinstance(parent, ast.If) and node is parent.test:
            return len(parent.body) == 1 and isinstance(parent.body[0], ast.Raise) and not parent.orelse
        if isinstance(parent, ast.stmt):
            return False
        node = parent
    return False


def _lookup(node: ast.AST) -> tuple[ast.AST | None, str]:
    """``table[key]`` or ``table.get(key, ...)``: the table and the key looked up (None, "" otherwise)."""
    if isinstance(node, ast.Subscript):
        return node.value, ast.unparse(node.slice)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and node.args):
        return node.func.value, ast.unparse(node.args[0])
    return None, ""


def _bound(stmt: ast.stmt) -> tuple[str, ast.AST | None]:
    """The name a module- or class-level assignment binds, and its value."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return ast.unparse(stmt.targets[0]), stmt.value
    if isinstance(stmt, ast.AnnAssign):
        return ast.unparse(stmt.target), stmt.value
    return "", None


def _metric_keyed(tree: ast.AST, names: frozenset[str]) -> list[tuple[str, int, str]]:
    """Tables keyed by metric names, lookups in literal sets of them, and tests on them: each as
    (rule, line, subject), the subject being the table's name or the expression tested."""
    out: list[tuple[str, int, str]] = []
    parents = _parents(tree)
    name_sets: set[str] = set()   # module- or class-level names bound to a literal of metric names
    bodies = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]  # type: ignore[attr-defined]
    for stmt in (s for body in bodies for s in body):
        target, value = _bound(stmt)
        if value is not None and _keyed_by_names(value, names):
            out.append(("table keyed by metric names", stmt.lineno, target))
        elif value is not None and _holds_names(value, names):
            name_sets.add(target)
    for node in ast.walk(tree):
        table, key = _lookup(node)
        if table is not None and _keyed_by_names(table, names):
            out.append(("table keyed by metric names", node.lineno, key))
        if isinstance(node, ast.Compare) and not _guard(node, parents):
            out += _tests_on_names(node, names, name_sets)
        if isinstance(node, ast.match_case) and any(_is_name(p.value, names) for p in ast.walk(node.pattern)
                                                    if isinstance(p, ast.MatchValue)):
            out.append(("dispatch on metric names", node.pattern.lineno, ast.unparse(parents[node].subject)))
    return out


def _tests_on_names(node: ast.Compare, names: frozenset[str], name_sets: set[str]) -> list[tuple[str, int, str]]:
    """``x == "<metric>"`` (or !=), ``x in ("<metric>", ...)`` and ``x in <a module's literal set of names>``."""
    out = []
    lefts = [node.left, *node.comparators[:-1]]
    for op, left, right in zip(node.ops, lefts, node.comparators, strict=True):
        if isinstance(op, (ast.Eq, ast.NotEq)) and (_is_name(left, names) or _is_name(right, names)):
            subject = right if _is_name(left, names) else left
            out.append(("dispatch on metric names", node.lineno, ast.unparse(subject)))
        elif isinstance(op, (ast.In, ast.NotIn)) and _holds_names(right, names):
            out.append(("dispatch on metric names", node.lineno, ast.unparse(left)))
        elif isinstance(op, (ast.In, ast.NotIn)) and ast.unparse(right) in name_sets:
            out.append(("lookup in a set of metric names", node.lineno, ast.unparse(right)))
    return out


def _found(tree: ast.AST) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = ast.unparse(node.func)
            first = node.args[0] if node.args else None
            if (func in _SPLITTERS and isinstance(first, ast.Constant) and isinstance(first.value, str)
                    and _WORD_PATTERN.search(first.value)):
                out.append(("regex words", node.lineno))
            if (func == "' '.join" and isinstance(first, ast.Call) and ast.unparse(first.func).endswith(".split")
                    and not first.args):
                out.append(("squashed spaces", node.lineno))
            if func.endswith("default_rng") or func in ("np.random.randint", "np.random.choice"):
                out.append(("own random draws", node.lineno))
            if func.rpartition(".")[2] in _POOLS:
                out.append(("own pool", node.lineno))
        elif isinstance(node, ast.BinOp) and (_F1.match(ast.unparse(node)) or _F1_COUNTS.match(ast.unparse(node))):
            out.append(("F1 by hand", node.lineno))
    return out


def metric_names() -> frozenset[str]:
    """Every registered metric and design name (the registry's)."""
    from ragmetrics_edu.metrics import SPECS

    return frozenset(SPECS)


def one_home_problems(root: Path, names: frozenset[str] | None = None) -> list[str]:
    """Every use of a small idea outside its one home, in the package whose folder is ``root``
    (``names``: the metric names; by default the registry's)."""
    names = metric_names() if names is None else names
    problems = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        seen: set[tuple[str, str]] = set()  # an if/elif on one subject is reported once, at its first test
        found = [(rule, line, "") for rule, line in _found(tree)] + sorted(_metric_keyed(tree, names), key=lambda f: f[1])
        for rule, line, subject in found:
            if subject and (rule, subject) in seen:
                continue
            seen.add((rule, subject))
            home, instead = HOMES[rule]
            inside = where == home or (home.endswith("/") and where.startswith(home))  # a folder: any module in it
            if not inside and (where, rule, subject) not in ALLOWED:
                about = f" on {subject}" if subject else ""
                problems.append(f"{root.name}/{where}:{line}: {rule}{about} (its home is {home}: use {instead})")
    return problems


def test_every_small_idea_has_one_home() -> None:
    found = one_home_problems(REPO / "ragmetrics_edu")
    assert not found, "\n".join(found)


FAKE = {
    "text.py": "import re\n\ndef words(t):\n    return re.findall(r'\\w+', t)\n\ndef squash(t):\n"
               "    return ' '.join(t.split())\n",
    "metrics/correctness.py": "def f1_from(p, r):\n    return 2 * p * r / (p + r)\n",
    "stats/resample.py": "import numpy as np\n\ndef g(seed):\n    return np.random.default_rng(seed)\n",
    "judges/batch.py": "from concurrent.futures import ThreadPoolExecutor\n\nPOOL = ThreadPoolExecutor(2)\n",
    "splitter.py": "import re\n\ndef words(t):\n    return re.split(r'\\W+', t)\n",
    "squasher.py": "def clean(t):\n    return ' '.join(t.lower().split())\n",
    "scorer.py": "def f1(precision, recall):\n    return 2 * precision * recall / (recall + precision)\n",
    "counter.py": "def f1(tp, fp, n):\n    return 2 * tp / (tp + fp + n)\n",
    "sampler.py": "import numpy as np\n\nRNG = np.random.default_rng(0)\n",
    "runner.py": "import threading\n\nT = threading.Thread(target=print)\n",
    "designs/toy.py": "LABELS = {'recall': 'Recall', 'precision': 'Precision'}\n",
    "labels.py": "LABELS = {'recall': 'Recall', 'precision': 'Precision'}\n",
    "dispatch.py": "def score(metric, v):\n    if metric == 'recall':\n        return 1\n    elif metric == 'precision':\n"
                   "        return 2\n",
    "rows.py": "def row(r, p):\n    out = {'recall': r, 'precision': p}\n    if not out:\n        return out\n"
               "    return {'kind': 'x', 'recall': r}\n",
    "fine.py": "import re\n\nDIGITS = re.compile(r'\\d+')\nWORDS = 'a b'.split()\nNAME = re.fullmatch(r'\\w+', 'x')\n",
}


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    return plant_package(tmp_path / "fakepkg", FAKE)


def test_the_checker_reports_each_planted_violation(fake: Path) -> None:
    found = one_home_problems(fake, frozenset({"recall", "precision"}))
    expected = {
        "table keyed by metric names": "fakepkg/labels.py:1: table keyed by metric names",
        "dispatch on metric names": "fakepkg/dispatch.py:2: dispatch on metric names",
        "regex words": "fakepkg/splitter.py:4: regex words",
        "squashed spaces": "fakepkg/squasher.py:2: squashed spaces",
        "F1 by hand": "fakepkg/scorer.py:2: F1 by hand",
        "F1 from counts by hand": "fakepkg/counter.py:2: F1 by hand",
        "own random draws": "fakepkg/sampler.py:3: own random draws",
        "own pool": "fakepkg/runner.py:3: own pool",
    }
    text = "\n".join(found)
    missing = {rule: line for rule, line in expected.items() if line not in text}
    assert not missing, f"not reported: {missing}\nreported:\n{text}"
    assert len(found) == len(expected), text     # the homes themselves, fine.py and rows.py (rows) are allowed


#: metric names of the small sources below
_NAMES = frozenset({"recall", "precision"})
#: (what is planted, source, the rule it breaks, its subject)
PLANTED = [
    ("mixed keys", "KIND = {'recall': 1, 'precision': 2, 'other': 3}\n", "table keyed by metric names", "KIND"),
    ("dict(...)", "KIND = dict(recall=1, precision=2)\n", "table keyed by metric names", "KIND"),
    ("dict comprehension", "SHORT = {m: m[:3] for m in ('recall', 'precision')}\n",
     "table keyed by metric names", "SHORT"),
    ("dict.fromkeys", "ZERO = dict.fromkeys(('recall', 'precision'), 0)\n", "table keyed by metric names", "ZERO"),
    ("class-level table", "class C:\n    KIND = {'recall': 1, 'precision': 2}\n", "table keyed by metric names",
     "KIND"),
    ("table looked up in a function", "def kind(m):\n    return {'recall': 1, 'precision': 2, 'x': 0}[m]\n",
     "table keyed by metric names", "m"),
    ("comprehension looked up with get", "def kind(m):\n    return {n: 1 for n in ('recall', 'precision')}.get(m)\n",
     "table keyed by metric names", "m"),
    ("lookup in a module's set of names", "JUDGED = {'recall', 'precision'}\n\ndef judged(m):\n"
     "    return m in JUDGED\n", "lookup in a set of metric names", "JUDGED"),
    ("lookup in a module's tuple of one name", "ONE = ('recall',)\n\ndef one(m):\n    return m not in ONE\n",
     "lookup in a set of metric names", "ONE"),
    ("one comparison", "def score(m, v):\n    if m == 'recall':\n        return v\n    return 0\n",
     "dispatch on metric names", "m"),
    ("one comparison, name first", "def score(m, v):\n    return v if 'recall' != m.name else 0\n",
     "dispatch on metric names", "m.name"),
    ("membership in a literal", "def score(m, v):\n    return v if m in ('recall', 'other') else 0\n",
     "dispatch on metric names", "m"),
    ("match case", "def score(m, v):\n    match m:\n        case 'recall':\n            return v\n"
     "    return 0\n", "dispatch on metric names", "m"),
]
#: (what passes, source): patterns that are not a table or a dispatch
LEGITIMATE = [
    ("one metric name among other keys", "ROW = {'recall': 1, 'other': 2}\n"),
    ("a row built in a function", "def row(r, p):\n    return {'recall': r, 'precision': p, 'n': 2}\n"),
    ("a MetricTable", "from x import MetricTable\n\nT = MetricTable('kinds', {'recall': 1, 'precision': 2})\n"),
    ("a loop over a literal", "def total(row):\n    return sum(row[m] for m in ('recall', 'precision'))\n"),
    ("a module's order, not looked up", "ORDER = ('recall', 'precision')\n\ndef first():\n    return ORDER[0]\n"),
    ("a key present in a row", "def has(row):\n    return 'recall' in row\n"),
    ("a guard that raises", "def recall_only(m):\n    if m != 'recall':\n        raise ValueError(m)\n"
     "    return m\n"),
    ("an assert", "def recall_only(m):\n    assert m == 'recall', m\n    return m\n"),
    ("a name from the registry", "def same(m, spec):\n    return m == spec.name\n"),
    ("other strings", "def score(m):\n    return 1 if m in ('kind', 'other') or m == 'x' else 0\n"),
]


@pytest.mark.parametrize(("what", "source", "rule", "subject"), PLANTED, ids=[p[0] for p in PLANTED])
def test_the_metric_name_rules_catch_each_planted_table_and_test(tmp_path: Path, what: str, source: str, rule: str,
                                                                 subject: str) -> None:
    found = one_home_problems(plant_package(tmp_path / "pkg", {"planted.py": source}), _NAMES)
    assert len(found) == 1 and f": {rule} on {subject} (" in found[0], (what, found)


@pytest.mark.parametrize(("what", "source"), LEGITIMATE, ids=[p[0] for p in LEGITIMATE])
def test_the_metric_name_rules_let_legitimate_patterns_pass(tmp_path: Path, what: str, source: str) -> None:
    assert not one_home_problems(plant_package(tmp_path / "pkg", {"fine.py": source}), _NAMES), what


def test_an_allowed_finding_names_a_subject_and_a_reason() -> None:
    for (module, rule, subject), reason in ALLOWED.items():
        assert (REPO / "ragmetrics_edu" / module).is_file() and rule in HOMES and subject and reason, module


def test_f1_from_counts_arrays_agrees_with_f_beta_count_by_count() -> None:
    import numpy as np

    from ragmetrics_edu.metrics import f1_counts, f_beta

    tp, fp, fn = np.array([0, 3, 5, 0]), np.array([0, 1, 0, 4]), np.array([0, 2, 5, 1])
    got = f1_counts(tp, fp, fn)
    assert got.tolist() == [f_beta(int(a), int(b), int(c)) for a, b, c in zip(tp, fp, fn, strict=True)]
    assert got[1] == 2 * 3 / (2 * 3 + 1 + 2)                     # 6/9, by hand
    assert float(f1_counts(0, 0, 0)) == 1.0                      # nothing to find, nothing flagged
