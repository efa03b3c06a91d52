"""Judging the judge on HaluEval QA (notebooks 11 and 14): designs scored from recordings.

=========  ============================================================================================
``study``  the designs, their scores on the dev and test splits, the written choice rule and its log
``record`` recording a design's verdicts with a local judge server (through the one case runner)
``curse``  the winner's curse of choosing on the same data, and detection F1 with its interval
=========  ============================================================================================
"""
