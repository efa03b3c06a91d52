"""Notebook 12's library: the metric map and its measured costs, reference-free context precision, the
paired regression gate."""

import math
import os
import statistics
import subprocess
import sys

import pytest

from conftest import REPO
from ragmetrics_edu import InputError, data, designs, judges, regression_gate
from ragmetrics_edu.course import deck_cases, exercises
from ragmetrics_edu.course import metric_map as mm
from ragmetrics_edu.course.deck_cases import DECK_CASES, run_deck_cases
from ragmetrics_edu.judges.costs import combine, measure
from ragmetrics_edu.metrics import context_precision
from ragmetrics_edu.metrics.reference_free import context_precision_without_reference, context_utilization


@pytest.fixture(scope="module")
def runs():
    return run_deck_cases(judges.ReplayJudge(data.recording("qwen2.5-coder-1.5b_deck-examples")))


# --- the map ---------------------------------------------------------------------------------

def test_reference_free_means_no_reference_and_no_labels():
    for info in mm.METRICS:
        assert info.reference_free == (not {"reference", "labels"} & set(info.needs)), info.name
        assert set(info.needs) <= {*mm.FIELDS, "labels"}
    assert mm.get("faithfulness").reference_free and not mm.get("context recall").reference_free
    assert mm.get("context precision without reference").reference_free
    assert mm.reference_free() == [m.name for m in mm.METRICS if m.reference_free]
    with pytest.raises(InputError, match="name"):
        mm.get("bleu")


def test_every_judge_step_of_the_map_is_a_judge_step_of_the_library(runs):
    steps = {c.step for c in DECK_CASES}
    for info in mm.METRICS:
        if info.step is not None and info.step != "context_precision_without_reference":
            assert info.step in steps and hasattr(designs, info.step), info.name


def test_measured_costs_of_the_recording_match_its_call_records(runs):
    costs = measure([(run.case.step, run.result) for run in runs])
    for step, cost in costs.items():
        calls = [c for r in runs if r.case.step == step and r.result for c in r.result.calls]
        assert cost.calls == len(calls) and cost.prompt_tokens == sum(c.prompt_tokens for c in calls)
        assert cost.cases == sum(r.case.step == step and r.result is not None for r in runs)
        assert cost.prompt_tokens > 0 and cost.seconds > 0
    assert costs["faithfulness"].per_case("calls") == 2       # claims, then verdicts
    assert costs["context_recall"].per_case("calls") > 1       # the recording holds a repair


def test_combine_sums_per_case_rates(runs):
    costs = measure([(run.case.step, run.result) for run in runs])
    both = combine(costs, ["faithfulness", "context_recall"], "both")
    assert both.calls == pytest.approx(costs["faithfulness"].per_case("calls") + costs["context_recall"].per_case("calls"))
    with pytest.raises(InputError, match="steps"):
        combine(costs, ["nope"], "x")


def test_tables_fit_under_100_characters_and_mark_unmeasured_rows(runs):
    costs = measure([(run.case.step, run.result) for run in runs])
    text = mm.table(costs)
    for block in (text, mm.cost_table(costs, *mm.EXAMPLE_PRICE), mm.triad_table(), mm.peer_table()):
        assert max(len(line) for line in block.splitlines()) < 100
    row = next(line for line in text.splitlines() if line.startswith("context precision without"))
    assert row.split()[-4:] == ["-"] * 4                  # judged, but the recording holds no case
    row = next(line for line in text.splitlines() if line.startswith("semantic similarity"))
    assert row.split()[-4:] == ["0.00", "0", "0", "0.0"]  # no judge at all


def test_triad_names_a_metric_of_the_map_for_every_leg():
    names = {m.name for m in mm.METRICS}
    legs = mm.triad()
    assert [leg["leg"] for leg in legs] == ["context relevance", "groundedness", "answer relevance"]
    # groundedness names both faithfulness designs of the map, each by what it computes (issue 37)
    overlap = next(m.name for m in mm.METRICS if m.name.startswith("word overlap"))
    assert "word overlap" in legs[1]["ours"] and "claims" in legs[1]["ours"] and "contextual relevancy" in names
    assert mm.get("faithfulness").step == "faithfulness" and "claims" in mm.get("faithfulness").how
    assert all(mm.get(name).reference_free for name in ("contextual relevancy", "faithfulness", overlap))


