"""Reading a reply's token probabilities: the alternatives at one token, and p(yes) of a yes/no verdict.

Where a server returns each reply token's most likely alternatives (``logprobs`` / ``top_logprobs``),
a yes/no verdict carries more than its word: the probability the model gave "yes" against "no" at the
verdict's token, a graded score from one call (the aspect critic's ``p_yes``, the support of a sentence).
"""

from __future__ import annotations

import math
from typing import Any, Callable

__all__ = ["alternatives", "p_yes"]


def alternatives(logprobs: Any, after: str, accept: Callable[[str], bool]) -> dict[str, float] | None:
    """At the first reply token after the text ``after`` (``""``: from the start) that ``accept`` takes: each
    alternative's probability (the token's own when the server sent no alternatives). None when not found."""
    if not isinstance(logprobs, list):
        return None
    seen = ""
    for token in logprobs:
        if after in seen and accept(token["token"]):
            out: dict[str, float] = {}
            for alt, logprob in token["top"] or [[token["token"], token["logprob"]]]:
                out[alt] = out.get(alt, 0.0) + math.exp(logprob)
            return out
        seen += token["token"]
    return None


def _word(token: str) -> str:
    return token.strip().strip('"').lower()


def p_yes(logprobs: Any, after: str = "") -> float | None:
    """p(yes) / (p(yes) + p(no)) at the verdict's token (the first yes/no token after ``after``); None when the
    reply carries no probabilities or neither word is among the alternatives."""
    found = alternatives(logprobs, after, lambda t: _word(t) in ("yes", "no"))
    if found is None:
        return None
    yes = sum(p for t, p in found.items() if _word(t) == "yes")
    no = sum(p for t, p in found.items() if _word(t) == "no")
    return None if yes + no == 0 else yes / (yes + no)
