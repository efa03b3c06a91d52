"""Issue 13 item 3: ``bridges`` maps each metric to DeepEval and Ragas, every name cited.

The names shown must be the ones cited: each shown name is compared with the recorded entry,
and each recorded name must occur in the source line (excerpt) its citation keeps. Where a peer
parity rule applies, the variant of ours named as equal must give that peer's number.
"""

import importlib
import math
import os
import re
import subprocess

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.course import bridges
from ragmetrics_edu.results import MetricResult

KEYS = bridges.metrics()
ENTRIES = [(key, i, e) for key in KEYS for i, e in enumerate(bridges.entry(key)["entries"])]


def entry_id(item):
    key, i, e = item
    return f"{key}-{i}-{e['api']}"


def shown_names(e):
    """What the entry says should be shown, group by group."""
    names = {"class": e["class"]["name"] if e.get("class") else None,
             "alias": [a["name"] for a in e.get("alias", [])],
             "params": [(p["name"], p.get("default")) for p in e.get("params", [])],
             "fields": [f["name"] for f in e.get("fields", [])],
             "result": [r["name"] for r in e.get("result", [])] if e.get("class") else []}
    v = e.get("v01")
    names["v01"] = (v["class"]["name"], v["mode"]["name"], [f["name"] for f in v["fields"]]) if v else None
    return names


# ---- every name is cited ------------------------------------------------------------------------

def test_metrics_cover_every_metric_the_course_teaches():
    assert KEYS == ["context_precision", "context_recall", "contextual_relevancy", "context_entity_recall",
                    "faithfulness", "answer_relevancy", "semantic_similarity", "answer_correctness", "ranking",
                    "g_eval", "aspect_critic"]


@pytest.mark.parametrize("key", KEYS)
def test_every_name_has_a_full_citation(key):
    rows = bridges.citations(key)
    assert rows
    for row in rows:
        assert re.fullmatch(r"[\w-]+/[\w.-]+", row["repo"]), row
        assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]), row
        assert row["file"].endswith(".py") and row["symbol"], row
        assert 0 < len(row["excerpt"]) <= 120, row
        # the name is a fact read from that line
        assert re.search(rf"(?<![\w]){re.escape(row['name'])}(?![\w])", row["excerpt"]), row


@pytest.mark.parametrize("item", ENTRIES, ids=entry_id)
def test_every_entry_has_a_class_or_says_why_not(item):
    key, _, e = item
    if e.get("class") is None:
        assert e["ours"]["function"] == "" and e["ours"]["note"], "an absent class must be explained"
        return
    cited = {(c["group"], c["name"]) for c in bridges.citations(key) if c["api"] == e["api"]}
    names = shown_names(e)
    assert ("class", names["class"]) in cited
    for group in ("alias", "fields", "result"):
        assert all((group, n) in cited for n in names[group])
    assert all(("params", n) in cited for n, _ in names["params"])
    # a shown default value is part of the cited line too
    for p in e.get("params", []):
        if "default" in p:
            assert p["default"] in p["excerpt"], p


# ---- the names shown are the cited ones ----------------------------------------------------------

def parse_text(out):
    """Split show()'s plain text into (heading, {label: text}) blocks, continuation lines joined."""
    blocks, label = [], None
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            blocks.append((line, {}))
            label = None
        elif line.startswith(" " * 14):
            blocks[-1][1][label] += " " + line.strip()
        else:
            label, body = line[2:14].strip(), line[14:]
            blocks[-1][1][label] = body
    return blocks


def names_in(body, comment=True):
    """The comma-separated names of a row, without its trailing comment in brackets."""
    if comment:
        body = re.sub(r"\s*\([^()]*\)$", "", body)
    return [n.strip() for n in re.split(r", (?![^\[]*\])", body)] if body else []   # not inside [0.75, 0.25]


