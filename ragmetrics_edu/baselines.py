"""Word-overlap baselines: what a judge must beat before its verdicts are worth paying for.

No model, no embedding: each text is reduced to its content words (lower-cased, stop words
dropped, plurals lightly stemmed, :func:`ragmetrics_edu.text.tokenize`) and a verdict is
"yes" when enough of an item's words appear in the text it is checked against.

==============================  ======================================  ============================
metric                          item                                    checked against
==============================  ======================================  ============================
context_precision               a node                                  the reference
context_recall                  a reference statement                   each node (the best one)
faithfulness                    an answer claim                         all contexts together
answer_relevancy                an answer statement                     the question
==============================  ======================================  ============================

``coverage(item, text)`` is the share of the item's content words found in ``text``: 1.0 when
all are there, 0.0 when none are, and 0.0 for an item with no content words (nothing to find).
The threshold (0.5 by default) is the one knob; a baseline with a tuned threshold would flatter
itself, so it stays fixed and documented. Answer-level scores (``answer_overlap``) order answers
for pairwise accuracy.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, Sequence

from . import validate
from .errors import InputError
from .metrics.overlap import shared_words
from .metrics.registry import MetricTable
from .text import sentence_spans
from .validate import number, text, text_list

__all__ = ["THRESHOLD", "coverage", "answer_overlap", "cheap_signals", "SIGNALS", "verdicts", "case_verdicts"]

#: the share of an item's content words that must be found for a "yes"
THRESHOLD = 0.5


def coverage(item: str, against: str) -> float:
    """The share of ``item``'s content words that occur in ``against`` (0.0 for an item with none)."""
    words, found = shared_words(text("item", item), text("against", against))
    return len(found) / len(words) if words else 0.0


def answer_overlap(answer: str, contexts: Sequence[str]) -> float:
    """The share of the answer's content words found anywhere in the contexts: a faithfulness stand-in."""
    return coverage(answer, "\n".join(text_list("contexts", contexts)))


#: the cheap signals of :func:`cheap_signals`, each "higher is more faithful" except the two shares missing
SIGNALS = ("word_overlap", "numbers_missing", "names_missing", "lowest_sentence_overlap")

_NUMBER = r"\d+(?:[.,]\d+)*"
_NAME = r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zA-Z]+"


def _share_missing(found: list[str], against: set[str]) -> float:
    items = set(found)
    return sum(x not in against for x in items) / len(items) if items else 0.0


def cheap_signals(answer: str, contexts: Sequence[str]) -> dict[str, float]:
    """Signals that cost no call, for a learned combination (:mod:`ragmetrics_edu.agreement.combine`):

    - ``word_overlap``: :func:`answer_overlap`;
    - ``numbers_missing``: the share of the answer's distinct numbers that no passage contains (0 with none);
    - ``names_missing``: the share of the answer's distinct capitalised words, not opening a sentence (names,
      places), that no passage contains in any case (0 with none);
    - ``lowest_sentence_overlap``: the word overlap of the answer's least covered sentence (1.0 with no sentence).
    """
    answer = text("answer", answer)
    joined = "\n".join(text_list("contexts", contexts))
    numbers = set(re.findall(_NUMBER, joined))
    names = {w.lower() for w in re.findall(r"[A-Za-z]+", joined)}
    sentences = [answer[a:b] for a, b in sentence_spans(answer)]
    return {
        "word_overlap": coverage(answer, joined),
        "numbers_missing": _share_missing(re.findall(_NUMBER, answer), numbers),
        "names_missing": _share_missing([w.lower() for w in re.findall(_NAME, answer, flags=re.MULTILINE)], names),
        "lowest_sentence_overlap": min((coverage(s, joined) for s in sentences), default=1.0),
    }


def _threshold(value: Any) -> float:
    return number("threshold", value, "a number between 0 and 1", low=0.0, high=1.0)


def verdicts(metric: str, items: Sequence[str], *, question: str = "", contexts: Sequence[str] = (),
             reference: str = "", threshold: float = THRESHOLD) -> list[Any]:
    """The baseline's verdict for each item, in the labelled set's vocabulary.

    context_precision: "yes"/"no" per node (node vs reference); context_recall: the 1-based
    node that covers the statement best, or None; faithfulness: "supported" or "not_mentioned"
    (word overlap cannot see a contradiction, so it never says "contradicted");
    answer_relevancy: "relevant"/"not_relevant" (statement vs question).
    """
    cut = _threshold(threshold)
    metric = validate.identifier("metric", metric, "context_precision, context_recall, faithfulness or answer_relevancy")
    items = text_list("items", items)
    question, reference = text("question", question), text("reference", reference)
    contexts = text_list("contexts", contexts)
    if metric not in _VERDICTS:
        raise InputError("metric", "context_precision, context_recall, faithfulness or answer_relevancy", metric)
    return _VERDICTS[metric](items, question=question, contexts=contexts, reference=reference, cut=cut)


def _node_verdicts(nodes: list[str], *, reference: str, cut: float, **_: Any) -> list[Any]:
    return ["yes" if coverage(node, reference) >= cut else "no" for node in nodes]


def _attributions(statements: list[str], *, contexts: list[str], cut: float, **_: Any) -> list[Any]:
    out: list[Any] = []
    for statement in statements:
        scores = [coverage(statement, node) for node in contexts]
        best = max(range(len(scores)), key=lambda i: (scores[i], -i)) if scores else None
        out.append(best + 1 if best is not None and scores[best] >= cut else None)
    return out


def _claim_verdicts(claims: list[str], *, contexts: list[str], cut: float, **_: Any) -> list[Any]:
    joined = "\n".join(contexts)
    return ["supported" if coverage(claim, joined) >= cut else "not_mentioned" for claim in claims]


def _relevance_verdicts(statements: list[str], *, question: str, cut: float, **_: Any) -> list[Any]:
    return ["relevant" if coverage(s, question) >= cut else "not_relevant" for s in statements]


#: The baseline's rule per labelled metric: which text each item is compared with, and the words of its verdict.
_VERDICTS: MetricTable[Callable[..., list[Any]]] = MetricTable("the word-overlap baselines' rules", {
    "context_precision": _node_verdicts, "context_recall": _attributions, "faithfulness": _claim_verdicts,
    "answer_relevancy": _relevance_verdicts})


def case_verdicts(case: Any, metric: str, threshold: float = THRESHOLD) -> list[Any]:
    """:func:`verdicts` on a labelled case's own items (``ragmetrics_edu.studies.judge_study.cases.Case``)."""
    if isinstance(case, Mapping) or not all(hasattr(case, a) for a in ("items", "question", "contexts", "reference")):
        raise InputError("case", "a labelled case (studies.judge_study.cases.parse_cases())", case)
    validate.identifier("metric", metric, "context_precision, context_recall, faithfulness or answer_relevancy")
    return verdicts(metric, list(case.items(metric)), question=case.question, contexts=list(case.contexts),
                    reference=case.reference, threshold=threshold)
