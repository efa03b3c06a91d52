"""Notebook 11's HaluEval dev/test study, read paired: the winner's curse is in the chosen design's lead over
word overlap on the same pairs, and the two detectors' F1s are compared paired, with the base-rate warning.

Each test recomputes from the choice log (and the recordings it rests on) a figure the notebook or deck 11
states, and holds the prose to it."""

from __future__ import annotations

import json
import math
import re

import pytest

from conftest import REPO
from ragmetrics_edu.course.halueval import study as hs
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.studies.halueval import detection as hd

NOTEBOOK = REPO / "notebooks" / "11_can_you_trust_the_judge.ipynb"
DECK = REPO / "slides" / "11_can_you_trust_the_judge.ipynb"


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _markdown() -> str:
    return re.sub(r"\s+", " ", "\n".join("".join(c["source"]) for c in _cells(NOTEBOOK) if c["cell_type"] == "markdown"))


def _outputs() -> str:
    return "\n".join("".join(o.get("text", "")) for c in _cells(NOTEBOOK) for o in c.get("outputs", []))


@pytest.fixture(scope="module")
def log():
    return hs.choice_log()


def _curse(log):
    """The winner's curse read off the log, as notebook 11 computes it in view: the test recomputes it."""
    chosen = log["chosen"]["design"]
    dev = next(r for r in log["dev"] if r["design"] == chosen)
    test = next(r for r in log["test"]["table"] if r["design"] == chosen)
    return {"design": chosen, "dev": dev, "test": test, "accuracy_change": test["pairwise"] - dev["pairwise"],
            "baseline_change": test["baseline_pairwise"] - dev["baseline_pairwise"],
            "advantage_change": test["difference"] - dev["difference"]}


@pytest.fixture(scope="module")
def found(log):
    chosen = log["chosen"]["design"]
    return hd.detection_difference(hs.pair_scores(chosen, "test"), hs.pair_scores("word_overlap", "test"),
                                   (log["chosen"]["threshold"], log["chosen"]["word_overlap_threshold"]),
                                   design=chosen, split="test")


def test_the_paired_differences_of_the_log_are_the_same_pairs_chosen_minus_word_overlap(log):
    # notebook 11 reads the curse off these rows in view (its cell is checked by the next test and by nbval)
    dev = next(r for r in log["dev"] if r["design"] == log["chosen"]["design"])
    test = log["test"]["table"][0]
    assert dev["difference"] == pytest.approx(dev["pairwise"] - dev["baseline_pairwise"], abs=1e-6)
    assert test["difference"] == pytest.approx(test["pairwise"] - test["baseline_pairwise"], abs=1e-6)
    with pytest.raises(InputError):
        hs.curse_rows({"chosen": None, "test": None})


def test_notebook_11_prints_the_paired_advantage_on_dev_and_on_test(log):
    curse = _curse(log)
    printed = _outputs()
    for part, r in (("dev", curse["dev"]), ("test", curse["test"])):
        low, high = r["difference_ci"]
        assert f"{r['difference']:+.3f} [{low:+.3f}, {high:+.3f}]" in printed, part
    flat = re.sub(r"\s+", " ", printed)
    assert (f"paired advantage {curse['dev']['difference']:+.3f} → {curse['test']['difference']:+.3f} "
            f"({curse['advantage_change']:+.3f})") in flat
    assert (f"word overlap {curse['dev']['baseline_pairwise']:.3f} → {curse['test']['baseline_pairwise']:.3f} "
            f"({curse['baseline_change']:+.3f})") in flat


def test_what_the_prose_says_about_the_curse_holds(log):
    curse = _curse(log)
    prose = _markdown()
    # "the chosen design's accuracy fell ... word overlap ... rose a little"
    assert curse["accuracy_change"] < 0 and "accuracy fell" in prose
    # "It barely moved ..., well within the noise of 100 pairs"
    se = (curse["test"]["baseline_pairwise"] * (1 - curse["test"]["baseline_pairwise"]) / curse["test"]["pairs"]) ** 0.5
    assert abs(curse["baseline_change"]) < se and "It barely moved" in prose
    # significant on dev, not on test, is no test of a shrink: the change gets its own interval (printed, in view)
    assert curse["dev"]["difference_ci"][0] > 0 and curse["advantage_change"] < 0
    assert "is not itself a test of a\nshrink" in prose or "is not itself a test of a shrink" in prose
    assert "consistent with the curse, not a proof" in prose.replace("\n", " ")
    assert "Change in the paired lead, test minus dev" in _outputs()
    assert "That is where the winner's curse is" not in prose
    assert "From dev to test the chosen design moved" not in _outputs()    # the absolute change alone is gone


def test_the_f1_difference_is_paired_and_recomputed_by_hand(log, found):
    chosen, overlap = log["test"]["detection"]
    assert found["f1"] == pytest.approx(chosen["f1"], abs=1e-6)
    assert found["baseline_f1"] == pytest.approx(overlap["f1"], abs=1e-6)
    assert found["difference"] == pytest.approx(chosen["f1"] - overlap["f1"], abs=1e-6)
    # the answers flagged differently, counted from the scores and the two dev thresholds
    rows = {r["pair"]: r for r in hs.pair_scores(log["chosen"]["design"], "test")}
    base = {r["pair"]: r for r in hs.pair_scores("word_overlap", "test")}
    t, u = log["chosen"]["threshold"], log["chosen"]["word_overlap_threshold"]
    apart = sum((rows[p][k] < t) != (base[p][k] < u) for p in rows for k in ("right", "hallucinated"))
    assert found["flagged_apart"] == apart
    low, high = found["difference_ci"]
    assert low <= found["difference"] <= high
    assert not found["tells_apart"] and low <= 0 <= high and found["permutation_p"] > 0.05


