"""The arithmetic of support per sentence: each sentence's p(yes), the answer's score, and its spans.

The design (:mod:`ragmetrics_edu.designs.faithfulness_support` asks the judge) splits an answer into sentences and asks,
for each, whether the passages state it; the reply's probability of "yes" is that sentence's support.
Here is the pure part, a function of the sentences' places and their supports:

1. each sentence is **unsupported** when its support is below ``threshold`` (0.5 by default);
2. the answer's score aggregates the supports (``aggregate``):
   - ``"min"``: the least supported sentence (one unsupported sentence is enough to flag an answer);
   - ``"mean"``: the mean support;
   - ``"min_claims"``: the least supported sentence among those that make a claim; a sentence that says the
     passages do not answer (:func:`abstains`) makes none. A faithful "the passages do not say" gets a low
     p(yes) from a judge asked whether the passages state it, which ``"min"`` would count against it;
3. each unsupported sentence becomes a **span** ``{"start", "end", "confidence", "text"}`` in the answer's
   characters (the format of LettuceDetect's span predictions), with ``confidence = 1 - support``.

Edge cases, each noted in the result: an answer with no sentence scores 1.0 (nothing is claimed); with
``"min_claims"``, an answer whose every sentence abstains also scores 1.0.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from ..cores import computed_by
from ..cores import faithfulness_support as core
from ..errors import InputError
from ..results import MetricResult
from ..validate import as_list, choice, number, text
from .support_explained import support_result

__all__ = ["AGGREGATES", "abstains", "support_score", "THRESHOLD"]

#: how the sentences' supports become the answer's score
AGGREGATES = ("min", "mean", "min_claims")

#: a sentence whose support is below this is unsupported (and a span)
THRESHOLD = 0.5

#: a sentence that says the passages (or the text) do not give the answer, rather than claiming anything
ABSTAINS = (r"\b(passages?|context|texts?|information|documents?|sources?)\b[^.]{0,60}\b(do(es)?|did)\s*(not|n['\u2019]t)\s+"
            r"(mention|say|state|provide|contain|include|specify|give|address|answer|discuss|indicate)"
            r"|\bno (information|mention|details?)\b|\bnot (mentioned|provided|stated|specified|given)\b")


def abstains(sentence: str) -> bool:
    """Whether ``sentence`` says the passages do not give something (it claims nothing about the world)."""
    return re.search(ABSTAINS, text("sentence", sentence), flags=re.IGNORECASE) is not None


def support_places(answer: str, offsets: Any) -> list[tuple[int, int]]:
    """``offsets`` checked: (start, end) pairs inside the answer."""
    pairs = as_list("offsets", offsets, "a list of (start, end) character offsets into the answer")
    out = []
    for i, pair in enumerate(pairs):
        if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
                or not 0 <= pair[0] < pair[1] <= len(answer)):
            raise InputError(f"offsets[{i}]", f"(start, end) with 0 <= start < end <= {len(answer)} (the answer's length)",
                             pair)
        out.append((int(pair[0]), int(pair[1])))
    return out


@computed_by("faithfulness_support")
def support_score(answer: str, offsets: Sequence[tuple[int, int]], supports: Sequence[float], *,
                  aggregate: str = "min", threshold: float = THRESHOLD, sources: Sequence[str] | None = None
                  ) -> MetricResult:
    """The answer's support from its sentences' places (``offsets``) and supports (p(yes), each in [0, 1]).

    ``sources``: where each support came from (``"logprobs"``, ``"votes"``, ``"reply"``), shown in the table."""
    answer = text("answer", answer)
    places = support_places(answer, offsets)
    values = as_list("supports", supports, "a list of p(yes), one per sentence")
    if len(values) != len(places):
        raise InputError("supports", f"one p(yes) per sentence ({len(places)})", f"{len(values)} values")
    p = [number(f"supports[{i}]", v, "a probability from 0 to 1", low=0.0, high=1.0) for i, v in enumerate(values)]
    aggregate = choice("aggregate", aggregate, AGGREGATES)
    threshold = number("threshold", threshold, "a number from 0 to 1", low=0.0, high=1.0)
    where = ["" for _ in places] if sources is None else [text(f"sources[{i}]", s)
                                                          for i, s in enumerate(as_list("sources", sources, "a list"))]
    if len(where) != len(places):
        raise InputError("sources", f"one source per sentence ({len(places)})", f"{len(where)} values")

    score, rows, values = core.faithfulness_support(answer, places, p, where, abstains, aggregate, threshold)

    return support_result(score, rows, values, answer, places)
