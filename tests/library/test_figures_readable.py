"""The library's figures are readable on a 1024 px laptop: no text under about 10 px as a notebook shows
it, and nothing cut at the figure's edge.

A notebook shows a figure at its own size, or scaled down to the output area (``plots.SHOWN_WIDTH_PX``),
so a text's rendered size is its points x dpi / 72 x that scale. Each figure is drawn as a notebook
draws it (``_repr_png_``) and every visible text is measured there.
"""

from __future__ import annotations

import io

import pytest

from ragmetrics_edu import metrics, plots


def rendered_px(fig, text) -> float:
    """The text's size in px as a notebook shows the figure."""
    scale = min(1.0, plots.SHOWN_WIDTH_PX / (fig.get_figwidth() * fig.dpi))
    return text.get_fontsize() * fig.dpi / 72 * scale


def four_panels():
    """A wide multi-panel figure with small labels (as a lesson's four-order comparison draws it)."""
    fig = plots.new_figure(figsize=(12, 3))
    for i, ax in enumerate(fig.subplots(1, 4)):
        ax.bar([1, 2, 3], [0.2, 0.5, 0.9])
        ax.set_ylabel("context precision@k", fontsize=7)
        ax.set_title(f"order {i + 1}", fontsize=8)
        ax.tick_params(labelsize=6)
    return fig


FIGURES = {
    "per-k terms": lambda: plots.plot_per_k_terms(metrics.context_precision([0, 1, 1, 0, 0])),
    "statements": lambda: plots.plot_statements(metrics.faithfulness(
        ["Einstein was born in Germany.", "Einstein was born on 20th March 1879."], ["yes", "no"])),
    "entity sets": lambda: plots.plot_entity_sets(metrics.context_entity_recall(["Taj Mahal", "Agra"], ["Agra"])),
    "scores": lambda: plots.plot_scores({"context precision": 0.58, "nDCG@5": 0.71}),
    "four panels": four_panels,
}


@pytest.mark.parametrize("name", list(FIGURES))
def test_no_text_under_10_px_and_none_cut(name: str) -> None:
    from matplotlib.image import imread
    from matplotlib.text import Text

    fig = FIGURES[name]()
    png = fig._repr_png_()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    assert texts
    small = [(t.get_text(), round(rendered_px(fig, t), 1)) for t in texts
             if rendered_px(fig, t) < plots.MIN_TEXT_PX - 0.01]
    assert small == [], f"{name}: text under {plots.MIN_TEXT_PX} px as shown: {small}"
    # Cropped to what it draws: every text lies inside the saved picture.
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    drawn = fig.get_tightbbox(renderer).padded(0.05)
    height, width = imread(io.BytesIO(png)).shape[:2]
    assert abs(width - drawn.width * fig.dpi) <= 3 and abs(height - drawn.height * fig.dpi) <= 3
    ticks = {id(t) for ax in fig.axes for t in ax.get_xticklabels(which="both") + ax.get_yticklabels(which="both")}
    for t in texts:  # tick labels past an axis' limits are kept but never drawn: the labels, titles and notes
        if id(t) in ticks:
            continue
        box = t.get_window_extent(renderer).transformed(fig.dpi_scale_trans.inverted())
        assert drawn.x0 - 1e-6 <= box.x0 and box.x1 <= drawn.x1 + 1e-6, f"{name}: {t.get_text()!r} cut sideways"


def test_min_font_grows_with_a_figure_wider_than_the_notebook() -> None:
    narrow, wide = plots.new_figure(figsize=(6, 3)), plots.new_figure(figsize=(14, 3))
    assert plots.min_font_pt(narrow) == pytest.approx(plots.MIN_TEXT_PX * 72 / 100)
    assert plots.min_font_pt(wide) == pytest.approx(plots.MIN_TEXT_PX * 72 / 100 * 1400 / plots.SHOWN_WIDTH_PX)
    ax = narrow.subplots()
    ax.set_xlabel("big enough", fontsize=12)
    ax.set_ylabel("too small", fontsize=5)
    assert plots.make_readable(narrow) == 1  # only the smaller text grows
    assert ax.xaxis.label.get_fontsize() == 12
    assert ax.yaxis.label.get_fontsize() == pytest.approx(plots.min_font_pt(narrow))
