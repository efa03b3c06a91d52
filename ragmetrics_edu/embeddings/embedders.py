"""Embedders for the embedding-based metrics, and the cosine with its parts.

The default, :class:`HashingEmbedder`, needs no download and no numpy: it lower-cases
the text, splits it into words, drops a few very common words and hashes each word
(and each pair of neighbouring words) into a fixed-size vector of counts. It is a
*teaching stand-in*: two paraphrases with different words score low, where a neural
model such as all-MiniLM-L6-v2 scores them high, so its similarities and any threshold
tuned on them do not transfer to a real model.

Any object with ``name`` and ``embed(texts) -> list of vectors`` is an embedder
(:class:`Embedder`); :class:`SentenceTransformerEmbedder` and :class:`OpenAIEmbedder`
wrap the real ones and import their libraries only when first used (torch never at import).
Offline, :class:`ragmetrics_edu.embeddings.recorded.RecordedEmbedder` replays the vectors
all-MiniLM-L6-v2 gave for every text the course embeds.
"""

from __future__ import annotations

import hashlib
import math
import os
from pathlib import Path
from typing import Any, Protocol, Sequence, runtime_checkable

from ..cores.cosine import cosine
from ..errors import InputError, RagMetricsError, refuse_in_browser
from ..text import EMBEDDING_STOP_WORDS, words
from ..validate import as_list, flag, integer, plain, text_list

__all__ = ["Embedder", "EmbedderUnavailable", "HashingEmbedder", "OpenAIEmbedder", "SentenceTransformerEmbedder",
           "cosine_parts", "default_embedder", "embedder_name", "resolve", "weights_sha256"]

Vector = Sequence[float]



@runtime_checkable
class Embedder(Protocol):
    """The one interface the metrics use: a name and a batch ``embed``."""

    name: str

    def embed(self, texts: Sequence[str]) -> Sequence[Vector]: ...


#: Features whose slot and sign are remembered (words repeat across a file's rows: each is hashed once).
HASH_CACHE_SIZE = 100_000
_HASHES: dict[int, dict[str, tuple[int, float]]] = {}  # dim -> feature -> (slot, sign)


def _hashed(table: dict[str, tuple[int, float]], feat: str, dim: int) -> tuple[int, float]:
    """A feature's slot (the first 4 bytes of its blake2b digest, mod ``dim``) and sign (+1 or −1, from byte 5),
    remembered in ``table`` while it holds fewer than HASH_CACHE_SIZE features."""
    digest = hashlib.blake2b(feat.encode("utf-8"), digest_size=8).digest()
    found = (int.from_bytes(digest[:4], "little") % dim, 1.0 if digest[4] & 1 else -1.0)
    if len(table) < HASH_CACHE_SIZE:
        table[feat] = found
    return found


class HashingEmbedder:
    """Hashed bag of words (and word pairs): offline, deterministic, pure Python."""

    def __init__(self, dim: int = 1024, bigrams: bool = True) -> None:
        dim = integer("dim", dim, low=8, expected="an integer >= 8")
        bigrams = flag("bigrams", bigrams)
        self.dim = dim
        self.bigrams = bigrams
        self.name = f"hashing-bow-{dim}" + ("+bigrams" if bigrams else "")

    def tokens(self, text: str) -> list[str]:
        """The features a text is counted by (shown in notebooks to explain a score)."""
        kept = [w for w in words(text) if w not in EMBEDDING_STOP_WORDS]
        feats = list(kept)
        if self.bigrams:
            feats += [f"{a} {b}" for a, b in zip(kept, kept[1:], strict=False)]
        return feats

    def features(self, text: str) -> list[tuple[int, float]]:
        """Each of ``text``'s features (:meth:`tokens`) as the (slot, sign) it adds to the vector."""
        table = _HASHES.setdefault(self.dim, {})
        return [table.get(feat) or _hashed(table, feat, self.dim) for feat in self.tokens(text)]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        table = _HASHES.setdefault(self.dim, {})
        for text in text_list("texts", texts):
            vec = [0.0] * self.dim
            for feat in self.tokens(text):
                found = table.get(feat) or _hashed(table, feat, self.dim)
                vec[found[0]] += found[1]
            out.append(vec)
        return out

    def counts(self, text: str) -> dict[int, float]:
        """The non-zero slots of ``text``'s vector, slot -> value: the same numbers as :meth:`embed`'s, without
        its zeros (a text of a hundred words fills a few hundred of 1,024 slots);
        a slot whose features cancel out is left out, as a zero."""
        vec: dict[int, float] = {}
        for slot, sign in self.features(text):
            vec[slot] = vec.get(slot, 0.0) + sign  # whole numbers: exact, as embed() adds them
        return {slot: value for slot, value in vec.items() if value}

    def __repr__(self) -> str:
        return f"HashingEmbedder(dim={self.dim}, bigrams={self.bigrams})"


class EmbedderUnavailable(RagMetricsError, OSError):
    """A neural embedder cannot be loaded (library missing, model not on this machine, no network).

    The message says how to get it; it is raised at once instead of after the hub's retries."""


