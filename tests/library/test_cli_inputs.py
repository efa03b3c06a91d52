"""Issue 9 §3: the command line converts typed verdicts and rejects bad input with exit 2."""

import subprocess
import sys

import pytest

import ragmetrics_edu
from ragmetrics_edu.cli import main
from ragmetrics_edu.metrics import SPECS


def test_help_example_average_precision_works(capsys):
    assert main(["score", "average_precision", "1", "0", "1", "--total-relevant", "4"]) == 0
    # (1/1 + 2/3) / 4
    assert f"score: {round((1 + 2 / 3) / 4, 4)}" in capsys.readouterr().out


@pytest.mark.parametrize("words", [["true", "TRUE", "false"], ["y", "yes", "n"], ["1", "1.0", "0"]])
def test_typed_verdict_spellings(words, capsys):
    assert main(["score", "context_precision", *words]) == 0
    assert "score: 1" in capsys.readouterr().out


def test_typed_idk_for_faithfulness(capsys):
    assert main(["score", "faithfulness", "1", "idk", "borderline", "0", "--variant", "ragas"]) == 0
    assert "score: 0.25" in capsys.readouterr().out


@pytest.mark.parametrize("flag", ["--tp", "--fp", "--fn"])
def test_negative_counts_exit_2(flag, capsys):
    assert main(["score", "answer_correctness", flag, "-1", "--similarity", "0.5"]) == 2
    assert flag in capsys.readouterr().err


def test_huge_gains_no_traceback(capsys):
    assert main(["score", "ndcg_at_k", "1e308", "1e308", "1e308"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "relevance[0]" in err


def test_unknown_deck_exits_2_naming_the_decks(capsys):
    assert main(["examples", "--deck", "Z"]) == 2
    err = capsys.readouterr().err
    assert "A" in err and "E" in err and "--deck" in err


@pytest.mark.parametrize("metric", [s.name for s in SPECS.values() if s.reads is not None and s.reads.positional])
def test_no_verdicts_exits_2(metric, capsys):
    assert main(["score", metric]) == 2
    captured = capsys.readouterr()
    assert "verdicts" in captured.err and "frac" not in captured.out


def test_unknown_example_suggests(capsys):
    assert main(["explain", "A-cp-what-is-a"]) == 2
    err = capsys.readouterr().err
    assert "ragmetrics-edu examples" in err and "A-cp-what-is-ai" in err


def test_version_subprocess():
    out = subprocess.run([sys.executable, "-m", "ragmetrics_edu.cli", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and ragmetrics_edu.__version__ in out.stdout


def test_ndcg_gain_option(capsys):
    assert main(["score", "ndcg_at_k", "3", "0", "1", "--gain", "exponential"]) == 0
    import math

    assert f"score: {round((7 + 0.5) / (7 + 1 / math.log2(3)), 4)}" in capsys.readouterr().out
    assert main(["score", "ndcg_at_k", "1", "--gain", "cubic"]) == 2
    assert "gain" in capsys.readouterr().err


def test_error_stays_one_line_when_an_argument_holds_a_newline(capsys):
    assert main(["examples", "\n0"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
