"""Lesson 15, aligning a judge with people, and the ``validate-judge`` command, as library functions of the data
they are given: lesson 15's log (the recordings replayed, which the course loads), lesson 14's log where a figure
pairs with lesson 14's designs, the replayed results, and a practitioner's labelled answers.

The lesson computes the methods it teaches in view and checks them against these (and :mod:`ragmetrics_edu.agreement`).

==================  =============================================================================================
module              what it holds
==================  =============================================================================================
``protocol``        the written rule, its candidates, the explored designs, the span baseline's rule
``designs``         lesson 15's designs (support per sentence, few-shot, explored) and every design validate-judge
                    offers (``JUDGED``), each with the request its pass asks
``log``             the log's parts built from replayed passes: scores, sentences, costs, the combinations
``choice``          every candidate's figures, the paired differences, the rule's choice, the lead
``cost_figures``    recorded tokens and seconds an answer, the explored designs beside support and G-Eval
``comparisons``     each figure beside the one it is read with (old designs, sampled sources, within-model, HaluEval)
``analysis``        the misses counted by kind, the spans deck 15 compares, the quote judge's replies counted
``calibration``     every dev sentence's p(yes) and label, its Platt fit, the reliability diagram
``stability``       the stability pass (sentences asked several times, sampled) and its flip rates
``labels``          the labels a pass rate needs, planned for the three estimators
``validate_judge``  the ``validate-judge`` command: a judge against people on RAGTruth dev or your own labels
``labelled``        your labelled file read, checked and split into dev and test by the written rule
``labels_report``   the report of ``validate-judge --labels``
``cost``            what a run will send before it sends anything: requests, tokens, time
==================  =============================================================================================
"""
