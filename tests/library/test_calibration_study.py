"""The calibration study (lessons 06-07) as library functions: labelled pairs' cosines under an embedder,
their ranges, the pairs two embedders split, the histograms."""

import json

import pytest

from ragmetrics_edu import data, examples
from ragmetrics_edu.embeddings import HashingEmbedder, cosine_parts
from ragmetrics_edu.embeddings.recorded import RecordedEmbedder
from ragmetrics_edu.studies import calibration as cal

PAIRS = json.loads(data.path("calibration_pairs.json").read_text(encoding="utf-8"))["pairs"]


@pytest.fixture(scope="module")
def recorded():
    return RecordedEmbedder()


def test_pair_cosines_equal_the_cosine_of_each_embedders_vectors(recorded):
    ex = examples.load("E-ar-france")
    a, b = ex.inputs["question"], ex.inputs["generated_questions_low"][0]
    got = cal.pair_cosines({"france": (a, b)}, {"minilm": recorded, "hashing": None})
    assert got["france"]["minilm"] == cosine_parts(*recorded.embed([a, b]))[3]
    assert got["france"]["hashing"] == cosine_parts(*HashingEmbedder().embed([a, b]))[3]
    assert got["france"]["minilm"] > 0.6 and got["france"]["hashing"] < 0.35


def test_threshold_splits_find_pairs_the_two_embedders_put_on_different_sides(recorded):
    neural, hashing = cal.calibration_cosines(PAIRS, recorded), cal.calibration_cosines(PAIRS, None)
    splits = cal.threshold_splits(neural, hashing, 0.5)
    assert splits and all((s["cosine_a"] >= 0.5) != (s["cosine_b"] >= 0.5) for s in splits)
    expected = sum((x["cosine"] >= 0.5) != (y["cosine"] >= 0.5) for x, y in zip(neural, hashing, strict=True))
    assert len(splits) == expected
    assert any(s["label"] == "paraphrase" and s["cosine_a"] >= 0.5 > s["cosine_b"] for s in splits)
    with pytest.raises(ValueError):
        cal.threshold_splits(neural, list(reversed(hashing)))


def test_plot_calibration_draws_a_histogram_per_embedder_with_the_threshold_counts(recorded):
    rows = {"MiniLM": cal.calibration_cosines(PAIRS, recorded), "hashing": cal.calibration_cosines(PAIRS, None)}
    fig = cal.plot_calibration(rows, threshold=0.5)
    assert len(fig.axes) == 2 and fig._repr_png_().startswith(b"\x89PNG")
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    above = sum(r["cosine"] >= 0.5 for r in rows["MiniLM"] if r["label"] == "paraphrase")
    assert legend[-1] == f"paraphrase (22, {above} at or above 0.5)"
    bars = sum(p.get_height() for p in fig.axes[0].patches)
    assert bars == len(rows["MiniLM"])  # every pair lands in a bin
    with pytest.raises(ValueError):
        cal.plot_calibration({})


@pytest.mark.parametrize("bad", [None, [{"label": "close", "a": "x", "b": "y"}], [{"label": "related", "a": "", "b": "y"}]])
def test_calibration_cosines_refuse_pairs_that_are_not_labelled_pairs(bad):
    with pytest.raises(ValueError, match="pairs"):
        cal.calibration_cosines(bad)
