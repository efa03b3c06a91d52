"""evaluate(): a dataset in, one row per case out, with errors kept per row and the cache resuming."""

import json
import math

import pytest

from ragmetrics_edu import InputError, evaluate, judges
from scripted_server import schema_responder

CASES = [
    {"question": "What is AI?", "answer": "AI is machine intelligence.",
     "contexts": ["AI means artificial intelligence.", "NVIDIA makes chips."], "ground_truth": "AI is artificial intelligence."},
    {"question": "Where is Paris?", "answer": "Paris is in France.",
     "contexts": ["Paris is the capital of France."], "ground_truth": "Paris is in France."},
]




def test_given_verdicts_give_one_row_per_case_with_intermediates():
    judge = judges.GivenJudge({"context_precision": ["no", "yes"]})
    frame = evaluate(CASES[:1], metrics=["context_precision", "semantic_similarity"], judge=judge, progress=False)
    assert len(frame) == 1
    row = frame.iloc[0]
    assert row["context_precision"] == 0.5
    assert row["context_precision_verdicts"] == [0, 1]
    assert row["context_precision_values"]["relevant_count"] == 1
    assert 0.0 <= row["semantic_similarity"] <= 1.0 and row["error"] is None
    assert frame.attrs["results"][0]["context_precision"].score == 0.5


def test_aliases_jsonl_and_dataframe_inputs_agree(tmp_path):
    renamed = [{"user_input": c["question"], "response": c["answer"], "retrieved_contexts": c["contexts"],
                "reference": c["ground_truth"]} for c in CASES]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(json.dumps(c) for c in renamed) + "\n")
    import pandas as pd

    for data in (CASES, renamed, str(path), pd.DataFrame(CASES)):
        frame = evaluate(data, metrics=["semantic_similarity"], progress=False)
        assert list(frame["question"]) == [c["question"] for c in CASES]


def test_a_failing_case_keeps_its_error_and_the_batch_goes_on():
    # The typed verdicts fit the first case (2 nodes) but not the second (1 node).
    judge = judges.GivenJudge({"context_precision": ["no", "yes"]})
    frame = evaluate(CASES, metrics=["context_precision"], judge=judge, progress=False)
    assert frame.loc[0, "context_precision"] == 0.5 and frame["error"].isna()[0]
    assert math.isnan(frame.loc[1, "context_precision"])
    assert "context_precision" in frame.loc[1, "error"]


def test_bad_input_names_the_field(tmp_path):
    with pytest.raises(InputError, match=r"^metrics: "):
        evaluate(CASES, metrics=["precision_at_k"], judge=judges.GivenJudge({}))
    with pytest.raises(InputError, match=r"^judge: .*ReplayJudge"):
        evaluate(CASES, metrics=["faithfulness"])
    with pytest.raises(InputError, match=r"^data\[0\]\.reference: "):
        evaluate([{"question": "q", "contexts": ["c"]}], metrics=["context_precision"], judge=judges.GivenJudge({}))
    with pytest.raises(InputError, match=r"^data\[0\]\.contexts: expected a list"):
        evaluate([dict(CASES[0], contexts="one string")], metrics=["context_precision"], judge=judges.GivenJudge({}))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json}\n")
    with pytest.raises(InputError, match="line 1"):
        evaluate(str(bad), metrics=["semantic_similarity"])


def test_real_client_counts_calls_and_a_rerun_resumes_from_cache(server, tmp_path):
    server.responder = schema_responder()
    judge = judges.OpenAIJudge("scripted-model", base_url=server.base_url, api_key="k", mode="json_schema",
                               max_retries=0, timeout=5.0, cache_dir=tmp_path, max_concurrency=2)
    first = evaluate(CASES, metrics=["context_precision", "faithfulness"], judge=judge, progress=False)
    hits = server.hits
    assert hits >= 2 * 2 and first["calls"].sum() == hits and first["error"].isna().all()
    assert (first["prompt_tokens"] > 0).all()
    again = judges.OpenAIJudge("scripted-model", base_url=server.base_url, api_key="k", mode="json_schema",
                               max_retries=0, timeout=5.0, cache_dir=tmp_path)
    second = evaluate(CASES, metrics=["context_precision", "faithfulness"], judge=again, progress=False)
    assert server.hits == hits and second["calls"].sum() == 0 and second["cache_hits"].sum() == hits
    assert list(second["context_precision"]) == list(first["context_precision"])


def test_the_package_attribute_stays_the_function_after_the_module_is_imported():
    import importlib

    import ragmetrics_edu

    module = importlib.import_module("ragmetrics_edu.evaluation")
    importlib.import_module("ragmetrics_edu.cli")
    assert callable(ragmetrics_edu.evaluate)
    from ragmetrics_edu import evaluate as again

    assert callable(again) and again is module.evaluate and again.__module__ == "ragmetrics_edu.evaluation"


