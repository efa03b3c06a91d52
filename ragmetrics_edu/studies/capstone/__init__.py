"""The capstone (lesson 16): two RAG systems that differ in the retriever, their rows tagged and blamed, as
functions of the judge and rows they are given (the course replays the recorded ones:
``ragmetrics_edu.course.capstone``).

- :mod:`.systems`: the two systems' retrievers, the generator, the judged scores; the capstone's references;
- :mod:`.diagnosis`: rows tagged by :mod:`ragmetrics_edu.evaluation.failures`, sorted, paired by question, and set
  against an annotator's reading;
- :mod:`.checks`: two checks of the judge's answer-relevancy and context-recall verdicts;
- :mod:`.summary`: the annotator's reading as tagged rows, each retriever's rows, the paired figure.
"""
