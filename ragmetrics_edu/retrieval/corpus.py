"""The retrieval lab's corpus: passages, questions with graded judgements, and their loading.

:func:`load_corpus` reads ``data/retrieval_corpus.json`` (66 passages written by the project, 54
questions with qrels: grade 2 answers the question, 1 is partly relevant, not listed is 0, and the
passages judged for each question by pooling). Kept apart from :mod:`ragmetrics_edu.retrieval`
(the retrievers and their evaluation) so each module holds one thing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import data, validate
from ..errors import InputError
from ..validate import as_list, text

#: The shipped corpus (``ragmetrics_edu/data/retrieval_corpus.json``).
CORPUS_PATH = data.root() / "retrieval_corpus.json"


@dataclass(frozen=True)
class Passage:
    """One passage of the corpus."""

    id: str
    text: str
    topic: str = ""


@dataclass(frozen=True)
class Question:
    """A query with its relevance judgements: ``qrels`` maps passage id to grade (1 or 2).

    A passage not in ``qrels`` has grade 0. ``judged`` lists the passages someone read for
    this question (None: not recorded); ``kind`` says how the question relates to its
    answer's words (``lexical``, ``synonym``, ``paraphrase``, ``none`` = no answer in the corpus)."""

    id: str
    text: str
    qrels: dict[str, int]
    note: str = ""
    kind: str = ""
    judged: tuple[str, ...] | None = None

    def grade(self, passage_id: str) -> int:
        """The grade of a passage for this question (0 where the qrels do not list it)."""
        return self.qrels.get(text("passage_id", passage_id), 0)

    @property
    def relevant_ids(self) -> list[str]:
        """Passages with grade >= 1, best grade first."""
        return sorted((p for p, g in self.qrels.items() if g >= 1), key=lambda p: -self.qrels[p])

    @property
    def total_relevant(self) -> int:
        """How many passages of the corpus are relevant (grade >= 1)."""
        return sum(1 for g in self.qrels.values() if g >= 1)

    @property
    def ideal_gains(self) -> list[int]:
        """Every relevance grade in the qrels, highest first (the ideal ranking for nDCG)."""
        return sorted((g for g in self.qrels.values() if g >= 1), reverse=True)


@dataclass
class Corpus:
    """Passages, questions and the note on where they come from."""

    passages: list[Passage]
    questions: list[Question]
    about: str = ""
    pooling: dict[str, Any] = field(default_factory=dict)
    _by_id: dict[str, Passage] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.passages = _items("passages", self.passages, Passage)
        self.questions = _items("questions", self.questions, Question)
        if not isinstance(self.about, str):
            raise InputError("about", "a string", self.about)
        if not isinstance(self.pooling, dict):
            raise InputError("pooling", "a dict describing how the judged passages were chosen", self.pooling)
        self._by_id = {p.id: p for p in self.passages}

    def passage(self, passage_id: str) -> Passage:
        if not isinstance(passage_id, str) or passage_id not in self._by_id:
            raise InputError("passage_id", "the id of a passage of the corpus", passage_id)
        return self._by_id[passage_id]

    def question(self, question_id: str) -> Question:
        validate.identifier("question_id", question_id, "one of " + ", ".join(q.id for q in self.questions))
        for q in self.questions:
            if q.id == question_id:
                return q
        raise InputError("question_id", "one of " + ", ".join(q.id for q in self.questions), question_id)

    def text(self, passage_id: str) -> str:
        return self.passage(passage_id).text

    def unjudged(self, question: Question) -> list[str]:
        """Passages never read for ``question`` (they count as grade 0); [] when ``judged`` is not recorded."""
        if not isinstance(question, Question):
            raise InputError("question", "a Question of the corpus", question)
        if question.judged is None:
            return []
        seen = set(question.judged)
        return [p.id for p in self.passages if p.id not in seen]


def load_corpus(path: str | Path | None = None) -> Corpus:
    """Read the corpus (the packaged one by default) and check it.

    Every passage needs a unique ``id`` and a ``text``; every question an ``id``, a
    ``text`` and ``qrels`` whose ids exist and whose grades are 1 or 2. Optional: a question's
    ``judged`` (ids of the corpus, including every id of its qrels), ``kind`` and ``note``; the
    corpus's ``about`` and ``pooling`` (how the judged sets were built)."""
    source = validate.path("path", path, expected="the path of a corpus JSON file") if path is not None else CORPUS_PATH
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError("path", "a corpus JSON file", str(source), hint=f"it is not JSON text ({exc})") from None
    except OSError as exc:
        raise InputError("path", "a corpus JSON file", str(source), hint=exc.strerror or str(exc)) from None
    return corpus_from_dict(raw)


