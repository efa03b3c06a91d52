"""Judges against people (lessons 13-15): what the course loads for the study whose arithmetic is library code
(:mod:`ragmetrics_edu.studies.against_people`).

- :mod:`.items`: the answers to judge, from both data sets, in one shape;
- :mod:`.study`: the shipped recordings, replayed into scored parts and the choice log; the relabelling exercise;
- :mod:`.record`: recording a design's judge pass with a local model (needs ``make judge-server``).
"""
