"""Build the classroom slide decks: run each ``slides/NN_*.ipynb`` and export it as reveal.js HTML.

Every number on a slide is printed by a code cell that calls ``ragmetrics_edu`` while the
deck is built, so a changed example or metric changes the slide. The decks work offline:
reveal.js, MathJax 2, RequireJS and jQuery come from the npm packages pinned in
``slides/package.json`` (``make slides`` installs them) and are copied, trimmed, into
``<out>/assets/``; nothing is loaded from a CDN.

    python slides/build.py                  # every deck into slides/_build/
    python slides/build.py 01 05 --out DIR  # some decks, elsewhere

Why nbconvert and not another slide tool: an instructor edits a deck as an ordinary notebook
(slide types are cell metadata, code cells are hidden with the ``remove_input`` tag), runs it
in JupyterLab to check it, and the same file builds the HTML.
"""

from __future__ import annotations

import argparse
import html
import os
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nbconvert import SlidesExporter
    from traitlets.config import Config

SLIDES = Path(__file__).resolve().parent
BUILD = SLIDES / "_build"
NODE_MODULES = SLIDES / "node_modules"
TEMPLATES = SLIDES / "templates"
STYLE = SLIDES / "templates" / "ragmetrics-slides.css"

#: What each deck loads, relative to ``assets/``; each is a file or folder of an npm package.
ASSETS: dict[str, list[str]] = {
    "reveal.js": ["LICENSE", "dist/reveal.css", "dist/reveal.js", "dist/theme/white.css",
                  "dist/theme/fonts/source-sans-pro", "plugin/notes/notes.js"],
    "mathjax": ["LICENSE", "MathJax.js", "config/TeX-AMS_CHTML-full.js", "config/Safe.js", "extensions",
                "jax/input/TeX", "jax/output/CommonHTML", "jax/element", "fonts/HTML-CSS/TeX/woff",
                "fonts/HTML-CSS/TeX/otf"],
    "requirejs": ["require.js"],
    "jquery": ["LICENSE.txt", "dist/jquery.min.js"],
}

#: Where the template finds them (relative URLs, so a built folder can be copied anywhere).
URLS = {
    "reveal_url_prefix": "assets/reveal.js",
    "mathjax_url": "assets/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
    "require_js_url": "assets/requirejs/require.js",
    "jquery_url": "assets/jquery/dist/jquery.min.js",
}


class BuildError(RuntimeError):
    """A deck could not be built; the message says which and why."""


def decks(names: list[str] | None = None) -> list[Path]:
    """The deck notebooks, in order; ``names`` picks by number prefix or stem (``01``, ``01_context_precision``)."""
    found = sorted(SLIDES.glob("[0-9][0-9]_*.ipynb"))
    if not names:
        return found

    def named(deck: Path, name: str) -> bool:
        return name in (deck.stem, deck.stem.split("_", 1)[0])

    chosen = [p for p in found if any(named(p, n) for n in names)]
    unknown = [n for n in names if not any(named(p, n) for p in found)]
    if unknown:
        raise BuildError(f"no deck named {', '.join(unknown)}; the decks are {', '.join(p.stem for p in found)}")
    return chosen


def copy_assets(out: Path, node_modules: Path = NODE_MODULES) -> None:
    """Copy the trimmed front-end packages, and our stylesheet, into ``out/assets``."""
    missing = [pkg for pkg in ASSETS if not (node_modules / pkg / "package.json").exists()]
    if missing:
        raise BuildError(f"{node_modules} lacks {', '.join(missing)}: run `make slides` (or `npm ci` in slides/) first")
    target = out / "assets"
    if target.exists():
        shutil.rmtree(target)
    for pkg, parts in ASSETS.items():
        for part in parts:
            src, dst = node_modules / pkg / part, target / pkg / part
            if not src.exists():
                raise BuildError(f"{src} is missing: is {pkg} the version pinned in slides/package.json?")
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dst)
            else:
                shutil.copy2(src, dst)
    shutil.copy2(STYLE, target / STYLE.name)


def quiet_kernels(config: Config) -> None:
    """Have the kernel manager provision CurveZMQ keys for the kernels a build starts.

    ipykernel 7 prints "Kernel is running over TCP without encryption" on every start unless
    its manager hands it keys; newcomers read that as breakage. jupyter_client 8.10 can
    (``KernelManager.transport_encryption``); older ones, whose kernels do not warn, are left alone.
    """
    from jupyter_client import KernelManager

    if "transport_encryption" in KernelManager.class_trait_names():
        import zmq

        if zmq.has("curve"):
            config.KernelManager.transport_encryption = "auto"


