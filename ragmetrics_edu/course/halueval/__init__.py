"""Judging the judge on HaluEval QA (notebook 11): the recordings replayed, the choice log, the recorder.

=========  ============================================================================================
``study``  the designs' scores replayed from the recordings; the choice log written once, and checked
``record`` recording a design's verdicts with a local judge server (through the one case runner)
=========  ============================================================================================

The designs, the choice rule and every figure are library code (:mod:`ragmetrics_edu.studies.halueval`).
"""
