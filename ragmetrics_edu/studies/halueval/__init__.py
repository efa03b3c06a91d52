"""Choosing a faithfulness judge on HaluEval QA (lesson 11) by the rules the course teaches.

Each function takes the scored pairs it measures (one row per pair: ``pair``, ``right``, ``hallucinated``,
``outcome``) and returns the figure; the course replays the shipped recordings into those rows and keeps the
choice log (``ragmetrics_edu.course.halueval``).

=============  ==========================================================================================
``designs``    the configurations tried on dev, and how each scores one answer with a judge
``choosing``   pairwise accuracy, a design against word overlap on the same pairs, the written choice rule,
               the dev threshold and detection at it
``detection``  detection F1, design minus baseline, with its interval and permutation test; precision at a
               base rate; the score distributions
=============  ==========================================================================================
"""
