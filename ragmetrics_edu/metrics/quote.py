"""The arithmetic of quote-then-verify: a judge quotes the passage words that state a sentence; the words decide.

The design (:mod:`ragmetrics_edu.designs.faithfulness_quote` asks the judge) asks, for each sentence of an answer,
for the shortest part of the passages that states it, copied word for word (or an empty quote). A small judge
says yes too readily when asked yes or no; here its reply is checked by counting, not believed:

1. **verified**: the quote is in the passages. Its words (:func:`ragmetrics_edu.text.words`) are matched against
   the passages' words; the longest run they share in order, over the quote's length, is ``match``. The quote is
   verified when ``match >= QUOTE_MATCH`` (a copy with a word or two changed still counts; an invented one
   does not). An empty quote is never verified.
2. **support**: the share of the sentence's content words found in a verified quote
   (:func:`ragmetrics_edu.metrics.overlap.shared_words`), 0.0 when the quote is not verified: a sentence that
   adds a name or a number the quoted words lack loses that share.
3. the answer's score, its unsupported sentences and their spans are :func:`~ragmetrics_edu.metrics.support.
   support_score`'s, with each sentence's support in place of p(yes).

Edge cases: a sentence with no content word has support 1.0 when its quote is verified (nothing to miss) and
0.0 otherwise; an answer with no sentence scores 1.0 (nothing is claimed).
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any, Sequence

from ..errors import InputError
from ..results import MetricResult, fmt
from ..text import words
from ..validate import as_list, text, text_list
from .overlap import shared_words
from .support import THRESHOLD, support_score

__all__ = ["QUOTE_MATCH", "quote_check", "quote_score"]

#: the share of a quote's words that must appear, in order and unbroken, in the passages for it to be verified
QUOTE_MATCH = 0.8


def quote_check(sentence: str, quote: str, context: Sequence[str]) -> dict[str, Any]:
    """One sentence's check: how much of ``quote`` is in the passages (``match``), whether that verifies it, and
    the support (the sentence's content words found in a verified quote)."""
    sentence, quote = text("sentence", sentence), text("quote", quote)
    passages = words("\n".join(text_list("context", context)))
    quoted = words(quote)
    if quoted and passages:
        block = SequenceMatcher(None, quoted, passages, autojunk=False).find_longest_match(
            0, len(quoted), 0, len(passages))
        match = block.size / len(quoted)
    else:
        match = 0.0
    verified = match >= QUOTE_MATCH
    content, found = shared_words(sentence, quote)
    support = (len(found) / len(content) if content else 1.0) if verified else 0.0
    return {"match": match, "verified": verified, "content_words": len(content), "in_quote": len(found),
            "support": support}


def quote_score(answer: str, offsets: Sequence[tuple[int, int]], quotes: Sequence[str], context: Sequence[str], *,
                aggregate: str = "min", threshold: float = THRESHOLD) -> MetricResult:
    """The answer's score from its sentences' places (``offsets``) and the judge's quote for each."""
    answer = text("answer", answer)
    given = as_list("quotes", quotes, "a list of quotes (strings), one per sentence")
    pairs = as_list("offsets", offsets, "a list of (start, end) character offsets into the answer")
    if len(given) != len(pairs):
        raise InputError("quotes", f"one quote per sentence ({len(pairs)})", f"{len(given)} quotes")
    passages = text_list("context", context)
    checks = []
    for i, (pair, quote) in enumerate(zip(pairs, given, strict=True)):
        start, end = pair if isinstance(pair, (tuple, list)) and len(pair) == 2 else (0, 0)
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(answer)):
            raise InputError(f"offsets[{i}]", f"(start, end) with 0 <= start < end <= {len(answer)}", pair)
        checks.append(quote_check(answer[start:end], text(f"quotes[{i}]", quote), passages))
    result = support_score(answer, pairs, [c["support"] for c in checks], aggregate=aggregate, threshold=threshold,
                           sources=["quote"] * len(checks))
    for row, quote, check in zip(result.rows, given, checks, strict=True):
        row.update(quote=quote, match=check["match"], verified=check["verified"])
    result.columns = (*result.columns, "quote", "match", "verified")
    verified = sum(c["verified"] for c in checks)
    result.narrative[0] = (f"The answer has {len(checks)} sentence(s); {verified} quote(s) were found in the passages "
                           f"(at least {fmt(QUOTE_MATCH)} of their words in one unbroken run). Each sentence's support "
                           "is the share of its content words in its verified quote (0 when not verified): "
                           + ", ".join(fmt(c["support"]) for c in checks) + ".")
    result.formula_general = r"\text{score} = \min_i \text{support}_i"
    result.values.update(verified=verified, quote_match=QUOTE_MATCH)
    result.metric = "faithfulness_quote"
    result.inputs.update(quotes=list(given), context=passages)
    return result
