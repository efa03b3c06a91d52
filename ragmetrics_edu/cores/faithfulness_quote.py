"""Quote-then-verify: a judge quotes the passage words that state each sentence; the words decide.

    match_i    = (longest run of the quote's words found, in order, in the passages) / (the quote's words)
    verified_i = match_i >= 0.8                       an empty quote is never verified
    support_i  = |content words of sentence i in its quote| / |content words of sentence i|  when verified_i
               = 0                                    when not (no content word: 1 when verified)
    score, spans: support per sentence's (faithfulness_support.py), with support_i in place of p_i
"""

from difflib import SequenceMatcher

from .faithfulness_support import faithfulness_support

#: the step table's columns this core fills (after support per sentence's)
COLUMNS = ("quote", "match", "verified")

QUOTE_MATCH = 0.8


def quote_check(quoted, passages, content, in_quote):
    """One sentence: its quote's words, the passages' words, its content words and those in the quote."""
    if quoted and passages:
        run = SequenceMatcher(None, quoted, passages, autojunk=False).find_longest_match(
            0, len(quoted), 0, len(passages))
        match = run.size / len(quoted)
    else:
        match = 0.0
    verified = match >= QUOTE_MATCH
    support = (len(in_quote) / len(content) if content else 1.0) if verified else 0.0
    return {"match": match, "verified": verified, "content_words": len(content), "in_quote": len(in_quote),
            "support": support}


def faithfulness_quote(answer, places, quotes, checks, abstains, aggregate="min", threshold=0.5):
    support = [check["support"] for check in checks]
    score, rows, values = faithfulness_support(answer, places, support, ["quote"] * len(checks), abstains,
                                               aggregate, threshold)
    for row, quote, check in zip(rows, quotes, checks):
        row.update(quote=quote, match=check["match"], verified=check["verified"])
    values.update(verified=sum(check["verified"] for check in checks), quote_match=QUOTE_MATCH)
    return score, rows, values
