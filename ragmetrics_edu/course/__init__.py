"""The course that teaches with the library: everything here exists to teach, nothing here is API.

The library (``ragmetrics_edu.*`` outside this package) never imports the course; the course
imports the library. Notebooks and decks import what they need by name, e.g.
``from ragmetrics_edu.course import course_plan, glossary``.

=======================  ======================================================================
notebooks 00-15          ``course_plan`` (openings and closings), ``glossary`` (its entries in
                         ``data/glossary.json``), ``bridges`` (to DeepEval and Ragas), ``exercises``
                         (checked answers), ``display`` (the notebooks' printed tables), ``envcheck``
the slide decks          ``slides`` (HTML fragments), ``deck_table`` (every deck number, checked)
notebooks 06-07          ``embedding_texts`` (the texts the course embeds, the calibration pairs; the
                         cosines: ``studies.calibration``)
notebook 10              ``deck_cases`` (the decks' examples put to a judge; their agreement with the
                         decks: ``studies.deck_agreement``; the CI-gate example's text),
                         ``regression_gate_example`` (a test file learners copy)
notebook 11              ``judge_study/`` (the labelled set and recorded passes loaded: ``labels``, ``passes``,
                         ``report`` (the shipped study), ``recording``; the measuring is
                         ``ragmetrics_edu.studies.judge_study``)
notebook 12              ``metric_map`` (which metric when; what it costs: ``judges.costs``),
                         ``gate_cases`` (the regression gate's recorded runs and exercise cases)
notebooks 13-14          ``against_people/`` (``items``: the answers people labelled; ``study``: the recordings
                         replayed into scored parts and the choice log, the relabelling exercise; ``record``),
                         computed by ``ragmetrics_edu.studies.against_people``
notebook 15              ``alignment/`` (aligning a judge with people: ``study``, the log; ``recordings``, the
                         passes replayed; ``answer_view``; the figures and ``validate-judge``: ``studies.alignment``)
notebook 16              ``capstone/`` (``systems``: the two RAG systems' recorded rows and the annotator's
                         reading; ``tables``), computed by ``ragmetrics_edu.studies.capstone``
HaluEval                 ``halueval/`` (``study``: the recordings replayed, the choice log; ``record``;
                         the measuring is ``ragmetrics_edu.studies.halueval``)
=======================  ======================================================================
"""
