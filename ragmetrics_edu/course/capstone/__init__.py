"""Lesson 16, the capstone: what the course loads for two RAG systems whose arithmetic is library code
(:mod:`ragmetrics_edu.studies.capstone`).

=============  ==========================================================================================
``systems``    the recorded answers and verdicts, replayed; the project annotator's reading
``tables``     the rows as printed tables (the metric map's short names)
=============  ==========================================================================================
"""