def test_notebook_11_prints_the_f1_interval_and_says_the_data_cannot_tell_them_apart(found):
    flat = re.sub(r"\s+", " ", _outputs())
    low, high = found["difference_ci"]
    assert (f"{found['difference']:+.3f} (95% CI {low:+.3f} to {high:+.3f}, pairs resampled; "
            f"permutation p = {found['permutation_p']:.2f})") in flat
    assert f"The two flag differently on {found['flagged_apart']} of {2 * found['pairs']} answers" in flat
    assert "the test part cannot tell their F1 apart" in flat
    prose = _markdown()
    assert "Two F1s are not a comparison" in prose and "cannot tell the two detectors apart" in prose
    assert found["flagged_apart"] <= 5          # "flag almost the same answers": a handful of the 200


def test_precision_at_a_base_rate_is_bayes_with_the_same_rates(log, found):
    assert hd.precision_at(0.5, 0.89, 0.05) == pytest.approx(0.89 / (0.89 + 0.05))
    assert hd.precision_at(0.1, 0.89, 0.05) == pytest.approx(0.089 / (0.089 + 0.045))
    assert math.isnan(hd.precision_at(0.1, 0.0, 0.0))
    for bad in ({"base_rate": 0.0}, {"base_rate": 1.0}, {"base_rate": 1.5}, {"recall": -0.1}):
        with pytest.raises(InputError):
            hd.precision_at(**{"base_rate": 0.1, "recall": 0.5, "false_alarm_rate": 0.1, **bad})
    for d, key in zip(log["test"]["detection"], ("precision_at", "baseline_precision_at"), strict=True):
        rate = d["recall"], d["fp"] / (d["fp"] + d["tn"])
        assert found[key] == pytest.approx(hd.precision_at(0.1, *rate))
        assert hd.precision_at(0.5, *rate) == pytest.approx(d["precision"], abs=1e-6)   # HaluEval's 50/50
        low, high = found[key + "_ci"]
        assert low <= found[key] <= high


def test_the_base_rate_warning_states_what_the_data_gives(found):
    printed = _outputs()
    for key in ("precision_at", "baseline_precision_at"):
        low, high = found[key + "_ci"]
        assert f"{found[key]:.3f} (95% CI {low:.3f} to {high:.3f}, pairs resampled)" in printed
    assert f"Precision if {found['base_rate']:.0%} of answers were hallucinated" in printed
    # "were one answer in ten hallucinated, about a third of the flags would be false alarms"
    assert found["base_rate"] == pytest.approx(0.1)
    for key in ("precision_at", "baseline_precision_at"):
        assert abs((1 - found[key]) - 1 / 3) < 0.03
    assert "about a third of the flags would be false alarms" in _markdown()


def test_detection_difference_refuses_what_it_cannot_compare(log):
    thresholds = (log["chosen"]["threshold"], log["chosen"]["word_overlap_threshold"])
    overlap = hs.pair_scores("word_overlap", "test")
    with pytest.raises(InputError):
        hd.detection_difference([{"pair": "p1", "right": 0.5}], overlap, thresholds)   # no hallucinated score
    with pytest.raises(InputError):
        hd.detection_difference(overlap, overlap, (0.5,))
    same = hd.detection_difference(overlap, overlap, (thresholds[1], thresholds[1]), n_resamples=200)
    assert same["difference"] == 0.0 and same["difference_ci"] == (0.0, 0.0) and same["flagged_apart"] == 0
    few = [{"pair": f"p{i}", "right": 0.9, "hallucinated": 0.2, "outcome": 1.0} for i in range(9)]
    with pytest.raises(InputError, match="at least 10"):                 # under ten pairs: no interval
        hd.detection_difference(few, few, thresholds)


def test_deck_11_has_the_dev_test_study_and_detection_slides_computed_from_the_log():
    sources = ["".join(c["source"]) for c in _cells(DECK)]
    body = "\n".join(sources)
    assert 'lead_test["difference"] - lead_dev["difference"]' in body and "halueval_detection.detection_difference(" in body
    assert body.count("hs.choice_log()") == 1
    titles = [s for s in sources if s.startswith(("halu = ", "found = halueval_detection."))]
    assert len(titles) == 2 and all("title(" in s for s in titles)
    cells = _cells(DECK)
    for i, cell in enumerate(cells):
        if "".join(cell["source"]) in titles:
            kinds = [c["metadata"]["slideshow"]["slide_type"] for c in cells[i:i + 3]]
            assert kinds == ["slide", "-", "notes"]
            assert "sk.table(" in "".join(cells[i + 1]["source"])
    take_away = next(s for s in sources if s.startswith("## Take-aways"))
    assert "Choose on one set, report on another" in take_away
