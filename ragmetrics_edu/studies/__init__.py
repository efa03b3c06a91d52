"""The course's judge studies as library code: each function takes the items, labels and judge
replies it measures (the course loads them from the shipped recordings) and returns the figure.

A lesson shows these with ``metrics.show_code`` or computes the same figure in view and checks it
against them. Subpackages, one per study:

- ``judge_study``: a judge run over the labelled worked cases (lessons 10-11, 16); ``halueval``: choosing a
  faithfulness judge on HaluEval QA, the winner's curse and detection F1 (lesson 11);
- ``against_people``: judges against people's labels on HaluEval and RAGTruth: the designs, the scored parts,
  the choice log and its tables, readings, pass rates and figures (lessons 13-14);
- ``alignment``: aligning a judge (lesson 15), and the ``validate-judge`` command;
- ``capstone``: the capstone's two RAG systems, their rows tagged, paired and read (lesson 16; the blame rule
  is ``evaluation.failures``).
- ``calibration``, ``ranking_lists``, ``deck_agreement`` (modules): labelled sentence pairs' cosines under an
  embedder (lessons 06-07); every ranking measure of one list, per rank, and its figure (lesson 08); a judge's
  verdicts on the decks' worked examples against the decks' (lessons 10, 12).

This package never imports the course (``ragmetrics_edu.course``).
"""
