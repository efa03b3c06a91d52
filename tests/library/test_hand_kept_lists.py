"""Issue 49: the four hand-kept lists cannot drift from the registry without a failing test.

- the README's metrics table: every registered metric (not a design of another) has a row naming its
  function, and the row names each of its variants (metrics/variants.py);
- the README's calls-per-case table (benchmarks/bench_judge.py): every judged metric has a row, or is named
  in the sentence under the table that says which are left out;
- the calls table of ``ragmetrics_edu/designs/__init__.py``: every judged metric has a row, and every row
  is a registered judged metric;
- the ``score`` examples of ``cli.py``: every metric ``score`` offers has one, every example's metric is
  offered, and every example runs.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ragmetrics_edu import cli, designs, metrics

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
METRICS = [spec for spec in metrics.SPECS.values() if spec.of is None]
JUDGED = [spec.name for spec in METRICS if spec.judged]


def _table(text: str, header: str) -> list[str]:
    start = text.index(header)
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_readme_metrics_table_has_every_metric_and_its_variants():
    rows = _table(README, "| function | what it scores | variants |")
    missing = []
    for spec in METRICS:
        function = spec.compute.__name__
        row = next((r for r in rows if re.search(rf"`{function}\b", r.split("|")[1])), None)
        if row is None:
            missing.append(f"{spec.name} (no row naming `{function}`)")
            continue
        missing += [f"{spec.name}: variant `{v}`" for v in spec.named_variants if f"`{v}`" not in row]
    assert not missing, "README metrics table: " + "; ".join(missing)


def test_the_readme_calls_table_has_every_judged_metric_or_says_it_is_left_out():
    rows = _table(README, "| metric | cases | calls per case |")
    labels = [r.split("|")[1].strip() for r in rows]
    after = README[README.index(rows[-1]):].split("\n\n")[1]
    named = after.split(":", 1)[1].split("(")[0] if after.startswith("Not in this table:") else ""
    left_out = set(re.findall(r"\w+", named))

    def row_of(name: str, label: str) -> bool:  # "answer relevancy (statements)" is answer relevancy's row
        in_text = metrics.SPECS[name].in_text
        return label == in_text or ("(" not in in_text and label.split(" (")[0] == in_text)

    missing = [name for name in JUDGED if name not in left_out and not any(row_of(name, label) for label in labels)]
    assert not missing, f"README calls-per-case table: no row and not named as left out: {missing}"
    stray = [label for label in labels if not any(row_of(name, label) for name in JUDGED)]
    assert not stray, f"README calls-per-case rows that are no judged metric: {stray}"


def test_the_designs_calls_table_is_the_registrys():
    doc = designs.__doc__ or ""
    block = doc[doc.index("Calls per case"):]
    names = re.findall(r"^(\w+)\s+\d+\s", block, flags=re.M)
    assert sorted(names) == sorted(JUDGED), "designs/__init__.py calls table: " + str(
        {"missing": sorted(set(JUDGED) - set(names)), "not judged metrics": sorted(set(names) - set(JUDGED))})


def _examples() -> list[list[str]]:
    lines = [line.strip().split("  (")[0] for line in cli.EPILOG.splitlines() if line.strip().startswith("ragmetrics-edu")]
    return [shlex.split(line)[1:] for line in lines]


def test_every_metric_score_offers_has_an_example_and_every_example_is_offered():
    shown = [argv[1] for argv in _examples()]
    assert set(shown) <= set(cli.score_metrics()), set(shown) - set(cli.score_metrics())
    assert not set(cli.score_metrics()) - set(shown), f"no score example for {set(cli.score_metrics()) - set(shown)}"


@pytest.mark.parametrize("argv", [a for a in _examples() if "..." not in a], ids=lambda a: " ".join(a[1:3]))
def test_every_score_example_runs(argv, capsys):
    assert cli.main(argv) == 0, capsys.readouterr().err
