"""ragmetrics_edu.agreement: hand-worked values, edge cases, bad inputs, and scikit-learn as the reference.

scikit-learn's ``cohen_kappa_score`` is used only here (a test dependency); the tests that
need it are skipped, visibly, where it is not installed.
"""

import json
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragmetrics_edu import InputError, stats
from ragmetrics_edu.agreement import cohen_kappa, match_items, mean_absolute_error, pairwise_accuracy

# A 2x2 table worked by hand: 20 both yes, 5 a-yes/b-no, 10 a-no/b-yes, 15 both no (n = 50).
# p_o = 35/50 = 0.7; a says yes 25/50 = 0.5, b 30/50 = 0.6; p_e = 0.5*0.6 + 0.5*0.4 = 0.5;
# kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
HAND_A = ["yes"] * 25 + ["no"] * 25
HAND_B = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15


def test_kappa_hand_worked_2x2():
    r = cohen_kappa(HAND_A, HAND_B, n_resamples=500)
    assert r.score == pytest.approx(0.4)
    assert r.values["p_o"] == pytest.approx(0.7)
    assert r.values["p_e"] == pytest.approx(0.5)
    assert r.values["percent_agreement"] == pytest.approx(70)
    assert r.values["confusion"] == [[20, 5], [10, 15]]
    assert r.values["classes"] == ["yes", "no"]
    assert r.steps.loc["a: yes", "b: no"] == 5 and r.steps.loc["total b", "b: yes"] == 30
    low, high = r.ci
    assert low < 0.4 < high and -1 <= low and high <= 1
    assert "0.7" in r.explain() and "0.5" in r.explain()


def test_weighted_kappa_hand_worked_three_verdicts():
    # yes/idk/no with linear costs 0.5 for a neighbour, 1 for yes-vs-no.
    # Observed cost (0 + 0.5 + 0 + 0.5)/4 = 0.25 -> p_o = 0.75; marginals a (2,1,1), b (1,1,2):
    # expected cost = (0.5*2*1 + 1*2*2 + 0.5*1*1 + 0.5*1*2 + 1*1*1 + 0.5*1*1)/16 = 8/16 -> p_e = 0.5.
    r = cohen_kappa(["yes", "yes", "no", "idk"], ["yes", "idk", "no", "no"], weights="linear", n_resamples=50)
    assert r.values["classes"] == ["yes", "idk", "no"]
    assert r.values["p_o"] == pytest.approx(0.75)
    assert r.values["p_e"] == pytest.approx(0.5)
    assert r.score == pytest.approx(0.5)
    assert r.table("weights").loc["a: yes", "b: idk"] == 0.5
    assert "1 − 8/16 = 0.5" in r.explain()  # the chance step shows the weighted sum, not the unweighted one
    # Unweighted, the same table: p_o = 0.5, p_e = (2*1 + 1*1 + 1*2)/16 = 5/16.
    plain = cohen_kappa(["yes", "yes", "no", "idk"], ["yes", "idk", "no", "no"], n_resamples=50)
    assert plain.score == pytest.approx((0.5 - 5 / 16) / (1 - 5 / 16))


def test_class_order_numbers_ascending_and_explicit_labels():
    r = cohen_kappa([3, 1, 2], [1, 2, 3], n_resamples=10)
    assert r.values["classes"] == [1, 2, 3]
    r = cohen_kappa(["low", "high"], ["mid", "high"], weights="quadratic", labels=["low", "mid", "high"],
                    n_resamples=10)
    assert r.values["classes"] == ["low", "mid", "high"]
    with pytest.raises(InputError) as err:
        cohen_kappa(["low", "high"], ["mid", "high"], weights="linear")
    assert err.value.field == "labels"
    with pytest.raises(InputError) as err:
        cohen_kappa(["low", "top"], ["mid", "high"], labels=["low", "mid", "high"])
    assert err.value.field == "labels_a[1]"


def test_single_class_on_both_sides_is_nan_with_a_note():
    r = cohen_kappa(["yes"] * 4, ["yes"] * 4, n_resamples=20)
    assert math.isnan(r.score) and r.values["p_e"] == 1
    assert r.values["percent_agreement"] == 100
    assert all(math.isnan(x) for x in r.ci)
    assert any("undefined" in note for note in r.notes)
    assert r.to_dict()["score"] is None
    json.dumps(r.to_dict())


def test_each_rater_one_different_class_is_zero_not_nan():
    r = cohen_kappa(["yes"] * 3, ["no"] * 3, n_resamples=20)
    assert r.score == 0 and r.values["p_e"] == 0


