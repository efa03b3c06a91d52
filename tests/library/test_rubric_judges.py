"""G-Eval and the aspect critic: hand-worked arithmetic, the token probabilities through cache and replay,
sampling where a server gives none, and both in evaluate() with a criterion the user writes."""

import math

import pytest

from ragmetrics_edu import InputError, designs, evaluate, judges
from ragmetrics_edu.metrics.rubric import aspect_critic_score, g_eval_score
from scripted_server import Scripted, good, score_tokens, scripted_judge

STEPS = ["Read the context.", "Check each fact of the answer against it."]
CONTEXT = ["The Eiffel Tower is 330 metres tall."]


def test_weighted_score_by_hand():
    # p(1..5) = 0.1, 0.1, 0.2, 0.4, 0.2 -> 0.1 + 0.2 + 0.6 + 1.6 + 1.0 = 3.5; on [0, 1]: (3.5 - 1) / 4 = 0.625
    r = g_eval_score({1: 0.1, 2: 0.1, 3: 0.2, 4: 0.4, 5: 0.2}, reply_score=4)
    assert r.values["weighted"] == pytest.approx(3.5) and r.score == pytest.approx(0.625)
    assert r.values["most_likely"] == 4 and list(r.steps["score"]) == [1, 2, 3, 4, 5]


def test_deepeval_rule_drops_scores_under_one_percent_before_renormalising():
    # 0.005 on 10 is dropped: (0.5 * 8 + 0.495 * 9) / 0.995 = 8.455 / 0.995; DeepEval then divides by 10
    r = g_eval_score({8: 0.5, 9: 0.495, 10: 0.005}, variant="deepeval")
    assert r.values["weighted"] == pytest.approx(8.455 / 0.995)
    assert r.score == pytest.approx(8.455 / 0.995 / 10)
    paper = g_eval_score({8: 0.5, 9: 0.495, 10: 0.005}, scale=(0, 10))
    assert paper.values["weighted"] == pytest.approx(0.5 * 8 + 0.495 * 9 + 0.005 * 10)


def test_critic_majority_and_odd_votes():
    assert aspect_critic_score(["yes", "no", "yes"]).score == 1.0
    assert aspect_critic_score(["no", "no", "yes"]).values["yes_share"] == pytest.approx(1 / 3)
    with pytest.raises(InputError, match="odd"):
        aspect_critic_score(["yes", "no"])


def test_given_judge_without_probabilities_uses_the_reply_and_says_so():
    judge = judges.GivenJudge({"g_eval.steps": STEPS, "g_eval.score": 4})
    r = designs.g_eval(judge, "It is 330 m tall.", CONTEXT, question="How tall is it?")
    assert r.score == pytest.approx(0.75) and r.values["evaluation_steps"] == STEPS
    assert any("unweighted" in n for n in r.notes)


def test_probabilities_weight_the_score_and_survive_cache_and_replay(server, tmp_path):
    alternatives = {"4": 0.5, "5": 0.3, "3": 0.15, "x": 0.05}   # "x" is not a score: left out
    server.push(good({"steps": STEPS}), Scripted(content='{"score": 4}', logprobs=score_tokens(4, alternatives)))
    judge = scripted_judge(server, cache_dir=tmp_path / "cache")
    r = designs.g_eval(judge, "It is 330 m tall.", CONTEXT, question="How tall is it?")
    expected = (0.5 * 4 + 0.3 * 5 + 0.15 * 3) / 0.95
    assert r.values["weighted"] == pytest.approx(expected)
    assert server.hits == 2 and server.requests[1]["top_logprobs"] == 20 and server.requests[1]["logprobs"] is True
    again = designs.g_eval(scripted_judge(server, cache_dir=tmp_path / "cache"), "It is 330 m tall.", CONTEXT,
                          question="How tall is it?")
    assert server.hits == 2 and again.values["weighted"] == pytest.approx(expected)   # from the cache, weights kept
    path = judge.save_recording(tmp_path / "rec.json", server="scripted")
    replayed = designs.g_eval(judges.ReplayJudge(path), "It is 330 m tall.", CONTEXT, question="How tall is it?")
    assert replayed.values["weighted"] == pytest.approx(expected)


def test_without_probabilities_samples_are_averaged_each_with_its_own_seed(server):
    server.push(good({"steps": STEPS}), good({"score": 5}), good({"score": 3}), good({"score": 4}))
    judge = scripted_judge(server)
    r = designs.g_eval(judge, "It is 330 m tall.", CONTEXT, question="How tall is it?", samples=2)
    assert r.values["weighted"] == pytest.approx(3.5)      # the two samples' mean; the first reply (5) is left out
    seeds = [body.get("seed") for body in server.requests[1:]]
    assert len(set(seeds)) == 3
    assert [body["temperature"] for body in server.requests[2:]] == [1.0, 1.0]   # the paper's: samples follow p(s)


def test_critic_votes_are_sampled_and_a_majority_decides(server):
    server.push(good({"verdict": "no"}), good({"verdict": "yes"}), good({"verdict": "yes"}))
    r = designs.aspect_critic(scripted_judge(server), "It is 400 m tall.", CONTEXT, strictness=2)
    assert r.values["votes"] == 3 and r.score == 1.0 and math.isnan(r.values["p_yes"])
    assert any("made odd" in n for n in r.notes)


def test_both_rubric_judges_run_in_evaluate_with_the_users_criterion():
    criterion = "The answer is polite."
    seen = []

    def steps(request):
        seen.append(request.messages[-1]["content"])
        return STEPS

    judge = judges.GivenJudge({"g_eval.steps": steps, "g_eval.score": 5, "aspect_critic": "yes"})
    table = evaluate([{"question": "How tall?", "answer": "330 m, thank you.", "contexts": CONTEXT}],
                     metrics=["g_eval", "aspect_critic"], judge=judge, progress=False, criteria=criterion)
    assert table.loc[0, "g_eval"] == 1.0 and table.loc[0, "aspect_critic"] == 1.0
    assert criterion in seen[0]
    assert table.loc[0, "g_eval_design"] == "g_eval (paper)"          # the output names the design
    assert table.loc[0, "aspect_critic_design"] == "aspect_critic (ragas)"
    with pytest.raises(InputError, match="criteria"):
        evaluate([{"question": "q", "answer": "a", "contexts": ["c"]}], metrics=["g_eval"], judge=judge,
                 progress=False, criteria="  ")
