"""Retrieval: a hand-judged corpus, two retrievers, pooling, and comparing retrievers fairly.

- :mod:`.corpus` - the lab's passages and questions with graded judgements (:func:`load_corpus`);
- :mod:`.retrievers` - :class:`BM25Retriever`, :class:`EmbeddingRetriever` and
  :func:`evaluate_retriever` (each top-k list scored with :mod:`ragmetrics_edu.metrics`);
- :mod:`.pooling` - how the judgements were made: judge only what some system ranked high;
- :mod:`.comparison` - two retrievers question by question, with intervals and paired tests;
- :mod:`.figures` - each retriever's mean per measure, side by side.

The words BM25 counts come from :func:`ragmetrics_edu.text.tokenize` (re-exported here).
"""

from __future__ import annotations

from ..text import STOP_WORDS, light_stem, tokenize
from .comparison import compare_retrievers, intervals_by_size, neither_answers
from .corpus import CORPUS_PATH, Corpus, Passage, Question, corpus_from_dict, load_corpus, passage_list
from .figures import plot_retriever_comparison
from .pooling import pool, pool_only_question, pooling_table
from .retrievers import LABELS, MEASURES, BM25Retriever, EmbeddingRetriever, evaluate_retriever, mean_scores

__all__ = [
    "BM25Retriever", "CORPUS_PATH", "Corpus", "EmbeddingRetriever", "LABELS", "MEASURES", "Passage", "Question",
    "STOP_WORDS", "compare_retrievers", "corpus_from_dict", "evaluate_retriever", "intervals_by_size", "light_stem",
    "load_corpus", "mean_scores", "neither_answers", "passage_list", "plot_retriever_comparison", "pool",
    "pool_only_question", "pooling_table", "tokenize",
]
