"""Set-up: environment.yml agrees with pyproject.toml; importing metrics stays light."""

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

from conftest import REPO
from ragmetrics_edu import InputError

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def _ci(module: str):
    """A module of .ci/ (the CI scripts are not a package)."""
    sys.path.insert(0, str(REPO / ".ci"))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.pop(0)


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _spec(requirement: str) -> str:
    return requirement.split(";")[0].strip().lower().replace(" ", "")


#: pip name -> conda-forge name where they differ.
CONDA_NAME = {"build": "python-build"}


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"]) + [r for r in _requirements("dev") if "python_version" not in r]
    wanted = [CONDA_NAME.get(_name(r), _name(r)) + _spec(r)[len(_name(r)):] for r in wanted]
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str) and _name(d) not in ("python", "pip")]
    pip_part = [d for d in env["dependencies"] if isinstance(d, dict)]
    assert "conda-forge" in env["channels"]
    assert pip_part and "-e ." in pip_part[0]["pip"]
    pip_only = [p for p in pip_part[0]["pip"] if p != "-e ."]  # not on conda-forge
    assert sorted(map(_spec, conda + pip_only)) == sorted(map(_spec, wanted))


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


# --- what `make lab` installs runs every notebook --------------------------------------------

def _requirements(extra: str, seen: frozenset = frozenset()) -> list[str]:
    """An extra's requirements with ``ragmetrics-edu[...]`` self-references expanded."""
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    out: list[str] = []
    for req in extras[extra]:
        if _name(req) == "ragmetrics-edu":
            for inner in re.search(r"\[(.*)\]", req).group(1).split(","):
                if inner.strip() not in seen:
                    out += _requirements(inner.strip(), seen | {extra})
        else:
            out.append(req)
    return out


