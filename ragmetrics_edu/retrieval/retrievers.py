"""A tiny retrieval lab: a hand-judged corpus, two retrievers and their evaluation.

- :func:`load_corpus` reads ``data/retrieval_corpus.json``: 66 short passages written for
  this project and 54 questions, each with relevance judgements made by the project (*qrels*:
  grade 2 = answers the question, 1 = partly relevant, not listed = 0), the passages judged
  for each question (``judged``, built by pooling: see :mod:`ragmetrics_edu.retrieval.pooling`) and how
  the question relates to its answer's wording (``kind``).
- :class:`BM25Retriever` ranks by Okapi BM25 (k1 = 1.5, b = 0.75) over the words of
  :func:`tokenize`; :meth:`BM25Retriever.explain` gives each query term's idf, tf and
  contribution, as a :class:`~ragmetrics_edu.results.MetricResult`.
- :class:`EmbeddingRetriever` ranks by the cosine of embeddings from any embedder
  (the offline :class:`~ragmetrics_edu.embeddings.HashingEmbedder` by default).
- :func:`evaluate_retriever` turns each top-k list into relevance verdicts from the qrels
  and scores it with :mod:`ragmetrics_edu.metrics` (context precision, average precision,
  recall@k, reciprocal rank, nDCG@k).

Pure Python: nothing here imports numpy, pandas or matplotlib.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Callable, Sequence

from .. import embeddings, metrics
from ..errors import InputError
from ..metrics.specs import SPECS
from ..results import MetricResult, fmt
from ..text import tokenize
from ..validate import as_list, integer, number, text
from .corpus import Question, passage_list

#: The measures :func:`evaluate_retriever` reports, in table order.
MEASURES = ("context_precision", "average_precision", "recall_at_k", "reciprocal_rank", "ndcg_at_k")
#: Each measure's name in tables and figures.
LABELS: dict[str, str] = {measure: SPECS[measure].in_text for measure in MEASURES}


def _query(query: Any) -> str:
    if not isinstance(query, str) or not query.strip():
        raise InputError("query", "a non-empty string", query)
    return query


def _k(k: Any) -> int:
    return integer("k", k, low=1, expected="an integer >= 1")


def _top(scores: list[tuple[str, float]], k: int) -> list[tuple[str, float]]:
    # sorted() is stable: equal scores keep corpus order, so rankings are deterministic.
    return sorted(scores, key=lambda item: -item[1])[:k]


# -- BM25 ------------------------------------------------------------------------------
class BM25Retriever:
    """Okapi BM25 over :func:`tokenize`'s words.

    For a query q and passage d::

        score(q, d) = sum over distinct query terms t of
                      idf(t) * tf(t, d) * (k1 + 1) / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))
        idf(t)      = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))

    N is the number of passages, n(t) how many contain t, |d| the passage's length in
    tokens and avgdl the mean length. This idf (Lucene's) is never negative. A query term
    written twice counts once. ``search`` returns only passages sharing at least one term
    with the query (score > 0), as an inverted index would. ``passages``: a Corpus, a
    list of Passage or of (id, text) pairs; None means the packaged corpus.
    """

    def __init__(self, passages: Any = None, *, k1: float = 1.5, b: float = 0.75,
                 tokenizer: Callable[[str], list[str]] = tokenize) -> None:
        k1 = number("k1", k1, "a number from 0 to 1000", low=0.0, high=1000.0)
        b = number("b", b, "a number between 0 and 1", low=0.0, high=1.0)
        if not callable(tokenizer):
            raise InputError("tokenizer", "a function text -> list of tokens", tokenizer)
        self.passages = passage_list("passages", passages)
        self.k1, self.b = float(k1), float(b)
        self.tokenizer = tokenizer
        self.name = "BM25"
        self.tokens = {p.id: list(tokenizer(p.text)) for p in self.passages}
        self.tf = {pid: Counter(toks) for pid, toks in self.tokens.items()}
        self.doc_len = {pid: len(toks) for pid, toks in self.tokens.items()}
        self.n_docs = len(self.passages)
        self.avgdl = sum(self.doc_len.values()) / self.n_docs
        self.df: Counter[str] = Counter()
        for toks in self.tokens.values():
            self.df.update(set(toks))

    def query_terms(self, query: str) -> list[str]:
        """The query's distinct terms, in order of first appearance."""
        return list(dict.fromkeys(self.tokenizer(_query(query))))

    def idf(self, term: str) -> float:
        """Inverse document frequency of a (tokenised) term: log(1 + (N - n + 0.5) / (n + 0.5))."""
        n = self.df.get(text("term", term), 0)
        return math.log(1 + (self.n_docs - n + 0.5) / (n + 0.5))

    def _term_rows(self, terms: list[str], passage_id: str) -> list[dict[str, Any]]:
        tf, dl = self.tf[passage_id], self.doc_len[passage_id]
        norm = self.k1 * (1 - self.b + self.b * dl / self.avgdl)
        rows = []
        for t in terms:
            f = tf.get(t, 0)
            saturation = f * (self.k1 + 1) / (f + norm) if f else 0.0
            rows.append({"term": t, "df": self.df.get(t, 0), "idf": self.idf(t), "tf": f,
                         "tf_part": saturation, "contribution": self.idf(t) * saturation})
        return rows

    def score(self, query: str, passage_id: str) -> float:
        if not isinstance(passage_id, str) or passage_id not in self.tf:
            raise InputError("passage_id", "the id of a passage of this retriever", passage_id)
        return math.fsum(r["contribution"] for r in self._term_rows(self.query_terms(query), passage_id))

    def search(self, query: str, k: int = 5) -> list[tuple[str, float]]:
        """The top ``k`` (passage_id, score) pairs, best first; passages scoring 0 are left out."""
        terms, k = self.query_terms(query), _k(k)
        scores = [(p.id, math.fsum(r["contribution"] for r in self._term_rows(terms, p.id))) for p in self.passages]
        return _top([s for s in scores if s[1] > 0], k)

    def explain(self, query: str, passage_id: str) -> MetricResult:
        """One row per query term: df, idf, tf, the saturated tf part and the term's contribution."""
        if not isinstance(passage_id, str) or passage_id not in self.tf:
            raise InputError("passage_id", "the id of a passage of this retriever", passage_id)
        terms = self.query_terms(query)
        rows = self._term_rows(terms, passage_id)
        total = math.fsum(r["contribution"] for r in rows)
        dl = self.doc_len[passage_id]
        used = [r for r in rows if r["tf"]]
        parts = " + ".join(rf"{fmt(r['idf'], 4)}\cdot{fmt(r['tf_part'], 4)}" for r in used) or "0"
        return MetricResult(
            metric="bm25", variant=passage_id, score=total,
            columns=("term", "df", "idf", "tf", "tf_part", "contribution"), rows=rows,
            values={"N": self.n_docs, "avgdl": self.avgdl, "doc_len": dl, "k1": self.k1, "b": self.b},
            formula=rf"\mathrm{{BM25}} = {parts} = {fmt(total)}",
            formula_general=(r"\sum_{t\in q}\ln\!\left(1+\frac{N-n_t+0.5}{n_t+0.5}\right)\cdot"
                             r"\frac{f_{t,d}\,(k_1+1)}{f_{t,d}+k_1\left(1-b+b\,\frac{|d|}{\mathrm{avgdl}}\right)}"),
            narrative=[f"Query terms after tokenising: {terms}.",
                       f"Passage {passage_id} has {dl} tokens; the mean over the {self.n_docs} passages is "
                       f"{fmt(self.avgdl, 3)}, so its length factor is {fmt(1 - self.b + self.b * dl / self.avgdl, 3)}.",
                       "Each term adds idf × saturated tf; terms absent from the passage add 0."],
            notes=[] if used else ["No query term occurs in this passage: its BM25 score is 0."],
            inputs={"query": query, "passage_id": passage_id},
        )

    def __repr__(self) -> str:
        return f"BM25Retriever({self.n_docs} passages, k1={fmt(self.k1)}, b={fmt(self.b)})"


# -- embeddings -----------------------------------------------------------------------
class EmbeddingRetriever:
    """Ranks passages by the cosine of their embedding to the query's embedding.

    ``embedder``: anything with ``embed(texts)`` (see :mod:`ragmetrics_edu.embeddings`);
    None uses the offline :class:`~ragmetrics_edu.embeddings.HashingEmbedder`, a hashed
    bag of words and word pairs, so this "semantic" retriever is still lexical. Pass
    ``SentenceTransformerEmbedder()`` for a neural one. ``passages`` as for
    :class:`BM25Retriever` (None: the packaged corpus).

    ``search`` leaves out passages whose cosine is not above ``min_score`` (0 by default:
    with the hashing embedder a cosine of 0 means nothing in common, and keeping such
    passages would fill the list in corpus order). ``min_score=None`` keeps every passage.
    """

    def __init__(self, passages: Any = None, embedder: Any = None, *, min_score: float | None = 0.0) -> None:
        if min_score is not None:
            min_score = number("min_score", min_score, "a number (cosines at or below it are left out) or None")
        self.min_score = None if min_score is None else float(min_score)
        self.passages = passage_list("passages", passages)
        self.embedder = embeddings.resolve(embedder)
        self.name = f"embedding ({embeddings.embedder_name(self.embedder)})"
        vectors = self.embedder.embed([p.text for p in self.passages])
        if len(vectors) != len(self.passages):
            raise InputError("embedder", f"one vector per passage ({len(self.passages)})", len(vectors))
        self.vectors = {p.id: list(v) for p, v in zip(self.passages, vectors, strict=True)}
        self._norms = {pid: math.sqrt(math.fsum(x * x for x in v)) for pid, v in self.vectors.items()}

    def _cosines(self, query: str) -> list[tuple[str, float]]:
        """Cosine of the query to every passage, equal to ``embeddings.cosine_parts``.

        Only the query's non-zero coordinates are multiplied (the hashing embedder's
        vectors are mostly zeros), and the passage norms are computed once."""
        q = self._embed_query(query)
        dim = len(next(iter(self.vectors.values())))
        if len(q) != dim:
            raise InputError("embedder", f"query vectors of the passages' length ({dim})", len(q))
        nonzero = [(i, x) for i, x in enumerate(q) if x]
        nq = math.sqrt(math.fsum(x * x for _, x in nonzero))
        out = []
        for p in self.passages:
            v, nv = self.vectors[p.id], self._norms[p.id]
            dot = math.fsum(x * v[i] for i, x in nonzero)
            out.append((p.id, dot / (nq * nv) if nq and nv else 0.0))
        return out

    def _embed_query(self, query: str) -> list[float]:
        return list(self.embedder.embed([_query(query)])[0])

    def similarity(self, query: str, passage_id: str) -> float:
        if not isinstance(passage_id, str) or passage_id not in self.vectors:
            raise InputError("passage_id", "the id of a passage of this retriever", passage_id)
        return embeddings.cosine_parts(self._embed_query(query), self.vectors[passage_id])[3]

    def search(self, query: str, k: int = 5) -> list[tuple[str, float]]:
        """The top ``k`` (passage_id, cosine) pairs, best first (cosine above ``min_score``)."""
        k = _k(k)
        scores = self._cosines(query)
        if self.min_score is not None:
            scores = [s for s in scores if s[1] > self.min_score]
        return _top(scores, k)

    def explain(self, query: str, passage_id: str) -> MetricResult:
        """The cosine with its dot product and norms, and the features query and passage share.

        The shared-feature rows need an embedder with ``tokens(text)`` (the hashing one);
        for a neural embedder only the cosine and its parts are given."""
        if not isinstance(passage_id, str) or passage_id not in self.vectors:
            raise InputError("passage_id", "the id of a passage of this retriever", passage_id)
        q = self._embed_query(query)
        dot, nq, npass, cos = embeddings.cosine_parts(q, self.vectors[passage_id])
        tokens = getattr(self.embedder, "tokens", None)
        rows: list[dict[str, Any]] = []
        values: dict[str, Any] = {"dot": dot, "norm_query": nq, "norm_passage": npass}
        notes: list[str] = []
        if callable(tokens):
            qf, pf = Counter(tokens(query)), Counter(tokens(self._text(passage_id)))
            rows = [{"feature": f, "in_query": qf[f], "in_passage": pf[f], "product": qf[f] * pf[f]}
                    for f in qf if f in pf]
            values.update(query_features=sum(qf.values()), passage_features=sum(pf.values()),
                          shared_product_sum=sum(r["product"] for r in rows))
            if abs(values["shared_product_sum"] - dot) > 1e-9:
                notes.append("The dot product differs from the sum over shared features because two different "
                             "features landed in the same hashed slot (a collision).")
        else:
            notes.append("This embedder has no tokens(): a neural model's dimensions are not words.")
        return MetricResult(
            metric="cosine", variant=passage_id, score=cos,
            columns=("feature", "in_query", "in_passage", "product"), rows=rows, values=values,
            formula=rf"\cos = \frac{{{fmt(dot)}}}{{{fmt(nq, 3)}\cdot{fmt(npass, 3)}}} = {fmt(cos)}",
            formula_general=r"\cos(q, d) = \frac{q\cdot d}{\lVert q\rVert\,\lVert d\rVert}",
            narrative=["Embed the query and the passage.", "Divide their dot product by the product of their norms."],
            notes=notes, inputs={"query": query, "passage_id": passage_id},
        )

    def collisions(self, queries: Sequence[str]) -> list[tuple[str, str]]:
        """The (query, passage id) pairs whose dot product differs from the sum over the features they
        share, because two different features landed in one hashed slot: what :meth:`explain` notes for
        one pair, for every pair at once (each query embedded once). Needs an embedder with ``tokens()``."""
        tokens = getattr(self.embedder, "tokens", None)
        if not callable(tokens):
            raise InputError("embedder", "an embedder with tokens(text) (the hashing one)", self.embedder)
        queries = [text("queries", q) for q in as_list("queries", queries, iterators=True)]
        features = {p.id: Counter(tokens(p.text)) for p in self.passages}
        found = []
        for query in queries:
            nonzero = [(i, x) for i, x in enumerate(self._embed_query(query)) if x]
            qf = Counter(tokens(query))
            for p in self.passages:
                v, pf = self.vectors[p.id], features[p.id]
                dot = math.fsum(x * v[i] for i, x in nonzero)
                if abs(sum(qf[f] * pf[f] for f in qf if f in pf) - dot) > 1e-9:
                    found.append((query, p.id))
        return found

    def _text(self, passage_id: str) -> str:
        return next(p.text for p in self.passages if p.id == passage_id)

    def __repr__(self) -> str:
        return f"EmbeddingRetriever({len(self.passages)} passages, embedder={self.embedder!r})"


# -- evaluation ------------------------------------------------------------------------
def evaluate_retriever(retriever: Any, questions: Sequence[Question], k: int = 5) -> list[dict[str, Any]]:
    """Run ``retriever.search`` on each question and score its top ``k`` against the qrels.

    Per question: the retrieved ids, their grades, the verdicts (1 when grade >= 1),
    context precision (DeepEval), average precision over every relevant passage of the
    corpus, recall@k, reciprocal rank and nDCG@k (graded gains; the ideal ranking uses
    every grade in the qrels). All scores come from :mod:`ragmetrics_edu.metrics`.
    """
    if not callable(getattr(retriever, "search", None)):
        raise InputError("retriever", "an object with a search(query, k) method", retriever)
    if isinstance(questions, (str, bytes)) or not isinstance(questions, Sequence):
        raise InputError("questions", "a list of Question", questions)
    k = _k(k)
    rows = []
    for i, q in enumerate(questions):
        if not isinstance(q, Question):
            raise InputError(f"questions[{i}]", "a Question (see load_corpus().questions)", q)
        hits = list(retriever.search(q.text, k))[:k]
        ids = [h[0] for h in hits]
        grades = [q.grade(pid) for pid in ids]
        verdicts = [1 if g >= 1 else 0 for g in grades]
        total = q.total_relevant
        rows.append({
            "question": q.id, "retriever": getattr(retriever, "name", type(retriever).__name__),
            "retrieved": ids, "scores": [h[1] for h in hits], "grades": grades, "verdicts": verdicts,
            "relevant_retrieved": sum(verdicts), "total_relevant": total,
            "context_precision": metrics.context_precision(verdicts, "deepeval").score,
            "average_precision": metrics.average_precision(verdicts, total_relevant=total).score,
            "recall_at_k": metrics.recall_at_k(verdicts, k=k, total_relevant=total).score,
            "reciprocal_rank": metrics.reciprocal_rank(verdicts).score,
            "ndcg_at_k": metrics.ndcg_at_k(grades, k=k, ideal=q.ideal_gains).score,
        })
    return rows


def mean_scores(rows: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The mean of each measure over the rows of :func:`evaluate_retriever`."""
    rows = as_list("rows", rows, "the rows of evaluate_retriever (a list of dicts)")
    if not rows:
        raise InputError("rows", "at least one row of evaluate_retriever", rows)
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or any(m not in row for m in MEASURES):
            raise InputError(f"rows[{i}]", "a row of evaluate_retriever (a dict with " + ", ".join(MEASURES) + ")",
                             row)
        for m in MEASURES:
            number(f"rows[{i}][{m!r}]", row[m], "a finite number")
    return {m: math.fsum(r[m] for r in rows) / len(rows) for m in MEASURES}


__all__ = ["BM25Retriever", "EmbeddingRetriever", "LABELS", "MEASURES", "evaluate_retriever", "mean_scores"]
