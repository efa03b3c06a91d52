"""From this course to DeepEval and Ragas: which class computes each metric there.

For every metric the course teaches, ``data/bridges.json`` records the class that computes it
in DeepEval 4.x, in Ragas 0.4's legacy ``ragas.metrics`` and in ``ragas.metrics.collections``
(and, for deck E, the Ragas 0.1 class and column names), with its constructor parameters, the
data fields it reads, what its result holds, and which variant of ours gives the same number.

Every name was read from the libraries' own source at a recorded commit. Each name carries its
citation (repository, commit, file, class or function) and the source line it was read from, a
short excerpt kept as evidence, so a test can check that every name shown is the one cited.

    >>> from ragmetrics_edu import bridges
    >>> bridges.metrics()[:2]
    ['context_precision', 'context_recall']
    >>> bridges.show("faithfulness")        # doctest: +SKIP  (a markdown table in Jupyter, text elsewhere)
"""

from __future__ import annotations

import copy
import json
import sys
import textwrap
from functools import lru_cache
from importlib import resources
from typing import Any

from ..errors import InputError

#: Longest plain-text line :func:`text` prints.
WIDTH = 110
_LABEL = 12          # width of the row labels ("parameters", "reads", ...)
_INDENT = " " * (2 + _LABEL)
_GROUPS = ("alias", "params", "fields", "result")


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    raw = resources.files("ragmetrics_edu").joinpath("data/bridges.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


def metrics() -> list[str]:
    """The metric keys :func:`show` accepts, in the order the course teaches them."""
    return list(_data()["metrics"])


def _key(metric: Any) -> str:
    if not isinstance(metric, str):
        raise InputError("metric", f"a metric name, one of {metrics()}", metric)
    key = metric.strip().lower().replace("-", "_").replace(" ", "_")
    key = _data()["aliases"].get(key, key)
    if key not in _data()["metrics"]:
        raise InputError("metric", f"one of {metrics()}", metric)
    return key


def entry(metric: str) -> dict[str, Any]:
    """The recorded entry of one metric (a copy): title, notebook and one entry per class."""
    return copy.deepcopy(_data()["metrics"][_key(metric)])


def sources() -> dict[str, dict[str, str]]:
    """The library versions read: repository, commit and version per source key."""
    return copy.deepcopy(_data()["sources"])


def peer_versions() -> dict[str, str]:
    """The DeepEval and Ragas versions every name in ``data/bridges.json`` was checked against.

    The one place the course cites the peers' versions from: notebooks, decks and the README
    quote these (``{"deepeval": "4.1.10", "ragas": "0.4.0+3"}``), never a version of their own."""
    src = _data()["sources"]
    return {"deepeval": src["deepeval"]["version"], "ragas": src["ragas"]["version"]}


def peer_versions_text() -> str:
    """The versions as a phrase for a lesson: "DeepEval 4.1.10 and Ragas 0.4.0+3"."""
    v = peer_versions()
    return f"DeepEval {v['deepeval']} and Ragas {v['ragas']}"


#: DeepEval's and Ragas' versions the bridges were checked against (from ``data/bridges.json``).
PEER_VERSIONS: dict[str, str] = peer_versions()


def _items(e: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(group, item, the class it belongs to) for every cited name of one entry."""
    out: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    base: dict[str, Any] = e.get("class") or e.get("instead") or {}
    if e.get("class"):
        out.append(("class", e["class"], e["class"]))
    if e.get("instead"):
        out.append(("instead", e["instead"], e["instead"]))
    for group in _GROUPS:
        out += [(group, item, base) for item in e.get(group, [])]
    if "v01" in e:
        v = e["v01"]
        out += [("v01.class", v["class"], v["class"]), ("v01.mode", v["mode"], v["class"])]
        out += [("v01.fields", item, v["class"]) for item in v["fields"]]
    return out


def citations(metric: str) -> list[dict[str, str]]:
    """One row per name shown for ``metric``: where it was read (repo, commit, file, symbol, excerpt)."""
    src = _data()["sources"]
    rows = []
    for e in _data()["metrics"][_key(metric)]["entries"]:
        for group, item, base in _items(e):
            s = src[item.get("source", base["source"])]
            rows.append({"api": e["api"], "group": group, "name": item["name"], "repo": s["repo"],
                         "commit": s["commit"], "version": s["version"], "file": item.get("file", base["file"]),
                         "symbol": item.get("symbol", base["symbol"]), "excerpt": item["excerpt"]})
    return rows


def _ours(o: dict[str, Any]) -> str:
    if not o["function"]:
        return "no equal"
    module = o.get("module", "ragmetrics_edu.metrics").removeprefix("ragmetrics_edu.")
    variant = f'variant="{o["variant"]}"' if o["variant"] else ""
    return f"{module}.{o['function']}({variant})"


def _params(items: list[dict[str, Any]]) -> list[str]:
    return [f"{p['name']}={p['default']}" if "default" in p else p["name"] for p in items]


def _rows(e: dict[str, Any]) -> tuple[str, list[tuple[str, list[str], str]]]:
    """The heading and the (label, names, comment) rows of one entry, for the plain text."""
    api = _data()["apis"][e["api"]]
    if e.get("class") is None:
        instead = e.get("instead")
        head = f"{api['label']}: no class for this metric" + (
            f"; instead {api['module']}.{instead['name']}" if instead else "")
        return head, [("ours", [_ours(e["ours"])], e["ours"]["note"])]
    head = f"{api['label']}: {api['module']}.{e['class']['name']}"
    if e.get("alias"):
        head += " (alias " + ", ".join(a["name"] for a in e["alias"]) + ")"
    rows: list[tuple[str, list[str], str]] = []
    if e.get("params"):
        rows.append(("parameters", _params(e["params"]), ""))
    if e.get("fields"):
        rows.append(("reads", [f["name"] for f in e["fields"]], f"({api['data']})"))
    if "v01" in e:
        v = e["v01"]
        rows.append(("0.1 class", [v["class"]["name"]], f"(mode {v['mode']['name']})"))
        rows.append(("0.1 columns", [f["name"] for f in v["fields"]], ""))
    rows.append(("result", [r["name"] for r in e.get("result", [])], ""))
    rows.append(("ours", [_ours(e["ours"])], e["ours"]["note"]))
    if e.get("note"):
        rows.append(("note", [], e["note"]))
    rows.append(("source", [], f"{e['class']['file']}, {e['class']['symbol']}"))
    return head, rows


def _wrap_row(label: str, names: list[str], comment: str) -> list[str]:
    """One labelled row: the names, then a comment (after ": " for ours, in brackets otherwise)."""
    sep = ": " if label == "ours" and comment else " "
    body = ", ".join(names) + (sep if names and comment else "") + comment
    return textwrap.wrap(body, WIDTH, initial_indent=f"  {label:<{_LABEL}}", subsequent_indent=_INDENT,
                         break_on_hyphens=False, break_long_words=False)


def text(metric: str) -> str:
    """The plain-text rendering :func:`show` prints outside Jupyter (lines of at most 110 characters)."""
    key = _key(metric)
    m = _data()["metrics"][key]
    lines = [f"{m['title']} in DeepEval and Ragas (course notebook {m['notebook']})", ""]
    for e in m["entries"]:
        head, rows = _rows(e)
        lines.append(head)
        for label, names, comment in rows:
            lines += _wrap_row(label, names, comment)
    lines += ["", *textwrap.wrap(_footer(key), WIDTH)]
    return "\n".join(lines)


def _footer(key: str) -> str:
    used = sorted({f"{c['repo'].split('/')[1]} {c['version']} @ {c['commit'][:12]}" for c in citations(key)})
    return (f"Read from the libraries' source: {'; '.join(used)}. Every name above with the line it "
            f"was read from: bridges.citations({key!r}).")


def _md(s: str) -> str:
    return s.replace("|", "\\|")


def markdown(metric: str) -> str:
    """The markdown rendering :func:`show` displays in Jupyter: one table row per class."""
    key = _key(metric)
    m = _data()["metrics"][key]
    out = [f"**{m['title']} in DeepEval and Ragas**", "",
           "| library | class | parameters | reads | result | ours |", "|---|---|---|---|---|---|"]
    notes = []
    for e in m["entries"]:
        api = _data()["apis"][e["api"]]
        if e.get("class") is None:
            instead = f"no class; instead `{e['instead']['name']}`" if e.get("instead") else "no class"
            out.append(f"| {api['label']}<br>`{api['module']}` | {instead} | | | | {_md(e['ours']['note'])} |")
            continue
        cls = f"`{e['class']['name']}`" + "".join(f" (alias `{a['name']}`)" for a in e.get("alias", []))
        params = ", ".join(f"`{p}`" for p in _params(e.get("params", [])))
        reads = ", ".join(f"`{f['name']}`" for f in e.get("fields", []))
        reads += f" ({api['data']})" if reads else ""
        if "v01" in e:
            v = e["v01"]
            reads += ("<br>" if reads else "") + "Ragas 0.1: " + ", ".join(f"`{f['name']}`" for f in v["fields"])
            reads += f" in `{v['class']['name']}`, mode `{v['mode']['name']}`"
        result = ", ".join(f"`{r['name']}`" for r in e.get("result", []))
        ours = _ours(e["ours"])
        ours_cell = f"`{ours}`: {_md(e['ours']['note'])}" if e["ours"]["function"] else _md(e["ours"]["note"])
        out.append(f"| {api['label']}<br>`{api['module']}` | {cls} | {params} | {reads} | {result} | {ours_cell} |")
        where = f"`{e['class']['file']}`, `{e['class']['symbol']}`"
        notes.append(f"- {api['label']} `{e['class']['name']}`: {where}" + (f". {_md(e['note'])}" if e["note"] else ""))
    out += ["", *notes, "", _md(_footer(key))]
    return "\n".join(out)


class Bridge:
    """What :func:`show` displays: markdown in Jupyter, the plain text as its repr."""

    def __init__(self, metric: str) -> None:
        self.metric = _key(metric)

    def __repr__(self) -> str:
        return text(self.metric)

    def _repr_markdown_(self) -> str:
        return markdown(self.metric)


def _in_notebook() -> bool:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell is not None and getattr(shell, "kernel", None) is not None


def show(metric: str) -> None:
    """Show where ``metric`` lives in DeepEval and Ragas: a markdown table in Jupyter, else text."""
    bridge = Bridge(metric)
    if _in_notebook():
        from IPython.display import display  # lazy: IPython exists only in a notebook

        display(bridge)
    else:
        print(text(bridge.metric))
