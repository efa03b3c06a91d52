"""Lesson 15, aligning a judge with people: the protocol, the designs measured, and what they show.

The lesson computes the methods it teaches in view (the leave-one-source-out fit, Platt scaling, ECE and Brier
skill, span F1, the sources and labels a decision needs) and checks them against the library
(:mod:`ragmetrics_edu.agreement`, :mod:`ragmetrics_edu.stats.sample_size`); these modules load what it reads.

=================  ==============================================================================
module             what it holds
=================  ==============================================================================
``protocol``       the written rule (before the new designs were measured on all dev), its candidates, the span baseline's
                   rule
``study``          the log replayed from the recordings, every candidate's figures, the rule's choice, costs
``analysis``       the misses counted by kind, one answer shown, the spans deck 15 compares
``comparisons``    each figure beside the one it is read with (old designs, sampled sources, within-model,
                   HaluEval, the cross-validated baseline)
``calibration``    every dev sentence's p(yes) and label, its Platt fit for the log, the reliability diagram
``stability``      sampled verdicts asked several times, counted by the design's rule
``labels``         the labels a pass rate needs, planned for the three estimators
``designs``        the lesson's designs and their recordings
``validate_judge`` the ``validate-judge`` command
=================  ==============================================================================
"""
