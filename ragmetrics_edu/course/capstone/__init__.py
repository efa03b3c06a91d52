"""Notebook 16, the capstone: two RAG systems, recorded, scored and diagnosed.

=============  ==========================================================================================
``systems``    the two systems' retrievers, answers and judged scores (replayed from recordings)
``diagnosis``  the tags each failing row gets, by rule, and the tables of them
``checks``     the checks a learner runs on the rows
``summary``    the take-away: one blame per row, the retriever comparison, the lines computed from counts
=============  ==========================================================================================
"""