def exporter() -> "SlidesExporter":
    """The reveal.js exporter every deck goes through (the decks are executed before, see :func:`export_group`)."""
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    config.SlidesExporter.update(URLS)
    config.SlidesExporter.reveal_theme = "white"  # the other themes import web fonts
    config.SlidesExporter.reveal_transition = "none"
    config.SlidesExporter.reveal_number = "c/t"
    config.SlidesExporter.reveal_width = "1280"
    config.SlidesExporter.reveal_height = "720"  # 16:9, as a projector shows it
    config.SlidesExporter.exclude_input_prompt = True
    config.SlidesExporter.exclude_output_prompt = True
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {"remove_input"}
    config.TagRemovePreprocessor.remove_cell_tags = {"remove_cell"}
    return SlidesExporter(config=config, extra_template_basedirs=[str(TEMPLATES)], template_name="ragmetrics")


def export_group(group: list[Path], out: Path, timeout: int = 120) -> list[Path]:
    """Execute the decks of ``group`` one after another in one kernel and write each ``out/<stem>.html``.

    One kernel for the group, not one per deck: starting a kernel and importing the library,
    pandas and matplotlib costs about 2 s of CPU, more than most decks take to run. Between two
    decks ``%reset -f`` deletes every name the first defined, its imports included, so a deck that
    forgets an import still fails here as it would built alone.
    """
    import nbformat
    from jupyter_core.utils import run_sync
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from traitlets.config import Config

    config = Config()
    quiet_kernels(config)
    notebooks = [nbformat.read(deck, as_version=4) for deck in group]
    client = NotebookClient(notebooks[0], config=config, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(SLIDES)}})
    slides = exporter()
    built = []
    with client.setup_kernel():
        info = client.wait_for_reply(client.kc.kernel_info())
        for deck, notebook in zip(group, notebooks, strict=True):
            if built:
                run_sync(client.kc.execute_interactive)("%reset -f", silent=True, store_history=False, timeout=timeout)
            client.nb = notebook
            client.reset_execution_trackers()
            notebook.metadata["language_info"] = info["content"]["language_info"]
            try:
                for index, cell in enumerate(notebook.cells):
                    client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
            except CellExecutionError as error:  # a failing cell: say which deck, keep nbclient's cell report
                raise BuildError(f"{deck.name}: {error}") from error
            client.set_widgets_metadata()
            body, _ = slides.from_notebook_node(notebook, resources={"metadata": {"name": deck.stem}})
            target = out / f"{deck.stem}.html"
            target.write_text(body, encoding="utf-8")
            built.append(target)
    return built


def title(deck: Path) -> str:
    """A deck's title: its notebook metadata ``title``, else its file name."""
    import json

    return json.loads(deck.read_text(encoding="utf-8")).get("metadata", {}).get("title") or deck.stem


def write_index(out: Path) -> Path:
    """``out/index.html``: a plain page linking every deck built in ``out`` (no scripts, no web fonts)."""
    items = []
    for page in sorted(out.glob("[0-9][0-9]_*.html")):
        source = SLIDES / f"{page.stem}.ipynb"
        name = title(source) if source.exists() else page.stem
        items.append(f'<li><a href="{page.name}">{html.escape(name)}</a> <small>({page.stem})</small></li>')
    index = out / "index.html"
    index.write_text(
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>ragmetrics-edu slides</title>"
        "<link rel='icon' href='data:,'><style>body{font-family:sans-serif;max-width:50em;margin:2em auto;"
        "line-height:1.5}</style></head><body><h1>ragmetrics-edu: slide decks</h1>"
        f"<ol start='0'>{''.join(items)}</ol><p>Arrow keys or space to move, <b>S</b> for speaker notes, "
        "<b>Esc</b> for an overview. Built by <code>make slides</code>; every number is computed by "
        "<code>ragmetrics_edu</code>.</p></body></html>\n", encoding="utf-8")
    return index


def build(names: list[str] | None = None, out: Path = BUILD, jobs: int | None = None) -> list[Path]:
    """Build the chosen decks (all by default) into ``out`` in ``jobs`` processes, then the index page.

    The decks are dealt round-robin into ``jobs`` groups; each process runs its group in one kernel.
    """
    chosen = decks(names)
    out.mkdir(parents=True, exist_ok=True)
    copy_assets(out)
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(chosen)))  # never a process (and a kernel) with no deck
    groups = [chosen[i::jobs] for i in range(jobs)]
    if jobs <= 1:
        built = export_group(chosen, out)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            built = [path for group in pool.map(export_group, groups, [out] * jobs) for path in group]
    write_index(out)
    return sorted(built)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="decks to build (number or name); all when none are given")
    parser.add_argument("--out", type=Path, default=BUILD, help="output folder (default slides/_build)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="processes, each running its share of the decks in one kernel (default: the CPU count)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        built = build(args.names, args.out, args.jobs)
    except BuildError as error:
        print(f"slides: {error}", file=sys.stderr)
        return 1
    for path in built:
        print(f"built {path}")
    print(f"{len(built)} decks in {time.perf_counter() - start:.1f} s; open {args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
