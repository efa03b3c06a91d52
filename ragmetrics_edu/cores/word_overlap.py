"""Word overlap: the share of the answer's content words found anywhere in the contexts (no model, no call).

    word overlap = |answer words ∩ context words| / |answer words|

    content words: lower-cased, stop words dropped, plurals lightly stemmed (ragmetrics_edu.text.tokenize)
    an answer with no content words: 0 (nothing can be checked)
"""

#: the step table's columns this core fills
COLUMNS = ("word", "in_contexts")


def word_overlap(answer_words, context_words):
    found = answer_words & context_words
    score = len(found) / len(answer_words) if answer_words else 0.0
    rows = [{"word": word, "in_contexts": word in found} for word in sorted(answer_words)]
    return score, rows, {"answer_words": len(answer_words), "found": len(found)}
