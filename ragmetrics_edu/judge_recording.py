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
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["gguf_header", "sha256_of", "record_passes", "add_parser"]

_GGUF_TYPES = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_FILE_TYPES = {15: "Q4_K - Medium", 3: "Q4_1", 2: "Q4_0", 7: "Q8_0", 1: "F16", 0: "F32"}


def sha256_of(path: str | Path) -> str:
    """sha256 of a (large) file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_value(handle: BinaryIO, kind: int) -> Any:
    if kind == 8:  # string
        (length,) = struct.unpack("<Q", handle.read(8))
        return handle.read(length).decode("utf-8", "replace")
    if kind == 9:  # array: element type, count, elements
        (inner,) = struct.unpack("<I", handle.read(4))
        (count,) = struct.unpack("<Q", handle.read(8))
        return [_read_value(handle, inner) for _ in range(count)]
    fmt = "<" + _GGUF_TYPES[kind]
    return struct.unpack(fmt, handle.read(struct.calcsize(fmt)))[0]


def gguf_header(path: str | Path) -> dict[str, Any]:
    """``general.name``, architecture and file type from a GGUF file's header (what was really loaded)."""
    wanted = {"general.name", "general.architecture", "general.file_type", "general.size_label"}
    found: dict[str, Any] = {}
    with open(path, "rb") as handle:
        if handle.read(4) != b"GGUF":
            raise ValueError(f"{path} is not a GGUF file")
        _version, _tensors, count = struct.unpack("<IQQ", handle.read(20))
        for _ in range(count):
            (length,) = struct.unpack("<Q", handle.read(8))
            key = handle.read(length).decode("utf-8", "replace")
            (kind,) = struct.unpack("<I", handle.read(4))
            if kind == 9 and key.startswith("tokenizer."):
                (inner,) = struct.unpack("<I", handle.read(4))
                (n,) = struct.unpack("<Q", handle.read(8))
                for _ in range(n):
                    _read_value(handle, inner)
                continue
            value = _read_value(handle, kind)
            if key in wanted:
                found[key] = value
            if len(found) == len(wanted):
                break
    if "general.file_type" in found:
        found["file_type_name"] = _FILE_TYPES.get(found["general.file_type"], str(found["general.file_type"]))
    return found


def _server_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"llama-cpp-python {version('llama-cpp-python')}"
    except PackageNotFoundError:
        return "llama-cpp-python (version not found in this environment)"


def record_passes(names: list[str], *, base_url: str, model: str, gguf: str, out_dir: str, cache_dir: str,
                  threads: int = 2, timeout: float = 600.0) -> None:
    """Record each named pass; print one line per row and the machine time per pass."""
    from .judge_study import PASSES, run_pass
    from .judges import OpenAIJudge
    from .judges.files import write_recording

    header = gguf_header(gguf)
    sha = sha256_of(gguf)
    server = (f"{_server_version()} server (llama.cpp, portable AVX2 build, {threads} CPU threads, n_ctx 4096) "
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
            seen, calls = set(), []
            for c in judge.calls:
                if c.source in ("api", "cache") and (c.key, c.attempt) not in seen:
                    seen.add((c.key, c.attempt))
                    calls.append(c)
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
        print(f"== {name}: {len(judge.calls)} calls, {time.monotonic() - started:.0f} s wall", flush=True)


def add_parser(sub: Any) -> None:
    """The ``record-judge-study`` subcommand."""
    parser = sub.add_parser("record-judge-study", help="record the judge study's passes with a local model")
    parser.add_argument("passes", nargs="+", help="pass names (see ragmetrics_edu.judge_study.PASSES)")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True, help="the model's name, written into the recording")
    parser.add_argument("--gguf", required=True, help="the GGUF file the server loaded (hashed into the recording)")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--cache-dir", required=True)
    parser.add_argument("--threads", type=int, default=2)


def main(args: argparse.Namespace) -> int:
    from .judge_study import PASSES

    unknown = [n for n in args.passes if n not in PASSES]
    if unknown:
        print(f"unknown pass {unknown[0]!r}; choose from: {', '.join(PASSES)}", file=sys.stderr)
        return 2
    record_passes(args.passes, base_url=args.base_url, model=args.model, gguf=args.gguf, out_dir=args.out_dir,
                  cache_dir=args.cache_dir, threads=args.threads)
    return 0