@pytest.mark.parametrize("key", KEYS)
def test_show_prints_exactly_the_cited_names(key, capsys):
    bridges.show(key)
    out = capsys.readouterr().out
    assert out.strip() == bridges.text(key).strip()
    assert max(len(line) for line in out.splitlines()) <= 110
    blocks = [b for b in parse_text(out) if b[1]]      # the title and footer lines have no rows
    entries = bridges.entry(key)["entries"]
    assert len(blocks) == len(entries)
    apis = {a: v for a, v in bridges._data()["apis"].items()}
    for (head, rows), e in zip(blocks, entries, strict=True):
        names = shown_names(e)
        api = apis[e["api"]]
        if names["class"] is None:
            assert head.startswith(f"{api['label']}: no class")
            assert set(rows) == {"ours"}
            if e.get("instead"):    # what the library offers instead is a cited name too
                assert head.endswith(f"; instead {api['module']}.{e['instead']['name']}")
                assert ("instead", e["instead"]["name"]) in {(c["group"], c["name"]) for c in bridges.citations(key)}
            continue
        m = re.fullmatch(rf"{re.escape(api['label'])}: {re.escape(api['module'])}\.(\w+)(?: \(alias ([\w, ]+)\))?", head)
        assert m, head
        assert m.group(1) == names["class"]
        assert (m.group(2).split(", ") if m.group(2) else []) == names["alias"]
        shown_params = [tuple(p.split("=", 1)) if "=" in p else (p, None) for p in names_in(rows.get("parameters", ""),
                                                                                            comment=False)]
        assert shown_params == names["params"]
        assert names_in(rows.get("reads", "")) == names["fields"]
        assert names_in(rows["result"]) == names["result"]
        if names["v01"]:
            cls, mode, columns = names["v01"]
            assert rows["0.1 class"] == f"{cls} (mode {mode})"
            assert names_in(rows["0.1 columns"]) == columns
        else:
            assert "0.1 class" not in rows and "0.1 columns" not in rows
        assert rows["source"] == f"{e['class']['file']}, {e['class']['symbol']}"


def markdown_rows(md):
    return [line for line in md.splitlines() if line.startswith("| ") and not line.startswith("| library")]


@pytest.mark.parametrize("key", KEYS)
def test_markdown_shows_exactly_the_cited_names(key):
    rows = markdown_rows(bridges.markdown(key))
    entries = bridges.entry(key)["entries"]
    assert len(rows) == len(entries)
    for row, e in zip(rows, entries, strict=True):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        names = shown_names(e)
        ticks = [re.findall(r"`([^`]+)`", c) for c in cells]
        if names["class"] is None:
            assert "no class" in cells[1]
            continue
        assert ticks[1] == [names["class"], *names["alias"]]
        assert ticks[2] == [f"{n}={d}" if d is not None else n for n, d in names["params"]]
        v01 = [*names["v01"][2], names["v01"][0], names["v01"][1]] if names["v01"] else []
        assert ticks[3] == names["fields"] + v01
        assert ticks[4] == names["result"]


def test_show_displays_markdown_in_jupyter(monkeypatch):
    display_module = pytest.importorskip("IPython.display")
    shown = []
    monkeypatch.setattr(bridges, "_in_notebook", lambda: True)
    monkeypatch.setattr(display_module, "display", lambda obj: shown.append(obj))
    assert bridges.show("faithfulness") is None
    (obj,) = shown
    assert obj._repr_markdown_() == bridges.markdown("faithfulness")
    assert repr(obj) == bridges.text("faithfulness")


def test_outside_jupyter_is_detected():
    assert bridges._in_notebook() is False


@pytest.mark.parametrize("name, key", [("Faithfulness", "faithfulness"), ("answer similarity", "semantic_similarity"),
                                       ("context-precision", "context_precision")])
def test_names_are_read_leniently(name, key):
    assert bridges.entry(name) == bridges.entry(key)


@pytest.mark.parametrize("bad", ["precision", "", None, 3, ["faithfulness"]])
def test_unknown_metric_is_an_input_error(bad):
    for call in (bridges.show, bridges.text, bridges.markdown, bridges.entry, bridges.citations):
        with pytest.raises(InputError) as err:
            call(bad)
        assert err.value.field == "metric" and "faithfulness" in err.value.expected


def test_entry_is_a_copy():
    e = bridges.entry("faithfulness")
    e["entries"].clear()
    assert bridges.entry("faithfulness")["entries"]


# ---- our variants named as equal exist, and are the peer's rule ---------------------------------

#: Minimal arguments for each of our functions the bridges name.
CALLS = {
    "context_precision": (["yes", "no"],), "context_recall": (["a"], ["yes"]),
    "contextual_relevancy": ([["a"]], [["yes"]]), "context_entity_recall": (["A"], ["A"]),
    "faithfulness": (["a"], ["yes"]), "answer_relevancy": (["a"], ["yes"]),
    "answer_relevancy_embedding": ("a question", ["a question"]), "semantic_similarity": ("a b", "a c"),
    "answer_correctness": (["t"], [], [], 0.5), "context_precision_without_reference": (["yes"],),
    "precision_at_k": ([1, 0],), "recall_at_k": ([1, 0],),
    "g_eval_score": ({7: 0.6, 8: 0.4},), "aspect_critic_score": (["yes", "no", "yes"],),
}


