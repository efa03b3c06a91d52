"""The recorded all-MiniLM-L6-v2 vectors: provenance, coverage of every text the course embeds,
the replay embedder and its errors, and the recorder's checks (offline, no torch, no numpy)."""

import ast
import json
import math
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from ragmetrics_edu import InputError, examples, metrics
from ragmetrics_edu.course import embedding_texts as et
from ragmetrics_edu.embeddings import EmbedderUnavailable, HashingEmbedder, SentenceTransformerEmbedder, cosine_parts
from ragmetrics_edu.embeddings import recorded as rec
from ragmetrics_edu.metrics import SPECS
from ragmetrics_edu.studies import calibration as cal

ROOT = Path(__file__).resolve().parents[2]
#: calls whose arguments are embedded: the metrics (and judge steps) that take an embedder, and embed itself
EMBEDDING_CALLS = {spec.name for spec in SPECS.where(embedder=True)} | {"embed"}
EMBEDDED_KEYWORDS = {"generated", "generated_questions", "answer", "ground_truth", "question"}


@pytest.fixture(scope="module")
def recorded():
    return rec.RecordedEmbedder()


def test_recording_names_its_model_weights_versions_date_and_how(recorded):
    assert recorded.model == "all-MiniLM-L6-v2" and recorded.dim == 384
    assert recorded.weights_sha256 == rec.KNOWN_WEIGHTS["all-MiniLM-L6-v2"]
    assert {"torch", "sentence-transformers", "transformers"} <= set(recorded.versions)
    assert "cpu" in recorded.versions["torch"]  # recorded with the CPU build
    assert datetime.fromisoformat(recorded.date).year >= 2026
    assert "record-embeddings" in recorded.how and "float16" in recorded.how
    assert recorded.name == "recorded:all-MiniLM-L6-v2 (384-d)"
    document = json.loads(rec._read(rec.DEFAULT_RECORDING)[1].read_text(encoding="utf-8"))
    assert "/work/" not in json.dumps({k: v for k, v in document.items() if k != "vectors"})  # no machine paths


def test_recording_is_compact():
    size = rec._read(rec.DEFAULT_RECORDING)[1].stat().st_size
    assert size < 400_000, size


def test_recording_covers_every_text_the_course_embeds(recorded):
    groups = et.course_text_groups()
    assert set(groups) == {"decks", "exercises", "notebooks", "judge", "datasets", "retrieval", "calibration"}
    assert all(groups.values()), [g for g, texts in groups.items() if not texts]
    missing = [t for t in et.course_texts() if t not in recorded]
    assert not missing, f"re-record with `ragmetrics-edu record-embeddings`: {missing[:5]}"


