"""Text into words: the one tokeniser, its stop words, and the normal forms texts are compared in.

- :func:`words` - lower-cased runs of letters and digits (``weight-bearing`` gives two words,
  ``5,500`` gives ``5`` and ``500``); the hashing embedder counts these;
- :func:`tokenize` - the content words BM25, the word-overlap baselines, item matching and the
  judges' word checks count: :func:`words` without a possessive ``'s`` and the
  :data:`STOP_WORDS`, each plural lightly stemmed (:func:`light_stem`);
- :func:`normalize_text` - a text with case and punctuation dropped and spaces collapsed, for "is this
  quote in that passage?";
- :func:`normalize_entity` - an entity case-folded, accent-free and single-spaced, for
  context entity recall's ``normalize=True``;
- :func:`sentence_spans` - where each sentence of a text starts and ends, in its characters (the
  per-sentence support design asks about each one and reports unsupported ones as spans).

Pure Python: nothing here imports numpy or pandas.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .validate import flag
from .validate import text as checked_text

__all__ = ["EMBEDDING_STOP_WORDS", "STOP_WORDS", "light_stem", "normalize_entity", "normalize_text", "sentence_spans",
           "squash_spaces", "tokenize", "words"]

#: The patterns, compiled on first use (``re`` caches them), so importing the metrics costs no compiling.
WORD = r"[^\W_]+"
POSSESSIVE = r"['\u2019]s\b"
NOT_A_WORD = r"[^\w]+"
SPACE = r"\s+"

#: Function words dropped by :func:`tokenize` (they match almost every passage).
STOP_WORDS = frozenset(
    "a an and are as at be been but by can could do does did for from had has have how i in into is it its "
    "of on or so than that the their them then there these they this those to was were what when where "
    "which who whom why will with would you your".split()
)

#: The shorter list the hashing embedder drops (kept as it was, so its vectors do not change).
EMBEDDING_STOP_WORDS = frozenset(
    "a an the is are was were be been of in on at to for and or it its it's this that with as by "
    "what which who whom how".split()
)


def words(text: str) -> list[str]:
    """The lower-cased runs of letters and digits of ``text``."""
    return re.findall(WORD, checked_text("text", text).lower())


def light_stem(word: str) -> str:
    """Strip a plural ending: ``-ies`` -> ``-y``, else a final ``-s`` (not ``-ss``, ``-us``, ``-is``).

    Deliberately crude (``planets`` -> ``planet``, ``bodies`` -> ``body``) so every step
    can be checked by eye; words of three letters or fewer are left alone."""
    return _stem(checked_text("word", word))


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str, *, stem: bool = True) -> list[str]:
    """The words BM25 counts: lower-cased, split on anything but letters and digits.

    Steps: lower-case; drop a possessive ``'s``; take runs of letters/digits (so
    ``weight-bearing`` gives two words and ``5,500`` gives ``5`` and ``500``); drop the
    :data:`STOP_WORDS`; then, with ``stem=True``, apply :func:`light_stem`."""
    return list(_tokens(checked_text("text", text), flag("stem", stem)))


@lru_cache(maxsize=8192)
def _tokens(text: str, stem: bool) -> tuple[str, ...]:
    """:func:`tokenize`'s words, kept for texts met again (a passage is scored against many answers)."""
    found = [w for w in words(re.sub(POSSESSIVE, "", text.lower())) if w not in STOP_WORDS]
    return tuple(_stem(w) for w in found) if stem else tuple(found)


def normalize_text(text: str) -> str:
    """``text`` lower-cased, every run of punctuation made a space, spaces collapsed."""
    return squash_spaces(re.sub(NOT_A_WORD, " ", checked_text("text", text).lower()))


def squash_spaces(text: str, *, lower: bool = False) -> str:
    """``text`` with every run of white space made one space, trimmed; with ``lower`` also lower-cased and
    its curly apostrophes made straight (to match what someone typed against a fixed list)."""
    text, lower = checked_text("text", text), flag("lower", lower)
    if lower:
        text = text.lower().replace("\u2019", "'")
    return " ".join(text.split())


def normalize_entity(entity: str) -> str:
    """Case-folded, accent-free, single-spaced form of an entity."""
    decomposed = unicodedata.normalize("NFKD", checked_text("entity", entity))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(SPACE, " ", bare).strip().casefold()


#: A sentence ends at . ! or ? (then any closing quote or bracket) followed by white space, or at a line break.
SENTENCE_END = r"(?<=[.!?])(?P<close>[\"')\]\u201d\u2019]*)\s+|\n+"

#: Words that end in a full stop without ending a sentence.
ABBREVIATIONS = frozenset("e.g i.e etc vs mr mrs ms dr st no jr sr approx fig u.s u.k a.m p.m inc ltd co".split())


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``: ``text[start:end]`` is the sentence, trimmed.

    A sentence ends at ``.``, ``!`` or ``?`` followed by white space, or at a line break; a full stop after
    a known abbreviation (:data:`ABBREVIATIONS`), a single letter or a list item's number ("2.") does not end one.
    An empty or all-space text has no sentences."""
    text = checked_text("text", text)
    spans: list[tuple[int, int]] = []
    start = 0
    for match in re.finditer(SENTENCE_END, text):
        end = match.start() + len(match.group("close") or "")
        piece = text[start:end]
        bare = piece.rstrip(".!?\"')]\u201d\u2019")
        last = bare.rsplit(None, 1)[-1].lower() if bare.strip() else ""
        numbered = last.isdigit() and piece.strip().rstrip(".") == last  # "2." opening a list item
        if "\n" not in match.group() and (last in ABBREVIATIONS or len(last) == 1 or numbered):
            continue
        spans.append((start, end))
        start = match.end()
    spans.append((start, len(text)))
    out = []
    for a, b in spans:
        piece = text[a:b]
        if piece.strip():
            a += len(piece) - len(piece.lstrip())
            b -= len(piece) - len(piece.rstrip())
            out.append((a, b))
    return out
