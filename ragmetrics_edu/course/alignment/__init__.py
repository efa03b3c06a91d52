"""Lesson 15, aligning a judge with people: the loading of what it reads. The figures are computed by the library
(:mod:`ragmetrics_edu.studies.alignment`, with the ``validate-judge`` command); the lesson computes the methods it
teaches in view (the leave-one-source-out fit, Platt scaling, ECE and Brier skill, span F1, the sources and labels a
decision needs) and checks them against it.

===============  ==================================================================================================
module           what it holds
===============  ==================================================================================================
``study``        the log: the recordings replayed once (``build_log``) and the shipped copy (``load_log``); the
                 layout benchmark's result; the stability pass's answers
``recordings``   each pass replayed from its recording, validate-judge's reading of the recorded judge, each pass's
                 cost calibration
``answer_view``  the answer the lesson shows, replayed, and its spans beside people's
===============  ==================================================================================================
"""
