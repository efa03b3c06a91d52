"""What the course says about its labels and its judge matches the data (the last wording slips).

Each test holds one claim of the notebooks, decks, README or docstrings to the data or the recordings
it rests on, or keeps out a phrase that overstated them: where HaluEval's labels come from, what the
small judge's re-answer does alone, how it uses "contradicted", what a coin would score, how many
pipeline configurations were tried, what the labelled set's annotators are, where a lesson told the
project's history instead of the method.
"""

from __future__ import annotations

import json
import re

from conftest import REPO
from ragmetrics_edu.course import exercises
from ragmetrics_edu.course.halueval import study as halueval_study
from ragmetrics_edu.course.judge_study import report as judge_report
from ragmetrics_edu.designs.faithfulness_checked import PIPELINES
from ragmetrics_edu.studies.halueval.designs import DESIGNS as HALUEVAL_DESIGNS
from ragmetrics_edu.studies.judge_study import agreement as judge_agreement
from ragmetrics_edu.studies.judge_study import cases as judge_cases
from ragmetrics_edu.studies.judge_study import tables as judge_tables

NOTEBOOKS = REPO / "notebooks"
SLIDES = REPO / "slides"
PACKAGE = REPO / "ragmetrics_edu"

#: phrases that said more (or other) than the data shows, each with what is true instead
WRONG = {
    "filtered by the HaluEval authors": "ChatGPT filtered them, under a prompt the HaluEval authors wrote",
    "known by construction": "the labels come from how the benchmark was built; nobody checked them",
    "known answers": "HaluEval's labels are constructed (ChatGPT-written, ChatGPT-filtered), not known",
    "nobody in this project labelled": "no person checked the QA rows, here or in HaluEval",
    "usually finds the right words": "the judge's answer alone orders fewer pairs than word overlap",
    "rarely says contradicted": "it misses most contradicted claims, and most of its 'contradicted' are wrong",
    'rarely says "contradicted"': "it misses most contradicted claims, and most of its 'contradicted' are wrong",
    "no better than a coin": "an interval around 0.5 means it cannot be told from a coin",
    "about six configurations": "the count is computed from the tables that list them",
    "hand verdicts": "the verdicts are written into the example",
    "careful human": "say whose labels they are",
    "cohen_kappa(human": "name the labels for what they are",
    "typed by a person": "verdicts given in code: by a person, a deck or a script",
    "given by a person": "verdicts given in code",
    "is the instruction's doing": "without a placebo, any added text could have changed it",
    "the first recordings planted": "no project history in a lesson",
    "before it grew": "no project history in a lesson",
    "was planted again": "no project history in a lesson",
    "the library builds today": "no project history in a lesson",
    "Rescored on 20": "no project history in a lesson",
    "barely overlap": "in notebook 09's output the intervals do not overlap at all",
    "the relativity claim above": "there is none above; section 5 shows a true claim that fails",
}


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _notebook_text(path) -> str:
    """Every cell's source and every stored text output of a notebook."""
    parts = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        parts.append(_text(cell["source"]))
        for out in cell.get("outputs", []):
            parts.append(_text(out.get("text", "")))
            parts += [_text(v) for k, v in out.get("data", {}).items() if k.startswith("text/")]
    return "\n".join(parts)


def _collapsed(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def wrong_phrases(texts: dict[str, str]) -> dict[str, list[str]]:
    """For each text (name -> text) the phrases of :data:`WRONG` it holds (case and line breaks ignored)."""
    found = {}
    for name, text in texts.items():
        flat = _collapsed(text).lower()
        hits = [p for p in WRONG if p.lower() in flat]
        if hits:
            found[name] = hits
    return found


def _course_texts() -> dict[str, str]:
    texts = {p.relative_to(REPO).as_posix(): _notebook_text(p)
             for folder in (NOTEBOOKS, SLIDES) for p in sorted(folder.glob("[0-9][0-9]_*.ipynb"))}
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted(PACKAGE.rglob("*.py")),
                 *sorted((PACKAGE / "data").rglob("*.md"))]:
        texts[path.relative_to(REPO).as_posix()] = path.read_text(encoding="utf-8")
    return texts


def test_the_scan_finds_a_planted_phrase_across_a_line_break():
    assert wrong_phrases({"a": "the model\nrarely says   contradicted here", "b": "it misses most"}) == \
        {"a": ["rarely says contradicted"]}


def test_no_notebook_deck_readme_or_docstring_holds_a_phrase_the_data_contradicts():
    found = wrong_phrases(_course_texts())
    assert found == {}, {name: {p: WRONG[p] for p in hits} for name, hits in found.items()}


