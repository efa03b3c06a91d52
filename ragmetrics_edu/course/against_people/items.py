"""The answers a faithfulness design is measured on, loaded from RAGTruth QA and HaluEval QA in one shape
(:class:`~ragmetrics_edu.studies.against_people.designs.Item`)."""

from __future__ import annotations

from functools import lru_cache

from ...data import halueval, ragtruth
from ...errors import InputError
from ...studies.against_people.designs import Item
from ...validate import integer

__all__ = ["Item", "items", "DATASETS"]

#: the two labelled sets: people's span labels (RAGTruth), constructed pairs (HaluEval)
DATASETS = ("ragtruth", "halueval")


@lru_cache(maxsize=8)
def _items(dataset: str, split: str) -> tuple[Item, ...]:
    if dataset == "ragtruth":
        return tuple(Item(id=a.id, dataset=dataset, split=a.split, group=f"source-{a.source_id}", question=a.question,
                          context=tuple(a.context), answer=a.answer, hallucinated=a.hallucinated, model=a.model,
                          span_kind=a.span_kind)
                     for a in ragtruth.answers(split))
    out = []
    for p in halueval.pairs(split):
        for wrong, answer in ((False, p.right_answer), (True, p.hallucinated_answer)):
            out.append(Item(id=f"{p.id}-{'hallucinated' if wrong else 'right'}", dataset=dataset, split=p.split,
                            group=p.id, question=p.question, context=(p.knowledge,), answer=answer, hallucinated=wrong,
                            model="chatgpt" if wrong else "hotpotqa", span_kind="constructed" if wrong else "none"))
    return tuple(out)


def items(dataset: str, split: str, *, groups: int | None = None) -> list[Item]:
    """The answers of one data set's part; ``groups`` keeps those of the first n sources (or pairs)."""
    if not isinstance(dataset, str) or dataset not in DATASETS:
        raise InputError("dataset", "one of " + ", ".join(DATASETS), dataset)
    if not isinstance(split, str) or split not in ("dev", "test"):
        raise InputError("split", "'dev' or 'test'", split)
    chosen = list(_items(dataset, split))
    if groups is not None:
        groups = integer("groups", groups, low=0, expected="an integer >= 0 or None")
        keep = set(list(dict.fromkeys(i.group for i in chosen))[:groups])
        chosen = [i for i in chosen if i.group in keep]
    return chosen
