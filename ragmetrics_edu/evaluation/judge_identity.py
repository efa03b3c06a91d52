"""Which judge it was, for the comparison page: a local weights file's sha256 and the prompts' version.

The prompt version is the package's version with the sha256 (first 12 hex digits) of every prompt template the
designs send (``ragmetrics_edu/designs/prompts/*.txt``, in name order): two runs with the same version asked
the judge the same words.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from .. import __version__, validate

__all__ = ["file_sha256", "prompt_version"]

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
