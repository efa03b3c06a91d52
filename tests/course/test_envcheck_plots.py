"""The environment check and the first figure."""

from ragmetrics_edu import metrics
from ragmetrics_edu.course.envcheck import check_environment, report
from ragmetrics_edu.plots import plot_per_k_terms


def test_environment_check_reports_ok_and_missing():
    rows = check_environment({"pandas": "1.0", "surely-not-a-package-xyz": "1.0", "pytest": "999.0"})
    by_name = {r["package"]: r for r in rows}
    assert by_name["python"]["ok"] and by_name["pandas"]["ok"]
    assert by_name["surely-not-a-package-xyz"]["installed"] == "missing" and not by_name["surely-not-a-package-xyz"]["ok"]
    assert not by_name["pytest"]["ok"]
    text = report(rows)
    assert "[FAIL] surely-not-a-package-xyz" in text and "[OK  ] pandas" in text


def test_per_k_plot_has_one_bar_per_rank_coloured_by_relevance():
    result = metrics.context_precision([0, 1, 1, 0, 0])
    fig = plot_per_k_terms(result)
    bars = fig.axes[0].patches
    assert len(bars) == 5
    assert [round(b.get_height(), 4) for b in bars] == [round(r["precision_at_k"], 4) for r in result.rows]
    assert bars[0].get_facecolor() != bars[1].get_facecolor()
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_family_plots_draw_one_mark_per_item():
    from ragmetrics_edu.plots import (
        plot_answer_correctness,
        plot_cosines,
        plot_entity_sets,
        plot_scores,
        plot_statements,
    )

    faith = metrics.faithfulness(["a", "b", "c"], ["yes", "idk", "no"])
    assert len(plot_statements(faith).axes[0].patches) == 3
    ents = metrics.context_entity_recall(["A", "B"], ["B", "C"])
    texts = [t.get_text() for t in plot_entity_sets(ents).axes[0].texts]
    assert "A" in texts and "B" in texts and "C" in texts
    emb = metrics.answer_relevancy_embedding("where is paris", ["where is paris", "what is paris"])
    assert len(plot_cosines(emb).axes[0].patches) == 2
    ac = metrics.answer_correctness(["x"], ["y"], [], similarity=0.5)
    assert len(plot_answer_correctness(ac).axes) == 2
    assert len(plot_scores({"a": 0.5, "b": 1.0}).axes[0].patches) == 2
    for fig in (plot_statements(metrics.context_recall([], [])), plot_entity_sets(metrics.context_entity_recall([], []))):
        assert fig._repr_png_()


def test_environment_check_fails_when_a_package_a_notebook_needs_is_missing(monkeypatch):
    """After `make lab` notebook 10 once crashed on a missing package while this check said all was well."""
    from importlib import metadata

    real = metadata.version

    def version(name):
        if name.lower() in ("tqdm", "openai"):
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", version)
    rows = {r["package"]: r for r in check_environment()}
    for name in ("tqdm", "openai"):
        assert rows[name]["installed"] == "missing" and not rows[name]["ok"]
    assert "[FAIL] openai missing" in report(list(rows.values()))


def test_in_the_browser_the_check_asks_only_for_what_runs_there(monkeypatch):
    """JupyterLite's kernel has no jupyterlab, openai or tqdm, and needs none: the check says what is not there."""
    from ragmetrics_edu import errors
    from ragmetrics_edu.course import envcheck

    monkeypatch.setattr(errors, "IN_BROWSER", True)
    rows = check_environment()
    assert [r["package"] for r in rows] == ["python", *envcheck.BROWSER_REQUIRED]
    assert not {"jupyterlab", "openai", "tqdm"} & {r["package"] for r in rows}
    text = report(rows)
    assert text.splitlines()[-1] == envcheck.IN_BROWSER_NOTE and "make lab" in text
    monkeypatch.setattr(errors, "IN_BROWSER", False)
    assert "openai" in {r["package"] for r in check_environment()}
