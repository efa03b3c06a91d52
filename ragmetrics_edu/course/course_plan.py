"""What each notebook teaches: objectives, prerequisites, time, take-aways, mistakes, reading.

The per-notebook data live in ``data/course_plan.json`` (one entry per notebook id, "00" to
"16", the capstone last); this module reads them and renders
a notebook's opening and closing, as Markdown in Jupyter and as plain text anywhere else:

    from ragmetrics_edu import course_plan
    course_plan.opening("05")    # objectives, prerequisites, time, the terms used (with the glossary)
    course_plan.closing("05")    # take-aways, common mistakes, where next, further reading

"Where next" is not stored: it lists every later notebook of the plan, so a new notebook
appears in every earlier closing by itself. An unknown notebook id raises
:class:`~ragmetrics_edu.InputError`.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..errors import InputError
from . import glossary, time_plan

STUCK = ("Stuck on an exercise? `exercises.check(\"id\", answer)` explains a wrong answer, "
         "`exercises.hint(\"id\")` gives a hint, and `exercises.solution(\"id\")` shows the worked answer.")


@dataclass(frozen=True)
class Reading:
    """One further-reading reference: the citation and, when there is one, its address."""

    ref: str
    url: str = ""


@dataclass(frozen=True)
class Notebook:
    """One notebook's plan."""

    id: str
    title: str
    summary: str
    minutes: int
    prerequisites: tuple[str, ...]
    objectives: tuple[str, ...]
    terms: tuple[str, ...]
    takeaways: tuple[str, ...]
    mistakes: tuple[str, ...]
    reading: tuple[Reading, ...]
    #: the appendix's minutes (read outside the class; 0: no appendix)
    appendix_minutes: int = 0
    #: True when ``minutes`` comes from :mod:`.time_plan`'s rule applied to the notebook's stored counts
    by_rule: bool = False

    @property
    def label(self) -> str:
        """``05 · Faithfulness``."""
        return f"{self.id} · {self.title}"


def _from_json(notebook_id: str, raw: dict[str, Any]) -> Notebook:
    counts = raw.get("counts")   # the time rule's counts, where the notebook's time comes from the rule
    minutes = time_plan.minutes(**counts["class"]) if counts else int(raw["minutes"])
    return Notebook(
        id=notebook_id, title=raw["title"], summary=raw["summary"], minutes=minutes,
        appendix_minutes=time_plan.minutes(**counts["appendix"]) if counts else 0, by_rule=bool(counts),
        prerequisites=tuple(raw["prerequisites"]), objectives=tuple(raw["objectives"]), terms=tuple(raw["terms"]),
        takeaways=tuple(raw["takeaways"]), mistakes=tuple(raw["mistakes"]),
        reading=tuple(Reading(r["ref"], r.get("url", "")) for r in raw["reading"]))


@lru_cache(maxsize=1)
def _plan() -> dict[str, Notebook]:
    path = resources.files("ragmetrics_edu") / "data" / "course_plan.json"
    raw = json.loads(path.read_text(encoding="utf-8"))["notebooks"]
    return {nid: _from_json(nid, entry) for nid, entry in sorted(raw.items())}


def ids() -> list[str]:
    """Every notebook id of the plan, in course order ("00", "01", ...)."""
    return list(_plan())


def _normalise(notebook_id: Any) -> str:
    if isinstance(notebook_id, int) and not isinstance(notebook_id, bool):
        text = f"{notebook_id:02d}"
    elif isinstance(notebook_id, str):
        match = re.fullmatch(r"(\d{1,2})(_\w+)?", notebook_id.strip())  # "05", "5" or a file name "05_faithfulness"
        text = match.group(1).zfill(2) if match else ""
    else:
        text = ""
    if text not in _plan():
        raise InputError("notebook_id", f"a notebook id, one of {', '.join(ids())}", notebook_id)
    return text


def get(notebook_id: Any) -> Notebook:
    """The plan of one notebook: ``get("05")`` (also ``get(5)`` or ``get("05_faithfulness")``)."""
    return _plan()[_normalise(notebook_id)]


def where_next(notebook_id: Any) -> list[Notebook]:
    """Every notebook after this one, in course order."""
    current = _normalise(notebook_id)
    return [nb for nid, nb in _plan().items() if nid > current]


def _minutes(nb: Notebook) -> str:
    said = f"about {nb.minutes} minutes"
    if nb.by_rule:
        said += f" of class (by the course's time rule: {time_plan.RULE})"
    if nb.appendix_minutes:
        said += f", and about {nb.appendix_minutes} more for the appendix, read outside the class"
    return said


def _before(nb: Notebook) -> str:
    if not nb.prerequisites:
        return "nothing: start here"
    return ", ".join(f"notebook {get(p).label}" for p in nb.prerequisites)


