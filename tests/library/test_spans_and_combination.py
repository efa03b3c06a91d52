"""Spans against people's spans (characters), the cheap signals, and a combination cross-validated by source."""

import math
import random

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.agreement.combine import fit_combination
from ragmetrics_edu.agreement.spans import span_agreement
from ragmetrics_edu.baselines import cheap_signals


def test_span_agreement_counts_characters_over_answers():
    r = span_agreement([[(0, 10)], [{"start": 5, "end": 8}], []], [[(5, 15)], [], [(0, 3)]])
    # both: 5 (chars 5-9); detector: 10 + 3; people: 10 + 3
    assert r.values["characters_both"] == 5
    assert r.values["precision"] == pytest.approx(5 / 13) and r.values["recall"] == pytest.approx(5 / 13)
    assert r.score == pytest.approx(5 / 13)


def test_span_agreement_edge_cases():
    assert math.isnan(span_agreement([[]], [[(0, 3)]]).values["precision"])
    assert span_agreement([[]], [[(0, 3)]]).values["recall"] == 0.0
    assert math.isnan(span_agreement([[(0, 2)]], [[]]).score)
    with pytest.raises(InputError) as caught:
        span_agreement([[(3, 1)]], [[]])
    assert caught.value.field == "predicted[0][0]"


def test_cheap_signals_by_hand():
    s = cheap_signals("The bridge, built by Ann Lee in Paris, opened in 1932. It is 600 m long.",
                      ["The bridge opened in 1932 in paris. It is 503 m long."])
    assert s["numbers_missing"] == 0.5                    # 600 missing, 1932 found
    assert s["names_missing"] == pytest.approx(2 / 3)     # Ann and Lee missing, Paris found (any case)
    assert s["lowest_sentence_overlap"] < s["word_overlap"] < 1


def _toy(seed=1, n=80):
    rng = random.Random(seed)
    a = [rng.random() for _ in range(n)]
    b = [rng.random() for _ in range(n)]
    failed = [ai + 0.3 * rng.random() < 0.6 for ai in a]
    return {"a": a, "b": b}, failed, [f"source-{i // 5}" for i in range(n)]


def test_each_source_is_scored_by_a_model_that_never_saw_it(monkeypatch):
    features, failed, groups = _toy()
    seen = []
    import sklearn.linear_model

    real = sklearn.linear_model.LogisticRegression.fit

    def spy(self, x, y):
        seen.append(len(y))
        return real(self, x, y)

    monkeypatch.setattr(sklearn.linear_model.LogisticRegression, "fit", spy)
    combo = fit_combination(features, failed, groups)
    assert seen == [75] * 16 + [80]                       # 16 sources left out one at a time, then all of dev
    assert combo.weights["a"] < 0 < 1 - abs(combo.weights["b"])   # low a means hallucinated: a negative weight
    # cross-validated scores differ from the all-dev model's on the same answers
    assert combo.cross_validated != pytest.approx(combo.score(features))
    assert "logit p(hallucinated)" in combo.line() and len(combo.steps) == 4


def test_the_fitted_model_applies_its_dev_standardisation():
    features, failed, groups = _toy()
    combo = fit_combination(features, failed, groups, folds=4)
    z = combo.intercept + sum(combo.weights[s] * (0.2 - combo.means[s]) / combo.scales[s] for s in ("a", "b"))
    assert combo.score({"a": [0.2], "b": [0.2]})[0] == pytest.approx(1 - 1 / (1 + math.exp(-z)))


@pytest.mark.parametrize("kwargs, field", [
    ({"failed": [True] * 80}, "failed"), ({"groups": ["one"] * 80}, "groups"), ({"c": 0}, "c"),
    ({"folds": 1}, "folds"), ({"features": {"a": [1.0]}}, "failed"), ({"features": {}}, "features"),
])
def test_bad_input_names_its_field(kwargs, field):
    features, failed, groups = _toy()
    args = {"features": features, "failed": failed, "groups": groups, **kwargs}
    with pytest.raises(InputError) as caught:
        fit_combination(args.pop("features"), args.pop("failed"), args.pop("groups"), **args)
    assert caught.value.field == field