def _kappa_by_hand(a, b):
    n = len(a)
    p_o = sum(x == y for x, y in zip(a, b, strict=True)) / n
    p_e = sum(a.count(c) * b.count(c) for c in set(a) | set(b)) / n**2
    return math.nan if p_e == 1 else (p_o - p_e) / (1 - p_e)


def test_bootstrap_interval_is_the_percentiles_of_kappa_on_resampled_items():
    a = ["yes", "no", "idk", "yes", "yes", "no", "no", "idk", "yes", "no", "yes", "idk"]
    b = ["yes", "no", "no", "yes", "idk", "no", "yes", "idk", "yes", "no", "no", "idk"]
    r = cohen_kappa(a, b, n_resamples=300, seed=7, level=0.9)
    rng = np.random.default_rng(7)
    draws = [_kappa_by_hand([a[i] for i in row], [b[i] for i in row]) for row in rng.integers(0, len(a), (300, len(a)))]
    kept = [d for d in draws if not math.isnan(d)]
    assert r.values["undefined_resamples"] == 300 - len(kept)
    assert r.ci == pytest.approx(tuple(np.percentile(kept, [5, 95])))
    assert cohen_kappa(a, b, n_resamples=300, seed=7, level=0.9).ci == r.ci  # same seed, same interval


@pytest.mark.parametrize("call, field", [
    (lambda: cohen_kappa([], []), "labels_a"),
    (lambda: cohen_kappa(["yes"], ["yes", "no"]), "labels_b"),
    (lambda: cohen_kappa("yes", ["yes"]), "labels_a"),
    (lambda: cohen_kappa(["yes", None], ["yes", "no"]), "labels_a[1]"),
    (lambda: cohen_kappa(["yes"], [["no"]]), "labels_b[0]"),
    (lambda: cohen_kappa(["yes", math.nan], ["yes", "no"]), "labels_a[1]"),
    (lambda: cohen_kappa(["yes"], ["no"], weights="cubic"), "weights"),
    (lambda: cohen_kappa(["yes"], ["no"], weights=True), "weights"),
    (lambda: cohen_kappa(["yes"], ["no"], level=95), "level"),
    (lambda: cohen_kappa(["yes"], ["no"], seed=-1), "seed"),
    (lambda: cohen_kappa(["yes"], ["no"], n_resamples=0), "n_resamples"),
    (lambda: cohen_kappa(["yes"], ["no"], labels=["yes", "yes", "no"]), "labels"),
])
def test_kappa_bad_inputs_name_the_field(call, field):
    with pytest.raises(InputError) as err:
        call()
    assert err.value.field == field


# -- match_items -------------------------------------------------------------------------------

REFERENCE = ["Robert Zemeckis directed Beowulf.", "Beowulf was released in 2007.", "Angelina Jolie plays the mother."]


def test_items_are_matched_by_content_not_position():
    judged = ["Angelina Jolie played Grendel's mother", "The director of Beowulf was Robert Zemeckis",
              "Beowulf came out in 2007"]
    r = match_items(REFERENCE, judged, threshold=0.3)
    assert [(i, j) for i, j, _ in r.values["pairs"]] == [(0, 1), (1, 2), (2, 0)]
    # r1 {robert, zemecki, directed, beowulf} vs j2 {director, beowulf, robert, zemecki}: 3 shared of 5.
    assert r.steps.loc["r1", "j2"] == pytest.approx(3 / 5)
    assert r.values["precision"] == 1 and r.values["recall"] == 1 and r.score == 1


def test_same_count_different_items_scores_zero():
    judged = ["The film uses motion capture.", "It cost 150 million dollars.", "Neil Gaiman co-wrote it."]
    r = match_items(REFERENCE, judged)
    assert r.values["matched"] == 0 and r.score == 0
    assert len(r.table("unmatched")) == 6
    assert any("same length" in note for note in r.notes)


def test_merged_claim_matches_once_and_the_rest_is_unmatched():
    judged = ["Robert Zemeckis directed Beowulf", "Zemeckis directed Beowulf in 2007"]
    r = match_items(REFERENCE[:1], judged, similarity="overlap")
    assert r.values["pairs"] == [(0, 0, 1.0)]  # both score 1 by overlap; the earlier judged item wins the tie
    assert r.values["precision"] == 0.5 and r.values["recall"] == 1
    assert r.score == pytest.approx(2 * 0.5 * 1 / 1.5)
    assert r.table("unmatched")["item"].tolist() == ["j2"]


