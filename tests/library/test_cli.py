"""The ragmetrics-edu command: exit codes and what it prints."""

from ragmetrics_edu import examples
from ragmetrics_edu.cli import main


def test_examples_lists_every_id_and_all_match(capsys):
    assert main(["examples"]) == 0
    out = capsys.readouterr().out
    for example_id in examples.ids():
        assert example_id in out
    assert "27 match every stated number" in out


def test_explain_prints_steps_and_comparison(capsys):
    assert main(["explain", "A-cp-what-is-ai"]) == 0
    out = capsys.readouterr().out
    assert "precision_at_k" in out and "0.5833" in out and "match" in out


def test_score_context_precision(capsys):
    assert main(["score", "context_precision", "no", "yes", "yes", "no", "no"]) == 0
    assert "score: 0.5833" in capsys.readouterr().out
    assert main(["score", "faithfulness", "yes", "idk", "--variant", "ragas"]) == 0
    assert "score: 0.5" in capsys.readouterr().out
    assert main(["score", "context_entity_recall", "--reference", "A;B", "--context", "A"]) == 0
    assert "score: 0.5" in capsys.readouterr().out


def test_bad_input_exits_2_with_one_line(capsys):
    assert main(["score", "context_precision", "yes", "maybe"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "verdicts[1]" in err
    assert main(["score", "no_such_metric"]) == 2
    assert main(["explain", "nope"]) == 2
    assert "example_id" in capsys.readouterr().err