def _lab_requirements() -> dict[str, str]:
    """What `make lab` installs: the core dependencies and the notebook extra, name -> minimum."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"]) + _requirements("notebook")
    return {_name(r): re.search(r">=\s*([\d.]+)", r).group(1) for r in reqs}


def _third_party_imports() -> dict[str, set[str]]:
    """Top-level module -> the files importing it, for every non-stdlib import in the library
    (lazy ones inside functions included) and in the course notebooks."""
    import ast
    import json

    found: dict[str, set[str]] = {}

    def scan(source: str, where: str) -> None:
        for node in ast.walk(ast.parse(source)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                     else [])
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in ("ragmetrics_edu", "IPython"):
                    found.setdefault(top, set()).add(where)

    for file in (REPO / "ragmetrics_edu").rglob("*.py"):
        scan(file.read_text(encoding="utf-8"), str(file.relative_to(REPO)))
    for nb in (REPO / "notebooks").glob("*.ipynb"):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        scan("\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!"))),
             nb.name)
    return found


#: Imports that only an opt-in extra provides, never reached by a notebook: module -> extra.
OPT_IN = {"sentence_transformers": "embeddings", "huggingface_hub": "embeddings"}  # hub: comes with sentence-transformers
#: Import name -> distribution name where they differ.
DISTRIBUTION = {"yaml": "pyyaml", "sklearn": "scikit-learn"}


def test_make_lab_installs_every_package_the_library_and_the_notebooks_import():
    """Notebook 10 crashed with ModuleNotFoundError: pydantic after `make lab` (issue 9)."""
    lab = _lab_requirements()
    missing = {module: sorted(files) for module, files in _third_party_imports().items()
               if module not in OPT_IN and DISTRIBUTION.get(module, module).replace("_", "-") not in lab}
    assert not missing, f"imported but not installed by `make lab` (core + notebook extra): {missing}"
    for extra in OPT_IN.values():
        assert extra in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def test_environment_check_checks_what_make_lab_installs():
    from ragmetrics_edu.course.envcheck import REQUIRED

    assert REQUIRED == _lab_requirements()


def test_makefile_installs_the_notebook_extra_for_the_lab_and_the_notebook_check():
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r'install[^\n]*-e "\.\[notebook\]"', makefile)
    assert "jupyter lab" in makefile


def test_pyproject_license_is_an_spdx_expression_with_a_setuptools_that_reads_it():
    """A `license = {text = ...}` table makes setuptools print a deprecation block on every install."""
    data = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert data["project"]["license"] == "MIT"
    for file in data["project"]["license-files"]:
        assert (REPO / file).is_file()
    minimum = next(r for r in data["build-system"]["requires"] if _name(r) == "setuptools")
    assert tuple(int(x) for x in re.search(r">=([\d.]+)", minimum).group(1).split(".")) >= (77,)


# --- the slide assets without npm on PATH --------------------------------------------------------

def test_slides_assets_fall_back_to_the_venv_npm_when_npm_is_not_on_path(tmp_path):
    """`make slides-assets` ran the relative `.venv/bin/npm` after `cd slides`: 'not found', exit 2.

    A copy of the Makefile and the slides' package files, a stand-in .venv whose npm records where
    it ran, and a PATH with make and a shell but no npm.
    """
    import os
    import shutil

    shutil.copy(REPO / "Makefile", tmp_path / "Makefile")
    (tmp_path / "slides").mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copy(REPO / "slides" / name, tmp_path / "slides" / name)
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").write_text("#!/bin/sh\nexit 0\n")
    (venv_bin / "npm").write_text('#!/bin/sh\necho "$PWD $*" > "$(dirname "$0")/npm-ran"\nmkdir -p node_modules\n')
    for stub in ("python", "npm"):
        (venv_bin / stub).chmod(0o755)
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in ("make", "sh", "bash", "touch", "mkdir", "dirname", "id", "echo"):
        found = shutil.which(tool)
        if found:
            (tools / tool).symlink_to(found)
    env = {k: v for k, v in os.environ.items() if k not in ("NPM", "MAKEFLAGS", "VENV")}
    env["PATH"] = str(tools)
    done = subprocess.run(["make", "slides-assets"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = (venv_bin / "npm-ran").read_text().split()
    assert ran[0] == str(tmp_path / "slides") and ran[1] == "ci"
    assert (tmp_path / "slides" / "node_modules" / ".installed").is_file()


def test_readme_gives_a_path_without_make_and_no_install_from_pypi():
    """The package is not on PyPI: `pip install "ragmetrics-edu[...]"` cannot work (issue 9)."""
    readme = (REPO / "README.md").read_text()
    assert 'pip install -e ".[notebook]"' in readme and "python -m venv .venv" in readme
    assert r".venv\Scripts\activate" in readme and "VS Code" in readme
    assert "python -m build" in readme and "twine check" in readme
    # The Embedders section is checked once its owner has replaced its line (see the report).
    outside = re.sub(r"### Embedders.*?(?=\n## )", "", readme, flags=re.S)
    assert not re.search(r"pip install ['\"]?ragmetrics-edu", outside)


def test_instructors_get_a_lab_on_the_slides_too():
    makefile = (REPO / "Makefile").read_text()
    recipe = re.search(r"^lab-slides:.*\n\t(.*)", makefile, flags=re.M).group(1)
    assert "jupyter lab" in recipe and "--ServerApp.root_dir=." in recipe.split()
    assert "make lab-slides" in (REPO / "README.md").read_text()
    assert "make lab-slides" in (REPO / "slides" / "README.md").read_text()


def test_ci_checks_the_course_as_a_learner_gets_it():
    """CI runs the notebooks in `make lab`'s environment and from the wheel, and the no-npm fallback."""
    run = (REPO / ".ci" / "run").read_text()
    steps = r"(?:lab|dist|notebooks|nonpm)"
    calls = re.findall(rf"^[^#\n]*\.ci/check_course ({steps}(?: {steps})*)", run, flags=re.M)
    assert sorted(" ".join(calls).split()) == ["dist", "lab", "nonpm", "notebooks"], calls   # every step, once
    script = (REPO / ".ci" / "check_course").read_text()
    assert 'make install VENV="$LAB"' in script          # the recipe `make lab` uses
    assert 'make install VENV="$WORK/lab"' in run        # or .ci/run's, the same
    assert script.count("python3 .ci/run_notebooks.py") == 1 and "check_dist.py" in script and "make dist" in script
    assert 'run_notebooks.py "$LAB" --package "$WORK/wheel"' in script    # make lab's packages, the wheel's files
    assert '--no-deps --target "$WORK/wheel" "$WHEEL"' in script and '--package "$WORK/wheel"' in script
    assert "slides-assets" in script


def test_the_wheel_must_declare_what_pyproject_declares():
    """Step 3 runs the wheel's files with the lab environment's dependencies: that stands for a venv
    built from the wheel only because check_dist.py finds every requirement and the command in it."""
    check_dist = _ci("check_dist")
    project = check_dist.PYPROJECT["project"]
    declared = list(project["dependencies"]) + [f"{r}; extra == '{extra}'" for extra, reqs in
                                                 project["optional-dependencies"].items() for r in reqs]
    assert check_dist.requirement_problems(declared) == []
    missing = check_dist.requirement_problems([r for r in declared if not r.startswith("matplotlib")])
    assert missing == ["METADATA lacks Requires-Dist 'matplotlib>=3.7' for extra 'notebook'"]
    wrong_extra = [r.replace("extra == 'notebook'", "extra == 'llm'") if r.startswith("ipywidgets") else r
                   for r in declared]
    assert check_dist.requirement_problems(wrong_extra) == [
        "METADATA lacks Requires-Dist 'ipywidgets>=8.0' for extra 'notebook'"]


def test_every_data_file_in_the_package_tree_is_shipped_by_package_data():
    """A new data folder (judge_eval/) was once left out of the wheel: .ci/check_dist.py now names it."""
    check_dist = _ci("check_dist")
    assert check_dist.unshipped() == []


