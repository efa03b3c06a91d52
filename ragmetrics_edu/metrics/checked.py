"""The arithmetic of the checked faithfulness pipeline: the judge's verdicts in hand, the score (no call).

The design (:mod:`ragmetrics_edu.designs.faithfulness_checked` makes its requests) asks a judge for claims and for a
verdict per claim; everything that follows from the words and the verdicts is here:

1. ``invented``: with claims written from the question and the answer, a claim whose content words
   are mostly (over a quarter, :data:`INVENTED_BELOW`) absent from them is dropped
   (:func:`drop_invented`), before any verdict is asked;
2. ``quote_found``: a quoted verdict's quote is looked for in the context (case and punctuation
   ignored); with ``quotes_checked`` a "supported" verdict whose quote is not found is downgraded to
   "not_mentioned" (:func:`checked_rows`);
3. a "not_supported" verdict (contradiction asked apart) is "not_mentioned" until the separate
   contradiction question says "yes" for it, which makes it "contradicted"; that question is asked
   only for the claims still open (:func:`still_open`);
4. the final verdicts map to the library's words (:data:`TO_LIBRARY`: supported → yes, contradicted →
   no, not_mentioned → idk) and are scored by :func:`ragmetrics_edu.metrics.faithfulness` (``variant``
   ``"ragas"`` or ``"deepeval"``), so the edge cases are that function's: no claims scores NaN under
   Ragas and 1 under DeepEval.

:func:`score_checked` does all of it and returns the :class:`~ragmetrics_edu.results.MetricResult`, one
row per claim in ``values["checked"]`` (what the judge said, its quote, whether the quote was found,
the final verdict and why it changed) and a line per dropped claim and per claim in the narrative.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cores import computed_by
from ..errors import InputError
from ..results import MetricResult
from ..text import normalize_text, tokenize
from ..validate import flag, text, text_list
from .statements import faithfulness

__all__ = ["TO_LIBRARY", "FROM_LIBRARY", "SAID", "INVENTED_BELOW", "quote_found", "invented", "drop_invented",
           "checked_rows", "still_open", "row_line", "score_checked"]

#: the three-way words and the library's yes/no/idk
TO_LIBRARY = {"supported": "yes", "contradicted": "no", "not_mentioned": "idk"}

#: the library's yes/no/idk and the three-way words (a yes/no/idk judge's verdicts, read three-way)
FROM_LIBRARY = {library: three for three, library in TO_LIBRARY.items()}

#: what a judge may say of a claim: the three-way words, and "not_supported" (contradiction asked apart)
SAID = ("supported", "contradicted", "not_mentioned", "not_supported")

#: share of a claim's content words that must come from the question or the answer
INVENTED_BELOW = 0.75


def quote_found(quote: str, context: Sequence[str]) -> bool:
    """Is ``quote`` in the context? Case and punctuation are ignored; an empty quote is never found."""
    wanted = normalize_text(quote)
    return bool(wanted) and any(wanted in normalize_text(node) for node in context)


def invented(claim: str, source: str) -> bool:
    """A claim whose content words are mostly (over a quarter) absent from ``source`` (question + answer)."""
    words = set(tokenize(claim))
    if not words:
        return False
    return len(words & set(tokenize(source))) / len(words) < INVENTED_BELOW


def drop_invented(claims: Sequence[str], question: str, answer: str) -> tuple[list[str], list[str]]:
    """``(kept, dropped)``: the claims written from ``question`` and ``answer``, the invented ones set apart."""
    source = f"{text('question', question)}\n{text('answer', answer)}"
    found = text_list("claims", claims)
    dropped = [c for c in found if invented(c, source)]
    return [c for c in found if c not in dropped], dropped


def _said_list(said: Sequence[str]) -> list[str]:
    said = text_list("said", said)
    for i, word in enumerate(said):
        if word not in SAID:
            raise InputError(f"said[{i}]", " or ".join(repr(w) for w in SAID), word)
    return said


def checked_rows(said: Sequence[str], quotes: Sequence[str] | None, context: Sequence[str], *,
                 quotes_checked: bool = False) -> list[dict[str, Any]]:
    """One row per claim before any separate contradiction question: what the judge ``said``, its quote,
    whether the quote is in the context, the final verdict so far and why it changed.

    ``quotes=None``: the verdicts came without quotes (yes/no/idk read three-way), so nothing is
    checked. With quotes, a blank one is not looked for (``quote_found`` None) and, with
    ``quotes_checked``, a "supported" verdict whose quote is not found becomes "not_mentioned"."""
    said = _said_list(said)
    context = text_list("context", context)
    quotes_checked = flag("quotes_checked", quotes_checked)
    if quotes is None:
        return [{"said": s, "quote": "", "quote_found": None, "final": s, "why": ""} for s in said]
    quotes = text_list("quotes", quotes)
    if len(quotes) != len(said):
        raise InputError("quotes", f"one quote per verdict ({len(said)})", quotes)
    rows = []
    for s, quote in zip(said, quotes, strict=True):
        row = {"said": s, "quote": quote, "quote_found": quote_found(quote, context) if quote.strip() else None,
               "final": "not_mentioned" if s == "not_supported" else s, "why": ""}
        if s == "not_supported":
            row["why"] = "not supported; contradiction asked apart"
        if quotes_checked and s == "supported" and not row["quote_found"]:
            row["final"], row["why"] = "not_mentioned", "its quote is not in the context"
        rows.append(row)
    return rows


def still_open(rows: Sequence[dict[str, Any]]) -> list[int]:
    """The positions (0-based) of the rows whose final verdict is not "supported": the claims the separate
    contradiction question is asked about, in this order."""
    return [i for i, row in enumerate(rows) if row["final"] != "supported"]


def row_line(i: int, row: dict[str, Any]) -> str:
    """The narrative line of claim ``i`` (1-based): what the judge said, its quote, and any change."""
    line = f"claim_{i}: the judge said {row['said']}"
    if row.get("quote"):
        line += f", quoting {row['quote']!r} ({'found' if row['quote_found'] else 'NOT found'} in the context)"
    if row["final"] != row["said"]:
        line += f" -> {row['final']} ({row['why']})"
    return line + "."


@computed_by("faithfulness")
def score_checked(claims: Sequence[str], said: Sequence[str], context: Sequence[str], *,
                  quotes: Sequence[str] | None = None, quotes_checked: bool = False,
                  contradicted: Sequence[str] | None = None, dropped: Sequence[str] = (), variant: str = "ragas",
                  threshold: float | None = None) -> MetricResult:
    """The score of the checked pipeline from verdicts already in hand (no call; see the module).

    ``said``: the judge's verdict per claim (:data:`SAID`); ``quotes``: its quote per claim (None when the
    verdicts came without quotes); ``contradicted``: the separate contradiction question's "yes"/"no" for
    each claim :func:`still_open` leaves, in that order (None when contradiction was not asked apart);
    ``dropped``: the claims :func:`drop_invented` set aside (noted in the narrative). The verdicts are
    scored by :func:`ragmetrics_edu.metrics.faithfulness` with ``variant`` and ``threshold``."""
    items = text_list("claims", claims)
    rows = checked_rows(said, quotes, context, quotes_checked=quotes_checked)
    if len(rows) != len(items):
        raise InputError("said", f"one verdict per claim ({len(items)})", list(said))
    if contradicted is not None:
        answers = text_list("contradicted", contradicted)
        open_ = still_open(rows)
        if len(answers) != len(open_) or any(a not in ("yes", "no") for a in answers):
            raise InputError("contradicted", f"'yes' or 'no' for each claim still open ({len(open_)})", answers)
        for i, answer in zip(open_, answers, strict=True):
            if answer == "yes":
                rows[i]["final"] = "contradicted"
                rows[i]["why"] = "the separate contradiction question said yes"
    notes = [f"Dropped as invented (under {INVENTED_BELOW:.0%} of its content words are in the question "
             f"or the answer): {c!r}" for c in text_list("dropped", dropped)]
    result = faithfulness(items, [TO_LIBRARY.get(r["final"], r["final"]) for r in rows], variant,
                          context=context, threshold=threshold)
    result.values["checked"] = rows
    result.narrative.extend(notes + [row_line(i, r) for i, r in enumerate(rows, start=1)])
    return result
