"""Embedders for the embedding-based metrics, and the cosine with its parts.

The default, :class:`HashingEmbedder`, needs no download and no numpy: it lower-cases
the text, splits it into words, drops a few very common words and hashes each word
(and each pair of neighbouring words) into a fixed-size vector of counts. It is a
*teaching stand-in*: two paraphrases with different words score low, where a neural
model such as all-MiniLM-L6-v2 scores them high, so its similarities and any threshold
tuned on them do not transfer to a real model.

Any object with ``name`` and ``embed(texts) -> list of vectors`` is an embedder
(:class:`Embedder`); :class:`SentenceTransformerEmbedder` and :class:`OpenAIEmbedder`
wrap the real ones and import their libraries only when first used.
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any, Protocol, Sequence, runtime_checkable

from .errors import InputError

Vector = Sequence[float]

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOP_WORDS = frozenset(
    "a an the is are was were be been of in on at to for and or it its it's this that with as by "
    "what which who whom how".split()
)


@runtime_checkable
class Embedder(Protocol):
    """The one interface the metrics use: a name and a batch ``embed``."""

    name: str

    def embed(self, texts: Sequence[str]) -> list[Vector]: ...


class HashingEmbedder:
    """Hashed bag of words (and word pairs): offline, deterministic, pure Python."""

    def __init__(self, dim: int = 1024, bigrams: bool = True) -> None:
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 8:
            raise InputError("dim", "an integer >= 8", dim)
        self.dim = dim
        self.bigrams = bigrams
        self.name = f"hashing-bow-{dim}" + ("+bigrams" if bigrams else "")

    def tokens(self, text: str) -> list[str]:
        """The features a text is counted by (shown in notebooks to explain a score)."""
        words = [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]
        feats = list(words)
        if self.bigrams:
            feats += [f"{a} {b}" for a, b in zip(words, words[1:])]
        return feats

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vec = [0.0] * self.dim
            for feat in self.tokens(text):
                digest = hashlib.blake2b(feat.encode("utf-8"), digest_size=8).digest()
                slot = int.from_bytes(digest[:4], "little") % self.dim
                vec[slot] += 1.0 if digest[4] & 1 else -1.0
            out.append(vec)
        return out

    def __repr__(self) -> str:
        return f"HashingEmbedder(dim={self.dim}, bigrams={self.bigrams})"


class SentenceTransformerEmbedder:
    """A sentence-transformers model (e.g. all-MiniLM-L6-v2); needs the ``embeddings`` extra."""

    def __init__(self, model: str = "all-MiniLM-L6-v2", device: str = "cpu") -> None:
        self.model_name = model
        self.device = device
        self.name = f"sentence-transformers:{model.rsplit('/', 1)[-1]}"
        self._model: Any = None

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self._model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # pragma: no cover - depends on the optional extra
                raise ImportError("SentenceTransformerEmbedder needs `pip install sentence-transformers`") from exc
            self._model = SentenceTransformer(self.model_name, device=self.device)
        return [list(map(float, v)) for v in self._model.encode(list(texts))]


class OpenAIEmbedder:
    """The embeddings endpoint of OpenAI or any compatible server, through ``openai``."""

    def __init__(self, model: str = "text-embedding-3-small", *, base_url: str | None = None,
                 api_key: str | None = None, client: Any = None) -> None:
        self.model = model
        self.name = f"openai:{model}"
        self._client = client
        self._kwargs = {"base_url": base_url, "api_key": api_key}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self._client is None:
            from openai import OpenAI

            self._client = OpenAI(**{k: v for k, v in self._kwargs.items() if v is not None})
        reply = self._client.embeddings.create(model=self.model, input=list(texts))
        return [list(item.embedding) for item in reply.data]


_DEFAULT: HashingEmbedder | None = None


def default_embedder() -> HashingEmbedder:
    """The shared offline embedder used when a metric gets ``embedder=None``."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = HashingEmbedder()
    return _DEFAULT


def resolve(embedder: Any) -> Embedder:
    """Return ``embedder`` or the default; reject objects without ``embed``."""
    if embedder is None:
        return default_embedder()
    if not callable(getattr(embedder, "embed", None)):
        raise InputError("embedder", "an object with an embed(texts) method (or None for the offline default)", embedder)
    return embedder


def cosine_parts(u: Vector, v: Vector) -> tuple[float, float, float, float]:
    """Return (dot, |u|, |v|, cosine); a zero vector gives cosine 0 rather than NaN."""
    if len(u) != len(v):
        raise InputError("vectors", "two vectors of the same length", (len(u), len(v)))
    dot = math.fsum(a * b for a, b in zip(u, v))
    nu = math.sqrt(math.fsum(a * a for a in u))
    nv = math.sqrt(math.fsum(b * b for b in v))
    cos = dot / (nu * nv) if nu and nv else 0.0
    return dot, nu, nv, cos


def embedder_name(embedder: Any) -> str:
    return str(getattr(embedder, "name", type(embedder).__name__))
