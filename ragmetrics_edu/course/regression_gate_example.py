"""An example regression gate: copy this file into your project's tests/ and run it with pytest.

It compares the candidate version with the last accepted version on the same questions
(paired), with the judge's run-to-run noise measured from repeat runs, and lets the build pass
only when the gate says PASS: the candidate shown no worse than the margin, whatever the noise
(non-inferiority; see ragmetrics_edu.regression_gate). FAIL blocks, and so does CANNOT TELL: a
gate that cannot tell has not shown the candidate is safe to ship.
Here everything is replayed from the course's recordings of qwen2.5-coder-1.5b, so it runs
offline: the accepted version is the labelled set's supported answers, the candidate its answers
with an unsupported claim, both judged at temperature 0, and the noise comes from three repeat
runs at that temperature. On these recordings the test fails with CANNOT TELL: the small judge
cannot show the planted regression, so it cannot show its absence either. In your project, score
both versions with your own judge, on 30 or more questions, and measure its noise on them.
"""

from ragmetrics_edu.course.gate_cases import pair_versions, recorded_noise
from ragmetrics_edu.regression_gate import gate

MARGIN = 0.05   # the largest drop accepted as no regression, set before looking at today's run


def test_faithfulness_does_not_regress() -> None:
    questions, accepted, candidate = pair_versions("faithfulness")
    # yours: judge_noise([run1, run2, run3]): the accepted version judged again, same questions
    noise = recorded_noise("0", "faithfulness")
    result = gate(candidate, accepted, noise=noise, margin=MARGIN, metric="faithfulness",
                  ids=questions)
    # Not `assert candidate_mean >= 0.70`: a bar ignores what the accepted version scored here.
    # Not `assert candidate_mean >= accepted_mean`: that fails on the judge's own run-to-run noise.
    # Not `assert not result.failed`: that ships CANNOT TELL, a candidate nobody showed is no worse.
    assert result.passed, result.explain()
