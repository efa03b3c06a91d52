"""Embedders for the embedding-based metrics, and vectors recorded from a real model.

- :mod:`.embedders` - the :class:`Embedder` interface; :class:`HashingEmbedder` (offline, the
  default teaching stand-in), :class:`SentenceTransformerEmbedder` and :class:`OpenAIEmbedder`
  (real models, their libraries imported only when first used); the cosine with its parts.
- :mod:`.recorded` - :class:`~ragmetrics_edu.embeddings.recorded.RecordedEmbedder` replays the
  vectors all-MiniLM-L6-v2 gave for every text the course embeds, offline, and
  :func:`~ragmetrics_edu.embeddings.recorded.record_embeddings` makes such a recording. Import it
  from there (``from ragmetrics_edu.embeddings.recorded import RecordedEmbedder``): this package
  itself stays light, because every metric imports it.
"""

from __future__ import annotations

from .embedders import (
    Embedder,
    EmbedderUnavailable,
    HashingEmbedder,
    OpenAIEmbedder,
    SentenceTransformerEmbedder,
    cosine_parts,
    default_embedder,
    embedder_name,
    resolve,
    weights_sha256,
)

__all__ = ["Embedder", "EmbedderUnavailable", "HashingEmbedder", "OpenAIEmbedder", "SentenceTransformerEmbedder",
           "cosine_parts", "default_embedder", "embedder_name", "resolve", "weights_sha256"]
