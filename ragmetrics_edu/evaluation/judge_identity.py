"""Which judge it was, for the comparison page and the recordings: a local weights file's sha256, what its GGUF
header says it is, the server's version and the prompts' version.

The prompt version is the package's version with the sha256 (first 12 hex digits) of every prompt template the
designs send (``ragmetrics_edu/designs/prompts/*.txt``, in name order): two runs with the same version asked
the judge the same words.
"""

from __future__ import annotations

import hashlib
import struct
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, BinaryIO

from .. import __version__, validate
from ..errors import InputError

__all__ = ["file_sha256", "prompt_version", "gguf_header", "server_version"]

PROMPTS = Path(__file__).resolve().parents[1] / "designs" / "prompts"


def file_sha256(path: Any) -> str:
    """The sha256 of a file (read in 1 MiB chunks): what ``sha256sum FILE`` prints."""
    target = validate.path("path", path, expected="an existing file")
    digest = hashlib.sha256()
    with target.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def prompt_version() -> str:
    """``ragmetrics-edu X, prompts sha256 abcdef012345``."""
    digest = hashlib.sha256()
    for file in sorted(PROMPTS.glob("*.txt")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return f"ragmetrics-edu {__version__}, prompts sha256 {digest.hexdigest()[:12]}"


_GGUF_TYPES = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_MAX_FIELD = 1 << 24  # no header field is longer than 16 MiB: a larger length means the file is not GGUF
_FILE_TYPES = {15: "Q4_K - Medium", 3: "Q4_1", 2: "Q4_0", 7: "Q8_0", 1: "F16", 0: "F32"}


class _Truncated(Exception):
    """The header ends (or says something impossible) before the keys wanted were read."""


def _read(handle: BinaryIO, n: int) -> bytes:
    data = handle.read(n) if 0 <= n <= _MAX_FIELD else b""
    if len(data) != n:
        raise _Truncated(f"a field of {n} bytes runs past the end of the file")
    return data


def _read_value(handle: BinaryIO, kind: int) -> Any:
    if kind == 8:  # string
        (length,) = struct.unpack("<Q", _read(handle, 8))
        return _read(handle, length).decode("utf-8", "replace")
    if kind == 9:  # array: element type, count, elements
        (inner,) = struct.unpack("<I", _read(handle, 4))
        (count,) = struct.unpack("<Q", _read(handle, 8))
        return [_read_value(handle, inner) for _ in range(count)]
    if kind not in _GGUF_TYPES:
        raise _Truncated(f"unknown value type {kind}")
    fmt = "<" + _GGUF_TYPES[kind]
    return struct.unpack(fmt, _read(handle, struct.calcsize(fmt)))[0]


def gguf_header(path: str | Path) -> dict[str, Any]:
    """``general.name``, architecture and file type from a GGUF file's header (what was really loaded).

    A ``path`` that is not an existing file, or a file that is not GGUF, raises InputError."""
    wanted = {"general.name", "general.architecture", "general.file_type", "general.size_label"}
    found: dict[str, Any] = {}
    file = validate.path("path", path, expected="the path of a GGUF model file")
    with open(file, "rb") as handle:
        try:
            if handle.read(4) != b"GGUF":
                raise _Truncated("it does not start with GGUF")
            _version, _tensors, count = struct.unpack("<IQQ", _read(handle, 20))
            for _ in range(count):
                (length,) = struct.unpack("<Q", _read(handle, 8))
                key = _read(handle, length).decode("utf-8", "replace")
                (kind,) = struct.unpack("<I", _read(handle, 4))
                if kind == 9 and key.startswith("tokenizer."):
                    (inner,) = struct.unpack("<I", _read(handle, 4))
                    (n,) = struct.unpack("<Q", _read(handle, 8))
                    for _ in range(n):
                        _read_value(handle, inner)
                    continue
                value = _read_value(handle, kind)
                if key in wanted:
                    found[key] = value
                if len(found) == len(wanted):
                    break
        except (_Truncated, struct.error) as exc:
            raise InputError("path", "a GGUF model file", str(file), hint=f"{file} is not a GGUF file ({exc})") from None
    if "general.file_type" in found:
        found["file_type_name"] = _FILE_TYPES.get(found["general.file_type"], str(found["general.file_type"]))
    return found


def server_version() -> str:
    """The local judge server's package and version (``llama-cpp-python X``), as a recording names it."""
    try:
        return f"llama-cpp-python {version('llama-cpp-python')}"
    except PackageNotFoundError:
        return "llama-cpp-python (version not found in this environment)"


def local_judge_identity(gguf: str | Path, threads: int = 2) -> tuple[str, dict[str, Any]]:
    """How a recording names a local llama.cpp judge: the server line (package, version, build, threads, the
    weights' GGUF name) and the weights' entry (file name, sha256, GGUF header)."""
    header = gguf_header(gguf)
    server = (f"{server_version()} server (llama.cpp, portable AVX2 build, {threads} CPU threads, n_ctx 4096) "
              f"on 127.0.0.1; GGUF header: general.name {header.get('general.name')!r}, architecture "
              f"{header.get('general.architecture')}, file type {header.get('file_type_name')}")
    return server, {"file": Path(gguf).name, "sha256": file_sha256(gguf), **header}
