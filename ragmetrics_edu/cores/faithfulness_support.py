"""Support per sentence: a judge's p(yes) for each sentence of the answer, the answer's score, its spans.

    unsupported_i = p_i < threshold                      threshold 0.5 by default
    score = min_i p_i                                    aggregate "min": one weak sentence flags the answer
          = mean_i p_i                                   aggregate "mean"
          = min_i p_i over the sentences that claim     aggregate "min_claims": a sentence saying the
                                                         passages do not answer claims nothing
    span_i = (start, end, confidence = 1 − p_i, text)    for each unsupported sentence (LettuceDetect's format)

    no sentence, or (min_claims) every sentence abstains: 1.0 (nothing is claimed)
"""

import math

#: the step table's columns this core fills
COLUMNS = ("sentence", "start", "end", "text", "p_yes", "abstains", "unsupported", "from")


def counted(rows, aggregate):
    """The p_i the score aggregates."""
    return [row["p_yes"] for row in rows if not (aggregate == "min_claims" and row["abstains"])]


def faithfulness_support(answer, places, p, sources, abstains, aggregate="min", threshold=0.5):
    rows, spans = [], []
    for i, ((start, end), p_i, source) in enumerate(zip(places, p, sources), start=1):
        sentence = answer[start:end]
        unsupported = p_i < threshold
        rows.append({"sentence": i, "start": start, "end": end, "text": sentence, "p_yes": p_i,
                     "abstains": abstains(sentence), "unsupported": unsupported, "from": source})
        if unsupported:
            spans.append({"start": start, "end": end, "confidence": 1.0 - p_i, "text": sentence})
    kept = counted(rows, aggregate)
    if not kept:
        score = 1.0
    elif aggregate == "mean":
        score = math.fsum(kept) / len(kept)
    else:
        score = min(kept)
    return score, rows, {"spans": spans, "sentences": len(rows), "unsupported": len(spans), "aggregate": aggregate,
                         "threshold_sentence": threshold, "lowest": min(p) if p else math.nan}
