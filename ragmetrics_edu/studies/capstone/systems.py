"""The capstone's small RAG system (lesson 16): retrieve from the lab's corpus, answer, score.

Two systems differ in one component, the retriever: BM25 or the recorded MiniLM embeddings,
each passing its top :data:`K` passages to the same generator (a local chat model, prompt in
``judges/prompts/generate_answer.txt``). Given a judge, :func:`answer_rows` answers the questions and
:func:`score_rows` judges the answers; the course replays both from the recordings of a real model
(``course.capstone.systems.answers`` and ``scored``), so the notebook runs offline.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any, Mapping, Sequence

from ... import data, designs
from ...designs.schemas import GeneratedAnswer
from ...embeddings.recorded import RecordedEmbedder
from ...errors import InputError
from ...judges import prompting
from ...judges.base import Request
from ...judges.batch import run_tasks
from ...judges.errors import JudgeError
from ...judges.prompting import Texts
from ...judges.records import CallList
from ...judges.requests import ask, check_judge
from ...judges.schemas import schema_of
from ...retrieval.corpus import load_corpus
from ...retrieval.retrievers import BM25Retriever, EmbeddingRetriever
from ...validate import records, text, text_list

__all__ = ["K", "QUESTIONS", "SYSTEMS", "retrievers", "generate", "answer_rows", "score_rows", "references"]

K = 3
#: the capstone's eight questions: six where the two retrievers' top 3 differ in quality, one where
#: both do well, one with no answer in the corpus (sized for the recording budget: 15-50 s a call on
#: 2 shared cores)
QUESTIONS = ("q01", "q05", "q08", "q09", "q22", "q25", "q34", "q51")
SYSTEMS = ("bm25", "minilm")


def retrievers() -> dict[str, Any]:
    """The two systems' retrievers over the packaged corpus (MiniLM from its recorded embeddings)."""
    corpus = load_corpus()
    return {"bm25": BM25Retriever(corpus), "minilm": EmbeddingRetriever(corpus, RecordedEmbedder(), min_score=None)}


def references() -> dict[str, dict[str, Any]]:
    """The project's reference answers for the capstone questions (``data/capstone_references.json``)."""
    with open(data.path("capstone_references.json"), encoding="utf-8") as handle:
        doc = json.load(handle)
    return dict(doc["questions"])


def generate(judge: Any, question: str, passages: Sequence[str]) -> tuple[str, Any]:
    """The generator's answer to ``question`` from ``passages`` (one call), and its call records."""

    judge, question, passages = check_judge(judge), text("question", question), text_list("passages", passages)
    request = Request(step="generate.answer",
                      messages=prompting.messages("generate_answer",
                                                  {"question": question, "passages": Texts("passage", list(passages),
                                                                                           "(no passages)")},
                                                  {}, system="generate_system"),
                      model=GeneratedAnswer, schema=schema_of(GeneratedAnswer), expected='a JSON object {"answer": "..."}')
    calls = CallList()
    reply = ask(judge, request, calls)
    return reply.data["answer"], calls


def answer_rows(judge: Any, questions: Sequence[str] = QUESTIONS) -> list[dict[str, Any]]:
    """For each question and system: the retrieved passage ids and texts and the generated answer."""
    judge, questions = check_judge(judge), text_list("questions", questions)
    corpus = load_corpus()
    by_id = {q.id: q for q in corpus.questions}
    texts = {p.id: p.text for p in corpus.passages}
    unknown = [q for q in questions if q not in by_id]
    if unknown:
        raise InputError("questions", "question ids of the lab corpus", unknown[0])
    rows = []
    for name, retriever in retrievers().items():
        for qid in questions:
            q = by_id[qid]
            hits = [pid for pid, _ in retriever.search(q.text, k=K)]
            answer, _ = generate(judge, q.text, [texts[p] for p in hits])
            rows.append({"question": qid, "text": q.text, "kind": q.kind, "system": name, "passages": hits,
                         "grades": [q.grade(p) for p in hits], "contexts": [texts[p] for p in hits], "answer": answer})
    return rows


def score_rows(judge: Any, rows: Sequence[dict[str, Any]],
               refs: Mapping[str, Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Judge each answered row with every metric the course teaches: faithfulness (Ragas' rule; the judge
    extracts the claims) and answer relevancy (the judge extracts the statements) on every row, and,
    where the question has a reference in ``refs`` (question id -> ``{"reference": ...}``; None: the
    capstone's, :func:`references`), context precision and context recall. A judge error is kept, not hidden."""
    judge = check_judge(judge)
    rows = records("rows", rows, "answered rows (answer_rows())", keys=("question", "text", "answer", "contexts"))
    refs = references() if refs is None else refs
    if not isinstance(refs, Mapping):
        raise InputError("refs", "a dict question id -> {'reference': ...}, or None", refs)
    jobs: list[tuple[int, str, Any]] = []
    for i, row in enumerate(rows):
        ref = refs.get(row["question"], {}).get("reference")
        jobs.append((i, "faithfulness", partial(designs.faithfulness, judge, row["answer"], row["contexts"],
                                                question=row["text"], variant="ragas")))
        if ref:
            jobs.append((i, "context_precision", partial(designs.context_precision, judge, row["text"],
                                                         row["contexts"], ref)))
            jobs.append((i, "context_recall", partial(designs.context_recall, judge, ref, row["contexts"],
                                                      question=row["text"])))
        jobs.append((i, "answer_relevancy", partial(designs.answer_relevancy, judge, row["text"], row["answer"])))
    outcomes = run_tasks([task for _, _, task in jobs], judge, max_concurrency=1, keep=(JudgeError,))
    out = [dict(row, scores={}, verdicts={}, items={}, errors={}) for row in rows]
    for (i, metric, _), outcome in zip(jobs, outcomes, strict=True):
        scored_row = out[i]
        if not outcome.ok:
            scored_row["errors"][metric] = str(outcome.error)
            continue
        result = outcome.result
        scored_row["scores"][metric] = result.score
        scored_row["verdicts"][metric] = list(result.inputs.get("verdicts", []))
        items = result.inputs.get("claims") or result.inputs.get("statements")
        if items is not None:
            scored_row["items"][metric] = list(items)
    return out
