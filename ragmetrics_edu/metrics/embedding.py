"""Embedding-based metrics: answer relevancy (Ragas' generated-question form) and
answer semantic similarity. Both keep the cosine's parts (dot product and norms).

The numbers depend on the embedder: with the offline hashing embedder they are a
teaching stand-in, not what a neural model gives (see ``ragmetrics_edu.embeddings``).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import answer_relevancy_embedding as relevancy_core
from ..cores import computed_by
from ..cores import semantic_similarity as similarity_core
from ..cores.cosine import clamp
from ..embeddings.embedders import HashingEmbedder, resolve
from ..embeddings.sparse import hashed_counts, sparse_cosine
from ..errors import InputError
from ..results import MetricResult
from ..validate import as_list
from . import checks
from .embedding_explained import clamp_cosine as clamp_cosine  # importable from here as before
from .embedding_explained import relevancy_result, similarity_result
from .scored import Scored

VARIANTS = checks.EMBEDDING_VARIANTS



#: The most generated questions one call embeds (each is embedded and compared: the work grows with them).
MAX_GENERATED = checks.MAX_GENERATED


#: what the call runs on the default embedder (a method of an object: show_code cannot find it by reading)
EMBEDDER = ("ragmetrics_edu.embeddings.embedders.HashingEmbedder.embed",
            "ragmetrics_edu.embeddings.embedders.HashingEmbedder.tokens")


@computed_by("answer_relevancy_embedding", runs=EMBEDDER)
def answer_relevancy_embedding(question: str, generated_questions: Sequence[str], embedder: Any = None,
                               noncommittal: bool | Sequence[bool] = False, *, threshold: float | None = None,
                               variant: str = "ragas") -> MetricResult:
    """Ragas 0.4 answer relevancy: mean cosine of N questions generated from the answer
    to the real question, set to 0 when every generation flagged the answer noncommittal.

    ``noncommittal``: one flag for all generations, or one per generated question.
    No generated questions: NaN with ``variant="ragas"`` (also ``"ragas_legacy"``), as the legacy
    ``ragas/metrics/_answer_relevance.py``, ``ResponseRelevancy._calculate_score``; 0.0 with
    ``"ragas_collections"``, as ``ragas/metrics/collections/answer_relevancy/metric.py``,
    ``AnswerRelevancy.ascore``. Each cosine is only clamped to [-1, 1] against float rounding.
    """
    variant, question, generated, flags, threshold = checks.answer_relevancy_embedding(
        variant, question, generated_questions, noncommittal, threshold)
    emb = resolve(embedder)
    E = emb.embed([question] + generated) if generated else [[]]
    score, rows, values = relevancy_core.answer_relevancy_embedding(E[0], E[1:], generated, flags, variant)
    return relevancy_result(score, rows, values, emb, question, generated, flags, threshold, variant)


@computed_by("semantic_similarity", runs=EMBEDDER)
def semantic_similarity(answer: str, ground_truth: str, embedder: Any = None, *,
                        threshold: float | None = None) -> MetricResult:
    """Cosine similarity of the answer's and the ground truth's embeddings (a bi-encoder).

    With ``threshold`` the score becomes 1.0 when the cosine reaches it and 0.0 otherwise,
    as Ragas does; the cosine itself stays in ``values`` and the step table. A threshold of 0
    binarises here too, whereas both Ragas APIs test ``if self.threshold:`` and so return the
    raw cosine (``ragas/metrics/_answer_similarity.py``, ``AnswerSimilarity._ascore``;
    ``ragas/metrics/collections/_semantic_similarity.py``, ``SemanticSimilarity.ascore``).
    The cosine is clamped to [-1, 1] against float rounding (a note says when).
    """
    answer, ground_truth, threshold = checks.semantic_similarity(answer, ground_truth, threshold)
    emb = resolve(embedder)
    E_a, E_g = emb.embed([answer, ground_truth])
    score, rows, values = similarity_core.semantic_similarity(E_a, E_g, threshold)
    return similarity_result(score, rows, values, emb, answer, ground_truth, threshold)


@computed_by("cosine", runs=("ragmetrics_edu.embeddings.embedders.HashingEmbedder.counts",
                              "ragmetrics_edu.embeddings.sparse.sparse_cosine"))
def semantic_similarity_batch(answers: Sequence[Any], ground_truths: Sequence[Any],
                              embedder: Any = None) -> list[Scored | None]:
    """Many cases' semantic similarity at once (``answers[i]`` against ``ground_truths[i]``): for each, the score and
    values :func:`semantic_similarity` gives, to the last bit, without building its result (evaluate()'s fast path).

    With the offline hashing embedder (the default) each text's vector is kept as its non-zero slots
    (:meth:`~ragmetrics_edu.embeddings.embedders.HashingEmbedder.counts`, kept for a text met again:
    :func:`~ragmetrics_edu.embeddings.sparse.hashed_counts`) and the cosine reads only those
    (:func:`~ragmetrics_edu.embeddings.sparse.sparse_cosine`: the same sums as :mod:`ragmetrics_edu.cores.cosine`'s
    cosine, and its ``cosine_of``); then, as :mod:`ragmetrics_edu.cores.semantic_similarity` does, the cosine is
    clamped to [-1, 1] (the cosine core's ``clamp``) and is the score. Any other
    embedder's vectors are the per-case function's to compute (every case is None), as is a case that is not two
    texts (:func:`semantic_similarity` on it says what is wrong)."""
    answers = as_list("answers", answers, "a list of answers, one per case")
    ground_truths = as_list("ground_truths", ground_truths, "a list of ground truths, one per case")
    if len(answers) != len(ground_truths):
        raise InputError("ground_truths", f"one ground truth per answer ({len(answers)})", f"{len(ground_truths)} texts")
    emb = resolve(embedder)
    if type(emb) is not HashingEmbedder:  # a subclass may embed otherwise: only the hashing embedder's own counts
        return [None] * len(answers)
    out: list[Scored | None] = []
    for answer, truth in zip(answers, ground_truths, strict=True):
        if not (isinstance(answer, str) and isinstance(truth, str)):
            out.append(None)
            continue
        dot, norm_a, norm_g, cos = sparse_cosine(hashed_counts(emb, answer), hashed_counts(emb, truth))
        sim = clamp(cos)
        out.append(Scored(sim, {"cosine": sim, "dot": dot, "norm_answer": norm_a, "norm_ground_truth": norm_g},
                          "semantic_similarity", "ragas"))
    return out
