"""Notebook 11, "Can you trust the judge?": the judge measured, by the course's own rules, against labels whose origin
is named: the project's labelled set here (two language-model passes, adjudicated: no person labelled it), and
HaluEval's right and hallucinated answers in ``course.halueval`` (labels that come from how the benchmark was built).

=============  ==========================================================================================
``labels``     the labelled set: cases, items, the labels of each pass and their adjudication
``runs``       the cases through the library's one runner, one row per (case, metric), and the injections
``passes``     the recorded passes (which model, which form), replayed into rows
``agreement``  verdict and score agreement with the labels (kappa with its interval), the baseline beside it
``behaviour``  what the judge does under position changes, planted instructions and repetition
``failures``   the kinds of failure a judge makes, counted against a reference
``injection``  the in-node injection with its placebo and control
``paired``     judge against baseline over the same pairs
``report``     the tables and figures notebook 11 and its deck show
``recording``  ``ragmetrics-edu record-judge-study``: recording a pass from a local server
=============  ==========================================================================================
"""
