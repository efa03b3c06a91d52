"""Notebook 16, the capstone: two RAG systems, recorded, scored and diagnosed.

=============  ==========================================================================================
``systems``    the two systems' retrievers, answers and judged scores (replayed from recordings)
``diagnosis``  the rows tagged by :mod:`ragmetrics_edu.evaluation.failures`, sorted and printed; the annotator's reading
``checks``     the checks a learner runs on the rows
``summary``    the loaders of the blame and of the retriever comparison, and the deck's paired figure
=============  ==========================================================================================
"""
