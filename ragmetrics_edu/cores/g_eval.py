"""G-Eval (Liu et al., 2023): the judge's score read as an expectation over the score tokens.

    share(s) = p(s) / Σ p(kept)                   over the kept scores s, from low to high
    weighted = Σ_s share(s) · s
    score    = (weighted − low) / (high − low)    on [0, 1]

    paper:    every score token in range is kept (scale 1-5 by default)
    deepeval: DeepEval's GEval drops the tokens under 1 % probability first (scale 0-10 by default)
    no probabilities: share(s) = the fraction of n sampled scores equal to s, and weighted = their mean
                      (the paper's own estimate); no samples either: the reply's own score, share 1
"""

#: the step table's columns this core fills
COLUMNS = ("score", "probability", "kept", "share", "share_x_score")

#: each variant's score range (low, high) when the caller gives none
SCALES = {"paper": (1, 5), "deepeval": (0, 10)}
DEEPEVAL_MIN_PROBABILITY = 0.01
NAN = float("nan")


def g_eval(low, high, variant="paper", probabilities=None, samples=None, reply_score=None):
    if probabilities is not None:
        p = probabilities
        kept = {s: p_s for s, p_s in p.items() if variant != "deepeval" or p_s >= DEEPEVAL_MIN_PROBABILITY}
        total = sum(kept.values())
        share = {s: kept.get(s, 0.0) / total for s in range(low, high + 1)}
    elif samples is not None:
        p = {s: NAN for s in range(low, high + 1)}  # no probabilities: the column shows NaN
        kept = {s: samples.count(s) for s in range(low, high + 1) if s in samples}
        share = {s: samples.count(s) / len(samples) for s in range(low, high + 1)}
    else:
        p = {s: NAN for s in range(low, high + 1)}
        kept = {reply_score: 1}
        share = {s: float(s == reply_score) for s in range(low, high + 1)}
    rows = [{"score": s, "probability": p.get(s, 0.0), "kept": s in kept, "share": share[s],
             "share_x_score": share[s] * s} for s in range(low, high + 1)]
    weighted = sum(row["share_x_score"] for row in rows)
    if samples is not None and probabilities is None:
        weighted = sum(samples) / len(samples)  # the same expectation, as the paper computes it (the mean)
    score = (weighted - low) / (high - low)
    most_likely = max(kept, key=lambda s: (kept[s], -s))
    return score, rows, {"weighted": weighted, "most_likely": most_likely, "low": low, "high": high}