def our_function(ours):
    return getattr(importlib.import_module(ours.get("module", "ragmetrics_edu.metrics")), ours["function"])


@pytest.mark.parametrize("item", [x for x in ENTRIES if x[2]["ours"]["function"]], ids=entry_id)
def test_our_variant_named_exists(item):
    ours = item[2]["ours"]
    fn = our_function(ours)
    kwargs = {"variant": ours["variant"]} if ours["variant"] else {}
    assert isinstance(fn(*CALLS[ours["function"]], **kwargs), MetricResult)
    if ours["variant"]:
        with pytest.raises(InputError):
            fn(*CALLS[ours["function"]], variant=ours["variant"] + "_nonexistent")


#: (metric, api, class) -> arguments and the peer's own result, worked by hand from the peer's rule
#: as in tests/library/test_peer_parity.py; the variant used is the one the bridges name as equal.
PEER_RULES = {
    ("context_precision", "deepeval", "ContextualPrecisionMetric"): ((["no", "yes"],), 0.5),
    ("context_precision", "ragas.metrics", "LLMContextPrecisionWithReference"): ((["no", "yes"],), 0.5 / (1 + 1e-10)),
    ("context_precision", "ragas.metrics.collections", "ContextPrecisionWithReference"):
        ((["no", "yes"],), 0.5 / (1 + 1e-10)),
    ("context_recall", "deepeval", "ContextualRecallMetric"): (([], []), 0.0),
    ("context_recall", "ragas.metrics", "LLMContextRecall"): (([], []), math.nan),
    ("context_recall", "ragas.metrics.collections", "ContextRecall"): (([], []), math.nan),
    ("contextual_relevancy", "deepeval", "ContextualRelevancyMetric"): (([["a", "b"], ["c"]], [["yes", "no"], ["no"]]), 1 / 3),
    ("context_entity_recall", "ragas.metrics", "ContextEntityRecall"): ((["A", "A", "B"], ["A"]), 1 / (3 + 1e-8)),
    ("context_entity_recall", "ragas.metrics.collections", "ContextEntityRecall"): ((["A", "A", "B"], ["A"]), 1 / (2 + 1e-8)),
    ("faithfulness", "deepeval", "FaithfulnessMetric"): ((["a", "b"], ["yes", "idk"]), 1.0),
    ("faithfulness", "ragas.metrics", "Faithfulness"): ((["a", "b"], ["yes", "idk"]), 0.5),
    ("faithfulness", "ragas.metrics.collections", "Faithfulness"): ((["a", "b"], ["yes", "idk"]), 0.5),
    ("answer_relevancy", "deepeval", "AnswerRelevancyMetric"): ((["a", "b"], ["no", "idk"]), 0.5),
    ("answer_relevancy", "ragas.metrics", "ResponseRelevancy"): (("q", []), math.nan),
    ("answer_relevancy", "ragas.metrics.collections", "AnswerRelevancy"): (("q", []), 0.0),
    ("answer_correctness", "ragas.metrics", "AnswerCorrectness"): (([], ["x"], [], 0.9), 0.225),
    ("answer_correctness", "ragas.metrics.collections", "AnswerCorrectness"): (([], ["x"], [], 0.9), 0.975),
    # calculate_weighted_summed_score: the 6 (0.5 %, under 1 %) is dropped, sum(p*s) / sum(p) over 7 and 8; / 10
    ("g_eval", "deepeval", "GEval"): (({6: 0.005, 7: 0.6, 8: 0.3},), (7 * 0.6 + 8 * 0.3) / (0.6 + 0.3) / 10),
    # AspectCritic._ascore asks once; _compute_score returns that one verdict
    ("aspect_critic", "ragas.metrics", "AspectCritic"): ((["no"],), 0.0),
}


def find_entry(key, api, cls):
    (e,) = [e for e in bridges.entry(key)["entries"] if e["api"] == api and e["class"] and e["class"]["name"] == cls]
    return e


@pytest.mark.parametrize("where", PEER_RULES, ids=lambda w: "-".join(w))
def test_the_variant_named_equal_gives_the_peers_number(where):
    args, expected = PEER_RULES[where]
    ours = find_entry(*where)["ours"]
    kwargs = {"variant": ours["variant"]} if ours["variant"] else {}
    score = our_function(ours)(*args, **kwargs).score
    assert (math.isnan(score) and math.isnan(expected)) or score == pytest.approx(expected, rel=1e-12, abs=0)


