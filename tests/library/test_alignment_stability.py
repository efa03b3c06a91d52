"""Lesson 15's stability pass (studies.alignment.stability): each sentence sampled several times, and the flip rates
counted from the words."""

import math
from pathlib import Path

import pytest

from ragmetrics_edu.course.alignment import study
from ragmetrics_edu.judges import GivenJudge
from ragmetrics_edu.results import MetricResult
from ragmetrics_edu.studies.alignment import stability


def _sampled(words_per_sentence):
    rows = [{"sentence": n, "verdicts": list(w), "flips": len(set(w)) > 1} for n, w in enumerate(words_per_sentence, 1)]
    return MetricResult(metric="support_stability", score=0.0, rows=rows)


def _zero(p_values):
    return MetricResult(metric="faithfulness_support", score=min(p_values), rows=[{"p_yes": p} for p in p_values])


def test_each_sentence_is_asked_runs_times_sampled_with_its_own_request():
    item = study.stability_items()[0]
    result = stability.ask_stability(GivenJudge({"faithfulness.support": "yes"}), item.answer, list(item.context),
                                     question=item.question, answer_id=item.id)
    assert len(result.calls) == stability.RUNS * len(result.rows) > 0
    keys = [c.key for c in result.calls]
    assert len(set(keys)) == len(keys)  # every sampled request is its own (its sample number is in the key)
    assert result.score == 0.0 and not any(r["flips"] for r in result.rows)


def test_flip_rates_by_hand():
    sampled = [_sampled([("yes", "yes", "yes"), ("yes", "no", "yes")]),   # sentence 2 flips; runs 1, 3 say ok
               _sampled([("no", "no", "no")]),                            # steady, flagged every run
               None]                                                       # not recorded: left out
    zero = [_zero([0.9, 0.5]), _zero([0.1]), _zero([0.5])]
    found = stability.flip_rates(sampled, zero)
    assert (found["answers"], found["sentences"], found["flipped"]) == (2, 3, 1)
    assert found["sentence_flip_rate"] == pytest.approx(1 / 3)
    assert found["answers_flipped"] == 1 and found["answer_flip_rate"] == pytest.approx(1 / 2)
    assert found["answers_flagged_every_run"] == 1                       # the second answer: "no" in every run
    expected = (stability.predicted_flip(0.9) + stability.predicted_flip(0.5) + stability.predicted_flip(0.1)) / 3
    assert found["predicted_sentence_flip_rate"] == pytest.approx(expected)


def test_the_predicted_flip_follows_the_temperature_rule():
    t, k = 0.7, 3
    p = 0.8
    a, b = p ** (1 / t), (1 - p) ** (1 / t)
    q = a / (a + b)
    assert stability.predicted_flip(p, temperature=t, runs=k) == pytest.approx(1 - q ** k - (1 - q) ** k)
    assert stability.predicted_flip(0.5, runs=3) == pytest.approx(0.75)   # a coin: 1 - 2 / 8
    assert stability.predicted_flip(1.0) == 0.0 == stability.predicted_flip(0.0)
    with pytest.raises(ValueError, match="p_yes"):
        stability.predicted_flip(1.5)
    with pytest.raises(ValueError, match="support"):
        stability.flip_rates([None], [])
    assert math.isnan(stability.flip_rates([None], [None])["sentence_flip_rate"])


def test_the_shipped_log_holds_what_the_stability_recording_replays():
    import json

    from ragmetrics_edu.course.alignment.recordings import replayed_pass

    chosen = study.stability_items()
    sampled = replayed_pass("stability", chosen, "ragtruth", "dev")
    zero = replayed_pass("support", chosen, "ragtruth", "dev")
    assert sampled is not None and all(r is not None for r in sampled)   # every answer recorded
    log = study.load_log()["stability"]
    assert stability.flip_rates(sampled, zero) == pytest.approx(log)
    words = [r["verdicts"] for s in sampled for r in s.rows]                # by hand, from the words themselves
    assert len(words) == log["sentences"] and sum(len(set(w)) > 1 for w in words) == log["flipped"]
    assert all(len(w) == stability.RUNS and set(w) <= {"yes", "no"} for w in words)
    nb = json.loads((Path(__file__).resolve().parents[2] / "notebooks" / "15_aligning_a_judge.ipynb").read_text())
    shown = " ".join("".join("".join(o.get("text", "")) for o in c.get("outputs", [])) for c in nb["cells"]).split()
    assert f"{log['flipped']} of {log['sentences']} sentences" in " ".join(shown)


def test_the_per_model_rows_add_up_to_the_whole():
    log = study.load_log()
    rows = log["stability_by_model"].values()
    for key in ("answers", "sentences", "flipped", "answers_flipped", "answers_flagged_every_run"):
        assert sum(r[key] for r in rows) == log["stability"][key], key


def test_the_logs_stability_keys_are_stability_figures_of_the_replayed_passes():
    import json

    from ragmetrics_edu.course.alignment.recordings import replayed_pass

    log = study.load_log()
    chosen = study.stability_items()
    sampled = replayed_pass("stability", chosen, "ragtruth", "dev")
    zero = replayed_pass("support", chosen, "ragtruth", "dev")
    found = stability.stability_figures(sampled, zero, [i.hallucinated for i in chosen], [i.model for i in chosen],
                                        log["figures"]["support_min"]["threshold"])
    for key in ("stability", "stability_rule", "stability_by_model"):   # as the log stores them (JSON)
        assert json.loads(json.dumps(found[key])) == log[key], key
    assert "stability_rule" not in stability.stability_figures(sampled, zero, [True] * len(chosen),
                                                               [i.model for i in chosen], None)
    with pytest.raises(ValueError, match="models"):
        stability.stability_figures(sampled, zero, [True] * len(chosen), ["one model"], None)
