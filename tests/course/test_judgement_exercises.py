"""The analysis and design exercises of notebooks 04-09 (issue 13, item 5).

For each: a right answer passes, a typical wrong answer is told *why* it is wrong, and the
worked answer comes from the library (the tests recompute it from the metrics).
"""

import pytest

from ragmetrics_edu import metrics
from ragmetrics_edu.course import exercises, metric_map
from ragmetrics_edu.course.exercises import answer_relevancy, entities, faithfulness, ranking, retrieval

JUDGEMENT = ["cer-5", "faith-5", "faith-6", "ar-5", "ac-5", "rank-6", "rank-7", "ret-4"]


@pytest.mark.parametrize("exercise_id", JUDGEMENT)
def test_each_judgement_exercise_is_registered_with_a_hint_and_a_worked_solution(exercise_id):
    item = exercises.get(exercise_id)
    assert item.hint and item.explanation
    assert exercises.solution(exercise_id).startswith("Answer: ")
    assert exercises.check(exercise_id, exercises.get(exercise_id).answer()), "the computed answer passes"


@pytest.mark.parametrize("exercise_id, right, wrong, because", [
    ("cer-5", "context recall", "context entity recall", "one of 3 entities"),
    ("cer-5", "Statements", "entities", "loses half"),
    ("faith-5", ["idk", "idk"], ["yes", "idk"], "a 'yes' counts under both rules"),
    ("faith-5", ["IDK"], ["no"], "a 'no' (the context contradicts the claim) costs"),
    ("faith-5", ["idk"], [], "Ragas returns NaN"),
    ("faith-6", "generator", "retriever", "The retriever's metrics"),
    ("ar-5", "ragas", "deepeval", "benefit of the doubt"),
    ("ar-5", "embeddings", "statements", "noncommittal"),
    ("ac-5", 0.05, 0.2, "weighs only 0.25"),
    ("ac-5", "-1/20", 0.15, "the factual weight"),
    ("ac-5", 0.05, 0, "does not move"),
    ("rank-6", "MRR", "nDCG", "rewards relevant results after the first"),
    ("rank-6", "reciprocal rank", "recall@k", "rewards relevant results after the first"),
    ("rank-7", [1, 0, 0, 0, 0], [1, 1, 1, 0, 0], "AP divides by the relevant documents in the corpus"),
    ("rank-7", (1, 0, 0, 0, 0), [0, 1, 0, 0, 0], "every relevant node comes before every irrelevant one"),
    ("rank-7", [1, 0, 0, 0, 0], [True, False, False, False, False], "Give five flags"),
])
def test_a_right_answer_passes_and_a_typical_wrong_one_is_explained(exercise_id, right, wrong, because):
    assert exercises.check(exercise_id, right).correct is True
    feedback = exercises.check(exercise_id, wrong)
    assert feedback.correct is False
    assert because in feedback.message
    assert f"exercises.solution('{exercise_id}')" in feedback.message


def test_cer_5_answer_is_the_lower_of_the_two_library_scores():
    statement = metrics.context_recall(entities.EIFFEL_STATEMENTS, entities.EIFFEL_VERDICTS).score
    entity = metrics.context_entity_recall(entities.EIFFEL_REFERENCE, entities.EIFFEL_CONTEXT).score
    assert statement != entity
    assert exercises.get("cer-5").answer() == ("context recall" if statement < entity else "context entity recall")


def test_faith_5_accepts_any_disagreeing_list_and_its_solution_does_disagree():
    solution = exercises.get("faith-5").answer()
    claims = [f"c{i}" for i in range(len(solution))]
    assert metrics.faithfulness(claims, solution, "deepeval").score == 1.0
    assert metrics.faithfulness(claims, solution, "ragas").score == 0.0
    assert exercises.check("faith-5", ["idk"] * 3).correct is True
    assert exercises.check("faith-5", "idk").correct is False   # a string is not a list of verdicts


