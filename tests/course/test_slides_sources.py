"""The slide sources and the fragments they print, without a browser.

The decks in ``slides/`` are notebooks whose numbers must all come from code run at build
time: their prose may not type a result, their code cells are hidden, and nothing executed
is stored in them. ``ragmetrics_edu.course.slides`` renders the worked examples they show.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from conftest import REPO
from ragmetrics_edu import InputError, examples, metrics
from ragmetrics_edu.course import slides as sk
from ragmetrics_edu.results import steps_html

DECK_FILES = sorted((REPO / "slides").glob("[0-9][0-9]_*.ipynb"))
#: A decimal (0.58), a fraction (7/12) or a percentage (58%) typed into prose.
TYPED_NUMBER = re.compile(r"(?<![\w.])\d+\.\d+|(?<![\w/])\d+/\d+(?![\w/])|\d+\s?%")


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def test_there_is_an_introduction_and_a_deck_per_metric_family():
    stems = [p.stem for p in DECK_FILES]
    assert stems[0] == "00_introduction"
    families = {"context_precision", "context_recall", "contextual_relevancy", "context_entity_recall", "llm_as_judge",
                "faithfulness", "answer_relevancy", "similarity_and_correctness", "ranking_measures",
                "evaluate_a_retriever", "can_you_trust_the_judge", "choosing_metrics", "rubric_judges",
                "judges_against_people", "aligning_a_judge", "capstone"}
    assert {stem.split("_", 1)[1] for stem in stems[1:]} == families


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.stem)
def test_deck_source_is_clean(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["metadata"].get("title"), "the deck needs a title (metadata.title) for the index page"
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        assert "slide_type" in cell["metadata"].get("slideshow", {}), f"no slide type: {source[:60]!r}"
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [] and cell.get("execution_count") is None, \
                f"stored output (numbers must come from the build): {source[:60]!r}"
            assert "remove_input" in cell["metadata"].get("tags", []), f"code shown on a slide: {source[:60]!r}"
        else:
            typed = TYPED_NUMBER.findall(source)
            assert typed == [], f"number typed into the prose (compute it instead): {typed} in {source[:80]!r}"


def test_typed_number_pattern_catches_what_it_should():
    assert TYPED_NUMBER.findall("a score of 0.5833, i.e. 7/12 or 58 %") == ["0.5833", "7/12", "58 %"]
    assert TYPED_NUMBER.findall("deck 01, precision@k, $r_k = 1$, notebooks/01_context_precision.ipynb") == []


@pytest.mark.parametrize("example_id", examples.ids())
def test_example_block_shows_the_decks_number_and_the_computed_one(example_id):
    ex = examples.load(example_id)
    for label in ex.case_labels:
        block = sk.example_block(example_id, label).html
        assert f"data-example='{example_id}'" in block and f"data-case='{label}'" in block
        result = ex.compute(label)
        stated = ex.case(label).headline
        for s in stated:
            assert f"<b class='rme-stated'>{s.printed}</b>" in block
            assert f"<b class='rme-computed'>{s.shown(result.lookup(s.quantity))}</b>" in block
        if not stated:
            assert "prints no number" in block and f"<b class='rme-computed'>{sk.fmt(result.score)}</b>" in block


def test_truncation_is_named_and_the_exact_value_shown():
    block = sk.example_block("E-cer-taj-mahal", "CE1").html
    r = examples.load("E-cer-taj-mahal").compute("CE1")
    assert "truncates" in block and f"{r.score:.3f}" in block and repr(r.score) in block


def test_case_inputs_pick_the_cases_own_texts():
    ex = examples.load("E-faith-einstein")
    low, high = sk.case_inputs(ex, "low"), sk.case_inputs(ex, "high")
    assert low["answer"] == ex.inputs["answer_low"] and high["answer"] == ex.inputs["answer_high"]
    assert low["question"] == ex.inputs["question"]


def test_fragments_escape_text_and_keep_dollars_away_from_mathjax():
    r = metrics.context_precision([1, 0], nodes=["costs $5 <b>", "free"])
    table = steps_html(r)
    assert "&lt;b&gt;" in table and "tex2jax_ignore" in table
    plain = sk.table(["name", "score"], [("<i>x</i>", 0.583333)]).html
    assert "&lt;i&gt;" in plain and "0.5833" in plain


def test_scores_table_marks_the_example_and_each_case():
    ex = examples.load("D-cp-order-table")
    html = sk.scores_table(ex.compute_all(), example_id=ex.id).html
    assert f"data-example='{ex.id}'" in html
    for label in ex.case_labels:
        stated = [s for s in ex.case(label).stated if s.quantity == "score"][0]
        assert f"<td class='rme-stated'>{stated.printed}</td>" in html


def test_unknown_example_is_a_clear_error():
    with pytest.raises(InputError, match="no-such-example"):
        sk.example_block("no-such-example")


def test_example_line_marks_the_example_with_the_decks_and_the_computed_number():
    ex = examples.load("D-cp-bm25-vs-semantic")
    for label in ex.case_labels:
        line = sk.example_line(ex.id, label).html
        assert f"data-example='{ex.id}'" in line and f"data-case='{label}'" in line
        result = ex.compute(label)
        for s in ex.case(label).headline:
            assert f"<b class='rme-computed'>{s.shown(result.lookup(s.quantity))}</b>" in line


def test_metric_map_fragment_has_a_row_per_metric_and_costs_only_when_given():
    from ragmetrics_edu.course import metric_map as mm
    from ragmetrics_edu.judges.costs import StepCost

    plain = sk.metric_map().html
    assert plain.count("<tr>") == len(mm.METRICS) + 1 and "calls / case" not in plain
    for info in mm.METRICS:
        assert html.escape(info.name) in plain
    costs = {"faithfulness": StepCost("faithfulness", 2, 4, 1000, 100, 10.0)}
    measured = sk.metric_map(costs).html
    assert "calls / case" in measured and "<td>2</td><td>500</td>" in measured


def test_slide_tables_are_sized_by_their_shape():
    short = sk.table(["a", "b"], [("x", 1.0), ("y", 2.0)]).html
    assert "rme-few" in short  # a few short rows: set larger to fill the slide
    wide = sk.table(list("abcdefg"), [tuple(range(7))]).html
    assert "rme-airy" in wide and "rme-few" not in wide  # set larger it would wrap: taller rows instead
    wordy = sk.table(["case", "note"], [("empty", "a note far longer than a short cell can be")]).html
    assert "rme-airy" in wordy
    long = sk.table(["k"], [(i,) for i in range(sk.MANY_ROWS + 1)]).html
    assert "rme-many" in long
    assert "rme-few" in sk.table(list("abcdefg"), [tuple(range(7))], large=True).html
    plain = sk.table(["a", "b"], [("x", 1.0)], large=False).html
    assert "rme-few" not in plain and "rme-airy" not in plain
    with pytest.raises(InputError, match="large"):
        sk.table(["a"], [("x",)], large="yes")


def test_step_table_headers_wrap_at_underscores_on_a_slide():
    block = sk.example_block("A-cp-what-is-ai", columns=("k", "precision_at_k", "term")).html
    assert "<th>precision at k</th>" in block and "precision_at_k</th>" not in block


def test_figure_text_is_enlarged_to_read_from_the_back_row():
    from matplotlib.text import Text

    from ragmetrics_edu.plots import plot_per_k_terms

    fig = plot_per_k_terms(examples.load("A-cp-what-is-ai").compute())  # its labels are 8 pt
    shown = sk.figure(fig, 8, 3.6).html
    px_per_inch = min(sk.FIGURE_BOX[0] / 8, sk.FIGURE_BOX[1] / 3.6)
    smallest_pt = min(t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip())
    assert smallest_pt * px_per_inch / 72 >= sk.FIGURE_TEXT_PX - 0.01
    text_px = float(re.search(r"data-text-px='([\d.]+)'", shown).group(1))
    natural_width = 8 * sk.FIGURE_DPI
    assert text_px * min(sk.FIGURE_BOX[0] / natural_width, sk.FIGURE_BOX[1] / (3.6 * sk.FIGURE_DPI)) >= sk.FIGURE_TEXT_PX - 0.1
    assert shown.startswith("<img class='rme-figure'") and "data:image/png;base64," in shown
    for bad in (0, -1, "8", True):
        with pytest.raises(InputError, match="width"):
            sk.figure(fig, bad, 3)


def _slides(path):
    """The deck's slides: each a list of (slide type, cell) from a "slide" cell to the next."""
    slides: list[list[tuple[str, dict]]] = []
    for cell in _cells(path):
        kind = cell["metadata"].get("slideshow", {}).get("slide_type", "-")
        if kind == "slide" or not slides:
            slides.append([])
        slides[-1].append((kind, cell))
    return slides


