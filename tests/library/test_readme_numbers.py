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


def test_readme_counts_the_notebooks_and_decks_the_repository_has():
    # Counted from the files, so a new lesson that the README forgets fails here ("00-15", "nine"
    # decks and "14 notebooks" once outlived two new lessons).
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    notebooks = sorted(p.name for p in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    decks = sorted(p.name for p in (REPO / "slides").glob("[0-9][0-9]_*.ipynb"))
    assert len(notebooks) >= 17 and len(decks) >= 17
    numbers = f"{notebooks[0][:2]}-{notebooks[-1][:2]}"
    assert f"notebooks/        the course {numbers}," in readme
    assert f"the lecture decks as notebooks ({decks[0][:2]}-{decks[-1][:2]})" in readme
    deck_counts = re.findall(r"(\d+) reveal\.js decks", readme)
    assert deck_counts and set(deck_counts) == {str(len(decks))}, deck_counts
    assert set(re.findall(r"all (\d+) notebooks", readme)) <= {str(len(notebooks))}
    words = r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen)"
    # (the five source decks, A-E, are another matter)
    assert not re.search(words + r" (?:reveal\.js decks|lecture decks|notebooks)\b", readme), "a count in words"
