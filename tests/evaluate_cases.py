"""Cases the evaluate-command tests share (three cases with ids, one passage holding ';' and ','), Ragas' and
DeepEval's names for the fields, the judge-free scores computed by the metrics' own functions, and a CSV
writer for either naming."""

from __future__ import annotations

import csv
import json

from ragmetrics_edu import metrics

CASES = [
    {"id": "q1", "question": "Who wrote Pride and Prejudice?", "answer": "Jane Austen wrote it; it came out in 1813.",
     "contexts": ["Pride and Prejudice is an 1813 novel by Jane Austen.", "Austen wrote six novels; all, in English."],
     "reference": "Jane Austen."},
    {"id": "q2", "question": "What is the capital of Australia?", "answer": "Sydney is the capital.",
     "contexts": ["Canberra is the capital city of Australia."], "reference": "Canberra."},
    {"id": "q3", "question": "How many moons does Mars have?", "answer": "Mars has two moons, Phobos and Deimos.",
     "contexts": ["Mars has two moons: Phobos and Deimos."], "reference": "Two."},
]

RAGAS = {"question": "user_input", "answer": "response", "contexts": "retrieved_contexts", "reference": "reference"}
DEEPEVAL = {"question": "input", "answer": "actual_output", "contexts": "retrieval_context",
            "reference": "expected_output"}


def by_hand(case: dict) -> dict[str, float]:
    """The judge-free metrics computed by their own functions, not through evaluate()."""
    return {"word_overlap": metrics.word_overlap(case["answer"], case["contexts"]).score,
            "semantic_similarity": metrics.semantic_similarity(case["answer"], case["reference"]).score}


def write_csv(path, rows: list[dict], names: dict[str, str], numbered: bool = False) -> None:
    """A CSV with the given column names; contexts as a JSON list in one cell, or as context_1..k columns."""
    width = max(len(r["contexts"]) for r in rows)
    header = ["id", names["question"], names["answer"]]
    header += [f"context_{k + 1}" for k in range(width)] if numbered else [names["contexts"]]
    header.append(names["reference"])
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            ctx = (r["contexts"] + [""] * (width - len(r["contexts"]))) if numbered else [json.dumps(r["contexts"])]
            w.writerow([r["id"], r["question"], r["answer"], *ctx, r["reference"]])
