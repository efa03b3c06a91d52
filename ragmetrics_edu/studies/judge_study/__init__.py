"""The judge study (lessons 10-11, 16): a judge run over the labelled worked cases and measured against the labels.

Each function takes what it measures (cases, labels, judge rows) and returns the figure; the course loads the
shipped cases, labels and recordings (``ragmetrics_edu.course.judge_study``).

=============  ==========================================================================================
``cases``      the labelled set's cases and labels: checks, aligned label vectors, pairs, distinct items
``runs``       the cases through the library's one runner, one row per (case, metric); the injections
``agreement``  verdict and score agreement with the labels (kappa with its interval), the baseline beside it
``behaviour``  repeat-run flips, position and injection effects, cost, word overlap's rows beside them
``failures``   the kinds of failure a judge makes, counted against a reference
``paired``     judge against baseline over the same pairs
``figures``    kappa per metric, judge beside word overlap
=============  ==========================================================================================
"""
