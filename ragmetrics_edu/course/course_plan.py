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
from ..validate import text
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
    prerequisites: tuple[str, ...]
    objectives: tuple[str, ...]
    terms: tuple[str, ...]
    takeaways: tuple[str, ...]
    mistakes: tuple[str, ...]
    reading: tuple[Reading, ...]

    @property
    def timed(self) -> dict[str, int] | None:
        """The class and appendix minutes :mod:`.time_plan`'s rule gives the notebook's file now (None: no file)."""
        return time_plan.notebook_minutes(self.id)

    @property
    def minutes(self) -> int | None:
        """The class minutes by the rule (None when the notebook's file is not found)."""
        found = self.timed
        return found["class"] if found else None

    @property
    def appendix_minutes(self) -> int:
        """The appendix's minutes by the rule (read outside the class; 0: no appendix)."""
        found = self.timed
        return found["appendix"] if found else 0

    @property
    def label(self) -> str:
        """``05 · Faithfulness``."""
        return f"{self.id} · {self.title}"


def _from_json(notebook_id: str, raw: dict[str, Any]) -> Notebook:
    return Notebook(
        id=notebook_id, title=raw["title"], summary=raw["summary"],
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
    timed = nb.timed
    if timed is None:
        return "by the course's time rule, from the notebook's file, which is not found here"
    said = f"about {timed['class']} minutes of class (by the course's time rule, which notebook 00 states)"
    if timed["appendix"]:
        said += f", and about {timed['appendix']} more for the appendix, read outside the class"
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


#: a one-afternoon workshop's length, in minutes: the short path must fit it
AFTERNOON = 240


def workshop() -> tuple[str, list[Notebook]]:
    """The short path for a one-afternoon workshop (the source decks' scope): why, and its notebooks."""
    path = resources.files("ragmetrics_edu") / "data" / "course_plan.json"
    raw = json.loads(path.read_text(encoding="utf-8"))["workshop"]
    return raw["why"], [get(i) for i in raw["notebooks"]]


def _total(notebooks: list[Notebook]) -> int | None:
    found = [nb.minutes for nb in notebooks]
    return None if None in found else sum(m for m in found if m is not None)


def _hours(total: int | None) -> str:
    return "unknown (notebooks not found)" if total is None else f"{total} min (about {total / 60:.1f} hours)"


def overview_markdown() -> str:
    """The course map as Markdown, computed now from the notebooks' files by the time rule: each notebook's
    class minutes (and appendix, read outside the class), the course's total, the rule in words and the
    one-afternoon workshop path."""
    rows = ["| notebook | what it is about | read first | class | appendix |", "|---|---|---|---|---|"]
    for nb in _plan().values():
        before = ", ".join(nb.prerequisites) or "-"
        extra = f"{nb.appendix_minutes} min" if nb.appendix_minutes else "-"
        rows.append(f"| **{nb.label}** | {nb.summary} | {before} | {nb.minutes} min | {extra} |")
    everything = list(_plan().values())
    appendix = sum(nb.appendix_minutes for nb in everything)
    rows.append(f"| **the course** | {len(everything)} notebooks | | **{_hours(_total(everything))}** "
                f"| {appendix} min |")
    why, short = workshop()
    rows += ["", f"**Time rule** (computed from each notebook's file): {time_plan.RULE}.", "",
             f"**A one-afternoon workshop**, {_hours(_total(short))} of class: "
             + " → ".join(f"{nb.id}" for nb in short) + f". {why}"]
    return "\n".join(rows)


def overview_text() -> str:
    """The course map as plain text (the same content as :func:`overview_markdown`)."""
    lines = [f"{nb.label:<45} read first: {', '.join(nb.prerequisites) or '-':<4} class {nb.minutes!s:>3} min"
             + (f", appendix {nb.appendix_minutes} min" if nb.appendix_minutes else "")
             for nb in _plan().values()]
    everything = list(_plan().values())
    why, short = workshop()
    lines += [f"The course: {len(everything)} notebooks, {_hours(_total(everything))} of class.",
              textwrap.fill(f"Time rule (computed from each notebook's file): {time_plan.RULE}.", 100),
              textwrap.fill(f"A one-afternoon workshop, {_hours(_total(short))} of class: "
                            + " -> ".join(nb.id for nb in short) + f". {why}", 100)]
    return "\n".join(lines)


def overview() -> None:
    """Display the course map (every notebook): Markdown in Jupyter, plain text elsewhere."""
    glossary.render(overview_markdown(), overview_text())


#: the README's course-plan part lies between these two lines (``python -m ragmetrics_edu.course.course_plan
#: --readme README.md`` writes it; tests/course/test_course_plan.py checks it against the notebooks)
README_START = "<!-- course plan: generated by python -m ragmetrics_edu.course.course_plan --readme README.md -->"
README_END = "<!-- end of the generated course plan -->"


def readme_part(readme: str) -> str:
    """The README's generated course-plan part as it stands (between :data:`README_START` and
    :data:`README_END`); an InputError when the markers are missing."""
    readme = text("readme", readme)
    if README_START not in readme or README_END not in readme:
        raise InputError("readme", f"a README holding the lines {README_START!r} and {README_END!r}", readme[:60])
    return readme.split(README_START, 1)[1].split(README_END, 1)[0].strip("\n")


def with_readme_part(readme: str) -> str:
    """The README with its course-plan part replaced by the map computed now."""
    readme = text("readme", readme)
    readme_part(readme)
    head, rest = readme.split(README_START, 1)
    return f"{head}{README_START}\n{overview_markdown()}\n{README_END}{rest.split(README_END, 1)[1]}"


__all__ = ["AFTERNOON", "README_END", "README_START", "readme_part", "with_readme_part", "Notebook", "Reading", "closing", "closing_markdown", "closing_text", "get", "ids", "opening",
           "opening_markdown", "opening_text", "overview", "overview_markdown", "overview_text", "where_next", "workshop"]


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if sys.argv[1:2] == ["--readme"] and len(sys.argv) == 3:
        target = Path(sys.argv[2])
        target.write_text(with_readme_part(target.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(overview_text())