# --- reference-free context precision --------------------------------------------------------

def test_without_reference_is_ragas_average_precision_on_answer_verdicts():
    for verdicts in ([1, 0, 1], [0, 1, 0], [0, 0], [1]):
        assert context_precision_without_reference(verdicts).score == context_precision(verdicts, "ragas").score
    result = context_utilization(["no", "yes", "no"], answer="Marlowe")
    assert result.metric == "context_precision_without_reference" and result.score == pytest.approx(0.5)
    assert "ContextUtilization" in result.notes[0] and result.inputs["answer"] == "Marlowe"
    assert context_utilization is context_precision_without_reference
    with pytest.raises(InputError, match="answer"):
        context_precision_without_reference([1], answer=3)


# --- the regression gate -----------------------------------------------------------------------

def _by_hand_interval(candidate, accepted, shift_sd, level=0.95, n_resamples=2000, seed=0):
    """The gate's interval rebuilt from its parts: the paired bootstrap and z · shift_sd · √2."""
    from statistics import NormalDist

    from ragmetrics_edu.stats import paired_bootstrap

    boot = paired_bootstrap(candidate, accepted, level=level, n_resamples=n_resamples, seed=seed)
    band = NormalDist().inv_cdf((1 + level) / 2) * shift_sd * math.sqrt(2)
    mean = sum(c - a for c, a in zip(candidate, accepted, strict=True)) / len(candidate)
    low, high = boot.ci
    return boot.ci, band, (mean - math.hypot(mean - low, band), mean + math.hypot(high - mean, band))


def test_the_shipped_example_gate_blocks_on_cannot_tell():
    from ragmetrics_edu.course.regression_gate_example import MARGIN, test_faithfulness_does_not_regress

    # the 1.5B judge cannot see the b answers' claim: CANNOT TELL, and the copied test blocks on it (non-inferiority)
    with pytest.raises(AssertionError, match="CANNOT TELL"):
        test_faithfulness_does_not_regress()
    source = deck_cases.example_source()
    assert "def test_" in source and "noise=" in source and 0 < MARGIN < 1
    assert "assert result.passed" in source and "warnings.warn" not in source


def test_the_shipped_example_is_a_pytest_file_that_pytest_runs(tmp_path):
    source = deck_cases.example_source()
    (tmp_path / "test_gate_copy.py").write_text(source, encoding="utf-8")          # as shipped: CANNOT TELL blocks
    worse = source.replace("result = gate(candidate, accepted,", "result = gate([c - 0.3 for c in candidate], accepted,")
    same = source.replace("result = gate(candidate, accepted,", "result = gate(accepted, accepted,")
    assert worse != source and same != source
    (tmp_path / "test_gate_worse.py").write_text(worse, encoding="utf-8")
    (tmp_path / "test_gate_same.py").write_text(same, encoding="utf-8")          # no change at all: PASS
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert "2 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    assert "test_gate_worse.py" in done.stdout and "FAIL:" in done.stdout   # the explanation is the message
    assert "test_gate_copy.py" in done.stdout and "CANNOT TELL:" in done.stdout


def test_mean_against_a_bar_and_the_paired_gate_disagree():
    bar, margin = 0.70, 0.05
    accepted = [0.95, 0.9, 1.0, 0.85, 0.9, 0.95, 0.8, 0.9, 1.0, 0.85, 0.9, 0.95]
    candidate = [a - 0.15 for a in accepted]                    # worse by 0.15 on every question
    assert sum(candidate) / len(candidate) >= bar              # the naive reading: clears the bar, ship
    result = regression_gate.gate(candidate, accepted, noise=0.0, margin=margin)
    assert result.verdict == regression_gate.FAIL and result.failed and not result.passed
    assert (result.better, result.worse, result.same) == (0, 12, 0) and result.sign_p < 0.001
    assert result.ci[1] < -margin and "FAIL" in result.explain()
    hard = [0.6, 0.65, 0.55, 0.7, 0.6, 0.65, 0.6, 0.55, 0.7, 0.65, 0.6, 0.65]
    same = list(hard)
    same[3] = 0.65                                             # one question 0.05 lower, the rest unchanged
    assert sum(same) / len(same) < bar                         # the naive reading: misses the bar, block
    result = regression_gate.gate(same, hard, noise=0.0, margin=margin)
    assert result.verdict == regression_gate.PASS and result.passed and result.ci[0] > -margin


