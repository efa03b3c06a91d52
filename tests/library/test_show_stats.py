"""Issue 47 step 2: ``show_code`` shows the statistics as it shows a metric's core: the formula, then the lines.

Every public function of ``stats``, ``agreement`` and ``regression_gate`` is shown (by name or as the
function): its docstring's formula block once, its lines, then the helpers it runs (the cluster bootstrap's
draws, the AUC's pair matrix). The bootstrap over sources of the AUC, once an ``einsum``, is now
``weighted_pair_sum`` (a matrix product and a sum): a property test checks it gives einsum's numbers, and the
intervals of ``validation_report`` and ``stratified_auc_of`` are the same with either.
"""

from __future__ import annotations

import inspect
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics_edu import agreement, metrics, regression_gate, stats
from ragmetrics_edu.agreement import validation

PUBLIC = [(module, name) for module in (stats, agreement, regression_gate) for name in module.__all__
          if inspect.isfunction(getattr(module, name))]
#: functions that draw a figure: no formula of their own
FIGURES = {"plot_roc"}


@pytest.mark.parametrize(("module", "name"), PUBLIC, ids=[n for _, n in PUBLIC])
def test_each_public_statistics_function_is_shown_with_its_formula_then_its_lines(module, name):
    function = getattr(module, name)
    code = metrics.show_code(name)
    assert code.path == metrics.show_code(function).path and code.metric == name
    assert f"def {name}(" in code.source
    markdown = code._repr_markdown_()
    if name not in FIGURES:
        assert code.formula, name
        first = code.formula.splitlines()[0]
        assert markdown.count(first) == 1, name  # once, in the docstring: before the lines that compute it
        assert first in inspect.getdoc(function), name


def test_the_named_ones_show_the_lines_behind_them():
    def helpers(name: str) -> set[str]:
        return {part.heading.split(": ")[-1] for part in metrics.show_code(name).calls}

    assert {"_resampled_group_means", "draw_batches", "percentile_interval"} <= helpers("grouped_bootstrap_ci")
    assert {"_ppi", "_rogan_gladen", "_labels", "wilson_half_width"} <= helpers("estimate_pass_rate")
    assert {"roc_auc", "_pair_matrix", "_resampled_auc", "weighted_pair_sum", "_draw_weights"} <= helpers(
        "validation_report")
    assert "bisect" in metrics.show_code("roc_auc").source
    assert "einsum" not in str(metrics.show_code("validation_report"))


def einsum_pair_sum(wp, matrix, wn):
    """The form it had: one einsum."""
    return np.einsum("rp,pn,rn->r", wp, matrix, wn)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_the_readable_pair_sum_is_einsums(resamples, passing, failing, seed):
    rng = np.random.default_rng(seed)
    wp = rng.integers(0, 4, size=(resamples, passing)).astype(float)
    wn = rng.integers(0, 4, size=(resamples, failing)).astype(float)
    matrix = rng.choice([0.0, 0.5, 1.0], size=(passing, failing))
    np.testing.assert_allclose(validation.weighted_pair_sum(wp, matrix, wn), einsum_pair_sum(wp, matrix, wn),
                               rtol=1e-12, atol=1e-12)


def test_the_intervals_are_the_same_as_with_einsum(monkeypatch):
    rng = random.Random(7)
    n = 120
    failed = [rng.random() < 0.4 for _ in range(n)]
    scores = [round(rng.random() + (0 if f else 0.3), 2) for f in failed]
    groups = [i // 4 for i in range(n)]
    strata = [i % 3 for i in range(n)]
    other = [round(rng.random(), 2) for _ in range(n)]

    def run():
        report = agreement.validation_report(failed, scores, groups=groups, threshold=0.5, n_resamples=300, seed=3)
        strat = validation.stratified_auc_of(failed, scores, strata, groups=groups, other=other, n_resamples=300)
        return report.ci, strat["ci"]

    new = run()
    monkeypatch.setattr(validation, "weighted_pair_sum", einsum_pair_sum)
    old = run()
    for a, b in zip(new, old, strict=True):
        assert a is not None and b is not None
        assert a == pytest.approx(b, abs=1e-12)