def test_deck_15_keeps_provenance_in_the_notes_one_table_a_slide_and_titles_that_state_a_message():
    deck = REPO / "slides" / "16_capstone.ipynb"
    bare = {"A small RAG system, two versions", "Sort by score, read the lowest", "Scores that never fall",
            "A taxonomy of failures", "Counts per system", "Rules against a reading", "What the reading saw",
            "Change one component, test it paired", "What chance alone would give", "The judge's own noise"}
    for slide in _slides(deck)[2:]:                      # the setup cell and the title slide come first
        shown = [cell for kind, cell in slide if kind not in ("notes", "skip")]
        source = "".join(shown[0]["source"])
        title = source.splitlines()[0]
        if "title(" in source:                           # a title computed by the deck: its text, numbers and all
            title = "## " + source[source.index("title(") + 6:]
        assert title.startswith("## ") and title[3:] not in bare, f"a title that states no message: {title!r}"
        body = "\n".join("".join(cell["source"]) for cell in shown)
        assert body.count("sk.table(") <= 1, f"more than one table on {title!r}"
        for word in ("sha256", "gguf", "machine_time"):
            assert word not in body, f"provenance ({word}) on the body of {title!r}: speaker notes or a footnote"
    notes = "\n".join("".join(c["source"]) for slide in _slides(deck) for kind, c in slide if kind == "notes")
    assert "sha256" in notes, "the model file's sha256 belongs in the speaker notes"


@pytest.mark.parametrize("path", DECK_FILES + sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb")),
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_cell_has_an_id(path):
    """nbformat 4.5 requires cell ids; without them every build and run prints MissingIDFieldWarning
    (a deck edited by hand once lost ten)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    if (notebook["nbformat"], notebook["nbformat_minor"]) >= (4, 5):
        missing = [i for i, cell in enumerate(notebook["cells"]) if not cell.get("id")]
        assert missing == [], f"{path.name}: cells {missing} have no id"


def test_every_try_it_line_points_at_a_notebook_that_exists():
    import re

    for deck in sorted((REPO / "slides").glob("[0-9][0-9]_*.ipynb")):
        text = "".join("".join(c["source"]) for c in _cells(deck))
        for target in re.findall(r"\*\*Try it:\*\* `([^`]+)`", text):
            assert (REPO / target).exists(), (deck.name, target)