def test_a_drop_within_the_judges_noise_is_cannot_tell_not_a_regression():
    accepted = [0.5, 0.7, 0.6, 0.8, 0.4, 0.5, 0.7, 0.6, 0.5, 0.6, 0.7, 0.5]
    candidate = [a - 0.1 for a in accepted]
    runs = [accepted, [a + 0.1 for a in accepted], [a - 0.05 for a in accepted]]   # the judge re-run on the same answers
    noise = regression_gate.judge_noise(runs, source="three runs")
    means = [sum(r) / len(r) for r in runs]
    assert noise.run_sd == pytest.approx(statistics.stdev(means)) and noise.runs == 3 and noise.questions == 12
    deterministic = regression_gate.gate(candidate, accepted, noise=0.0)
    assert deterministic.verdict == regression_gate.FAIL               # the questions alone would call it a regression
    noisy = regression_gate.gate(candidate, accepted, noise=noise)
    assert noisy.verdict == regression_gate.CANNOT_TELL and not noisy.failed and not noisy.passed
    sampling, band, interval = _by_hand_interval(candidate, accepted, noise.shift_sd)
    assert noisy.sampling_ci == pytest.approx(sampling) and noisy.noise_band == pytest.approx(band)
    assert noisy.ci == pytest.approx(interval) and noisy.ci[0] < -0.05 < noisy.ci[1]
    assert abs(noisy.mean_difference) < noisy.noise_band       # the whole drop fits inside the band
    assert "CANNOT TELL" in noisy.explain() and "run means" in noisy.explain()


def _simulated_runs(rng, questions, runs, per_question_sd, shift_sd):
    truth = [rng.uniform(0.2, 0.8) for _ in range(questions)]
    out = []
    for _ in range(runs):
        shift = rng.gauss(0, shift_sd)
        out.append([t + shift + rng.gauss(0, per_question_sd) for t in truth])
    return out


def test_judge_noise_recovers_a_simulated_judge_and_the_gate_counts_it_once():
    import random

    rng = random.Random(11)
    wobble = regression_gate.judge_noise(_simulated_runs(rng, 400, 30, per_question_sd=0.1, shift_sd=0.0))
    assert wobble.per_question_sd == pytest.approx(0.1, abs=0.01)
    assert wobble.shift_sd < 0.01                  # per-question noise alone: no run shift to add
    shifted = regression_gate.judge_noise(_simulated_runs(rng, 400, 30, per_question_sd=0.1, shift_sd=0.05))
    assert shifted.shift_sd == pytest.approx(0.05, abs=0.015)
    assert shifted.per_question_sd == pytest.approx(0.1, abs=0.01)
    accepted = [0.5 + 0.01 * (i % 7) for i in range(40)]
    candidate = [a - 0.02 for a in accepted]
    # the per-question part is in the bootstrap already: the gate adds only the run shift's band
    assert regression_gate.gate(candidate, accepted, noise=wobble).noise_band == pytest.approx(
        1.959964 * wobble.shift_sd * math.sqrt(2), rel=1e-5)
    assert regression_gate.gate(candidate, accepted, noise=shifted).noise_band > 0.1