def test_threshold_is_inclusive():
    # {paris, capital, france} vs {paris, france}: Jaccard 2/3.
    assert match_items(["Paris is the capital of France"], ["Paris, France"], threshold=2 / 3).values["matched"] == 1
    assert match_items(["Paris is the capital of France"], ["Paris, France"], threshold=0.7).values["matched"] == 0


@pytest.mark.parametrize("ref, judged, precision, recall", [
    ([], [], math.nan, math.nan), (["a fact here"], [], math.nan, 0.0), ([], ["a claim"], 0.0, math.nan)])
def test_empty_sides_are_defined(ref, judged, precision, recall):
    r = match_items(ref, judged)
    for got, want in ((r.values["precision"], precision), (r.values["recall"], recall)):
        assert (math.isnan(got) and math.isnan(want)) or got == want
    assert math.isnan(r.score) and r.notes
    json.dumps(r.to_dict())


def test_item_with_only_stop_words_matches_nothing():
    r = match_items(["it is what it is"], ["it is what it is"])
    assert r.values["matched"] == 0 and any("no content words" in note for note in r.notes)


@pytest.mark.parametrize("call, field", [
    (lambda: match_items("one statement", ["x"]), "reference_texts"),
    (lambda: match_items(["x"], None), "judged_texts"),
    (lambda: match_items(["x"], ["y", 3]), "judged_texts[1]"),
    (lambda: match_items(["x"], ["y"], threshold=0), "threshold"),
    (lambda: match_items(["x"], ["y"], threshold=1.5), "threshold"),
    (lambda: match_items(["x"], ["y"], threshold=True), "threshold"),
    (lambda: match_items(["x"], ["y"], threshold="0.5"), "threshold"),
    (lambda: match_items(["x"], ["y"], similarity="cosine"), "similarity"),
])
def test_match_items_bad_inputs_name_the_field(call, field):
    with pytest.raises(InputError) as err:
        call()
    assert err.value.field == field


# -- score level -------------------------------------------------------------------------------

def test_pairwise_accuracy_hand_worked_with_both_tie_rules():
    labels_a, labels_b = [1, 1, 1, 1, 1, 0.5], [0, 0, 0, 0, 0, 0.5]
    judge_a, judge_b = [1, 0.5, 1, 0, 0.8, 0.9], [0, 0.5, 1, 1, 0.2, 0.1]
    half = pairwise_accuracy(labels_a, labels_b, judge_a, judge_b, n_resamples=200)
    # Pairs 1 and 5 same order, 2 and 3 judge ties, 4 opposite, 6 a human tie (left out): (2 + 0.5*2)/5.
    assert half.score == pytest.approx(0.6)
    assert (half.values["same_order"], half.values["opposite_order"], half.values["judge_ties"],
            half.values["labels_ties"], half.values["counted"]) == (2, 1, 2, 1, 5)
    strict = pairwise_accuracy(labels_a, labels_b, judge_a, judge_b, judge_ties="wrong", n_resamples=200)
    assert strict.score == pytest.approx(0.4)
    assert strict.steps["credit"].tolist()[:5] == [1, 0, 0, 0, 1]
    assert half.ci[0] <= 0.6 <= half.ci[1]
    assert "0.95" in pairwise_accuracy.__doc__ and "WikiEval" in pairwise_accuracy.__doc__


def test_pairwise_accuracy_interval_is_the_bootstrap_of_the_credits():
    credits_judge_a = [1, 0, 1, 1, 0.5, 0.2, 1, 0]
    r = pairwise_accuracy([1] * 8, [0] * 8, credits_judge_a, [0.5] * 8, n_resamples=400, seed=3)
    credit = [1.0 if x > 0.5 else 0.5 if x == 0.5 else 0.0 for x in credits_judge_a]
    assert r.ci == stats.bootstrap_ci(credit, n_resamples=400, seed=3).ci


def test_pairwise_accuracy_without_any_human_preference_is_nan():
    r = pairwise_accuracy([1, 0], [1, 0], [1, 0], [0, 1], n_resamples=10)
    assert math.isnan(r.score) and r.values["counted"] == 0
    json.dumps(r.to_dict())


def test_mean_absolute_error_hand_worked_and_its_interval():
    human, judge = [1, 0.5, 0, 0.25], [0.75, 0.5, 0.5, 0.25]
    r = mean_absolute_error(human, judge, n_resamples=400, seed=5)
    assert r.score == pytest.approx((0.25 + 0 + 0.5 + 0) / 4)
    assert r.values["mean_difference"] == pytest.approx((-0.25 + 0.5) / 4)
    assert r.ci == stats.bootstrap_ci([0.25, 0, 0.5, 0], n_resamples=400, seed=5).ci
    assert mean_absolute_error([0.5], [0.7], n_resamples=10).ci == pytest.approx((0.2, 0.2))


