"""The course's glossary: every term a notebook uses, in plain words, with its other names.

DeepEval, Ragas and information retrieval often name the same thing differently (a *node*
is a *chunk*; an *expected output* is a *reference* is a *ground truth*). Each entry (in
``data/glossary.json``, read here) says what the term means and, where they differ, what each library calls it, so a learner
can look it up before meeting it.

    from ragmetrics_edu import glossary
    glossary.define("micro average")        # the definition, as text
    glossary.show(["node", "verdict"])      # a table: Markdown in Jupyter, plain text elsewhere

Lookups ignore case, spacing, hyphens and underscores, and accept every alias
(``glossary.define("ground_truth")`` finds *reference*). An unknown term raises
:class:`~ragmetrics_edu.InputError` naming the nearest terms.
"""

from __future__ import annotations

import difflib
import json
import sys
import textwrap
from dataclasses import dataclass
from importlib import resources
from typing import Iterable

from ..errors import InputError
from ..text import squash_spaces
from ..validate import as_list, integer


@dataclass(frozen=True)
class Term:
    """One glossary entry: its name, its definition and the other names it goes by."""

    name: str
    definition: str
    aliases: tuple[str, ...] = ()
    see: tuple[str, ...] = ()


def _load() -> tuple[Term, ...]:
    """The entries of ``data/glossary.json``, in its order (grouped as the course meets them)."""
    raw = json.loads((resources.files("ragmetrics_edu") / "data" / "glossary.json").read_text(encoding="utf-8"))
    return tuple(Term(t["name"], squash_spaces(t["definition"]), tuple(t.get("aliases", ())), tuple(t.get("see", ())))
                 for group in raw["groups"] for t in group["terms"])


#: Every term, grouped as the course meets them: data, judging, metrics, ranking, statistics, judges.
TERMS: tuple[Term, ...] = _load()


def _key(text: str) -> str:
    """Case, spacing, hyphens, underscores and a trailing 's' do not matter in a lookup."""
    return squash_spaces(text.replace("_", " ").replace("-", " "), lower=True)


def _index() -> dict[str, Term]:
    index: dict[str, Term] = {}
    for term in TERMS:
        for name in (term.name, *term.aliases):
            index.setdefault(_key(name), term)
    return index


_INDEX = _index()


def names() -> list[str]:
    """Every term's name, in the glossary's order."""
    return [t.name for t in TERMS]


def get(term: str) -> Term:
    """The entry for ``term`` or one of its aliases; an unknown term names the closest ones."""
    if not isinstance(term, str) or not term.strip():
        raise InputError("term", "a glossary term such as 'micro average' (every term: glossary.names())", term)
    key = _key(term)
    found = _INDEX.get(key) or (_INDEX.get(key[:-1]) if key.endswith("s") else None)
    if found is None:
        near = difflib.get_close_matches(key, list(_INDEX), n=3, cutoff=0.6)
        suggestions = list(dict.fromkeys(_INDEX[n].name for n in near))
        expected = "a glossary term"
        if suggestions:
            expected += f" (did you mean {' or '.join(repr(s) for s in suggestions)}?)"
        raise InputError("term", expected + "; every term: glossary.names()", term)
    return found


def define(term: str) -> str:
    """``name: definition`` for ``term`` (looked up as :func:`get` does), with its other names."""
    entry = get(term)
    text = f"{entry.name}: {entry.definition}"
    if entry.aliases:
        text += f" Also: {', '.join(entry.aliases)}."
    if entry.see:
        text += f" See: {', '.join(entry.see)}."
    return text


def terms(selection: Iterable[str] | None = None) -> list[Term]:
    """The entries named in ``selection`` (in that order, duplicates dropped), or every entry."""
    if selection is None:
        return list(TERMS)
    if isinstance(selection, str):
        raise InputError("terms", "a list of glossary terms, e.g. ['node', 'verdict']", selection)
    names = as_list("terms", selection, "a list of glossary terms, e.g. ['node', 'verdict']")
    return list(dict.fromkeys(get(name) for name in names))


def markdown(selection: Iterable[str] | None = None) -> str:
    """The entries as a Markdown table (term, meaning, also called)."""
    rows = ["| term | meaning | also called |", "|---|---|---|"]
    for t in terms(selection):
        cells = [f"**{t.name}**", t.definition, ", ".join(t.aliases)]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def text(selection: Iterable[str] | None = None, width: int = 100) -> str:
    """The entries as plain text: each name, then its definition wrapped and indented."""
    width = integer("width", width, low=20, high=10_000)
    blocks = []
    for t in terms(selection):
        body = t.definition + (f" Also: {', '.join(t.aliases)}." if t.aliases else "")
        blocks.append(t.name + "\n" + textwrap.fill(body, width, initial_indent="    ", subsequent_indent="    "))
    return "\n".join(blocks)


def in_notebook() -> bool:
    """Whether the code runs in a Jupyter kernel (checked without importing IPython)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    # Jupyter's kernel shell, or a subclass of it (Colab's): not the terminal's IPython.
    return shell is not None and any(cls.__name__ == "ZMQInteractiveShell" for cls in type(shell).__mro__)


def render(markdown_text: str, plain_text: str) -> None:
    """Display Markdown in a Jupyter kernel, print plain text anywhere else."""
    if in_notebook():
        from IPython.display import Markdown, display  # lazy: IPython exists only in a notebook

        display(Markdown(markdown_text))
    else:
        print(plain_text)


def show(selection: Iterable[str] | None = None) -> None:
    """Display the glossary (or the terms in ``selection``): a table in Jupyter, plain text elsewhere."""
    render(markdown(selection), text(selection))


__all__ = ["TERMS", "Term", "define", "get", "in_notebook", "markdown", "names", "render", "show", "terms", "text"]