#: How a CPU-only machine installs the extra without the multi-GB CUDA build of torch. The package is
#: not on PyPI: the extra is installed from a clone (or unpacked download) of the repository.
INSTALL_HINT = ('pip install torch --index-url https://download.pytorch.org/whl/cpu, then, in your clone of '
                'ragmetrics-edu (it is not on PyPI), pip install -e ".[embeddings]" (or pip install '
                'sentence-transformers)')


class SentenceTransformerEmbedder:
    """A sentence-transformers model such as all-MiniLM-L6-v2; needs the ``embeddings`` extra.

    ``model``: a folder holding a saved model (loaded from disk, no network), or a model name
    on the Hugging Face hub (taken from the local cache, else downloaded once). The model is
    loaded here, so a missing library or model fails at once with :class:`EmbedderUnavailable`
    saying how to get it (with no network this takes well under a second once the library is
    imported, where sentence-transformers alone retries for about 75 s). ``name`` names the
    model and its dimension, e.g. ``sentence-transformers:all-MiniLM-L6-v2 (384-d)``;
    ``label`` replaces the model part (useful for a folder). Texts are embedded in batches of
    ``batch_size``.
    """

    def __init__(self, model: str | os.PathLike[str] = "all-MiniLM-L6-v2", *, device: str = "cpu",
                 batch_size: int = 32, label: str | None = None) -> None:
        refuse_in_browser("A neural embedder (SentenceTransformerEmbedder)", "the notebooks here use the recorded "
                          "all-MiniLM-L6-v2 vectors (RecordedEmbedder) and the hashing embedder; for a live one, install "
                          "the embeddings extra on your own machine: pip install \".[embeddings]\" in a clone")
        if not isinstance(model, (str, os.PathLike)) or not str(model).strip():
            raise InputError("model", "a model name such as 'all-MiniLM-L6-v2' or a folder holding a model", model)
        batch_size = integer("batch_size", batch_size, low=1, expected="an integer >= 1")
        if label is not None and (not isinstance(label, str) or not label.strip()):
            raise InputError("label", "a non-empty name for the model, or None", label)
        self.batch_size = batch_size
        self.device = device
        self.folder = _model_folder(model)
        self.model_name = str(model)
        self._model = _load_sentence_transformer(self.model_name, self.folder, device)
        if self.folder is None:
            self.folder = _cached_folder(self.model_name)
        self.dim = _dimension(self._model)
        short = label or (self.folder.name if self.folder is not None and self.model_name == str(self.folder)
                          else self.model_name.rstrip("/").rsplit("/", 1)[-1])
        self.label = short
        self.name = f"sentence-transformers:{short} ({self.dim}-d)"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
            raise InputError("texts", "a list of strings", texts)
        if not texts:
            return []
        vectors = self._model.encode(list(texts), batch_size=self.batch_size, convert_to_numpy=True,
                                     show_progress_bar=False)
        return [[float(x) for x in v] for v in vectors]

    def __repr__(self) -> str:
        return f"SentenceTransformerEmbedder({self.model_name!r}, device={self.device!r}) -> {self.name}"


def _model_folder(model: str | os.PathLike[str]) -> Path | None:
    """The folder ``model`` names, None for a hub name; a path that does not exist is an error."""
    text = os.fspath(model)
    candidate = Path(text).expanduser()
    if candidate.is_dir():
        if not any((candidate / f).is_file() for f in ("modules.json", "config.json")):
            raise InputError("model", "a folder holding a sentence-transformers model (modules.json, config.json)",
                             text)
        return candidate.resolve()
    # A hub name is "name" or "owner/name"; anything else that looks like a path must exist.
    looks_like_path = (isinstance(model, os.PathLike) or text.startswith((".", "/", "~")) or text.count("/") > 1
                       or "\\" in text)
    if looks_like_path or candidate.exists():
        raise InputError("model", "an existing folder holding a model, or a hub name such as 'all-MiniLM-L6-v2'", text)
    return None


def _load_sentence_transformer(name: str, folder: Path | None, device: str) -> Any:
    """Load the model: from the folder, else the hub's local cache, else the hub if it answers."""
    try:
        # lazy: an optional extra (embeddings) that pulls in torch
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise EmbedderUnavailable(f"SentenceTransformerEmbedder needs sentence-transformers and torch: "
                                  f"{INSTALL_HINT}. Offline, RecordedEmbedder() from "
                                  "ragmetrics_edu.embeddings.recorded replays a real model's vectors "
                                  "for the course's texts.") from exc
    if folder is not None:
        return SentenceTransformer(str(folder), device=device, local_files_only=True)
    try:
        return SentenceTransformer(name, device=device, local_files_only=True)
    except OSError:
        pass  # not in the cache: download it, if the hub can be reached at all
    reason = _hub_unreachable()
    if reason is None:
        return SentenceTransformer(name, device=device)
    raise EmbedderUnavailable(
        f"The model {name!r} is not in the Hugging Face cache on this machine and cannot be downloaded "
        f"({reason}). Either download it once with network (python -c \"from sentence_transformers import "
        f"SentenceTransformer; SentenceTransformer('{name}')\"), or copy a saved model folder here and pass "
        f"its path: SentenceTransformerEmbedder('/path/to/{name.rsplit('/', 1)[-1]}'). Offline, "
        "RecordedEmbedder() from ragmetrics_edu.embeddings.recorded replays all-MiniLM-L6-v2's vectors "
        "for the course's texts.")


