"""Check the built wheel and sdist hold what the course needs when installed from them.

    python3 .ci/check_dist.py DIST_DIR

A notebook opened on its own loads its data, recordings, the example catalogue and the judge's
prompts from the installed package, so each of those files in the source tree must be in the
wheel (and in the sdist, which the wheel can be rebuilt from). Also: the licence file and the
SPDX licence in the metadata, ``py.typed``, nothing from outside the package (tests, slides), the
``ragmetrics-edu`` command, and the same dependencies and extras as pyproject.toml (so installing the
wheel with its ``notebook`` extra gives the environment ``make lab`` builds from the source tree).
Exit 1 with one line per problem.
"""

from __future__ import annotations

import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "ragmetrics_edu"
#: The shipped non-Python files, as globs under the package: pyproject.toml's package-data.
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SHIPPED = PYPROJECT["tool"]["setuptools"]["package-data"]["ragmetrics_edu"]
#: Files that must be in the tree: a glob matching nothing would check nothing.
MUST_EXIST = ["examples/catalogue.json", "data/deck_e_super_bowl.jsonl", "data/retrieval_corpus.json",
              "judges/prompts/system.txt", "designs/prompts/faithfulness_claims.txt", "py.typed"]


def expected() -> list[str]:
    """Every file of the package that the wheel must hold, relative to the repository."""
    files = sorted(p for glob in SHIPPED for p in PACKAGE.glob(glob))
    files += sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    return [p.relative_to(REPO).as_posix() for p in files]


def unshipped() -> list[str]:
    """Data files in the package tree that no package-data glob ships (a new folder forgotten)."""
    shipped = {p for glob in SHIPPED for p in PACKAGE.glob(glob)}
    return [p.relative_to(REPO).as_posix() for p in sorted(PACKAGE.rglob("*"))
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts and p not in shipped]


def check(dist: Path) -> list[str]:
    problems = [f"missing in the source tree: ragmetrics_edu/{name}" for name in MUST_EXIST
                if not (PACKAGE / name).is_file()]
    problems += [f"{name} is in the package tree but no package-data glob in pyproject.toml ships it"
                 for name in unshipped()]
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    if not dist.is_dir():
        return problems + [f"{dist} is not a folder: build first (make dist)"]
    if len(wheels) != 1 or len(sdists) != 1:
        return problems + [f"{dist}: expected one wheel and one sdist, found {[p.name for p in wheels + sdists]}"]
    wheel = zipfile.ZipFile(wheels[0]).namelist()
    with tarfile.open(sdists[0]) as tar:
        sdist = [name.split("/", 1)[1] for name in tar.getnames() if "/" in name]
    want = expected()
    problems += [f"{wheels[0].name} lacks {name}" for name in want if name not in wheel]
    problems += [f"{sdists[0].name} lacks {name}" for name in want + ["LICENSE", "README.md", "pyproject.toml"]
                 if name not in sdist]
    strays = [n for n in wheel if not n.startswith("ragmetrics_edu") or "__pycache__" in n]
    problems += [f"{wheels[0].name} holds {name}, which is not part of the package" for name in strays]
    info = next((n for n in wheel if n.endswith(".dist-info/METADATA")), None)
    if info is None:
        return problems + [f"{wheels[0].name} has no METADATA"]
    metadata = Parser().parsestr(zipfile.ZipFile(wheels[0]).read(info).decode())
    if metadata.get("License-Expression") != "MIT":
        problems.append(f"METADATA License-Expression is {metadata.get('License-Expression')!r}, not 'MIT'")
    if not any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel):
        problems.append(f"{wheels[0].name} lacks the LICENSE file")
    extras = metadata.get_all("Provides-Extra") or []
    if "notebook" not in extras:
        problems.append(f"METADATA has no 'notebook' extra (has {extras})")
    problems += requirement_problems(metadata.get_all("Requires-Dist") or [])
    problems += script_problems(zipfile.ZipFile(wheels[0]), wheel)
    return problems


def _plain(requirement: str) -> str:
    return requirement.replace(" ", "").replace('"', "'")


def requirement_problems(requires: list[str]) -> list[str]:
    """Every dependency pyproject.toml declares (plain and per extra) must be in the wheel's METADATA."""
    found = {_plain(r) for r in requires}
    project = PYPROJECT["project"]
    wanted = [(r, "") for r in project.get("dependencies", [])]
    wanted += [(r, extra) for extra, reqs in project.get("optional-dependencies", {}).items() for r in reqs]
    problems = []
    for requirement, extra in wanted:
        name = _plain(requirement).split(";")[0]
        hits = [r for r in found if r.split(";")[0] == name and (not extra or f"extra=='{extra}'" in r)]
        if not hits:
            problems.append(f"METADATA lacks Requires-Dist {requirement!r}" + (f" for extra {extra!r}" if extra else ""))
    return problems


def script_problems(archive: zipfile.ZipFile, names: list[str]) -> list[str]:
    """The console scripts of pyproject.toml must be in the wheel's entry_points.txt."""
    info = next((n for n in names if n.endswith(".dist-info/entry_points.txt")), None)
    text = archive.read(info).decode() if info else ""
    return [f"the wheel does not install the command {name!r} ({target})"
            for name, target in PYPROJECT["project"].get("scripts", {}).items()
            if f"{name} = {target}" not in text]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(Path(argv[0]))
    for problem in problems:
        print(f"FAIL {problem}")
    if not problems:
        print(f"ok   wheel and sdist in {argv[0]} hold the {len(expected())} package files, LICENSE and metadata")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