@pytest.mark.parametrize("call, field", [
    (lambda: pairwise_accuracy([1], [0], [1], [0, 1]), "judge_b"),
    (lambda: pairwise_accuracy([1], [0, 1], [1], [0]), "labels_b"),
    (lambda: pairwise_accuracy([True], [0], [1], [0]), "labels_a[0]"),
    (lambda: pairwise_accuracy([1], [0], ["1"], [0]), "judge_a[0]"),
    (lambda: pairwise_accuracy([1], [0], [1], [math.nan]), "judge_b[0]"),
    (lambda: pairwise_accuracy([], [], [], []), "labels_a"),
    (lambda: pairwise_accuracy([1], [0], [1], [0], judge_ties="skip"), "judge_ties"),
    (lambda: mean_absolute_error([1, 0], [1]), "judge"),
    (lambda: mean_absolute_error({"a": 1}, [1]), "labels"),
    (lambda: mean_absolute_error([1], [0], level=0), "level"),
])
def test_score_level_bad_inputs_name_the_field(call, field):
    with pytest.raises(InputError) as err:
        call()
    assert err.value.field == field


@pytest.mark.parametrize("junk", [5, "abc", {"a": 1}, None, 2.5])
def test_junk_in_every_list_argument_names_it(junk):
    calls = [(lambda: cohen_kappa(junk, ["yes"]), "labels_a"), (lambda: cohen_kappa(["yes"], junk), "labels_b"),
             (lambda: match_items(junk, []), "reference_texts"), (lambda: match_items([], junk), "judged_texts"),
             (lambda: pairwise_accuracy(junk, [0], [1], [0]), "labels_a"),
             (lambda: mean_absolute_error([0], junk), "judge")]
    for call, field in calls:
        with pytest.raises(InputError) as err:
            call()
        assert err.value.field == field, field


# -- results: tables, text, figures ------------------------------------------------------------

def test_every_result_has_steps_text_dict_and_a_png_figure():
    results = [cohen_kappa(HAND_A, HAND_B, n_resamples=50),
               match_items(REFERENCE, ["Zemeckis directed Beowulf"]),
               pairwise_accuracy([1, 1, 1], [0, 0, 0], [1, 0, 0.7], [0, 1, 0.2], n_resamples=50),
               mean_absolute_error([1, 0, 0.5], [0.5, 0, 1], n_resamples=50)]
    for r in results:
        assert len(r.steps) > 0
        assert r.metric in r.explain() and r.metric in r._repr_markdown_() and "<table>" in r._repr_html_()
        assert json.loads(json.dumps(r.to_dict()))["metric"] == r.metric
        assert r.plot()._repr_png_().startswith(b"\x89PNG")


def test_importing_agreement_stays_light():
    code = ("import sys, ragmetrics_edu.agreement as a; a.match_items(['x y'], ['x y']); "
            "print(sorted(m for m in ('numpy', 'pandas', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- scikit-learn as the reference implementation ---------------------------------------------

def _sklearn_kappa(a, b, labels, weights):
    metrics = pytest.importorskip("sklearn.metrics", reason="scikit-learn (test dependency) is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(metrics.cohen_kappa_score(a, b, labels=labels, weights=weights))


def _same(ours, theirs):
    assert (math.isnan(ours) and math.isnan(theirs)) or ours == pytest.approx(theirs, abs=1e-9)


def test_hand_worked_table_matches_sklearn():
    _same(cohen_kappa(HAND_A, HAND_B, n_resamples=1).score, _sklearn_kappa(HAND_A, HAND_B, None, None))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["yes", "idk", "no"]), st.sampled_from(["yes", "idk", "no"])),
                min_size=1, max_size=40),
       st.sampled_from([None, "linear", "quadratic"]))
def test_verdict_kappa_matches_sklearn(pairs, weights):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    ours = cohen_kappa(a, b, n_resamples=1, weights=weights)
    _same(ours.score, _sklearn_kappa(a, b, ours.values["classes"], weights))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=40),
       st.sampled_from([None, "linear", "quadratic"]))
def test_graded_kappa_matches_sklearn(pairs, weights):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    # scikit-learn orders the classes present ascending, as the default here does.
    _same(cohen_kappa(a, b, n_resamples=1, weights=weights).score, _sklearn_kappa(a, b, None, weights))