def test_the_peer_rules_tell_the_variants_apart():
    # the cases above are only a check if the other variant would fail them
    from ragmetrics_edu import metrics
    assert metrics.context_entity_recall(["A", "A", "B"], ["A"], variant="ragas").score != 1 / (3 + 1e-8)
    assert metrics.answer_correctness([], ["x"], [], 0.9, variant="ragas_collections").score != 0.225
    assert metrics.faithfulness(["a", "b"], ["yes", "idk"], variant="ragas").score != 1.0
    assert metrics.context_precision(["no", "yes"], "ragas").score != 0.5
    assert not math.isnan(metrics.context_recall([], [], variant="deepeval").score)
    assert metrics.answer_relevancy_embedding("q", [], variant="ragas_collections").score == 0.0
    from ragmetrics_edu.metrics.rubric import g_eval_score
    assert g_eval_score({6: 0.005, 7: 0.6, 8: 0.3}, variant="paper", scale=(0, 10)).score != pytest.approx(
        (7 * 0.6 + 8 * 0.3) / (0.6 + 0.3) / 10, rel=1e-12, abs=0)


def test_every_equal_variant_in_the_metric_notebooks_is_covered_by_a_peer_rule():
    # entries of the statement and embedding metrics that name a variant all have a rule above
    named = {(k, e["api"], e["class"]["name"]) for k, _, e in ENTRIES
             if e.get("class") and e["ours"]["variant"] and e["api"] != "ragas 0.1" and k != "ranking"}
    assert named <= set(PEER_RULES)


# ---- the excerpts are in the peers' source (needs local clones) ---------------------------------

def _peer_repos():
    """RAGMETRICS_PEER_REPOS="confident-ai/deepeval=/path/to/git,explodinggradients/ragas=/path" or nothing."""
    spec = os.environ.get("RAGMETRICS_PEER_REPOS", "")
    return dict(part.split("=", 1) for part in spec.split(",") if "=" in part)


def _span(lines, symbol):
    lo, hi, indent = 0, len(lines), ""
    for part in symbol.split("."):
        pat = re.compile(rf"^{indent}(class|def|async def) {re.escape(part)}\b|^{indent}{re.escape(part)}\s*[:=]")
        start = next((i for i in range(lo, hi) if pat.match(lines[i])), None)
        if start is None:
            return None
        lo, hi = start, next((i for i in range(start + 1, hi) if lines[i].strip()
                              and not lines[i].startswith(indent + " ")
                              and not lines[i].lstrip().startswith((")", "]", "}"))), hi)
        indent += "    "
    return lo, hi


@pytest.mark.skipif(not _peer_repos(), reason="set RAGMETRICS_PEER_REPOS to git clones of deepeval and ragas")
@pytest.mark.parametrize("key", KEYS)
def test_every_excerpt_is_in_the_cited_symbol_at_the_cited_commit(key):
    repos = _peer_repos()
    for row in bridges.citations(key):
        source = subprocess.run(["git", "-C", repos[row["repo"]], "show", f"{row['commit']}:{row['file']}"],
                                capture_output=True, text=True, check=True).stdout.splitlines()
        span = _span(source, row["symbol"])
        assert span, row
        assert any(row["excerpt"] in source[i].strip() for i in range(*span)), row


#: a peer library named with a version-like number: "DeepEval 4.3", "Ragas 0.4.0+3" (also a score, "Ragas 0.0")
PEER_NUMBER = re.compile(r"\b(DeepEval|Ragas) v?(\d+\.\d+(?:\.\d+)?(?:\+\d+)?)(?![\d.])", re.IGNORECASE)


def test_the_package_docs_readme_and_decks_name_only_the_peer_versions_of_bridges_json():
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    sources = bridges.sources().values()
    allowed = {s["version"] for s in sources} | {s["label"].split()[-1] for s in sources}
    allowed |= {"0.0", "1.0"}      # a score quoted beside a library's name ("DeepEval 1.0 and Ragas 0.0")
    paths = [*sorted((repo / "ragmetrics_edu").rglob("*.py")), *sorted((repo / "docs").glob("*.md")),
             repo / "README.md", *sorted((repo / "slides").glob("*.ipynb"))]
    wrong = [f"{p.relative_to(repo)}: {m.group(0)}" for p in paths
             for m in PEER_NUMBER.finditer(p.read_text(encoding="utf-8")) if m.group(2) not in allowed]
    assert wrong == []


def test_the_judge_schemas_docstring_points_to_bridges_json_for_versions():
    from ragmetrics_edu.judges import schemas

    doc = schemas.__doc__ or ""
    assert "data/bridges.json" in doc
    assert not re.search(r"\d+\.\d+", doc) and "issue" not in doc.lower()
