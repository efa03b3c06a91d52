"""The capstone's small RAG system (notebook 13): retrieve from the lab's corpus, answer, score.

Two systems differ in one component, the retriever: BM25 or the recorded MiniLM embeddings,
each passing its top :data:`K` passages to the same generator (a local chat model, prompt in
``judges/prompts/generate_answer.txt``). The answers and the judge's verdicts were recorded
from a real model (``data/recordings/judge_study/qwen_capstone_*.json``); :func:`answers` and
:func:`scored` replay them, so the notebook runs offline and recomputes every score.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Sequence

from .. import data, judges
from ..embeddings.recorded import RecordedEmbedder
from ..errors import InputError
from ..judges import prompting
from ..judges.base import Request
from ..judges.errors import JudgeError
from ..judges.prompting import Texts
from ..judges.replay import ReplayJudge
from ..retrieval.corpus import load_corpus
from ..retrieval.retrievers import BM25Retriever, EmbeddingRetriever

__all__ = ["K", "QUESTIONS", "SYSTEMS", "retrievers", "generate", "answer_rows", "score_rows", "references",
           "answers", "scored"]

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
    # lazy: schemas import pydantic, loaded with the first request
    from ..judges.schemas import GeneratedAnswer, schema_of

    request = Request(step="generate.answer",
                      messages=prompting.messages("generate_answer",
                                                  {"question": question, "passages": Texts("passage", list(passages),
                                                                                           "(no passages)")},
                                                  {}, system="generate_system"),
                      model=GeneratedAnswer, schema=schema_of(GeneratedAnswer), expected='a JSON object {"answer": "..."}')
    reply = judge.ask(request)
    return reply.data["answer"], reply.calls


def answer_rows(judge: Any, questions: Sequence[str] = QUESTIONS) -> list[dict[str, Any]]:
    """For each question and system: the retrieved passage ids and texts and the generated answer."""
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


def score_rows(judge: Any, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Judge each answered row with every metric the course teaches: faithfulness (Ragas' rule; the judge
    extracts the claims) and answer relevancy (the judge extracts the statements) on every row, and,
    where the question has a reference, context precision and context recall. A judge error is kept,
    not hidden."""
    refs = references()
    out = []
    for row in rows:
        scored_row = dict(row, scores={}, verdicts={}, items={}, errors={})
        ref = refs.get(row["question"], {}).get("reference")
        asks = {"faithfulness": lambda: judges.faithfulness(judge, row["answer"], row["contexts"],
                                                            question=row["text"], variant="ragas")}
        if ref:
            asks["context_precision"] = lambda: judges.context_precision(judge, row["text"], row["contexts"], ref)
            asks["context_recall"] = lambda: judges.context_recall(judge, ref, row["contexts"], question=row["text"])
        asks["answer_relevancy"] = lambda: judges.answer_relevancy(judge, row["text"], row["answer"])
        for metric, ask in asks.items():
            try:
                result = ask()
            except JudgeError as exc:
                scored_row["errors"][metric] = str(exc)
                continue
            scored_row["scores"][metric] = result.score
            scored_row["verdicts"][metric] = list(result.inputs.get("verdicts", []))
            items = result.inputs.get("claims") or result.inputs.get("statements")
            if items is not None:
                scored_row["items"][metric] = list(items)
        out.append(scored_row)
    return out


def _replay(name: str) -> Any:
    """The judge-study pass ``name`` (``data/recordings/judge_study/<name>.json``) as a replaying judge."""
    return ReplayJudge(data.recording(f"judge_study/{name}"))


@lru_cache(maxsize=1)
def _answers() -> tuple[dict[str, Any], ...]:
    return tuple(answer_rows(_replay("qwen_capstone_answers")))


def answers() -> list[dict[str, Any]]:
    """The recorded answers, replayed (no model needed)."""
    return [dict(r) for r in _answers()]


@lru_cache(maxsize=1)
def _scored() -> tuple[dict[str, Any], ...]:
    return tuple(score_rows(_replay("qwen_capstone_judged"), answers()))


def scored() -> list[dict[str, Any]]:
    """The recorded answers with the recorded judge's scores, replayed."""
    return [dict(r) for r in _scored()]
