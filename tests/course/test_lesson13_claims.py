"""Lesson 13 says only what its data and its code show (issue 37: method error 4, the lesson-13 text of item 5,
and the lesson-13 slips): each number the prose and the stored outputs quote recomputed from the recordings, the
library's code or the bridges, and the sentences that said otherwise checked to be gone."""

from __future__ import annotations

import itertools
import json
import math
import re

import pytest

from conftest import REPO
from ragmetrics_edu import designs, judges
from ragmetrics_edu.agreement import auc_difference
from ragmetrics_edu.course import bridges, course_plan, exercises
from ragmetrics_edu.course.against_people import study
from ragmetrics_edu.course.exercises import rubric as rubric_exercises
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.judges.openai_judge import sample_seed
from ragmetrics_edu.metrics.rubric import votes_for
from scripted_server import good, scripted_judge

NOTEBOOK = REPO / "notebooks" / "13_rubric_judges.ipynb"
DECK = REPO / "slides" / "13_rubric_judges.ipynb"
EXAMPLE = "ragtruth-14323-gpt-4-0613"
READINGS = ["g_eval", "g_eval_deepeval_rule", "g_eval_reply", "critic_majority", "critic_yes_share", "critic_p_yes"]
CONTEXT = ["The Eiffel Tower is 330 metres tall."]


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _prose(path):
    return "\n".join("".join(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")


def _flat(text):
    return " ".join(text.split())


def _outputs(path):
    out = []
    for cell in _cells(path):
        for o in cell.get("outputs", []):
            out.append("".join(o.get("text", "")) or "".join(o.get("data", {}).get("text/plain", "")))
    return "\n".join(out)


def _cell_with(path, snippet):
    return next(c for c in _cells(path) if snippet in "".join(c["source"]))


# ---- method error 4: exercise rubric-2 agrees with the lesson --------------------------------------------------

def test_rubric_2_expects_the_one_verdict_ragas_0_4_asks_not_the_documented_votes():
    note = next(e["note"] for _, e in ((k, e) for k, e in _ragas_entries()) if e["class"]["name"] == "AspectCritic")
    assert "_ascore asks the LLM once" in note                     # what the bridge read from Ragas' source
    assert exercises.get("rubric-2").answer() == 1 == rubric_exercises.RAGAS_040_VERDICTS
    assert exercises.check("rubric-2", 1).correct
    documented = votes_for(rubric_exercises.STRICTNESS)
    assert documented == 5 and not exercises.check("rubric-2", documented).correct
    assert "documents" in exercises.check("rubric-2", documented).message   # the likely slip is named
    assert f"strictness={rubric_exercises.STRICTNESS}" in exercises.get("rubric-2").question
    assert "0.4.0" in exercises.get("rubric-2").question
    # the lesson's bridge, take-away and common mistake say the same
    assert "asks once" in " ".join(course_plan.get("13").takeaways)


def _ragas_entries():
    entry = bridges.entry("aspect_critic")
    return [(entry.get("key", "aspect_critic"), e) for e in entry["entries"] if e.get("class")
            and e["api"].startswith("ragas")]


# ---- item 5: how the critic's votes are asked, and how they were recorded -------------------------------------

def test_every_vote_of_several_is_sampled_with_its_own_seed_and_a_single_vote_is_not(server):
    server.push(good({"verdict": "no"}), good({"verdict": "yes"}), good({"verdict": "yes"}), good({"verdict": "yes"}))
    judge = scripted_judge(server, temperature=0.0)
    result = designs.aspect_critic(judge, "It is 400 m tall.", CONTEXT, strictness=3)
    sent = server.requests[:3]
    # vote 1 included: the lesson's "the first at temperature 0" was false
    assert [body["temperature"] for body in sent] == [designs.SAMPLE_TEMPERATURE] * 3
    keys = [call.key for call in result.calls if call.step == "aspect_critic"]
    assert [body["seed"] for body in sent] == [sample_seed(7, key) for key in keys]
    assert len({body["seed"] for body in sent}) == 3 and not {body["seed"] for body in sent} & {7, 8, 9}
    designs.aspect_critic(scripted_judge(server, temperature=0.0), "It is 330 m tall.", CONTEXT, strictness=1)
    assert server.requests[3]["temperature"] == 0.0 and server.requests[3]["seed"] == 7


def test_the_notebook_prints_how_the_recorded_votes_were_asked_and_seeded():
    recorded = judges.ReplayJudge(study.recording_path("critic", "ragtruth", "dev")).parameters
    critic = study.replay("critic", EXAMPLE)
    calls = [c for c in critic.calls if c.step == "aspect_critic"]
    assert len(calls) == critic.values["votes"] == 3
    shown = _flat(_outputs(NOTEBOOK))
    assert (f"each vote, the first included, sampled at temperature {designs.SAMPLE_TEMPERATURE}") in shown
    assert f"judge's own temperature, {recorded['temperature']:g} in this recording" in shown
    assert f"{[recorded['seed'] + i for i in range(len(calls))]}" not in shown       # not the older seeding
    assert f"{[sample_seed(recorded['seed'], c.key) for c in calls]}" in shown       # each vote its own seed
    assert "sample_seed" in recorded.get("sampled_seed", "")  # the recording says how its votes were seeded
    prose = _flat(_prose(NOTEBOOK))
    assert "draws each sampled vote's seed from its request's key (`sample_seed`" in prose
    assert "was made again" not in prose and "An earlier recording" not in prose   # teaching, not history
    deck = _flat(_prose(DECK))
    assert "made again for this lesson" not in deck and "earlier recording" not in deck


# ---- section 4: the rubric readings mostly cannot be told apart ----------------------------------------------

def _pairwise():
    part = study.load_log()["parts"]["ragtruth-dev"]
    rows = [i for i in range(len(part["items"])) if all(not math.isnan(part["scores"][d][i]) for d in READINGS)]
    failed = [part["items"][i]["failed"] for i in rows]
    groups = [part["items"][i]["group"] for i in rows]
    return {(a, b): auc_difference(failed, [part["scores"][a][i] for i in rows],
                                   [part["scores"][b][i] for i in rows], groups=groups, names=(a, b))
            for a, b in itertools.combinations(READINGS, 2)}


def _dense_ranks(design):
    """Each answer's dense rank under ``design`` on the rows every reading scored (ties share a rank)."""
    part = study.load_log()["parts"]["ragtruth-dev"]
    rows = [i for i in range(len(part["items"])) if all(not math.isnan(part["scores"][d][i]) for d in READINGS)]
    values = [part["scores"][design][i] for i in rows]
    levels = sorted(set(values))
    return [levels.index(v) for v in values]


def test_same_ranking_says_when_two_readings_order_the_answers_alike():
    from ragmetrics_edu.studies.against_people import readings

    assert readings.same_ranking([0.1, 0.5, 0.5], [3, 7, 7]) is True
    assert readings.same_ranking([0.1, 0.5, 0.5], [3, 7, 8]) is False      # a tie broken in one only
    assert readings.same_ranking([0.1, 0.5], [0.5, 0.1]) is False
    assert readings.same_ranking([float("nan"), 1.0], [float("nan"), 2.0]) is True
    assert readings.same_ranking([float("nan"), 1.0], [0.0, 2.0]) is False
    with pytest.raises(InputError, match="b"):
        readings.same_ranking([0.1], [0.1, 0.2])
    with pytest.raises(InputError, match=r"a\[0\]"):
        readings.same_ranking(["x"], [0.1])


def test_only_the_critics_p_yes_against_its_own_votes_is_told_apart():
    found = _pairwise()
    assert len(found) == math.comb(len(READINGS), 2)
    apart = {pair for pair, d in found.items() if not d.ci[0] <= 0 <= d.ci[1]}
    # what the prose says: the two intervals below zero both put p(yes) above the same critic's votes
    assert apart == {("critic_majority", "critic_p_yes"), ("critic_yes_share", "critic_p_yes")}
    assert all(found[pair].ci[1] < 0 for pair in apart)
    assert found[("g_eval", "g_eval_reply")].ci[0] <= 0 <= found[("g_eval", "g_eval_reply")].ci[1]
    shown = _outputs(NOTEBOOK)
    same = {pair for pair in found if _dense_ranks(pair[0]) == _dense_ranks(pair[1])}
    assert same == {("g_eval", "g_eval_deepeval_rule")}      # equal AUCs by construction: not informative
    assert all(found[pair].ci == (0.0, 0.0) for pair in same)
    # a reading ranking the answers as an earlier one does repeats that one's rows: the count leaves it out
    repeats = {b for a, b in same}
    kept = [r for r in READINGS if r not in repeats]
    comparisons = [pair for pair in found if pair[0] in kept and pair[1] in kept]
    assert len(comparisons) == math.comb(len(kept), 2) == 10
    assert all(found[(a, b)].ci == found[("g_eval", b)].ci for a, b in found if a == "g_eval_deepeval_rule")
    assert "left out, ranking the answers exactly as a reading above does: g_eval_deepeval_rule" in shown
    told = sum(1 for pair in comparisons if pair in apart)
    assert f"intervals that include 0: {len(comparisons) - told} of the {len(comparisons)} comparisons" in shown
    d = found[("critic_majority", "critic_p_yes")]
    assert f"{d.score:+.3f}  [{d.ci[0]:+.3f}, {d.ci[1]:+.3f}]" in shown
    prose = _flat(_prose(NOTEBOOK))
    assert "the rubric readings can **mostly not be told apart** on these answers" in prose
    assert "both put the critic's p(yes), a continuous number from one call, above the same critic's own votes" in prose
    assert "about one interval in twenty would miss zero by chance alone" in prose
    assert "has the same AUC, and the same difference with every other reading, so it is left out" in prose
    assert "With fifteen pairs" not in prose


def test_the_dev_table_prints_formatted_floats():
    cell = _cell_with(NOTEBOOK, "table = tables.dev_table(log)")
    text = "".join("".join(o.get("text", "")) for o in cell["outputs"])
    auc = study.load_log()["dev"]["designs"]["word_overlap"]["ragtruth"]["auc"]
    assert f"{auc:.3f}" in text and not re.search(r"\d\.\d{4,}", text)


# ---- the sentences the issue found wrong are gone ---------------------------------------------------------------

@pytest.mark.parametrize("wrong", [
    "Ragas asks it `strictness` times and takes the majority",      # Ragas' documentation, not its 0.4.0 code
    "the first at temperature 0",                                   # every vote of several is sampled
    "ranks best of the rubric readings",                            # a point estimate, not a ranking
    "and its 0/1 majority worst",
])
def test_the_wrong_lesson_13_sentences_are_gone(wrong):
    assert wrong not in _flat(_prose(NOTEBOOK)) and wrong not in _flat(_prose(DECK))
    assert "Ragas makes strictness odd" not in exercises.get("rubric-2").hint
    assert "Ragas turns an even strictness into the next odd number" not in exercises.get("rubric-2").explanation


# -- issue 44: pooled against within-model, the code beside the worked example, the reading list -----------------

def test_pooled_and_within_counts_are_the_stratified_comparisons():
    from ragmetrics_edu.studies.against_people import readings

    log = study.load_log()
    within = readings.stratified_table(log, "ragtruth-dev").set_index("design")
    inside = [n for n in READINGS if within.loc[n, "vs_high"] < 0]
    pooled = [n for n in READINGS if log["dev"]["designs"][n]["ragtruth_vs_overlap"]["ci"][1] < 0]
    line = readings.pooled_and_within(READINGS, log)
    assert f"pooled over every generating model: {len(pooled)} of {len(READINGS)}" in line
    assert f"within one model's answers (stratified): {len(inside)} of {len(READINGS)}" in line
    assert len(inside) < len(pooled)                     # "within one model's answers only some of them stay"
    assert _flat(line) in _flat(_outputs(NOTEBOOK))
    with pytest.raises(Exception, match="designs"):
        readings.pooled_and_within(["word_overlap"], log)


def test_the_g_eval_code_sits_beside_the_worked_example_and_an_exercise_reads_it():
    cells = _cells(NOTEBOOK)
    sources = ["".join(c["source"]) for c in cells]
    code = next(i for i, s in enumerate(sources) if 'metrics.show_code("g_eval")' in s)
    table = next(i for i, s in enumerate(sources) if "result.steps.to_string" in s)
    formula = next(i for i, s in enumerate(sources) if "weighted = Σ p(s) · s" in s)
    assert formula < code < table                        # formula, then code, then the step table
    assert any('exercises.check("rubric-3"' in s for s in sources)
    from ragmetrics_edu.metrics.rubric import g_eval_score

    assert exercises.check("rubric-3", g_eval_score(rubric_exercises.TAIL, variant="deepeval",
                                                     scale=(1, 5)).values["weighted"]).correct
    paper = g_eval_score(rubric_exercises.TAIL, variant="paper", scale=(1, 5)).values["weighted"]
    feedback = exercises.check("rubric-3", paper)
    assert not feedback.correct and "kept" in feedback.message


def test_deepevals_tail_and_the_bridges_are_after_class_reading():
    sources = ["".join(c["source"]) for c in _cells(NOTEBOOK)]
    reading = next(i for i, s in enumerate(sources) if s.startswith("## Appendix · Reading list (after class)"))
    assert all(i > reading for i, s in enumerate(sources) if "study.first_with_tail" in s or "bridges.show(" in s)
