"""The judge-free defaults' batch paths (what evaluate() scores a large file with) give the per-case functions'
numbers to the last bit: word_overlap_batch and semantic_similarity_batch against word_overlap and
semantic_similarity on a few hundred generated rows, and evaluate()'s fast path against its per-case path."""

import math
import random

import pytest

from ragmetrics_edu import InputError, evaluate, metrics
from ragmetrics_edu.embeddings import HashingEmbedder
from ragmetrics_edu.embeddings.sparse import hashed_counts, sparse_cosine
from ragmetrics_edu.metrics.scored import Scored

VOCABULARY = ("the a of is capital paris france city river seine it its which who planet planets bodies moon "
              "orbit sun star light year years 1889 5,500 weight-bearing tower built eiffel gustave iron "
              "l'arc café naïve résumé is-it Sydney's Canberra Australia").split()


def _text(rng: random.Random, low: int, high: int) -> str:
    words = [rng.choice(VOCABULARY) for _ in range(rng.randint(low, high))]
    return " ".join(words) + rng.choice(["", ".", "!", " ?"])


def _rows(n: int = 300, seed: int = 11) -> list[dict]:
    """Generated rows with the edge cases in: no content words, an empty or one-word reference, the answer as
    its own reference (cosine 1), many repeats (slots whose signs cancel), no contexts, punctuation only."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        answer = _text(rng, 1, 60)
        reference = answer if i % 17 == 0 else _text(rng, 0, 40)
        contexts = [_text(rng, 0, 80) for _ in range(rng.randint(0, 4))]
        if i % 23 == 0:
            answer = "the of a is it which"  # no content words: word overlap 0, said so
        if i % 29 == 0:
            reference = ""
        if i % 31 == 0:
            answer = " ".join(["paris paris france"] * rng.randint(5, 40))
        if i % 37 == 0:
            reference = "?!"
        rows.append({"id": f"r{i}", "question": f"question {i}?", "answer": answer, "contexts": contexts,
                     "ground_truth": reference})
    return rows


def _same(a: float, b: float) -> bool:
    """The same float to the last bit (NaN equal to NaN)."""
    return a.hex() == b.hex() if not (math.isnan(a) or math.isnan(b)) else math.isnan(a) and math.isnan(b)


def test_word_overlap_batch_is_the_per_case_function_to_the_last_bit():
    rows = _rows()
    found = metrics.word_overlap_batch([r["answer"] for r in rows], [r["contexts"] for r in rows])
    assert len(found) == len(rows) and all(isinstance(s, Scored) for s in found)
    for row, scored in zip(rows, found, strict=True):
        result = metrics.word_overlap(row["answer"], row["contexts"])
        assert _same(scored.score, result.score)
        assert scored.values == result.values
        assert (scored.metric, scored.variant) == (result.metric, result.variant)
    assert {s.score for s in found} >= {0.0, 1.0}  # the edge cases are in


def test_semantic_similarity_batch_is_the_per_case_function_to_the_last_bit():
    rows = _rows()
    found = metrics.semantic_similarity_batch([r["answer"] for r in rows], [r["ground_truth"] for r in rows])
    for row, scored in zip(rows, found, strict=True):
        result = metrics.semantic_similarity(row["answer"], row["ground_truth"])
        assert isinstance(scored, Scored)
        assert _same(scored.score, result.score), (row, scored, result.score)
        assert list(scored.values) == list(result.values)
        assert all(_same(scored.values[k], result.values[k]) for k in result.values)
        assert scored.design == "semantic_similarity (ragas)" == f"{result.metric} ({result.variant})"
    scores = [s.score for s in found]
    assert 1.0 in scores and 0.0 in scores and any(0 < s < 1 for s in scores)


def test_counts_are_the_dense_vector_without_its_zeros_and_the_sparse_cosine_is_the_cores():
    embedder = HashingEmbedder(dim=16)  # few slots: many collide, some cancel out
    rng = random.Random(3)
    cancelled = 0
    for _ in range(200):
        a, b = _text(rng, 0, 50), _text(rng, 0, 50)
        dense_a, dense_b = embedder.embed([a, b])
        counts_a, counts_b = embedder.counts(a), embedder.counts(b)
        assert [counts_a.get(slot, 0.0) for slot in range(16)] == dense_a and 0.0 not in counts_a.values()
        cancelled += sum(1 for slot, _ in embedder.features(a) if slot not in counts_a)
        dot, norm_a, norm_b, cos = sparse_cosine(counts_a, counts_b)
        expected = metrics.semantic_similarity(a, b, embedder=embedder).values
        assert [dot, norm_a, norm_b] == [expected["dot"], expected["norm_answer"], expected["norm_ground_truth"]]
        assert cos == expected["cosine"] or abs(cos) > 1  # the metric clamps a cosine rounded past 1
    assert cancelled > 0  # a slot whose features cancel is left out, and the cosine is still the same
    assert hashed_counts(embedder, "paris france") == embedder.counts("paris france")
    with pytest.raises(InputError, match="u"):
        sparse_cosine([1.0, 2.0], {})
    with pytest.raises(InputError, match="embedder"):
        hashed_counts(None, "paris")


def test_another_embedder_and_bad_cases_are_left_to_the_per_case_function():
    class Other(HashingEmbedder):
        pass

    assert metrics.semantic_similarity_batch(["a"], ["b"], embedder=Other()) == [None]
    assert metrics.semantic_similarity_batch(["a", 3], ["b", "c"])[1] is None
    assert metrics.word_overlap_batch(["a", "b", None], [["a"], "not a list", ["c"]])[1:] == [None, None]
    with pytest.raises(InputError, match="contexts"):
        metrics.word_overlap_batch(["a", "b"], [["a"]])
    with pytest.raises(InputError, match="answers"):
        metrics.semantic_similarity_batch("a text", ["b"])


def _per_case(rows: list[dict]):
    """evaluate() with the per-case functions: an option (the default threshold, None) turns the batch path off."""
    return evaluate(rows, progress=False, options={"word_overlap": {"threshold": None},
                                                   "semantic_similarity": {"threshold": None}})


def test_evaluate_fast_path_gives_the_per_case_table(monkeypatch):
    import pandas as pd

    rows = _rows(260)
    rows[5]["answer"] = "   "  # an empty answer: counted unscored by both paths
    slow = _per_case(rows)
    embedded = []
    original = HashingEmbedder.embed
    monkeypatch.setattr(HashingEmbedder, "embed", lambda self, texts: embedded.append(texts) or original(self, texts))
    fast = evaluate(rows, progress=False)
    assert embedded == []  # the defaults were scored by the batch path, not one embed() per case
    pd.testing.assert_frame_equal(fast, slow)
    for metric in ("word_overlap", "semantic_similarity"):
        assert all(_same(a, b) for a, b in zip(fast[metric], slow[metric], strict=True))
    assert "answer" in fast.loc[5, "error"] and math.isnan(fast.loc[5, "word_overlap"])
    for i in (0, 5, 17, 259):  # a case looked at is built again by the per-case function, steps and all
        again, before = fast.attrs["results"][i], slow.attrs["results"][i]
        assert again.keys() == before.keys()
        for metric in again:
            assert again[metric].to_dict() == before[metric].to_dict()


def test_evaluate_fast_path_over_several_batches_and_another_embedder():
    from ragmetrics_edu.evaluation import BATCH_ROWS

    rows = _rows(BATCH_ROWS + 40, seed=5)
    fast, slow = evaluate(rows, progress=False), _per_case(rows)
    assert list(fast["semantic_similarity"]) == list(slow["semantic_similarity"])
    assert list(fast["word_overlap_values"]) == list(slow["word_overlap_values"])
    other = HashingEmbedder(dim=64)  # not the default: still the batch path (its own counts), same numbers
    given = evaluate(rows[:50], metrics=["semantic_similarity"], embedder=other, progress=False)
    assert list(given["semantic_similarity"]) == [
        metrics.semantic_similarity(r["answer"], r["ground_truth"], embedder=other).score for r in rows[:50]]
