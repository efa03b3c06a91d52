"""Few-shot examples from people's labels, chosen so that no answer ever sees its own labels.

An example is one sentence people checked, with their verdict and the passage line it rests on: short, so it
costs few prompt tokens on every request. :func:`labelled_sentences` cuts labelled answers into such examples
(a sentence is "no" when it overlaps a span people marked, "yes" otherwise); :func:`pick_examples` chooses k of
them for one source: the nearest by word overlap with the source's question and passages, half "no" and half
"yes", from the pool's ``dev`` part only and never from the source itself. So a dev answer's examples come from
other dev sources and a test answer's from dev alone: no test row can enter a prompt. The choice depends on the
source, not the answer, so all of a source's requests keep one shared opening.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..baselines import coverage
from ..errors import InputError
from ..text import sentence_spans, tokenize
from ..validate import as_list, instance, integer, text, text_list

__all__ = ["Labelled", "labelled_sentences", "pick_examples", "example_text", "POOL_SPLIT", "MAX_WORDS"]

#: the only part of a labelled pool examples are drawn from
POOL_SPLIT = "dev"

#: a longer sentence or passage line is not used as an example (it would cost too many tokens per request)
MAX_WORDS = 45


@dataclass(frozen=True)
class Labelled:
    """One sentence people checked: its verdict ("yes": supported, "no": marked), the passage line it rests on."""

    group: str
    split: str
    topic: str       # the question and passages it was checked against (what nearness is measured on)
    sentence: str
    verdict: str
    evidence: str


def example_text(example: Labelled) -> str:
    """How an example is shown in a prompt (inside a data block)."""
    example = instance("example", example, Labelled, "a Labelled example (from labelled_sentences)")
    return f"Passage line: {example.evidence}\nSentence: {example.sentence}\nPeople's verdict: {example.verdict}"


def _evidence(sentence: str, passages: Sequence[str]) -> str:
    lines = [p[a:b] for p in passages for a, b in sentence_spans(p)]
    return max(lines, key=lambda line: coverage(sentence, line), default="")


def labelled_sentences(answer: str, spans: Any, passages: Sequence[str], *, question: str, group: str,
                       split: str) -> list[Labelled]:
    """The sentences of one labelled answer as examples (``spans``: people's (start, end) pairs)."""
    answer, question, group, split = (text(n, v) for n, v in
                                      (("answer", answer), ("question", question), ("group", group), ("split", split)))
    passages = text_list("passages", passages)
    marked: set[int] = set()
    for i, span in enumerate(as_list("spans", spans, "a list of (start, end) pairs")):
        if not isinstance(span, (tuple, list)) or len(span) != 2 or not all(isinstance(v, int) for v in span):
            raise InputError(f"spans[{i}]", "a (start, end) pair of whole numbers", span)
        marked.update(range(span[0], span[1]))
    topic = question + "\n" + "\n".join(passages)
    out = []
    for a, b in sentence_spans(answer):
        sentence = answer[a:b]
        evidence = _evidence(sentence, passages)
        if len(sentence.split()) > MAX_WORDS or not evidence or len(evidence.split()) > MAX_WORDS:
            continue
        verdict = "no" if marked & set(range(a, b)) else "yes"
        out.append(Labelled(group, split, topic, sentence, verdict, evidence))
    return out


def _distinct(ranked: list[Labelled], n: int) -> list[Labelled]:
    """The first ``n`` of ``ranked``, skipping a sentence that mostly repeats one already taken."""
    out: list[Labelled] = []
    for e in ranked:
        if len(out) == n:
            break
        if all(coverage(e.sentence, o.sentence) < 0.8 for o in out):
            out.append(e)
    return out


def pick_examples(pool: Sequence[Labelled], *, question: str, context: Sequence[str], group: str,
                  k: int = 4) -> list[Labelled]:
    """k examples for one source: the nearest "no" and "yes" sentences of the pool's dev part, from other sources.

    Nearness: the share of the example's topic words (its question and passages) found in this source's."""
    k = integer("k", k, low=0, high=20, expected="a whole number of examples from 0 to 20")
    items = as_list("pool", pool, "a list of Labelled examples")
    if not all(isinstance(e, Labelled) for e in items):
        raise InputError("pool", "a list of Labelled examples (from labelled_sentences)", pool)
    here = text("question", question) + "\n" + "\n".join(text_list("context", context))
    group = text("group", group)
    allowed = [e for e in items if e.split == POOL_SPLIT and e.group != group]
    words = set(tokenize(here))

    def near(e: Labelled) -> float:
        theirs = set(tokenize(e.topic))
        return len(words & theirs) / len(theirs) if theirs else 0.0

    ranked = sorted(allowed, key=lambda e: (-near(e), e.group, e.sentence))
    no = _distinct([e for e in ranked if e.verdict == "no"], (k + 1) // 2)
    yes = _distinct([e for e in ranked if e.verdict == "yes"], k - len(no))
    picked = no + yes
    picked.sort(key=lambda e: (-near(e), e.verdict))
    return picked