def test_grouped_questions_are_resampled_by_group():
    accepted = [0.6, 0.7] * 10
    candidate = [a - 0.2 for a in accepted]
    by_pair = regression_gate.gate(candidate, accepted, noise=0.0, groups=[i // 2 for i in range(20)])
    assert by_pair.sampling_ci is not None and by_pair.failed      # 10 pairs: enough for an interval
    too_few = regression_gate.gate(candidate, accepted, noise=0.0, groups=[i // 4 for i in range(20)])
    assert too_few.ci is None and too_few.verdict == regression_gate.CANNOT_TELL and "too few" in too_few.reason
    with pytest.raises(InputError, match="groups"):
        regression_gate.gate(candidate, accepted, noise=0.0, groups=[1, 2])


def test_with_groups_the_sign_test_counts_groups_as_the_bootstrap_resamples_them():
    from scipy.stats import binomtest

    # five pairs of two answers: pair 0 and 1 gain on both answers, pair 2 loses on one and gains on the
    # other by less, pairs 3 and 4 do not move
    accepted = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    candidate = [0.7, 0.7, 0.6, 0.6, 0.2, 0.6, 0.5, 0.5, 0.5, 0.5]
    pairs = [i // 2 for i in range(10)]
    by_pair = regression_gate.gate(candidate, accepted, noise=0.0, groups=pairs)
    assert (by_pair.better, by_pair.worse, by_pair.same) == (2, 1, 2)     # the pairs' mean differences
    assert by_pair.sign_p == pytest.approx(binomtest(2, 3, 0.5).pvalue)
    assert "per group: 2 better, 1 worse, 2 same" in by_pair.explain()
    by_answer = regression_gate.gate(candidate, accepted, noise=0.0)
    assert (by_answer.better, by_answer.worse, by_answer.same) == (5, 1, 4)
    assert "per question: 5 better" in by_answer.explain()


def test_identical_runs_give_no_bound_and_say_so():
    same = regression_gate.judge_noise([[0.5, 0.7] * 5] * 3)
    assert same.run_sd == 0 and same.shift_upper() == 0          # the χ² bound scales the observed spread
    note = same.bound_note()
    assert "identical" in note and "no bound" in note and "95% upper bound 0" not in same.describe()
    moved = regression_gate.judge_noise([[0.5] * 10, [0.6] * 10, [0.55] * 10])
    assert f"upper end of a 95% interval {moved.shift_upper():.4f}" in moved.bound_note()


def test_too_few_questions_give_no_interval():
    result = regression_gate.gate([0.1] * 9, [0.9] * 9, noise=0.0)
    assert result.n == 9 < regression_gate.MIN_QUESTIONS and result.ci is None and result.sampling_ci is None
    assert result.verdict == regression_gate.CANNOT_TELL and "too few" in result.reason


def test_the_recorded_judge_noise_and_the_recorded_versions():
    from ragmetrics_edu.course import gate_cases
    from ragmetrics_edu.course.judge_study import report as judge_report
    from ragmetrics_edu.studies.judge_study import tables as judge_tables

    spread = {(r["temperature"], r["metric"]): r["sd of the mean"] for r in judge_tables.repeat_spread(judge_report.study())}
    for temperature in ("0", "0.7"):
        found = gate_cases.recorded_noise(temperature)
        assert found.run_sd == pytest.approx(spread[(temperature, "faithfulness")]) and found.questions == 10
    assert gate_cases.recorded_noise("0").run_sd == 0 < gate_cases.recorded_noise("0.7").run_sd
    pairs, accepted, candidate = gate_cases.pair_versions()
    assert len(pairs) == len(accepted) == len(candidate) >= regression_gate.MIN_QUESTIONS
    # accepted is each pair's supported answer: ranking it above the candidate is notebook 11's pairwise accuracy
    from ragmetrics_edu.course.judge_study import labels as judge_eval
    from ragmetrics_edu.course.judge_study import passes
    from ragmetrics_edu.studies.judge_study import agreement as judge_agreement

    found = judge_agreement.pairwise(passes.rows("qwen_same_items"), judge_eval.load_cases(), judge_eval.final_labels())
    credit = [1.0 if a > c else 0.5 if a == c else 0.0 for a, c in zip(accepted, candidate, strict=True)]
    assert found["pairs"] == len(pairs) and sum(credit) / len(credit) == pytest.approx(found["judge"].score)
    ids, runs = gate_cases.repeat_runs("0.7")
    same_answers = regression_gate.gate(runs[2], runs[1], noise=gate_cases.recorded_noise("0.7"), ids=ids)
    assert same_answers.mean_difference < 0 and not same_answers.failed   # a re-run is never a regression
    with pytest.raises(InputError, match="temperature"):
        gate_cases.repeat_runs("0.5")
    with pytest.raises(InputError, match="metric"):
        gate_cases.recorded_noise("0", "bleu")


def test_the_gate_draws_the_differences():
    result = regression_gate.gate([0.5] * 10 + [0.6] * 2, [0.6] * 12, noise=0.02)
    fig = result.plot()
    ax = fig.axes[0]
    assert len(ax.collections[-1].get_offsets()) >= 12 and "candidate − accepted" in ax.get_xlabel()


def test_gate_inputs_are_checked():
    ok = [0.5] * 10
    for field, call in (
            ("candidate", lambda: regression_gate.gate([0.5, "x"], [0.5, 0.5], noise=0.0)),
            ("accepted", lambda: regression_gate.gate(ok, ok[:9], noise=0.0)),
            ("noise", lambda: regression_gate.gate(ok, ok, noise=None)),
            ("noise", lambda: regression_gate.gate(ok, ok, noise=-0.1)),
            ("noise", lambda: regression_gate.gate(ok, ok, noise=True)),
            ("margin", lambda: regression_gate.gate(ok, ok, noise=0.0, margin=1.5)),
            ("metric", lambda: regression_gate.gate(ok, ok, noise=0.0, metric="")),
            ("level", lambda: regression_gate.gate(ok, ok, noise=0.0, level=95)),
            ("runs", lambda: regression_gate.judge_noise([ok])),
            ("runs", lambda: regression_gate.judge_noise("0.5 0.6")),
            ("runs\\[1\\]", lambda: regression_gate.judge_noise([ok, ok[:5]])),
            ("runs\\[0\\]\\[0\\]", lambda: regression_gate.judge_noise([[math.nan], [0.5]]))):
        with pytest.raises(InputError, match=field):
            call()
    with pytest.raises(TypeError):
        regression_gate.gate(ok, ok)                                   # the judge's noise must be given


# --- the exercises ---------------------------------------------------------------------------

def test_choice_exercises_explain_the_likely_mistake():
    assert exercises.check("choose-1", "faithfulness").correct
    assert "reference" in exercises.check("choose-1", "context recall").message
    assert exercises.check("choose-2", "Groundedness").correct
    assert "relevance leg" in exercises.check("choose-2", "answer relevancy").message
    feedback = exercises.check("choose-3", "ship")              # mean clears the bar; paired: a regression
    assert not feedback.correct and "bar is not the question" in feedback.message
    assert "solution" in feedback.message
    assert exercises.check("choose-3", "FAIL").correct and exercises.check("choose-3", "Don't ship").correct
    feedback = exercises.check("choose-4", "fail")              # mean misses the bar; paired: no worse
    assert not feedback.correct and "no worse" in feedback.message
    assert exercises.check("choose-4", "pass").correct and exercises.check("choose-4", "ship").correct
    feedback = exercises.check("choose-5", "fail")              # six fell, none rose; the interval straddles -margin
    assert not feedback.correct and "straddles" in feedback.message
    assert exercises.check("choose-5", "cannot tell").correct
    # the taught rule: CANNOT TELL blocks like FAIL, so the decision "don't ship" is right too; "ship" is not
    assert exercises.check("choose-5", "don't ship").correct and not exercises.check("choose-5", "ship").correct
    assert not exercises.check("choose-4", "cannot tell").correct
    assert "PASS, FAIL or CANNOT TELL" in exercises.check("choose-5", "maybe").message


def test_notebook_12_says_what_the_recorded_noise_and_the_rerun_show():
    from ragmetrics_edu.course import gate_cases

    # "its runs did not shift beyond that wobble (per-run shift sd 0), so its band is 0"
    assert gate_cases.recorded_noise("0.7").shift_sd == 0 < gate_cases.recorded_noise("0.7").per_question_sd
    # "five pairs are too few independent units for an interval"
    ids, runs = gate_cases.repeat_runs("0.7")
    rerun = regression_gate.gate(runs[2], runs[1], noise=gate_cases.recorded_noise("0.7"), ids=ids,
                         groups=[a[:-1] for a in ids])
    assert len(set(rerun.groups)) == 5 and rerun.ci is None and rerun.verdict == regression_gate.CANNOT_TELL
    # choose-5: the sampling interval alone straddles -margin, and no question rose
    case = gate_cases.case_gate("drop near the margin")
    assert case.sampling_ci[0] < -case.margin < case.sampling_ci[1] and case.better == 0 and case.noise_band == 0


# --- issue 37: notebook 12's counts and names say what the map holds --------------------------------

def _nb12():
    import json
    return json.loads((REPO / "notebooks" / "12_choosing_metrics.ipynb").read_text(encoding="utf-8"))["cells"]


def test_notebook_12_counts_the_map_rows_it_prints_and_types_no_count():
    cells = _nb12()
    prose = " ".join(" ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown").split())
    shown = " ".join(" ".join("".join(o.get("text", "")) for c in cells for o in c.get("outputs", [])).split())
    free = mm.reference_free()
    assert len(mm.METRICS) == 12 and len(free) == 6        # the recount: the prose had "eleven" and "five"
    assert f"reference-free, {len(free)} of the {len(mm.METRICS)} rows: " + "; ".join(map(mm.label, free)) in shown
    for wrong in ("of the eleven rows", "Five rows are reference-free"):
        assert wrong not in prose
    assert "faithfulness in both its designs (the claims design and word overlap" in prose


def test_the_triad_and_cost_rows_name_the_claims_step_by_what_it_computes(runs):
    costs = measure([(run.case.step, run.result) for run in runs])
    assert mm.get("faithfulness").step == "faithfulness" and "claims" in mm.get("faithfulness").how
    lines = mm.cost_table(costs, *mm.EXAMPLE_PRICE).splitlines()
    assert any(line.startswith("faithfulness (claims) ") for line in lines)
    assert not any(line.split()[0] == "faithfulness" and not line.startswith("faithfulness (claims)") for line in lines)
    assert next(line for line in mm.table(costs).splitlines() if line.startswith("faithfulness")).startswith(
        "faithfulness (claims)")
    assert mm.triad()[1]["ours"] == "word overlap (word_overlap) or claims (faithfulness)"
    shown = "".join("".join(o.get("text", "")) for c in _nb12() for o in c.get("outputs", []))
    assert "RAG triad, claims design" in shown and "RAG triad (reference-free)" not in shown


def test_the_gate_case_is_named_for_what_it_shows():
    from ragmetrics_edu.course import gate_cases

    # its noise band is 0 (the judge's wobble is in the bootstrap already) and its sign test p < 0.05: the drop is
    # not "within the noise"; what leaves the gate unable to tell is the interval straddling -margin
    assert "drop within the noise" not in gate_cases.CASES
    case = gate_cases.case_gate("drop near the margin")
    assert case.noise_band == 0 and case.sign_p < 0.05
    assert case.ci[0] < -case.margin < case.ci[1]


# --- issue 47: how well three runs pin the shift down, and the 30-unit caution -----------------------

def test_shift_upper_is_the_chi_square_upper_end_of_the_run_means_sd():
    from scipy.stats import chi2

    from ragmetrics_edu.course import gate_cases

    noise = gate_cases.recorded_noise("0.7")                 # run means 0.367, 0.467, 0.433
    s = statistics.stdev(noise.run_means)
    assert noise.shift_upper() == pytest.approx(s * math.sqrt(2 / chi2.ppf(0.025, 2)))
    assert noise.shift == 0 < 0.3 < noise.shift_upper()       # "band 0" rests on an estimate three runs barely fix
    assert noise.shift_upper(0.5) < noise.shift_upper()
    many = regression_gate.judge_noise([[m] * 10 for m in (0.367, 0.467, 0.433) * 4])   # same spread, 12 runs
    assert many.shift_upper() < noise.shift_upper()           # more runs, a tighter bound
    assert regression_gate.judge_noise([[0.5] * 4, [0.5] * 4]).shift_upper() == 0
    with pytest.raises(InputError, match="level"):
        noise.shift_upper(1.5)


def test_the_gate_cautions_under_thirty_units():
    rng = __import__("random").Random(3)
    for n, cautioned in ((20, True), (30, False)):
        accepted = [rng.random() for _ in range(n)]
        shown = regression_gate.gate(accepted, accepted, noise=0.0).explain()
        assert ("caution: under 30 units" in shown) is cautioned
        assert all(len(line) <= 100 for line in shown.splitlines())
