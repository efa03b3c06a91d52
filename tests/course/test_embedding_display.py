"""The course shows each embedding number from the recorded model beside the hashing stand-in,
labelled with its source, and teaches calibration from the recording (helpers and notebooks)."""

import json
from pathlib import Path

import pytest

from ragmetrics_edu import examples
from ragmetrics_edu.course import display
from ragmetrics_edu.course import embedding_texts as et
from ragmetrics_edu.course import slides as sk
from ragmetrics_edu.embeddings import HashingEmbedder
from ragmetrics_edu.embeddings.recorded import RecordedEmbedder
from ragmetrics_edu.studies import calibration as cal

ROOT = Path(__file__).resolve().parents[2]
RECORDED_LABEL = "recorded from all-MiniLM-L6-v2 (sha256 "


@pytest.fixture(scope="module")
def recorded():
    return RecordedEmbedder()


def test_sources_name_the_recordings_model_sha256_and_date_and_the_stand_in(recorded):
    label = et.embedder_source(recorded)
    assert label == f"recorded from all-MiniLM-L6-v2 (sha256 {recorded.weights_sha256[:12]}…, {recorded.date[:10]})"
    assert et.embedder_source(HashingEmbedder()) == et.embedder_source(None) == "hashing stand-in, derived by the project"
    assert "toy" in et.embedder_source(type("Toy", (), {"name": "toy", "embed": lambda self, t: []})())


def test_show_cosines_prints_one_column_per_embedder(recorded, capsys):
    ex = examples.load("E-ass-einstein")
    pairs = {"high": (ex.inputs["answer_high"], ex.inputs["ground_truth"])}
    cosines = display.show_cosines(pairs, {"MiniLM": recorded, "hashing": HashingEmbedder()})
    out = capsys.readouterr().out
    assert "MiniLM" in out.splitlines()[0] and "hashing" in out.splitlines()[0]
    assert f"{cosines['high']['MiniLM']:.4f}" in out and f"{cosines['high']['hashing']:.4f}" in out
    display.show_sources({"MiniLM": recorded, "hashing": HashingEmbedder()})
    out = capsys.readouterr().out
    assert RECORDED_LABEL in out and "hashing: hashing stand-in, derived by the project" in out


def test_show_calibration_prints_each_label_with_its_range(recorded, capsys):
    summary = cal.calibration_summary(cal.calibration_cosines(et.calibration_pairs(), recorded))
    display.show_calibration({"MiniLM": summary})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 + len(cal.LABELS)
    assert f"{summary['paraphrase']['median']:.3f}" in lines[-1] and "paraphrase" in lines[-1]


def test_slide_fragment_names_both_sources(recorded):
    html = sk.embedder_sources({"MiniLM": recorded, "hashing": HashingEmbedder()}).html
    assert RECORDED_LABEL in html and "hashing stand-in, derived by the project" in html


def _outputs(stem):
    path = ROOT / "notebooks" / f"{stem}.ipynb"
    if not path.is_file():
        pytest.skip("notebooks are not shipped with the package")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "".join("".join(o.get("text", "")) for c in cells if c["cell_type"] == "code" for o in c.get("outputs", []))


@pytest.mark.parametrize("stem", ["06_answer_relevancy", "07_similarity_and_correctness", "09_evaluate_a_retriever"])
def test_notebooks_show_the_recorded_model_beside_the_stand_in_with_sources(stem):
    out = _outputs(stem)
    assert RECORDED_LABEL in out and "hashing stand-in, derived by the project" in out


def test_notebook_07_teaches_calibration_and_06_points_to_it(recorded):
    out = _outputs("07_similarity_and_correctness")
    summary = cal.calibration_summary(cal.calibration_cosines(et.calibration_pairs(), recorded))
    assert f"{summary['paraphrase']['median']:.3f}" in out and "unrelated" in out
    cells = json.loads((ROOT / "notebooks" / "07_similarity_and_correctness.ipynb").read_text(encoding="utf-8"))["cells"]
    assert any("plot_calibration" in "".join(c["source"]) and any("image/png" in o.get("data", {}) for o in c["outputs"])
               for c in cells if c["cell_type"] == "code")
    nb06 = json.loads((ROOT / "notebooks" / "06_answer_relevancy.ipynb").read_text(encoding="utf-8"))["cells"]
    assert any("calibration" in "".join(c["source"]).lower() and "07" in "".join(c["source"])
               for c in nb06 if c["cell_type"] == "markdown")


def test_notebook_09_compares_bm25_with_the_recorded_dense_retriever():
    out = _outputs("09_evaluate_a_retriever")
    assert "embedder=RecordedEmbedder(" in out and "vs MiniLM" in out
    assert "Neural retriever skipped" not in out


@pytest.mark.parametrize("stem", ["06_answer_relevancy", "07_similarity_and_correctness"])
def test_decks_compute_the_neural_number_beside_the_stand_in_and_a_calibration_slide(stem):
    cells = json.loads((ROOT / "slides" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "RecordedEmbedder" in code and "embedder_sources" in code
    assert "calibration_summary" in code or "plot_calibration" in code
