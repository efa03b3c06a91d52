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

from typing import Any, Sequence

from ..cores import computed_by
from ..cores import faithfulness_quote as core
from ..errors import InputError
from ..results import MetricResult
from ..text import words
from ..validate import as_list, choice, number, text, text_list
from .overlap import shared_words
from .support import AGGREGATES, THRESHOLD, abstains, support_places
from .support_explained import quote_result

__all__ = ["QUOTE_MATCH", "quote_check", "quote_score"]

#: the share of a quote's words that must appear, in order and unbroken, in the passages for it to be verified
QUOTE_MATCH = core.QUOTE_MATCH


def quote_check(sentence: str, quote: str, context: Sequence[str]) -> dict[str, Any]:
    """One sentence's check: how much of ``quote`` is in the passages (``match``), whether that verifies it, and
    the support (the sentence's content words found in a verified quote)."""
    sentence, quote = text("sentence", sentence), text("quote", quote)
    passages = words("\n".join(text_list("context", context)))
    return core.quote_check(words(quote), passages, *shared_words(sentence, quote))


@computed_by("faithfulness_quote")
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
    places = support_places(answer, pairs)
    aggregate = choice("aggregate", aggregate, AGGREGATES)
    threshold = number("threshold", threshold, "a number from 0 to 1", low=0.0, high=1.0)

    score, rows, values = core.faithfulness_quote(answer, places, given, checks, abstains, aggregate, threshold)

    return quote_result(score, rows, values, answer, places, checks, given, passages)
