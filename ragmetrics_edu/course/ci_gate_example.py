"""An example CI gate: copy this file into your project's tests/ and run it with pytest.

It scores a small fixed data set with a judge and fails the build only if the mean score
has dropped by more than the noise allows. Here the data set is the decks' nine
context-precision cases and the judge is the course's recording of qwen2.5-coder-1.5b, so
it runs offline; in your project, score your own golden set with your own judge.
"""

from ragmetrics_edu.ci_gate import gate
from ragmetrics_edu.course.deck_cases import deck_scores

THRESHOLD = 0.70          # the quality bar the team agreed on, set before looking at today's run
JUDGE_SD = None           # your judge's sd of the mean over repeat runs (None: not measured)


def test_context_precision_stays_above_the_bar() -> None:
    scores = deck_scores("context_precision")
    result = gate(scores, THRESHOLD, metric="context precision", judge_sd=JUDGE_SD)
    # Not `assert result.mean == 0.74`: a judge that samples, or one more question, moves the mean.
    # Not `assert result.mean >= THRESHOLD`: that fails on an unlucky draw of questions.
    assert result.mean + result.tolerance >= THRESHOLD, result.explain()
