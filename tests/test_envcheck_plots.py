"""The environment check and the first figure."""

from ragmetrics_edu import metrics
from ragmetrics_edu.envcheck import check_environment, report
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
