"""Judges against people: every faithfulness design scored against human labels (RAGTruth QA) and
against HaluEval's constructed pairs, from recordings of a real local model replayed offline.

- :mod:`.items`: the answers to judge, from both data sets, in one shape;
- :mod:`.designs`: each design (word overlap, re-answer, G-Eval, aspect critic, claims), what it asks and
  how it scores an answer;
- :mod:`.record`: recording a design's judge pass with a local model (needs ``make judge-server``);
- :mod:`.study`: the replayed scores, the dev figures, the choice and the test figures;
- :mod:`.readings`: what the figures show (within-model AUC, why the judge fails, the claims they support);
- :mod:`.pass_rate`: one system's true pass rate from its labels, three estimators side by side;
- :mod:`.figures`: the plots and span views.
"""