def test_skewed_classes_get_a_note_on_why_kappa_is_low_while_agreement_is_high():
    # 18 both yes, 1 each way off, 0 both no: 90% agreement, p_e = 0.95*0.95 + 0.05*0.05 = 0.905, kappa < 0.
    a = ["yes"] * 19 + ["no"]
    b = ["yes"] * 18 + ["no", "yes"]
    r = cohen_kappa(a, b, n_resamples=50)
    assert r.values["percent_agreement"] == pytest.approx(90)
    assert r.score == pytest.approx((0.9 - 0.905) / (1 - 0.905))
    assert any("skew" in note for note in r.notes)
    assert not any("skew" in note for note in cohen_kappa(HAND_A, HAND_B, n_resamples=50).notes)
    perfect = cohen_kappa(a, a, n_resamples=50)  # as skewed, but kappa 1: nothing to explain
    assert perfect.score == 1 and not any("skew" in note for note in perfect.notes)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["yes", "idk", "no"]), st.sampled_from(["yes", "idk", "no"])),
                min_size=1, max_size=30))
def test_same_value_as_the_textbook_formula_and_without_an_interval(pairs):
    """(p_o - p_e) / (1 - p_e) written out plainly (the formula the deck cases once had their own copy of)."""
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    n = len(a)
    observed = sum(x == y for x, y in pairs) / n
    expected = sum((a.count(c) / n) * (b.count(c) / n) for c in set(a) | set(b))
    textbook = float("nan") if expected == 1 else (observed - expected) / (1 - expected)
    _same(cohen_kappa(a, b, n_resamples=1).score, textbook)
    plain = cohen_kappa(a, b, level=None)
    _same(plain.score, textbook)
    assert plain.ci is None and "bootstrap" not in plain.tables


def test_rater_names_label_the_matrix_and_bad_names_are_refused():
    r = cohen_kappa(HAND_A, HAND_B, n_resamples=10, raters=("human", "judge"))
    assert r.steps.loc["human: yes", "judge: no"] == 5
    assert list(r.table("items").columns[:3]) == ["item", "human", "judge"]
    for bad in (("human", "human"), ("human",), "human", ("human", 3)):
        with pytest.raises(InputError) as err:
            cohen_kappa(HAND_A, HAND_B, raters=bad)
        assert err.value.field == "raters"


def test_kappa_groups_one_item_per_group_is_the_item_bootstrap():
    """With one item per group the grouped bootstrap draws the same indices as the item bootstrap."""
    a = ["yes", "no", "yes", "yes", "no", "idk"] * 4
    b = ["yes", "no", "no", "yes", "no", "idk"] * 4
    plain = cohen_kappa(a, b, n_resamples=300, seed=3)
    grouped = cohen_kappa(a, b, n_resamples=300, seed=3, groups=list(range(len(a))))
    assert grouped.score == plain.score and grouped.ci == plain.ci
    assert grouped.method == "percentile bootstrap over groups" and grouped.values["groups"] == len(a)


def test_kappa_groups_of_duplicated_items_match_the_bootstrap_of_the_distinct_items():
    """Each item listed twice, the copies in one group: resampling groups draws the distinct items, and
    doubling every count leaves every proportion, so every resampled kappa, unchanged."""
    a = ["yes", "no", "yes", "yes", "no", "no", "yes", "no", "yes", "no", "no", "yes"]
    b = ["yes", "no", "no", "yes", "no", "yes", "yes", "no", "yes", "no", "yes", "yes"]
    once = cohen_kappa(a, b, n_resamples=400, seed=1)
    twice = cohen_kappa([x for x in a for _ in (0, 1)], [y for y in b for _ in (0, 1)], n_resamples=400, seed=1,
                        groups=[i for i in range(len(a)) for _ in (0, 1)])
    assert twice.score == pytest.approx(once.score) and twice.ci == pytest.approx(once.ci)
    naive = cohen_kappa([x for x in a for _ in (0, 1)], [y for y in b for _ in (0, 1)], n_resamples=400, seed=1)
    assert naive.ci[1] - naive.ci[0] < once.ci[1] - once.ci[0]   # items as units: too narrow


def test_kappa_gives_no_interval_under_ten_groups():
    a, b = ["yes", "no"] * 10, ["yes", "no"] * 9 + ["no", "yes"]
    r = cohen_kappa(a, b, groups=[i % 5 for i in range(20)])
    assert r.ci is None and "too small to tell" in r.notes[-1]
    with pytest.raises(InputError):
        cohen_kappa(a, b, groups=[1, 2])
    with pytest.raises(InputError):
        cohen_kappa(a, b, groups=[[1]] * 20)
