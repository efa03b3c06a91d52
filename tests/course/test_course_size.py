"""Issue 47: the course package loads, it does not compute; its size is held to at most 6,000 non-blank lines
(11,844 before the computing moved to ``ragmetrics_edu.studies`` and the other library homes)."""

from __future__ import annotations

from pathlib import Path

COURSE = Path(__file__).resolve().parents[2] / "ragmetrics_edu" / "course"


def test_the_course_package_holds_at_most_6000_non_blank_lines() -> None:
    sizes = {p.relative_to(COURSE).as_posix(): sum(1 for line in p.read_text(encoding="utf-8").splitlines()
                                                   if line.strip())
             for p in COURSE.rglob("*.py")}
    total = sum(sizes.values())
    largest = sorted(sizes.items(), key=lambda item: -item[1])[:5]
    assert total <= 6000, f"course/ holds {total} non-blank lines (at most 6,000); the largest: {largest}"
