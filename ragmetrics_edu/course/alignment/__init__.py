"""Lesson 15, aligning a judge with people: the protocol, the designs measured, and what they show.

=================  ==============================================================================
module             what it holds
=================  ==============================================================================
``protocol``       the written rule (committed before any figure), the candidates it names, the span baseline's
                   rule
``study``          the log replayed from the recordings, every candidate's figures, the rule's choice, costs
``analysis``       the misses counted by kind, one answer shown, spans against people's and the no-call baseline
``comparisons``    each figure beside the one it is read with (old designs, sampled sources, within-model,
                   HaluEval, the cross-validated baseline, sources an interval needs)
``calibration``    the reliability of p(yes) and Platt scaling
``stability``      sampled verdicts asked several times, counted by the design's rule
``labels``         the labels a pass rate needs, planned for the three estimators
``designs``        the lesson's designs and their recordings
``validate_judge`` the ``validate-judge`` command
=================  ==============================================================================
"""
