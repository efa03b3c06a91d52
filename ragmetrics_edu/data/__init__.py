"""Files the course ships inside the package: data sets and recordings of real models.

Notebooks load them through :func:`path` and :func:`recording`, never from a folder beside the
notebook, so a notebook opened on its own (Colab, VS Code, a download folder) still finds them
once the package is installed.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ragmetrics_edu.errors import InputError

__all__ = ["path", "recording", "names", "root"]


def root() -> Path:
    """The folder the shipped files sit in (``ragmetrics_edu/data``)."""
    return Path(str(resources.files("ragmetrics_edu") / "data"))


def names() -> list[str]:
    """Every shipped file, as the relative name :func:`path` takes (e.g. ``recordings/x.json``)."""
    folder = root()
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and p.suffix in {".json", ".jsonl", ".npz"})


def path(name: str) -> Path:
    """The path of a shipped data file, e.g. ``path("deck_e_super_bowl.jsonl")``."""
    if not isinstance(name, str) or not name:
        raise InputError("name", "a shipped file name such as 'deck_e_super_bowl.jsonl'", name)
    if len(name) > 255 or any(part in ("", "..") for part in name.split("/")):
        raise InputError("name", "a shipped file name (see data.names())", name)
    found = root() / name
    if not found.is_file():
        raise InputError("name", "one of " + ", ".join(names()), name)
    return found


def recording(name: str) -> Path:
    """The path of a shipped recording of a real model, e.g. ``recording("qwen2.5-coder-1.5b_deck-examples")``."""
    if not isinstance(name, str) or not name:
        raise InputError("name", "a recording name such as 'qwen2.5-coder-1.5b_deck-examples'", name)
    file = name if name.endswith(".json") else name + ".json"
    return path("recordings/" + file)
