"""Pooling, as TREC builds its judgements: judge only what some system ranked high.

Judging every passage for every question costs questions x passages readings. TREC instead
*pools*: for each question it takes the union of the top k of every system taking part and
has assessors judge only that pool. :func:`pool` builds one question's pool;
:func:`pooling_table` shows, per question, how large the pool was, what was judged, what was
left unjudged (and so counted as grade 0), and which relevant passages lie outside the pool.

The packaged corpus (:func:`ragmetrics_edu.retrieval.load_corpus`) was judged this way with
BM25 and the recorded all-MiniLM-L6-v2 retriever at k = 10; each question's ``judged`` list
holds the pool plus the passages its writer had in mind.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from ..errors import InputError
from ..validate import as_list, positive_int, text_list
from .corpus import Corpus, Question


def pool(retrievers: Mapping[str, Any], question: Any, k: int = 10) -> list[str]:
    """The union of every retriever's top ``k`` passage ids for ``question``, in order of first appearance."""
    if not isinstance(retrievers, Mapping) or not retrievers:
        raise InputError("retrievers", "a dict name -> retriever with search(query, k)", retrievers)
    if not isinstance(question, Question):
        raise InputError("question", "a Question (see load_corpus().questions)", question)
    top = positive_int("k", k, allow_none=False)
    assert top is not None
    ids: list[str] = []
    for name, retriever in retrievers.items():
        if not callable(getattr(retriever, "search", None)):
            raise InputError(f"retrievers[{name!r}]", "an object with a search(query, k) method", retriever)
        ids += [pid for pid, _ in retriever.search(question.text, top)]
    return list(dict.fromkeys(ids))


def pooling_table(corpus: Any, retrievers: Mapping[str, Any], k: int = 10,
                  questions: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """Per question: the pool's size, how many passages were judged and left unjudged, and relevance outside the pool.

    Columns: ``question``, ``pooled`` (size of the union of the top ``k`` lists), ``judged``
    (passages read for the question: the stored list, or the pool when none is stored),
    ``unjudged`` (the rest of the corpus, counted as grade 0), ``relevant`` (grade >= 1),
    ``relevant_in_pool``, ``outside_pool`` (ids of relevant passages no system put in its top
    ``k``: pooling alone would never have judged them) and ``pool_not_judged`` (pooled ids
    missing from the stored judgements; should be empty)."""
    if not isinstance(corpus, Corpus):
        raise InputError("corpus", "a Corpus (see load_corpus())", corpus)
    rows = []
    chosen = corpus.questions if questions is None else as_list("questions", questions, "a list of Question")
    for q in chosen:
        pooled = pool(retrievers, q, k)
        judged = list(q.judged) if q.judged is not None else pooled
        relevant = q.relevant_ids
        rows.append({
            "question": q.id, "pooled": len(pooled), "judged": len(judged),
            "unjudged": len(corpus.passages) - len(judged), "relevant": len(relevant),
            "relevant_in_pool": sum(p in pooled for p in relevant),
            "outside_pool": [p for p in relevant if p not in pooled],
            "pool_not_judged": [p for p in pooled if p not in judged],
        })
    return rows


def pool_only_question(question: Any, pooled: Sequence[str]) -> Any:
    """``question`` with its qrels cut to ``pooled``: what pure pooling would have judged relevant."""
    if not isinstance(question, Question):
        raise InputError("question", "a Question (see load_corpus().questions)", question)
    pooled = text_list("pooled", pooled)
    keep = set(pooled)
    return replace(question, qrels={p: g for p, g in question.qrels.items() if p in keep},
                   judged=tuple(p for p in (question.judged or pooled) if p in keep))


def unjudged_in_top(corpus: Any, rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """How many of the passages a retriever returned were never judged for their question.

    ``rows`` are one retriever's :func:`~ragmetrics_edu.retrieval.evaluate_retriever` rows (their
    ``question`` and ``retrieved``). Returns ``listed`` (passages returned over all rows), ``unjudged``
    (not in the question's ``judged`` list, so counted as grade 0 unread) and ``on_answer_topic``
    (unjudged passages whose topic is that of one of the question's relevant passages: a rough guide
    to which could be relevant, not a judgement). A question without a stored ``judged`` list counts
    every passage outside its qrels as unjudged."""
    if not isinstance(corpus, Corpus):
        raise InputError("corpus", "a Corpus (see load_corpus())", corpus)
    rows = as_list("rows", rows, "a list of evaluate_retriever rows")
    listed = unjudged = on_topic = 0
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or "question" not in row or "retrieved" not in row:
            raise InputError(f"rows[{i}]", "an evaluate_retriever row with 'question' and 'retrieved'", row)
        q = corpus.question(row["question"])
        judged = set(q.judged) if q.judged is not None else set(q.qrels)
        answer_topics = {corpus.passage(pid).topic for pid in q.relevant_ids}
        for pid in text_list(f"rows[{i}]['retrieved']", row["retrieved"]):
            listed += 1
            if pid not in judged:
                unjudged += 1
                on_topic += corpus.passage(pid).topic in answer_topics
    return {"listed": listed, "unjudged": unjudged, "on_answer_topic": on_topic}


__all__ = ["pool", "pool_only_question", "pooling_table", "unjudged_in_top"]
