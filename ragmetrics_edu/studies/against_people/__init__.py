"""Judges against people (lessons 13-15): every faithfulness design scored against people's labels (RAGTruth QA)
and HaluEval's constructed pairs, as functions of the answers, replies and choice log they are given (the course
loads the answers and replays the recordings: ``ragmetrics_edu.course.against_people``).

- :mod:`.designs`: each design, what it asks a judge and how it scores an answer; :class:`~.designs.Item`;
- :mod:`.choice`: a part scored by every design, the dev figures, the written rule's choice, the choice log;
- :mod:`.tables`: the dev and test tables, AUC by model or span kind, the model confound, paired test differences;
- :mod:`.readings`: what the figures show (within-model AUC, why the judge fails, the claims they support);
- :mod:`.pass_rate`: one system's pass rate from its labels, three estimators side by side;
- :mod:`.figures`: the G-Eval distribution, ROC curves, AUC by group; :mod:`.spans`: people's spans beside a judge's
  flags.
"""