def test_faith_6_answer_is_the_component_of_the_lowest_score():
    worst = min(faithfulness.DIAGNOSIS_SCORES, key=faithfulness.DIAGNOSIS_SCORES.get)
    assert exercises.get("faith-6").answer() == metric_map.get(worst).component == "generator"


def test_ar_5_the_two_forms_really_disagree_on_the_evasive_answer():
    scores = answer_relevancy.evasive_scores()
    assert scores["deepeval"] == 1.0 and scores["ragas"] == 0.0


def test_ac_5_the_fall_is_the_difference_of_two_library_scores():
    facts = (["a", "b"], [], [])
    before = metrics.answer_correctness(*facts, similarity=0.9).score
    after = metrics.answer_correctness(*facts, similarity=0.7).score
    assert exercises.get("ac-5").answer() == pytest.approx(before - after)


def test_rank_6_only_the_answer_ignores_what_follows_the_first_hit():
    measures = ranking._SCENARIO_MEASURES
    answer = exercises.get("rank-6").answer()
    for name, f in measures.items():
        blind = f(ranking.FIRST_AT_2) == pytest.approx(f(ranking.FIRST_AT_2_MORE))
        assert blind == (name == answer), name


def test_rank_7_solution_has_perfect_context_precision_and_low_average_precision():
    flags = exercises.get("rank-7").answer()
    assert metrics.context_precision(["yes" if f else "no" for f in flags]).score == 1.0
    assert metrics.average_precision(flags, total_relevant=ranking.DISAGREE_RELEVANT).score < 0.5


def test_ret_4_answer_follows_the_permutation_test_and_the_feedback_quotes_its_p_value():
    comparison = retrieval.few_questions_comparison()
    p = comparison["permutation"].p_value
    assert exercises.get("ret-4").answer() is (p < 0.05)
    wrong = not (p < 0.05)
    feedback = exercises.check("ret-4", wrong)
    assert feedback.correct is False and f"p = {p:.4f}" in feedback.message


def test_ret_4_feedback_names_the_non_tied_questions_and_the_permutation_floor():
    from ragmetrics_edu.embeddings.recorded import RecordedEmbedder
    from ragmetrics_edu.retrieval import BM25Retriever, EmbeddingRetriever, evaluate_retriever, load_corpus

    corpus = load_corpus()
    few = [q for q in corpus.questions if q.total_relevant][:retrieval.FEW_QUESTIONS]
    dense = EmbeddingRetriever(corpus, RecordedEmbedder(), min_score=None)
    rr = [[row["reciprocal_rank"] for row in evaluate_retriever(r, few, k=retrieval.FEW_K)]
          for r in (BM25Retriever(corpus), dense)]
    m = sum(a != b for a, b in zip(*rr, strict=True))  # counted here from the rows, not read off the test's result
    p = retrieval.few_questions_comparison()["permutation"].p_value
    assert p >= 2 / 2 ** m - 1e-12, "an exact sign-flip test cannot go below 2/2^m"
    message = exercises.check("ret-4", not (p < 0.05)).message
    assert f"m = {m} of the {retrieval.FEW_QUESTIONS} questions" in message
    assert f"2/2^{m} = {2 / 2 ** m:.4f}" in message


@pytest.mark.parametrize("m, floor", [(0, 1.0), (1, 1.0), (5, 0.0625), (6, 0.03125)])
def test_permutation_floor_is_two_over_two_to_the_m(m, floor):
    assert retrieval.permutation_floor(m) == floor


@pytest.mark.parametrize("m", [3, 5, 6])
def test_the_floor_is_what_the_library_test_gives_for_m_wins_in_a_row(m):
    from ragmetrics_edu import stats

    wins = [1.0] * m + [0.5] * (12 - m)  # m large wins for a, the rest ties
    assert stats.permutation_test(wins, [0.0] * m + [0.5] * (12 - m)).p_value == retrieval.permutation_floor(m)
