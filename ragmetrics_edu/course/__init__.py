"""The course that teaches with the library: everything here exists to teach, nothing here is API.

The library (``ragmetrics_edu.*`` outside this package) never imports the course; the course
imports the library. Notebooks and decks import what they need by name, e.g.
``from ragmetrics_edu.course import course_plan, glossary``.

=======================  ======================================================================
notebooks 00-15          ``course_plan`` (openings and closings), ``glossary``, ``bridges`` (to
                         DeepEval and Ragas), ``exercises`` (checked answers), ``display`` (the
                         notebooks' printed tables and panels), ``envcheck``
the slide decks          ``slides`` (HTML fragments), ``deck_table`` (every deck number, checked)
notebooks 06-07          ``embedding_texts`` (the texts the course embeds, calibration pairs)
notebook 10              ``deck_cases`` (the decks' examples put to a judge; the CI-gate example's
                         scores), ``regression_gate_example`` (a test file learners copy)
notebook 11              the judge study: ``judge_eval`` (labelled set), ``judge_runs`` (cases
                         through the library's runner), ``judge_study`` (recorded passes),
                         ``judge_agreement``, ``judge_behaviour``, ``judge_failures``, ``paired``
                         (judge vs baseline over pairs), ``judge_report`` (the tables),
                         ``judge_recording`` (``ragmetrics-edu record-judge-study``)
notebook 12              ``metric_map`` (which metric when, and what it costs), ``gate_cases``
                         (the regression gate's recorded runs and exercise cases)
notebook 15              ``capstone`` (two RAG systems, recorded), ``diagnosis`` (tags and
                         tables), ``capstone_checks``, ``capstone_summary`` (the take-away)
HaluEval                 ``halueval_study`` (designs scored on HaluEval QA from recordings), ``halueval_record``
                         (recording them with a local judge server)
=======================  ======================================================================
"""
