r"""One home per small idea, checked on the code (docs/architecture.md, "The rules").

- words are split with a regex (``re.findall``/``finditer``/``split``/``sub`` on ``\w`` or ``\W``) only in
  ``text.py`` (the one tokeniser), and white space is squashed
  by hand nowhere else either (``text.squash_spaces``);
- F1 is computed from a precision and a recall, or from counts, only in ``metrics/correctness.py``
  (``f1_from``, ``f1_counts``, ``f_beta``);
- random resamples are drawn only in ``stats/resample.py`` (numpy's generator, ``draw_batches``);
- a pool of threads or processes is started only in ``judges/batch.py`` (the one case runner);
- what the library knows about a metric is in its spec (``metrics/builtin_specs.py``, the registry):
  no other module keeps a table keyed by metric names (a module- or class-level dict literal whose
  keys are all metric names; a lesson's own facts go in a ``MetricTable``, checked against the
  registry) or dispatches on metric names (two or more ``x == "<metric>"`` tests on the same ``x`` in
  one function).

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
    "table keyed by metric names": ("metrics/builtin_specs.py", "a field of MetricSpec, or a MetricTable"),
    "dispatch on metric names": ("metrics/builtin_specs.py", "a field of MetricSpec (dispatch on it)"),
}
_WORD_PATTERN = re.compile(r"\\[wW]")
_F1 = re.compile(r"^2 \* (\w+) \* (\w+) / \((\1 \+ \2|\2 \+ \1)\)$")
#: F1 from counts, 2 tp / (... tp ...) (the home is metrics.f1_counts / f_beta)
_F1_COUNTS = re.compile(r"^2 \* (\w+) / \(.*\b\1\b.*\)$")
_POOLS = {"ThreadPoolExecutor", "ProcessPoolExecutor", "Thread", "Pool"}
#: the regex calls that cut a text into words (matching one identifier with \w is not splitting)
_SPLITTERS = {"re.findall", "re.finditer", "re.split", "re.sub"}


def _metric_keyed(tree: ast.AST, names: frozenset[str]) -> list[tuple[str, int]]:
    """Tables (module- or class-level dict literals) keyed by metric names, and dispatch on them."""
    out = []
    for body in [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:  # type: ignore[attr-defined]
        for stmt in body:
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, ast.Dict) and len(value.keys) >= 2 and all(
                    isinstance(k, ast.Constant) and k.value in names for k in value.keys):
                out.append(("table keyed by metric names", stmt.lineno))
    for func in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        tested: dict[str, set[str]] = {}
        first: dict[str, int] = {}
        for node in ast.walk(func):
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
                other = node.comparators[0]
                if isinstance(other, ast.Constant) and other.value in names:
                    subject = ast.unparse(node.left)
                    tested.setdefault(subject, set()).add(other.value)
                    first.setdefault(subject, node.lineno)
        out += [("dispatch on metric names", first[s]) for s, seen in tested.items() if len(seen) >= 2]
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
        for rule, line in _found(tree) + _metric_keyed(tree, names):
            home, instead = HOMES[rule]
            if where != home:
                problems.append(f"{root.name}/{where}:{line}: {rule} (its home is {home}: use {instead})")
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
    "metrics/builtin_specs.py": "LABELS = {'recall': 'Recall', 'precision': 'Precision'}\n",
    "labels.py": "LABELS = {'recall': 'Recall', 'precision': 'Precision'}\n",
    "dispatch.py": "def score(metric, v):\n    if metric == 'recall':\n        return 1\n    elif metric == 'precision':\n"
                   "        return 2\n",
    "rows.py": "def row(r, p):\n    out = {'recall': r, 'precision': p}\n    if r == 'recall':\n        return out\n"
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
    assert len(found) == len(expected), text     # the homes themselves, fine.py and rows.py (a row, one test) are allowed


def test_f1_from_counts_arrays_agrees_with_f_beta_count_by_count() -> None:
    import numpy as np

    from ragmetrics_edu.metrics import f1_counts, f_beta

    tp, fp, fn = np.array([0, 3, 5, 0]), np.array([0, 1, 0, 4]), np.array([0, 2, 5, 1])
    got = f1_counts(tp, fp, fn)
    assert got.tolist() == [f_beta(int(a), int(b), int(c)) for a, b, c in zip(tp, fp, fn, strict=True)]
    assert got[1] == 2 * 3 / (2 * 3 + 1 + 2)                     # 6/9, by hand
    assert float(f1_counts(0, 0, 0)) == 1.0                      # nothing to find, nothing flagged