def _hub_unreachable(timeout: float = 5.0) -> str | None:
    """Why the Hugging Face hub cannot be reached (None when it answers), in one quick request."""
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}:
        return "HF_HUB_OFFLINE is set"
    import urllib.error  # lazy: urllib.request loads http.client, ssl and email (heavy), only for this check
    import urllib.request  # lazy: as above

    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    try:
        urllib.request.urlopen(urllib.request.Request(endpoint, method="HEAD"), timeout=timeout).close()
    except urllib.error.HTTPError:
        return None  # the server answered, even if with an error status
    except (urllib.error.URLError, OSError) as exc:
        return f"{endpoint} cannot be reached: {getattr(exc, 'reason', exc)}"
    return None


def _cached_folder(name: str) -> Path | None:
    """The hub cache's folder of a model loaded by name (for its weights' sha256), if found."""
    try:
        from huggingface_hub import snapshot_download  # lazy: comes with the optional embeddings extra

        repo = name if "/" in name else f"sentence-transformers/{name}"
        return Path(snapshot_download(repo, local_files_only=True))
    except Exception:  # noqa: BLE001 - any failure means: not cached under that name
        return None


def _dimension(model: Any) -> int:
    getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
    return int(getter())


def weights_sha256(folder: str | os.PathLike[str], filename: str = "model.safetensors") -> str:
    """The sha256 of a model folder's weights file (read in 1 MiB chunks)."""
    if not isinstance(folder, (str, os.PathLike)) or not str(folder):
        raise InputError("folder", "the path of a model folder", folder)
    if not isinstance(filename, str) or not filename or "\x00" in filename:
        raise InputError("filename", "a file name such as 'model.safetensors'", filename)
    try:
        file = Path(folder) / filename
        found = file.is_file()
    except (OSError, ValueError):
        found = False
    if not found:
        raise InputError("folder", f"a model folder holding {filename}", str(folder))
    digest = hashlib.sha256()
    with file.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class OpenAIEmbedder:
    """The embeddings endpoint of OpenAI or any compatible server, through ``openai``."""

    def __init__(self, model: str = "text-embedding-3-small", *, base_url: str | None = None,
                 api_key: str | None = None, client: Any = None) -> None:
        refuse_in_browser("An embeddings endpoint (OpenAIEmbedder)", "the notebooks here use recorded vectors "
                          "(RecordedEmbedder); for a live endpoint, install the judge extra on your own machine: "
                          "pip install \".[llm]\" in a clone")
        if not isinstance(model, str) or not model.strip():
            raise InputError("model", "an embedding model name such as 'text-embedding-3-small'", model)
        self.model = model
        self.name = f"openai:{model}"
        self._client = client
        self._kwargs: dict[str, Any] = {"base_url": base_url, "api_key": api_key}

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self._client is None:
            from openai import OpenAI  # lazy: openai is an optional extra (llm)

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


def _vector(field: str, value: Any) -> list[float]:
    """A vector of finite numbers (a list, tuple or array), as a list of floats.

    The common case, plain floats and ints of modest size, is checked in one pass over the whole
    vector (notebook 09 compares thousands of 1024-slot vectors); anything else is checked element
    by element, so an error names the element."""
    items = as_list(field, value, "a vector: a list of finite numbers")
    kinds = set(map(type, items))
    if kinds <= {float, int}:
        try:
            total = math.fsum(map(abs, items))
        except OverflowError:
            total = math.inf
        if total <= 1e150:  # False for NaN and inf too
            return items if kinds == {float} else [float(x) for x in items]  # as_list made items a new list
    out = []
    for i, x in enumerate(items):
        x = plain(x)
        if isinstance(x, bool) or not isinstance(x, (int, float)) and not hasattr(x, "__float__"):
            raise InputError(f"{field}[{i}]", "a finite number", x)
        try:
            f = float(x)
        except (OverflowError, TypeError, ValueError):
            raise InputError(f"{field}[{i}]", "a finite number", x) from None
        if not math.isfinite(f) or abs(f) > 1e150:
            raise InputError(f"{field}[{i}]", "a finite number of magnitude at most 1e150", x)
        out.append(f)
    return out


def cosine_parts(u: Vector, v: Vector) -> tuple[float, float, float, float]:
    """Return (dot, |u|, |v|, cosine); a zero vector gives cosine 0 rather than NaN."""
    u, v = _vector("u", u), _vector("v", v)
    if len(u) != len(v):
        raise InputError("vectors", "two vectors of the same length", (len(u), len(v)))
    return cosine(u, v)  # the one cosine: ragmetrics_edu/cores/cosine.py


def embedder_name(embedder: Any) -> str:
    return str(getattr(embedder, "name", type(embedder).__name__))