def test_rows_that_share_a_question_are_told_apart_by_their_answer():
    same = [{**CASES[1], "answer": "Paris is in France."}, {**CASES[1], "answer": "Paris is in Spain."}]
    judge = judges.GivenJudge({"context_precision": ["yes"]})
    frame = evaluate(same, metrics=["context_precision"], judge=judge, progress=False)
    assert list(frame.columns[:3]) == ["case", "question", "answer"]
    assert list(frame["question"]) == ["Where is Paris?"] * 2
    assert list(frame["answer"]) == ["Paris is in France.", "Paris is in Spain."]


def test_the_default_faithfulness_design_is_word_overlap_by_its_own_name_and_needs_no_judge():
    """evaluate()'s default faithfulness design is the one the written rule chose on HaluEval and RAGTruth dev
    (notebook 14), asked for by the name of what it computes; "faithfulness" stays the claims design."""
    import inspect

    from ragmetrics_edu.course.against_people import study

    assert study.load_log()["chosen"] == "word_overlap"
    from ragmetrics_edu.evaluation import default_metrics

    assert inspect.signature(evaluate).parameters["metrics"].default is None    # None: the defaults below
    assert "word_overlap" in default_metrics(judged=False) and "word_overlap" in default_metrics(judged=True)
    case = {"question": "Capital of France?", "answer": "Paris is on the Seine.",
            "contexts": ["Paris is the capital of France."]}
    table = evaluate([case], metrics=["word_overlap"], progress=False)   # no judge: nothing is asked
    assert table.loc[0, "word_overlap"] == pytest.approx(1 / 2)          # paris found, seine not
    assert table.loc[0, "word_overlap_design"] == "word_overlap" and "calls" not in table  # inline: no judge, no calls
    with pytest.raises(ValueError, match="judge"):                       # the claims design needs a judge
        evaluate([case], metrics=["faithfulness"], progress=False)


def test_g_eval_asks_its_evaluation_steps_once_per_run_and_options_reach_the_design() -> None:
    from ragmetrics_edu import judges

    asked = []

    def steps(request):
        asked.append(request)
        return [f"step written at call {len(asked)}"]

    case = {"question": "When?", "answer": "In 1967.", "contexts": ["It was held in 1967."], "ground_truth": "1967"}
    judge = judges.GivenJudge({"g_eval.steps": steps, "g_eval.score": 4, "faithfulness.claims": ["In 1967."],
                               "faithfulness.verdicts": ["yes"]})
    table = evaluate([case] * 3, metrics=["g_eval", "faithfulness"], judge=judge, progress=False,
                     options={"faithfulness": {"variant": "ragas"}, "g_eval": {"variant": "deepeval"}})
    assert len(asked) == 1                                    # no disk cache, yet one rubric for the whole run
    rubrics = {tuple(r["g_eval"].values["evaluation_steps"]) for r in table.attrs["results"]}
    assert rubrics == {("step written at call 1",)}
    assert table.attrs["once"]["g_eval"]["calls"].calls == 1
    assert list(table["faithfulness_design"]) == ["faithfulness (ragas)"] * 3
    assert list(table["g_eval_design"]) == ["g_eval (deepeval)"] * 3
    given = evaluate([case], metrics=["g_eval"], judge=judge, progress=False, options={"g_eval": {"steps": ["mine"]}})
    assert len(asked) == 1 and given.attrs["results"][0]["g_eval"].values["evaluation_steps"] == ["mine"]


@pytest.mark.parametrize("options, message", [
    ({"faithfulness": {"variant": "hamming"}}, "variant"),
    ({"faithfulness": {"no_such": 1}}, "keywords faithfulness takes"),
    ({"context_recall": {"variant": "ragas"}}, "metrics asked for"),
    (["faithfulness"], "options"),
    ({"faithfulness": "ragas"}, "keyword arguments"),
])
def test_options_are_checked(options, message) -> None:
    case = {"question": "When?", "answer": "In 1967.", "contexts": ["It was held in 1967."], "ground_truth": "1967"}
    from ragmetrics_edu import judges

    with pytest.raises(ValueError, match=message):
        evaluate([case], metrics=["faithfulness"], judge=judges.GivenJudge({}), progress=False, options=options)


def test_a_metric_with_no_judge_runs_inline_without_call_columns(monkeypatch) -> None:
    from ragmetrics_edu.judges import batch

    def no_pool(*args, **kwargs):
        raise AssertionError("the judge pool was started for a metric with no judge")

    monkeypatch.setattr("ragmetrics_edu.evaluation.run_tasks", no_pool)
    assert batch.run_tasks is not no_pool
    case = {"question": "When?", "answer": "In 1967.", "contexts": ["It was held in 1967."], "ground_truth": "1967"}
    table = evaluate([case, case], metrics=["word_overlap"], progress=False)
    assert list(table["word_overlap"]) == [1.0, 1.0]
    assert not {"calls", "repairs", "cache_hits", "prompt_tokens", "completion_tokens"} & set(table.columns)
