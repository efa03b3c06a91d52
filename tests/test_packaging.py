"""Set-up: environment.yml agrees with pyproject.toml; importing metrics stays light."""

import re
import subprocess
import sys

import pytest
import yaml

from conftest import REPO
from ragmetrics_edu import InputError

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _spec(requirement: str) -> str:
    return requirement.split(";")[0].strip().lower().replace(" ", "")


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    wanted = list(project["dependencies"]) + extras["notebook"] + extras["llm"]
    wanted += [r for r in project["optional-dependencies"]["dev"]
               if not r.startswith("ragmetrics-edu") and "python_version" not in r]
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str) and _name(d) not in ("python", "pip")]
    pip_part = [d for d in env["dependencies"] if isinstance(d, dict)]
    assert "conda-forge" in env["channels"]
    assert sorted(map(_spec, conda)) == sorted(map(_spec, wanted))
    assert pip_part and "-e ." in pip_part[0]["pip"]


def test_importing_metrics_does_not_import_heavy_libraries():
    code = ("import sys, ragmetrics_edu.metrics; "
            "print(','.join(m for m in ('pandas', 'numpy', 'matplotlib', 'openai', 'ipywidgets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_makefile_and_ci_run_the_readme_commands():
    readme = (REPO / "README.md").read_text()
    assert readme.index("make lab") < 1500 and readme.index("make test") < 1500
    assert "make test" in (REPO / ".ci" / "run").read_text()
    makefile = (REPO / "Makefile").read_text()
    assert "--allow-root" in makefile and "-m venv" in makefile


def test_shipped_data_loads_from_the_package_not_from_beside_a_notebook():
    from ragmetrics_edu import data

    assert "deck_e_super_bowl.jsonl" in data.names()
    assert data.recording("qwen2.5-coder-1.5b_deck-examples").is_file()
    assert data.path("deck_e_super_bowl.jsonl").parent.parent.name == "ragmetrics_edu"
    with pytest.raises(InputError, match="name: expected one of"):
        data.path("no_such_file.json")
