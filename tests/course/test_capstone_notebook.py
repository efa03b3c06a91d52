"""Notebook 16's data: the project's references and its annotator's reading (a language model's), and what
the notebook prints and says."""

from __future__ import annotations

import json
import re

import pytest

from conftest import REPO
from ragmetrics_edu import data
from ragmetrics_edu.course import course_plan
from ragmetrics_edu.course.capstone import systems as capstone
from ragmetrics_edu.retrieval.corpus import load_corpus
from ragmetrics_edu.studies.capstone import diagnosis
from ragmetrics_edu.studies.capstone import summary as capstone_summary

NOTEBOOK = REPO / "notebooks" / "16_capstone_diagnose_a_rag_system.ipynb"


def _questions():
    return {q.id: q for q in load_corpus().questions}


def test_every_answerable_capstone_question_has_a_reference_from_its_grade_2_passages():
    refs, questions = capstone.references(), _questions()
    answerable = [q for q in capstone.QUESTIONS if any(g == 2 for g in questions[q].qrels.values())]
    assert set(answerable) <= set(refs)
    for qid, entry in refs.items():
        grade_2 = {p for p, g in questions[qid].qrels.items() if g == 2}
        assert set(entry["supported_by"]) == grade_2, qid
        assert entry["reference"].strip() and entry["rationale"].strip(), qid
        assert 1 <= entry["reference"].count(". ") + 1 <= 3, f"{qid}: one to three sentences"


def test_the_unanswerable_question_has_no_reference():
    assert "q51" in capstone.QUESTIONS and "q51" not in capstone.references()
    assert not any(g == 2 for g in _questions()["q51"].qrels.values())