def _embedded_literals(tree):
    """String constants passed to an embedding call, or under a keyword naming an embedded text."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "attr", None) or getattr(func, "id", None)
            parts = list(node.args) if name in EMBEDDING_CALLS else []
            parts += [k.value for k in node.keywords if k.arg in EMBEDDED_KEYWORDS or name in EMBEDDING_CALLS]
            for part in parts:
                found += [c.value for c in ast.walk(part) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    return found


@pytest.mark.parametrize("notebook", ["06_answer_relevancy.ipynb", "07_similarity_and_correctness.ipynb",
                                      "09_evaluate_a_retriever.ipynb"])
def test_texts_typed_into_the_notebooks_are_course_texts(notebook):
    path = ROOT / "notebooks" / notebook
    if not path.is_file():
        pytest.skip("notebooks are not shipped with the package")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    literals = []
    for cell in cells:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
            literals += _embedded_literals(ast.parse(source))
    sentences = [s for s in literals if " " in s.strip() and len(s) > 12]
    # the toy 2-d embedder of notebook 07 has its own vectors and is not a real model
    known = set(et.course_texts()) | {"The lake is warm.", "The lake is frozen."}
    assert [s for s in sentences if s not in known] == []


def test_vectors_are_unit_length_within_float16_rounding(recorded):
    vectors = recorded.embed(recorded.texts)
    norms = [math.sqrt(math.fsum(x * x for x in v)) for v in vectors]
    assert len(vectors) == len(recorded) and all(len(v) == 384 for v in vectors)
    assert max(abs(n - 1) for n in norms) < 2e-3


def test_float16_round_trip_and_length_check():
    v = [0.5, -0.25, 0.1234, 1e-3]
    back = rec.decode_vector(rec.encode_vector(v), 4)
    assert back[:2] == [0.5, -0.25] and max(abs(a - b) for a, b in zip(v, back, strict=True)) < 1e-3
    with pytest.raises(rec.RecordingError, match="3 values"):
        rec.decode_vector(rec.encode_vector([1.0, 2.0, 3.0]), 4)


def test_a_text_not_recorded_raises_a_clear_error_with_the_command(recorded):
    with pytest.raises(rec.MissingEmbeddingError) as info:
        recorded.embed(["Where is France and what is it's capital?", "A sentence nobody recorded."])
    message = str(info.value)
    assert isinstance(info.value, InputError) and info.value.field == "texts"
    assert "A sentence nobody recorded." in message and "ragmetrics-edu record-embeddings" in message
    assert "--text" in message
    with pytest.raises(rec.MissingEmbeddingError):  # through a metric too: no silent fallback
        metrics.semantic_similarity("A sentence nobody recorded.", "Paris is the capital of France.",
                                    embedder=recorded)
    with pytest.raises(InputError, match="texts"):
        recorded.embed("a string, not a list")


def test_bad_recordings_are_refused(tmp_path):
    with pytest.raises(InputError, match="name"):
        rec.RecordedEmbedder("no-such-recording")
    with pytest.raises(rec.RecordingError, match="No embedding recording"):
        rec.RecordedEmbedder(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"model": "x", "vectors": []}), encoding="utf-8")
    with pytest.raises(rec.RecordingError, match="weights_sha256"):
        rec.RecordedEmbedder(str(bad))


def test_france_pair_is_in_a_neural_range_and_far_above_the_hashing_stand_in(recorded):
    ex = examples.load("E-ar-france")
    question, first = ex.inputs["question"], ex.inputs["generated_questions_low"][0]
    neural = cosine_parts(*recorded.embed([question, first]))[3]
    hashing = cosine_parts(*HashingEmbedder().embed([question, first]))[3]
    assert neural > 0.6 and hashing < 0.35 and neural > 2 * hashing
    result = ex.compute("low", embedder=recorded)
    assert result.inputs["embedder"] == "recorded:all-MiniLM-L6-v2 (384-d)"
    assert any("recorded:all-MiniLM-L6-v2 (384-d)" in note for note in result.notes)
    assert 0.6 < result.score < 1.0


def test_einstein_answers_keep_their_order_under_the_model(recorded):
    results = examples.load("E-ass-einstein").compute_all(embedder=recorded)
    assert results["high"].score > results["low"].score > 0.3


def test_calibration_pairs_are_labelled_and_the_model_separates_the_classes(recorded):
    pairs = et.calibration_pairs()
    counts = {label: sum(p["label"] == label for p in pairs) for label in et.LABELS}
    assert min(counts.values()) >= 20, counts
    assert len({(p["a"], p["b"]) for p in pairs}) == len(pairs)
    summary = cal.calibration_summary(cal.calibration_cosines(et.calibration_pairs(), recorded))
    means = [summary[label]["mean"] for label in et.LABELS]
    assert means == sorted(means) and means[0] < 0.2 < means[2]
    assert summary["unrelated"]["max"] < summary["paraphrase"]["median"]
    hashing = cal.calibration_summary(cal.calibration_cosines(et.calibration_pairs(), HashingEmbedder()))
    assert hashing["paraphrase"]["median"] < summary["paraphrase"]["median"]


def test_dense_retriever_from_the_recording_scores_every_corpus_question(recorded):
    from ragmetrics_edu import retrieval

    corpus = retrieval.load_corpus()
    dense = retrieval.EmbeddingRetriever(corpus, recorded, min_score=None)
    rows = retrieval.evaluate_retriever(dense, corpus.questions, k=5)
    assert len(rows) == len(corpus.questions) and dense.name == "embedding (recorded:all-MiniLM-L6-v2 (384-d))"


def test_importing_the_embedding_modules_imports_no_heavy_library():
    code = ("import sys; import ragmetrics_edu.embeddings, ragmetrics_edu.embeddings.recorded, "
            "ragmetrics_edu.course.embedding_texts; from ragmetrics_edu.embeddings.recorded import RecordedEmbedder; "
            "RecordedEmbedder().embed(['Paris is the capital of France.']); "
            "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers', 'numpy', 'pandas') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_sentence_transformer_embedder_without_the_extra_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if not installed
    with pytest.raises(EmbedderUnavailable, match="download.pytorch.org/whl/cpu") as info:
        SentenceTransformerEmbedder("all-MiniLM-L6-v2")
    assert isinstance(info.value, OSError) and "RecordedEmbedder" in str(info.value)


def test_sentence_transformer_embedder_checks_its_arguments_before_loading(tmp_path):
    with pytest.raises(InputError, match="model"):
        SentenceTransformerEmbedder("./no/such/model-folder")
    with pytest.raises(InputError, match="modules.json"):
        SentenceTransformerEmbedder(str(tmp_path))  # a folder with no model in it
    for bad in ({"batch_size": 0}, {"batch_size": True}, {"label": ""}):
        with pytest.raises(InputError):
            SentenceTransformerEmbedder("all-MiniLM-L6-v2", **bad)
    with pytest.raises(InputError, match="model"):
        SentenceTransformerEmbedder("")


def _fake_model(folder, weights=b"not the real weights"):
    folder.mkdir()
    (folder / "modules.json").write_text("[]", encoding="utf-8")
    (folder / "model.safetensors").write_bytes(weights)
    return folder


def test_recorder_refuses_weights_with_another_sha256_before_loading_them(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # the check must come first
    model = _fake_model(tmp_path / "all-MiniLM-L6-v2")
    out = tmp_path / "out.json"
    with pytest.raises(rec.RecordingError, match="known to ragmetrics-edu"):
        rec.record_embeddings(model, out, texts=["a text"])  # label from the folder: the known model
    with pytest.raises(rec.RecordingError, match="given"):
        rec.record_embeddings(model, out, texts=["a text"], label="mine", sha256="0" * 64)
    out.write_text(json.dumps({"model": "mine", "weights_sha256": "1" * 64}), encoding="utf-8")
    with pytest.raises(rec.RecordingError, match="stored in out.json"):
        rec.record_embeddings(model, out, texts=["a text"], label="mine")
    with pytest.raises(InputError, match="sha256"):
        rec.record_embeddings(model, out, texts=["a text"], sha256="not hex")
    assert not (tmp_path / "out.json.tmp").exists()


def test_record_embeddings_command_line(tmp_path, monkeypatch, capsys):
    from ragmetrics_edu.cli import main

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    model = _fake_model(tmp_path / "m")
    code = main(["record-embeddings", "--model", str(model), "--out", str(tmp_path / "o.json"), "--sha256", "0" * 64,
                 "--text", "x"])
    assert code == 2 and "refusing to record" in capsys.readouterr().err
    import argparse

    parser = argparse.ArgumentParser()
    rec.add_record_embeddings_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["record-embeddings", "--model", "m", "--only-given"])
    with pytest.raises(InputError, match="--only-given"):
        rec.run_record_embeddings(args)
    args = parser.parse_args(["record-embeddings", "--model", "m"])
    assert args.out.endswith("recordings/all-minilm-l6-v2_course-texts.json") and args.batch_size == 32