def test_ci_notebook_runs_tell_whose_warning_is_whose():
    """.ci/run_notebooks.py runs a batch of notebooks in one process: the worker's stderr is split by its
    markers, so a warning counts against the notebook that was running, and start-up noise stands apart."""
    exec_notebooks, run_notebooks = _ci("exec_notebooks"), _ci("run_notebooks")
    assert ((run_notebooks.MARKER, run_notebooks.EXIT, run_notebooks.RESTARTED)
            == (exec_notebooks.MARKER, exec_notebooks.EXIT, exec_notebooks.RESTARTED))
    stderr = "\n".join(["early noise", f"{run_notebooks.MARKER}/x/01.ipynb", "", f"{run_notebooks.MARKER}/x/02.ipynb",
                        "UserWarning: careful", "  warnings.warn('careful')", f"{run_notebooks.MARKER}{run_notebooks.EXIT}", "late"])
    assert run_notebooks.terminal_lines(stderr) == {
        "": ["early noise"], "/x/01.ipynb": [], "/x/02.ipynb": ["UserWarning: careful", "  warnings.warn('careful')"],
        "(exit)": ["late"]}


def test_ci_notebook_runs_replace_a_kernel_that_dies_at_start_once_and_say_so(tmp_path):
    """A kernel that exits before its first reply (no cell has run) is replaced once, as JupyterLab
    restarts a dead kernel: the run passes, with a note of what the dead kernel printed."""
    run_notebooks = _ci("run_notebooks")
    flag, spec = tmp_path / "died", tmp_path / "data" / "kernels" / "dies-once"
    spec.mkdir(parents=True)
    (spec / "kernel.sh").write_text(f'#!/bin/sh\nif [ -e "{flag}" ]; then exec "{sys.executable}" -m ipykernel_launcher "$@"; fi\n'
                                    f'touch "{flag}"; echo "dying on purpose" >&2; exit 3\n')
    (spec / "kernel.sh").chmod(0o755)
    (spec / "kernel.json").write_text(json.dumps({"argv": [str(spec / "kernel.sh"), "-f", "{connection_file}"],
                                                  "display_name": "dies once", "language": "python",
                                                  "metadata": {"supported_encryption": ["curve"]}}))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    notebook.metadata["kernelspec"] = {"name": "dies-once", "display_name": "dies once", "language": "python"}
    nbformat.write(notebook, tmp_path / "tiny.ipynb")
    env = {**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    [(path, _, problem, note)] = run_notebooks.run_batch(Path(sys.prefix), [tmp_path / "tiny.ipynb"], env)
    assert (path, problem) == (tmp_path / "tiny.ipynb", "")
    assert note.startswith("its first kernel died at start (RuntimeError: Kernel died before replying")
    assert "dying on purpose" in note


def test_ci_notebook_runs_fail_a_notebook_whose_second_kernel_dies_too():
    """The worker tries a second kernel only once: if that one dies too, the notebook fails, with the
    words of both kernels; a line printed after the last notebook is the worker's own, and fails the run."""
    run_notebooks = _ci("run_notebooks")
    died = "RuntimeError: Kernel died before replying to kernel_info"
    stdout = json.dumps({"notebook": "/x/01.ipynb", "seconds": 2.0, "stderr": [], "error": died, "restarted": died})
    stderr = "\n".join([f"{run_notebooks.MARKER}/x/01.ipynb", "first words", f"{run_notebooks.MARKER}/x/01.ipynb{run_notebooks.RESTARTED}",
                        "second words", f"{run_notebooks.MARKER}{run_notebooks.EXIT}", "Exception ignored in atexit"])
    [(_, _, problem, note), (worker, _, own, _)] = run_notebooks.judge([Path("/x/01.ipynb")], stdout, stderr, 0, 2.0)
    assert problem.startswith(f"failed:\n{died}") and problem.endswith("second words")
    assert note.startswith("its first kernel died at start") and note.endswith("first words")
    assert worker == run_notebooks.WORKER and own == "printed:\nException ignored in atexit"


def test_make_lab_asks_no_question_about_news_from_the_internet(tmp_path):
    """On its first start JupyterLab asks whether to fetch Jupyter's news from the internet; the environment
    `make install`, `make lab` and `make lab-slides` set up answers no for every user (settings overrides)."""
    makefile = (REPO / "Makefile").read_text()
    for target in ("install", "lab", "lab-slides"):
        assert re.search(rf"^{target}:[^\n]*\$\(LAB_OVERRIDES\)", makefile, flags=re.M), target
    venv = tmp_path / "venv"
    overrides = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    subprocess.run(["make", "-s", f"VENV={venv}", str(overrides)], cwd=REPO, check=True, capture_output=True, timeout=60)
    assert json.loads(overrides.read_text())["@jupyterlab/apputils-extension:notification"] == \
        {"fetchNews": "false", "checkForUpdates": False}