def opening_markdown(notebook_id: Any) -> str:
    """The opening as Markdown: objectives, prerequisites, time, terms with the glossary hint."""
    nb = get(notebook_id)
    lines = ["**After this notebook you will be able to**", ""]
    lines += [f"{i}. {objective};" if i < len(nb.objectives) else f"{i}. {objective}."
              for i, objective in enumerate(nb.objectives, start=1)]
    lines += ["", f"**Read first:** {_before(nb)}. **Time:** {_minutes(nb)}.", "",
              "**Terms used here:** " + ", ".join(nb.terms)
              + ". Look any of them up with `glossary.define(\"term\")`; `glossary.show()` lists them all."]
    return "\n".join(lines)


def opening_text(notebook_id: Any) -> str:
    """The opening as plain text (the same content as :func:`opening_markdown`)."""
    nb = get(notebook_id)
    lines = [f"Notebook {nb.label}", "After this notebook you will be able to"]
    lines += [textwrap.fill(f"{i}. {o}", 100, subsequent_indent="   ") for i, o in enumerate(nb.objectives, start=1)]
    lines += [textwrap.fill(f"Read first: {_before(nb)}. Time: {_minutes(nb)}.", 100),
              textwrap.fill("Terms used here: " + ", ".join(nb.terms)
                            + '. Look any of them up with glossary.define("term").', 100)]
    return "\n".join(lines)


def _reading_markdown(r: Reading) -> str:
    return f"- {r.ref}" + (f", <{r.url}>" if r.url else "")


def closing_markdown(notebook_id: Any) -> str:
    """The closing as Markdown: take-aways, common mistakes, where next, further reading."""
    nb = get(notebook_id)
    later = where_next(nb.id)
    lines = ["### Take-aways", ""] + [f"- {t}" for t in nb.takeaways]
    lines += ["", "### Common mistakes this notebook showed", ""] + [f"- {m}" for m in nb.mistakes]
    lines += ["", "### Where next", ""]
    lines += [f"- **{n.label}**: {n.summary}" for n in later] or ["- This is the last notebook of the course."]
    lines += ["", "### Further reading", ""] + [_reading_markdown(r) for r in nb.reading]
    lines += ["", STUCK]
    return "\n".join(lines)


def closing_text(notebook_id: Any) -> str:
    """The closing as plain text (the same content as :func:`closing_markdown`)."""
    nb = get(notebook_id)

    def bullets(items: list[str]) -> list[str]:
        return [textwrap.fill(f"- {item}", 100, subsequent_indent="  ") for item in items]

    later = [f"{n.label}: {n.summary}" for n in where_next(nb.id)] or ["This is the last notebook of the course."]
    lines = ["Take-aways"] + bullets(list(nb.takeaways))
    lines += ["", "Common mistakes this notebook showed"] + bullets(list(nb.mistakes))
    lines += ["", "Where next"] + bullets(later)
    lines += ["", "Further reading"] + bullets([r.ref + (f", {r.url}" if r.url else "") for r in nb.reading])
    lines += ["", textwrap.fill(STUCK.replace("`", ""), 100)]
    return "\n".join(lines)


def opening(notebook_id: Any) -> None:
    """Display a notebook's opening: Markdown in Jupyter, plain text elsewhere."""
    glossary.render(opening_markdown(notebook_id), opening_text(notebook_id))


def closing(notebook_id: Any) -> None:
    """Display a notebook's closing: Markdown in Jupyter, plain text elsewhere."""
    glossary.render(closing_markdown(notebook_id), closing_text(notebook_id))


def overview_markdown() -> str:
    """Every notebook as a Markdown table: id, title, what it asks, read first, time."""
    rows = ["| notebook | what it is about | read first | time |", "|---|---|---|---|"]
    for nb in _plan().values():
        before = ", ".join(nb.prerequisites) or "-"
        rows.append(f"| **{nb.label}** | {nb.summary} | {before} | {nb.minutes} min |")
    return "\n".join(rows)


def overview_text() -> str:
    """Every notebook as plain text, one line each."""
    return "\n".join(f"{nb.label:<55} read first: {', '.join(nb.prerequisites) or '-':<4} {nb.minutes:>3} min"
                     for nb in _plan().values())


def overview() -> None:
    """Display the course map (every notebook): Markdown in Jupyter, plain text elsewhere."""
    glossary.render(overview_markdown(), overview_text())


__all__ = ["Notebook", "Reading", "closing", "closing_markdown", "closing_text", "get", "ids", "opening",
           "opening_markdown", "opening_text", "overview", "overview_markdown", "overview_text", "where_next"]