def corpus_from_dict(raw: Any) -> Corpus:
    """Build and check a :class:`Corpus` from a dict shaped like the JSON file."""
    if not isinstance(raw, dict):
        raise InputError("corpus", "a dict with 'passages' and 'questions'", raw)
    items = raw.get("passages")
    if not isinstance(items, list) or not items:
        raise InputError("passages", "a non-empty list of {id, text} dicts", items)
    passages: list[Passage] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        pid, text = _id_text(f"passages[{i}]", item)
        if pid in seen:
            raise InputError(f"passages[{i}].id", "an id not used by another passage", pid)
        seen.add(pid)
        passages.append(Passage(pid, text, str(item.get("topic", ""))))
    items = raw.get("questions")
    if not isinstance(items, list):
        raise InputError("questions", "a list of {id, text, qrels} dicts", items)
    questions = []
    for i, item in enumerate(items):
        qid, text = _id_text(f"questions[{i}]", item)
        qrels = item.get("qrels")
        if not isinstance(qrels, dict):
            raise InputError(f"questions[{i}].qrels", "a dict passage id -> grade (1 or 2)", qrels)
        for pid, grade in qrels.items():
            if pid not in seen:
                raise InputError(f"questions[{i}].qrels[{pid!r}]", "the id of a passage of the corpus", pid)
            if isinstance(grade, bool) or grade not in (1, 2):
                raise InputError(f"questions[{i}].qrels[{pid!r}]", "grade 1 (partly relevant) or 2 (answers it)", grade)
        judged = _judged(f"questions[{i}].judged", item.get("judged"), seen, qrels)
        questions.append(Question(qid, text, dict(qrels), str(item.get("note", "")), str(item.get("kind", "")), judged))
    pooling = raw.get("pooling", {})
    if not isinstance(pooling, dict):
        raise InputError("pooling", "a dict describing how the judged passages were chosen", pooling)
    return Corpus(passages, questions, str(raw.get("about", "")), dict(pooling))


def _judged(where: str, judged: Any, ids: set[str], qrels: dict[str, int]) -> tuple[str, ...] | None:
    """The ids judged for a question: absent is None; else distinct ids of the corpus covering the qrels."""
    if judged is None:
        return None
    if isinstance(judged, (str, bytes)) or not isinstance(judged, list) or len(set(judged)) != len(judged):
        raise InputError(where, "a list of distinct passage ids", judged)
    unknown = [p for p in judged if p not in ids]
    if unknown:
        raise InputError(where, "ids of passages of the corpus", unknown)
    missing = [p for p in qrels if p not in judged]
    if missing:
        raise InputError(where, "every passage graded in the question's qrels (a grade needs a judgement)", missing)
    return tuple(judged)


def _id_text(where: str, item: Any) -> tuple[str, str]:
    if not isinstance(item, dict):
        raise InputError(where, "a dict with 'id' and 'text'", item)
    pid, text = item.get("id"), item.get("text")
    if not isinstance(pid, str) or not pid:
        raise InputError(f"{where}.id", "a non-empty string", pid)
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{where}.text", "a non-empty string", text)
    return pid, text


def _items(field: str, value: Any, kind: type) -> list[Any]:
    items = as_list(field, value, f"a list of {kind.__name__}")
    for i, item in enumerate(items):
        if not isinstance(item, kind):
            raise InputError(f"{field}[{i}]", f"a {kind.__name__}", item)
    return items


def passage_list(field_name: str, passages: Any) -> list[Passage]:
    """Accept a Corpus, a list of Passage, or a list of (id, text) pairs (None: the packaged corpus)."""
    if passages is None:
        passages = load_corpus()
    if isinstance(passages, Corpus):
        return list(passages.passages)
    expected = "a Corpus or a non-empty list of Passage (or (id, text) pairs)"
    passages = as_list(field_name, passages, expected)
    if not passages:
        raise InputError(field_name, expected, passages)
    out, seen = [], set()
    for i, p in enumerate(passages):
        if isinstance(p, Passage):
            item = p
        elif isinstance(p, (tuple, list)) and len(p) == 2 and all(isinstance(x, str) for x in p):
            item = Passage(p[0], p[1])
        else:
            raise InputError(f"{field_name}[{i}]", "a Passage or an (id, text) pair of strings", p)
        if item.id in seen:
            raise InputError(f"{field_name}[{i}]", "a passage whose id is not used twice", item.id)
        seen.add(item.id)
        out.append(item)
    return out
