"""Notebook 11, "Can you trust the judge?": the shipped labelled set and recorded passes, and the tables they make.

The measuring is library code (:mod:`ragmetrics_edu.studies.judge_study`); this package loads and prints.

=============  ==========================================================================================
``labels``     loading the labelled set: cases, the two labelling passes, their adjudication
``passes``     the recorded passes (which model, which cases, which form), replayed into rows
``report``     notebook 11's tables: which pass each reads, handed to the library, printed
``injection``  the in-node injection's passes with their placebo and control
``recording``  ``ragmetrics-edu record-judge-study``: recording a pass from a local server
=============  ==========================================================================================
"""
