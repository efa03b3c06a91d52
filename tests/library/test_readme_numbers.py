"""The embedding numbers the README quotes are the ones the shipped recording gives."""

from conftest import REPO
from ragmetrics_edu import examples, metrics
from ragmetrics_edu.embeddings import HashingEmbedder
from ragmetrics_edu.embeddings.recorded import RecordedEmbedder


def test_readme_quotes_the_recorded_france_and_einstein_cosines():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Embedders"):readme.index("### How sure are we?")]
    recorded, hashing = RecordedEmbedder(), HashingEmbedder()
    france = "Where is France and what is it's capital?", "In which part of Europe is France located?"
    for embedder in (recorded, hashing):
        cos = metrics.semantic_similarity(*france, embedder=embedder).score
        assert f"{cos:.3f}" in section, (embedder.name, cos)
    for embedder in (recorded, hashing):
        for label, result in examples.load("E-ass-einstein").compute_all(embedder=embedder).items():
            assert f"{result.score:.3f}" in section, (label, embedder.name, result.score)
