"""The glossary: lookups by any name, errors that suggest, displays for Jupyter and plain text."""

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.course import course_plan, glossary


@pytest.mark.parametrize("asked, found", [
    ("micro average", "micro average"), ("Micro-Average", "micro average"), ("  MACRO   averaging ", "macro average"),
    ("ground_truth", "reference"), ("expected output", "reference"), ("retrieved_contexts", "retrieval context"),
    ("chunk", "node"), ("Chunks", "node"), ("kappa", "Cohen's kappa"), ("P@K", "precision@k"),
    ("idk", "idk verdict"), ("actual_output", "answer"), ("user_input", "question"),
])
def test_a_term_is_found_by_any_of_its_names_whatever_the_case_and_spacing(asked, found):
    assert glossary.get(asked).name == found
    assert glossary.define(asked).startswith(found + ": ")


def test_every_name_and_alias_points_to_one_term_only():
    seen = {}
    for term in glossary.TERMS:
        for name in (term.name, *term.aliases):
            key = glossary._key(name)
            assert seen.setdefault(key, term.name) == term.name, f"{name!r} names {seen[key]!r} and {term.name!r}"


def test_the_brief_s_terms_are_all_defined():
    for name in ["node", "chunk", "context", "retrieval context", "reference", "expected output", "ground truth",
                 "verdict", "statement", "claim", "relevant", "irrelevant", "precision@k", "recall@k",
                 "average precision", "MAP", "MRR", "nDCG", "hit rate", "R-precision", "micro average",
                 "macro average", "reference-free", "reference-based", "LLM judge", "idk", "cosine similarity",
                 "embedding", "pooling", "bootstrap", "confidence interval", "paired test", "p-value",
                 "Cohen's kappa", "pairwise accuracy"]:
        assert glossary.define(name)


def test_the_reference_entry_says_which_library_calls_it_what():
    text = glossary.define("reference")
    for name in ("expected_output", "DeepEval", "Ragas", "ground_truth", "reference"):
        assert name in text


def test_average_precision_tells_the_classic_denominator_from_context_precision_s():
    text = glossary.define("average precision")
    assert "whole corpus" in text and "context precision" in text


def test_an_unknown_term_names_the_field_and_suggests_close_matches():
    with pytest.raises(InputError) as caught:
        glossary.define("micro avrage")
    assert caught.value.field == "term"
    assert "micro average" in str(caught.value)
    with pytest.raises(InputError, match="glossary.names"):
        glossary.define("photosynthesis")


@pytest.mark.parametrize("bad", [None, 3, "", "   ", ["node"]])
def test_a_term_that_is_not_a_string_is_an_input_error(bad):
    with pytest.raises(InputError) as caught:
        glossary.define(bad)
    assert caught.value.field == "term"


def test_a_selection_must_be_a_list_not_one_string():
    with pytest.raises(InputError) as caught:
        glossary.markdown("node")
    assert caught.value.field == "terms"


def test_a_subset_renders_only_its_terms_in_markdown_and_in_plain_text():
    md = glossary.markdown(["node", "verdict", "chunk"])
    assert md.count("\n| **") == 2 and "**node**" in md and "**verdict**" in md   # chunk is node: once
    plain = glossary.text(["micro average"])
    assert plain.startswith("micro average\n    Pool") and "|" not in plain


def test_the_whole_glossary_has_one_row_per_term():
    assert glossary.markdown().count("\n| **") == len(glossary.TERMS)


def test_show_prints_plain_text_outside_jupyter(capsys):
    glossary.show(["bootstrap"])
    out = capsys.readouterr().out
    assert out.startswith("bootstrap\n") and "**" not in out


def test_every_term_an_opening_lists_is_in_the_glossary():
    for notebook_id in course_plan.ids():
        for term in course_plan.get(notebook_id).terms:
            assert glossary.get(term).name == term, (notebook_id, term)


def _fake_ipython(monkeypatch, shell_class_name, subclass=False):
    """Stand-in IPython modules: a shell of the named class (or a subclass of it) and a recording display."""
    import sys
    import types

    base = type(shell_class_name, (), {})
    shell_class = type("Shell", (base,), {}) if subclass else base
    shown = []
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell_class()
    display = types.ModuleType("IPython.display")
    display.Markdown = lambda text: ("markdown", text)
    display.display = shown.append
    ipython.display = display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    return shown


@pytest.mark.parametrize("subclass", [False, True])   # Jupyter's own shell, and Colab's subclass of it
def test_show_displays_markdown_in_a_jupyter_kernel(monkeypatch, capsys, subclass):
    shown = _fake_ipython(monkeypatch, "ZMQInteractiveShell", subclass)
    glossary.show(["node"])
    assert shown == [("markdown", glossary.markdown(["node"]))] and capsys.readouterr().out == ""


def test_show_prints_plain_text_in_terminal_ipython(monkeypatch, capsys):
    shown = _fake_ipython(monkeypatch, "TerminalInteractiveShell")
    glossary.show(["node"])
    assert shown == [] and capsys.readouterr().out.startswith("node\n")


def test_a_pipe_in_a_definition_does_not_break_the_markdown_table(monkeypatch):
    monkeypatch.setattr(glossary, "TERMS", (glossary.Term("set size", "Written |RE|, the number of entities."),))
    monkeypatch.setattr(glossary, "_INDEX", {"set size": glossary.TERMS[0]})
    row = glossary.markdown().splitlines()[-1]
    assert row.count("|") - row.count("\\|") == 4   # three cells: four unescaped separators


def test_the_temperature_entry_claims_what_the_recordings_show_and_no_more():
    from ragmetrics_edu.course.judge_study import report as judge_report
    from ragmetrics_edu.studies.judge_study import tables as judge_tables

    text = glossary.define("temperature")
    at_zero = [row for row in judge_tables.flip_table(judge_report.study()) if row["temperature"] == "0"]
    assert at_zero and all(row["flipped"] == 0 for row in at_zero)       # "repeated itself exactly"
    assert {row["runs"] for row in at_zero} == {3} and "three runs" in text
    assert "no guarantee" in text and "(nearly) repeatable" not in text


def test_the_advanced_lessons_jargon_is_defined():
    for name in ("ECE", "Brier score", "Platt scaling", "Wilson interval", "PPI", "PPI++", "delta method",
                 "cluster bootstrap", "stratified AUC", "power", "LettuceDetect", "GGUF", "Q4_K_M"):
        assert glossary.get(name).definition, name
    assert "λ" in glossary.get("PPI++").definition and "never wider" in glossary.get("PPI++").definition


def test_calibration_has_both_senses():
    text = glossary.get("calibration").definition
    assert "embedding" in text and "p(yes)" in text and "notebook 07" in text and "notebook 15" in text