def _md(stem: str, folder=NOTEBOOKS) -> str:
    cells = json.loads((folder / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    return _collapsed("\n".join(_text(c["source"]) for c in cells if c["cell_type"] == "markdown"))


def _outputs(stem: str) -> str:
    cells = json.loads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    return "\n".join(_text(o.get("text", "")) for c in cells for o in c.get("outputs", []))


def test_halueval_provenance_says_who_wrote_and_who_filtered_and_that_no_person_checked():
    readme = _collapsed((PACKAGE / "data" / "halueval_qa" / "README.md").read_text(encoding="utf-8"))
    prose = _md("11_can_you_trust_the_judge")
    for text in (readme, prose):
        assert "written by ChatGPT" in text and "filtered automatically, by ChatGPT too, under a" in text
        assert "the HaluEval authors wrote" in text and "no person checked these QA rows" in text.replace("No ", "no ")
    # the blind relabel's counts, said the same way in both places
    assert "a blind relabel of 20 of the shipped answers" in readme and "on 1 and found 2 more borderline" in readme
    assert "a blind relabel of twenty of the shipped answers" in prose
    assert "on one and found two more borderline" in prose
    doc = _collapsed((PACKAGE / "data" / "halueval.py").read_text(encoding="utf-8"))
    assert "No person checked these rows" in doc


def test_the_judges_answer_alone_orders_fewer_pairs_than_word_overlap_as_notebook_11_says():
    log = halueval_study.choice_log()
    alone = [r for r in log["dev"]
             if dict(HALUEVAL_DESIGNS[r["design"]].options).get("grounding_weight") == 0]
    assert alone
    for r in alone:
        assert r["pairwise"] < r["baseline_pairwise"] and r["worse"] > 2 * r["better"], r["design"]
        assert f"  {r['design']:<22} {r['pairwise']:.3f} vs {r['baseline_pairwise']:.3f}: " \
               f"better on {r['better']} pairs, worse on {r['worse']}" in _outputs("11_can_you_trust_the_judge")
    assert "the judge's answer alone orders fewer pairs correctly than word overlap, worse on many more " \
           "pairs than better" in _md("11_can_you_trust_the_judge")
    doc = _collapsed((PACKAGE / "designs" / "faithfulness_reanswer.py").read_text(encoding="utf-8"))
    assert "ordered fewer pairs correctly than word overlap, worse on many more pairs than better" in doc


def test_notebook_11_and_deck_11_read_contradicted_as_recall_and_precision():
    contra = judge_agreement.contradiction_counts(judge_report.verdicts("qwen_same_items", "faithfulness"))
    assert contra["caught"] < contra["labelled"] / 2 and contra["wrong"] > contra["said"] / 2   # "most", twice
    printed = _outputs("11_can_you_trust_the_judge")
    assert f"(recall {contra['caught']}/{contra['labelled']})" in printed
    assert (f"the judge said 'contradicted' {contra['said']} times in {contra['claims']} claims, "
            f"{contra['wrong']} of them wrongly (precision {contra['caught']}/{contra['said']})") in printed
    assert "misses most contradicted claims, and most of its own \"contradicted\" verdicts are wrong" in \
        _md("11_can_you_trust_the_judge")
    deck = _notebook_text(SLIDES / "11_can_you_trust_the_judge.ipynb")
    assert "judge_agreement.contradiction_counts(" in deck and "'contradicted' verdicts were wrong" in deck


def test_word_overlap_on_the_labelled_pairs_cannot_be_told_from_a_coin():
    from ragmetrics_edu import baselines
    from ragmetrics_edu.agreement import pairwise_accuracy
    from ragmetrics_edu.course.judge_study import labels as judge_eval

    pairs = judge_cases.pairs(judge_eval.load_cases())
    good = [baselines.answer_overlap(a.answer, a.contexts) for a, _ in pairs]
    bad = [baselines.answer_overlap(b.answer, b.contexts) for _, b in pairs]
    overlap = pairwise_accuracy([1] * len(pairs), [0] * len(pairs), good, bad)
    assert overlap.ci[0] <= 0.5 <= overlap.ci[1]
    assert "it cannot be told from a coin" in _notebook_text(SLIDES / "11_can_you_trust_the_judge.ipynb")


def test_deck_11_counts_the_pipeline_configurations_it_shows():
    pipes, full = judge_tables.pipeline_table(judge_report.study()), judge_tables.full_pipeline_table(judge_report.study())
    tried = {r["pipeline (same claims)"] for r in pipes} | {r["pipeline (extracts)"] for r in full}
    assert len(tried) == len(PIPELINES)
    cells = json.loads((SLIDES / "11_can_you_trust_the_judge.ipynb").read_text(encoding="utf-8"))["cells"]
    notes = [_text(c["source"]) for c in cells if c["metadata"].get("slideshow", {}).get("slide_type") == "notes"]
    counted = [n for n in notes if "configuration" in n and "tried" in n]
    assert counted and all(c.startswith("tried = ") and "{len(tried)}" in c for c in counted)


def test_exercise_cap_3_explains_without_an_interval_on_eight_questions():
    item = exercises.get("cap-3")
    assert "too few to tell" in item.explanation and "quotes no interval" in item.explanation
    assert not re.search(r"interval (reaches|includes|\[)", item.explanation)


def test_the_labels_are_named_for_what_they_are():
    readme = _collapsed((REPO / "README.md").read_text(encoding="utf-8"))
    assert re.search(r"labelled twice [^.;]*language-model passes \(no person labelled it\)", readme)
    from ragmetrics_edu.judges import GivenJudge

    assert "given in code" in GivenJudge.__doc__ and GivenJudge().describe() == "verdicts given in code"
    for stem, folder in (("16_capstone_diagnose_a_rag_system", NOTEBOOKS), ("16_capstone", SLIDES)):
        text = _notebook_text(folder / f"{stem}.ipynb")
        assert "rules_vs_annotator(" in text and "rules_vs_hand" not in text and "only_hand" not in text, stem
    nb10 = _notebook_text(NOTEBOOKS / "10_llm_as_judge.ipynb")
    assert not re.search(r"\bperson\s*=", nb10) and "scripted = judges.GivenJudge(" in nb10


def test_notebook_09_says_what_its_intervals_show():
    printed = _outputs("09_evaluate_a_retriever")
    assert "measures on which the BM25 and MiniLM intervals overlap: none" in printed
    assert "do not overlap on any measure" in _md("09_evaluate_a_retriever")
    assert "a true claim the context does not hold still counts 0 under Ragas (section 5 shows one" in \
        _md("05_faithfulness")