def _reading_document():
    with open(data.path("capstone_diagnosis.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_the_annotators_reading_covers_existing_rows_with_known_tags_and_a_note():
    doc = _reading_document()
    assert doc["about"].strip()
    keys = {(r["question"], r["system"]) for r in capstone.scored()}
    seen = set()
    for row in doc["rows"]:
        key = (row["question"], row["system"])
        assert key in keys and key not in seen, key
        seen.add(key)
        assert set(row["tags"]) <= set(diagnosis.TAGS), key
        assert row["note"].strip() and len(row["note"]) <= 300, key


def test_the_annotators_reading_covers_the_lowest_rows():
    hand = capstone.annotator_diagnosis()
    lowest = diagnosis.sort_rows(capstone.scored(), by="mean")[:6]
    assert all((r["question"], r["system"]) in hand for r in lowest)


def _outputs(nb):
    """The printed (stream) outputs: what the 100-column limit is about."""
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                yield "".join(out.get("text", ""))


def test_notebook_prints_the_library_counts_and_names_its_sources():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    text = "\n".join(_outputs(nb))
    tagged = diagnosis.tag_rows(capstone.scored())
    for tag in diagnosis.TAGS:                     # the tag counts printed in view, recomputed here
        per = [sum(tag in r["tags"] for r in tagged if r["system"] == s) for s in capstone.SYSTEMS]
        assert f"{tag:<18}" + "".join(f"{n:>8}" for n in per) + f"{sum(per):>6}" in text, tag
    source = "\n".join("".join(c["source"]) for c in nb["cells"])
    assert 'course_plan.opening("16")' in source and 'course_plan.closing("16")' in source
    assert "recorded from Qwen2.5-Coder-1.5B" in source and "exercises.solution(" in source
    assert "recorded from qwen2.5-coder-1.5b" in text
    assert all(len(line) <= 100 for line in text.splitlines()), "a printed line is wider than 100 columns"


def _notebook():
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def _markdown_text(nb):
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_readings_data_says_its_annotators_are_language_models():
    for name in ("capstone_diagnosis.json", "capstone_references.json"):
        with open(data.path(name), encoding="utf-8") as handle:
            about = json.load(handle)["about"]
        assert "language model" in about and "by hand" not in about.lower(), name


def test_notebook_never_calls_the_annotators_reading_hand_made_or_human():
    nb = _notebook()
    text = _markdown_text(nb) + "\n".join(_outputs(nb)) + "\n".join(
        "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    for phrase in ("by hand", "hand reading", "hand-made", "human", "hand only", "read by hand"):
        assert phrase not in text.lower(), phrase
    assert "a language model" in _markdown_text(nb)


def test_notebook_opens_with_the_take_away_and_keeps_reference_material_in_an_appendix():
    nb = _notebook()
    headings = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown" and "".join(c["source"]).startswith("## ")]
    first = "".join(nb["cells"][headings[0]]["source"])
    assert "take-away" in first.lower(), "the take-away comes first, then the evidence"
    code = "".join(nb["cells"][headings[0] + 1]["source"])
    assert 'course_plan.get("16").takeaways' in code
    printed = " ".join(" ".join("".join(o.get("text", "")) for o in nb["cells"][headings[0] + 1].get("outputs", [])).split())
    assert all(line in printed for line in course_plan.get("16").takeaways)
    last = "".join(nb["cells"][headings[-1]]["source"])
    assert last.startswith("## Appendix")
    appendix = "\n".join("".join(c["source"]) for c in nb["cells"][headings[-1]:])
    assert "sha256" in appendix and "generate_answer" not in "".join(nb["cells"][headings[-1] - 1]["source"])
    assert 'gguf["sha256"]' not in "\n".join("".join(c["source"]) for c in nb["cells"][:headings[-1]])


def test_notebook_gives_no_interval_on_under_ten_questions_and_no_project_history():
    nb = _notebook()
    printed = "\n".join(_outputs(nb))
    assert "no interval" in printed
    assert "interval of the mean difference [" not in printed
    assert "bootstrap_ci(values, n_resamples" not in "".join("".join(c["source"]) for c in nb["cells"])
    history = re.findall(r"\b(?:issue|turn|we first tried|now catches)\b", _markdown_text(nb), re.I)
    assert history == [], f"project history in a lesson: {history}"


def test_notebook_is_saved_with_the_exercise_answers_empty_and_its_answers_hidden():
    nb = _notebook()
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and "exercises.check(" in source:
            assert "answer = None" in source, source[:80]
        for out in cell.get("outputs", []):
            shown = "".join(out.get("text", "")) + json.dumps(out.get("data", {}), ensure_ascii=False)
            assert "✅" not in shown and "correct=True" not in shown, source[:80]
    predicts = [c for c in nb["cells"] if c["cell_type"] == "markdown" and "**Predict:**" in "".join(c["source"])]
    assert len(predicts) >= 2
    for cell in predicts:
        assert "<details><summary>Answer" in "".join(cell["source"])


# --- the figures notebook 16's Markdown states, each recomputed with the library -------------------------------

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
_TENS = {50: "fifty"}
_FRACTIONS = {1 / 10: "a tenth", 1 / 5: "a fifth", 1 / 4: "a quarter", 1 / 3: "a third", 1 / 2: "half",
              2 / 3: "two thirds", 3 / 4: "three quarters"}


def _words(n: int) -> str:
    """How the prose writes a small count."""
    return _WORDS[n] if n < len(_WORDS) else _TENS[n]


def _fraction(x: float) -> str:
    """The plain fraction the prose uses for ``x`` ("a tenth", "about half"): the nearest within 0.05."""
    nearest = min(_FRACTIONS, key=lambda f: abs(f - x))
    assert abs(nearest - x) <= 0.05, f"{x:.3f} is no plain fraction"
    return _FRACTIONS[nearest]


def _prose():
    """The notebook's Markdown, whitespace collapsed to single spaces."""
    return " ".join(_markdown_text(_notebook()).split())


def test_the_words_and_fractions_helpers():
    assert (_words(8), _words(50), _fraction(0.1), _fraction(0.3), _fraction(0.53)) == (
        "eight", "fifty", "a tenth", "a third", "half")
    with pytest.raises(AssertionError):
        _fraction(0.6)


def test_the_prose_of_notebook_15_states_the_systems_and_data_as_computed():
    from ragmetrics_edu.course.judge_study import passes as judge_study
    from ragmetrics_edu.judges import ReplayJudge

    prose, corpus, rows = _prose(), load_corpus(), capstone.scored()
    threads = re.search(r"(\d+) CPU threads", ReplayJudge(judge_study.recording_path("qwen_capstone_answers")).server)
    assert f"llama.cpp on {_words(int(threads.group(1)))} CPU threads" in prose
    assert f"the lab corpus of notebook 09 ({len(corpus.passages)} passages" in prose
    assert f"**K = {capstone.K}**" in prose and f"from those {_words(capstone.K)} passages only" in prose
    assert f"fewer than {_words(capstone.K)} passages" in prose
    questions = _questions()
    grades = {(r["question"], r["system"]): r["grades"] for r in rows}
    answerable = [q for q in capstone.QUESTIONS if questions[q].total_relevant]
    unanswerable = [q for q in capstone.QUESTIONS if q not in answerable]
    differ = [q for q in answerable if grades[(q, "bm25")] != grades[(q, "minilm")]]
    same = [q for q in answerable if q not in differ]
    assert all(grades[(q, s)][0] == 2 for q in same for s in capstone.SYSTEMS)  # "both retrieve well"
    assert (f"{_words(len(capstone.QUESTIONS)).capitalize()} of the lab's {len(corpus.questions)} questions fit "
            f"the recording budget. They were **picked to show failures**: {_words(len(differ))} where the two "
            f"retrievers' top {capstone.K} differ in quality, {_words(len(same))} both retrieve well, and "
            f"{_words(len(unanswerable))} ({', '.join(unanswerable)}) the corpus cannot answer") in prose
    assert f"scored each row with {_words(len(diagnosis.present_metrics(rows)))} metrics" in prose
    assert f"{_words(len(capstone.QUESTIONS)).capitalize()} questions are too few to slice" in prose
    assert "slice_table" not in prose
    assert f"{_words(len(diagnosis.TAGS)).capitalize()} tags, each with a rule" in prose


def test_the_prose_of_notebook_15_states_the_scores_and_tags_as_computed():
    from ragmetrics_edu.studies.capstone import checks as capstone_checks

    prose, rows = _prose(), capstone.scored()
    by_key = {(r["question"], r["system"]): r for r in rows}
    checks = {(c["question"], c["system"]): c for c in capstone_checks.check_rows(rows)}
    assert {c["ar"] for c in checks.values()} == {1.0} and "Answer relevancy is 1.0 on every row" in prose
    recall = [c["cr"] for c in checks.values() if c["cr"] == c["cr"]]
    assert sum(r == 1.0 for r in recall) > len(recall) / 2 and "context recall is 1.0 on most" in prose
    assert f"(bread staling), falls to {checks[('q22', 'minilm')]['ar yes share']:g}" in prose
    # the four lowest rows: the unanswerable question on both systems, q34 bm25 and q22 minilm
    lowest = [(r["question"], r["system"]) for r in diagnosis.sort_rows(rows, by="mean")[:4]]
    unanswerable = [k for k in lowest if not _questions()[k[0]].total_relevant]
    assert {q for q, _ in unanswerable} == {"q51"} and {s for _, s in unanswerable} == set(capstone.SYSTEMS)
    assert f"{_words(len(unanswerable)).capitalize()} are the unanswerable q51, on both systems" in prose
    assert set(lowest) - set(unanswerable) == {("q34", "bm25"), ("q22", "minilm")}
    assert set(by_key[("q34", "bm25")]["grades"]) == {0} and "On q34, bm25 retrieved nothing about how long light takes to reach us" in prose
    q22 = by_key[("q22", "minilm")]
    claim, = q22["items"]["faithfulness"]
    rank = next(i for i, c in enumerate(q22["contexts"], start=1) if claim in c)
    assert q22["verdicts"]["faithfulness"] == ["idk"] and set(q22["grades"]) == {0}
    assert f"minilm retrieved {_words(len(q22['passages']))} bread passages" in prose
    assert f"copied word for word from rank {rank}" in prose
    # the tag counts
    tagged = diagnosis.tag_rows(rows)
    counts = {s: {t: sum(t in r["tags"] for r in tagged if s in (r["system"], "all")) for t in diagnosis.TAGS}
              for s in (*capstone.SYSTEMS, "all")}
    top = max(counts["all"][t] for t in diagnosis.TAGS)
    assert {t for t in diagnosis.TAGS if counts["all"][t] == top} == {"unsupported_claim", "judge_error"}
    assert "**Unsupported claims and judge errors** are the most common tags" in prose
    misses = counts["bm25"]["retrieval_miss"], counts["all"]["retrieval_miss"]
    assert misses[0] > misses[1] / 2 and "bm25 has nearly all the retrieval misses" in prose
    assert f"the retriever with {_words(misses[0])} of the {_words(misses[1])} retrieval misses" in prose
    # the rules against the annotator's reading
    assert "8 minutes" in by_key[("q34", "bm25")]["answer"] and '"about 8 minutes"' in prose
    rules_only = [c["question"] for c in diagnosis.rules_vs_annotator(tagged, capstone.annotator_diagnosis())
                  if c["system"] == "minilm" and "unsupported_claim" in c["only_rules"]]
    assert all(by_key[(q, "minilm")]["scores"]["faithfulness"] < 1 for q in rules_only)
    assert f"On {', '.join(rules_only[:-1])} and {rules_only[-1]} (minilm) faithfulness is below 1" in prose
    minilm = [by_key[(q, "minilm")] for q in capstone.QUESTIONS]
    useful_0 = [r["question"] for r in minilm if "context_precision" in r["verdicts"] and any(
        g == 0 and v == 1 for g, v in zip(r["grades"], r["verdicts"]["context_precision"], strict=True))]
    assert {"q05", "q08"} <= set(useful_0) and "On q05 and q08 (minilm) the judge called a grade-0 passage" in prose
    q05 = by_key[("q05", "bm25")]
    invented = [(c, v) for c, v in zip(q05["items"]["faithfulness"], q05["verdicts"]["faithfulness"], strict=True)
                if c not in q05["answer"]]
    dozen = "a dozen" if len(invented) == 12 else _words(len(invented))
    assert f"invented {dozen} claims the answer never makes" in prose
    assert sum(v == "yes" for _, v in invented) > len(invented) / 2      # "then passed most of them"


def test_the_prose_of_notebook_15_states_the_comparison_and_the_noise_as_computed():
    from ragmetrics_edu.course.judge_study import report as judge_report
    from ragmetrics_edu.studies.judge_study import tables as judge_tables
    prose, rows = _prose(), capstone.scored()
    from ragmetrics_edu import stats

    assert f"under {_words(capstone_summary.MIN_UNITS)} questions no interval is given" in prose
    assert "a percentile bootstrap under-covers with 10 to 30 questions; prefer 30 or more" in prose     # M5
    pair = diagnosis.paired_scores(rows, "context_precision")
    n, higher = len(pair["ids"]), sum(x > y for x, y in zip(pair["a"], pair["b"], strict=True))
    p = (stats.permutation_test(pair["a"], pair["b"]).p_value, stats.sign_test(pair["a"], pair["b"]).p_value)
    assert n < capstone_summary.MIN_UNITS and higher > n / 2 and min(p) > 0.1
    assert (f"higher on most, yet {_words(n)} questions are too few for an interval, and both p-values are well "
            "above 0.05") in prose
    # every answerable question of the lab, top 3, by the grades: the comparison the picked questions cannot make
    answerable = [q for q in load_corpus().questions if q.total_relevant]
    from ragmetrics_edu.retrieval import compare_retrievers

    _, found = capstone_summary.retrieved()
    for measure in ("answer_retrieved", "context_precision"):
        test = compare_retrievers(found["minilm"], found["bm25"], measure, labels=("minilm", "bm25"))
        assert len(found["bm25"]) == len(answerable) and test["paired_bootstrap"].ci[0] > 0
    assert f"every answerable question of the lab** ({len(answerable)})" in prose
    assert (f"On all {_words(len(answerable))} answerable questions, the grades show what {_words(n)} "
            "could not") in prose
    assert "MiniLM retrieves a passage that answers more often than BM25, and the interval of the difference " \
           "excludes 0" in prose
    # the judge's repeat runs (notebook 11) and q09 inside one run
    spread = {(r["temperature"], r["metric"]): r for r in judge_tables.repeat_spread(judge_report.study())}
    hot = spread[("0.7", "faithfulness")]
    means = [float(m) for m in hot["run means"].split(", ")]
    assert all(spread[("0", m)]["sd of the mean"] == 0 for m in ("context_precision", "faithfulness"))
    assert (f"at 0.7 the faithfulness mean moves by {_fraction(max(means) - min(means))} between runs on "
            f"{_words(hot['cases'])} cases") in prose
    q09 = {r["system"]: r for r in rows if r["question"] == "q09"}
    bm25, minilm = q09["bm25"], q09["minilm"]
    assert bm25["answer"] == minilm["answer"] and bm25["passages"][0] == minilm["passages"][0]
    assert bm25["items"]["faithfulness"] == minilm["items"]["faithfulness"]
    passed = {s: q09[s]["verdicts"]["faithfulness"].count("yes") for s in q09}
    assert passed["bm25"] == len(bm25["items"]["faithfulness"]) > passed["minilm"]
    assert f"the judge passed both for bm25 and {_words(passed['minilm'])} for minilm" in prose
    # "the prompts differ only in the passages at ranks 2 and 3": the judge's pull from context, not run noise
    assert bm25["passages"][1:] != minilm["passages"][1:] and bm25["passages"][0] == minilm["passages"][0]
    assert "differ only in\nthe passages at ranks 2 and 3" in prose or "differ only in the passages at ranks 2 and 3" in prose
