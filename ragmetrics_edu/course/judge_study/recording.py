"""Record the judge study's passes with a real local model (``ragmetrics-edu record-judge-study``).

Run it against a running ``make judge-server``; every validated reply is cached on disk, so an
interrupted run resumes where it stopped. Each pass is written as a recording that names the
model, the GGUF file's sha256 and header, the server and its version, the settings and the
date, and is rewritten after every case, so a cut-off run keeps what it paid for.
"""

from __future__ import annotations

import argparse
import hashlib
import struct
import sys
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, BinaryIO

from ... import validate
from ...errors import InputError
from ...judges.files import write_recording
from ...judges.openai_judge import OpenAIJudge
from ...judges.records import recordable, tally
from .passes import PASSES, run_pass

__all__ = ["gguf_header", "sha256_of", "record_passes", "add_parser"]

_GGUF_TYPES = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_MAX_FIELD = 1 << 24  # no header field is longer than 16 MiB: a larger length means the file is not GGUF
_FILE_TYPES = {15: "Q4_K - Medium", 3: "Q4_1", 2: "Q4_0", 7: "Q8_0", 1: "F16", 0: "F32"}


def sha256_of(path: str | Path) -> str:
    """sha256 of a (large) file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(validate.path("path", path), "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
    try:
        return f"llama-cpp-python {version('llama-cpp-python')}"
    except PackageNotFoundError:
        return "llama-cpp-python (version not found in this environment)"


def record_passes(names: list[str], *, base_url: str, model: str, gguf: str, out_dir: str, cache_dir: str,
                  threads: int = 2, timeout: float = 600.0) -> None:
    """Record each named pass; print one line per row and the machine time per pass."""
    header = gguf_header(gguf)
    sha = sha256_of(gguf)
    server = (f"{server_version()} server (llama.cpp, portable AVX2 build, {threads} CPU threads, n_ctx 4096) "
              f"on 127.0.0.1; GGUF header: general.name {header.get('general.name')!r}, architecture "
              f"{header.get('general.architecture')}, file type {header.get('file_type_name')}")
    for name in names:
        spec = PASSES[name]
        judge = OpenAIJudge(model, base_url=base_url, api_key="local", mode="json_object_schema",
                            temperature=spec.temperature, seed=spec.seed, timeout=timeout, max_retries=1,
                            max_concurrency=1, cache_dir=cache_dir)
        target = Path(out_dir) / f"{name}.json"
        started = time.monotonic()

        def save(row: dict[str, Any] | None = None, judge: Any = judge, spec: Any = spec, target: Path = target,
                 started: float = started) -> None:
            if row is not None:
                state = "ERROR " + str(row["error"])[:80] if row["error"] else f"score {row['score']}"
                print(f"{spec.name} {row['case']} {row['metric']} {row['pipeline'] or ''} calls={row['calls']} "
                      f"{row['latency_s']:.1f}s {state}", flush=True)
            calls = recordable(judge.calls)
            meta = {"model": model, "server": server, "base_url": base_url,
                    "parameters": {"temperature": spec.temperature, "seed": spec.seed, "mode": judge.mode,
                                   "max_tokens": None},
                    "gguf": {"file": Path(gguf).name, "sha256": sha, **header},
                    "pass": {"name": spec.name, "what": spec.what, "cases": spec.cases, "metrics": list(spec.metrics),
                             "mode": spec.mode, "pipelines": list(spec.pipelines), "rotate": spec.rotate,
                             "undelimited": spec.undelimited},
                    "machine_time_s": round(sum(c.latency_s or 0.0 for c in calls), 1),
                    "wall_time_s": round(time.monotonic() - started, 1),
                    "notes": "Recorded with ragmetrics-edu record-judge-study; replies validated against each "
                             "step's JSON schema (llama.cpp json_object + schema)."}
            write_recording(target, meta, calls)

        run_pass(judge, spec, on_row=save)
        save()
        print(f"== {name}: {tally(judge.calls).calls} calls, {time.monotonic() - started:.0f} s wall", flush=True)


def add_parser(sub: Any) -> None:
    """The ``record-judge-study`` subcommand (``sub``: what argparse's ``add_subparsers()`` returns)."""
    if not callable(getattr(sub, "add_parser", None)):
        raise InputError("sub", "argparse subparsers (parser.add_subparsers())", sub)
    parser = sub.add_parser("record-judge-study", help="record the judge study's passes with a local model")
    parser.add_argument("passes", nargs="+", help="pass names (see ragmetrics_edu.course.judge_study.passes.PASSES)")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True, help="the model's name, written into the recording")
    parser.add_argument("--gguf", required=True, help="the GGUF file the server loaded (hashed into the recording)")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--cache-dir", required=True)
    parser.add_argument("--threads", type=int, default=2,
                        help="the CPU threads the server was started with (written into the recording)")


def main(args: argparse.Namespace) -> int:
    unknown = [n for n in args.passes if n not in PASSES]
    if unknown:
        print(f"unknown pass {unknown[0]!r}; choose from: {', '.join(PASSES)}", file=sys.stderr)
        return 2
    record_passes(args.passes, base_url=args.base_url, model=args.model, gguf=args.gguf, out_dir=args.out_dir,
                  cache_dir=args.cache_dir, threads=args.threads)
    return 0
