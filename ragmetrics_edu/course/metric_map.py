"""Which metric to run when: what each needs, what it judges, and what it costs.

The map lists every metric the course teaches with the fields it reads (question,
contexts, answer, reference), whether it needs a reference, and which component of a
RAG system it judges. The cost columns are not typed: :func:`ragmetrics_edu.judges.costs.measure`
adds up the call records of a judge's results (prompt and completion tokens, seconds), so the
numbers are those of whichever judge ran, e.g. the shipped recording of qwen2.5-coder-1.5b
(notebook 12 measures notebook 10's deck runs). :data:`EXAMPLE_PRICE` is an
illustration, not a quote from any provider.

The RAG triad (context relevance, groundedness, answer relevance; the name comes from
TruLens) is the same map seen from the three links of question, contexts and answer:
:func:`triad` says which of our metrics is which leg and what each leg catches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..errors import InputError
from ..judges.costs import StepCost, check_costs, checked_price, cost_per_1000
from ..metrics.registry import MetricTable
from ..metrics.specs import SPECS
from ..results import cut
from ..validate import identifier

FIELDS = ("question", "contexts", "answer", "reference")

#: An example price in US dollars per million tokens (input, output), for illustration only.
EXAMPLE_PRICE = (0.50, 1.50)

#: How the tables show a map row or judge step whose name says less than it computes: the row and the judge step
#: called "faithfulness" are the claims design (claims, then a verdict per claim), while ``evaluate()``'s default
#: faithfulness design is word overlap (its own row, ``word_overlap``).
LABELS = {"faithfulness": "faithfulness (claims)"}


def label(name: str) -> str:
    """The name a table shows for a map row or a judge step (:data:`LABELS`, else the name itself)."""
    if not isinstance(name, str):
        raise InputError("name", "a metric or judge step name (a string)", name)
    return LABELS.get(name, name)


@dataclass(frozen=True)
class MapRow:
    """A metric's row in the course's metric map: its name there, what it reads (question, contexts, answer,
    reference, labels), how it is computed, the peers' classes, the notebook that teaches it, the judge step whose
    records measure its cost (None: no judge, no cost) and the short label the capstone's tables use."""

    name: str
    needs: tuple[str, ...]
    how: str
    peers: str
    notebook: str
    step: str | None = None
    short: str = ""


_RANKING_HOW = "arithmetic on relevance labels, no judge"

#: The map's rows, in its order, keyed by registered metric names: a course fact, not the library's. A metric the
#: library adds is off the map until the course adds its row here.
MAP: MetricTable[MapRow] = MetricTable("the metric map's rows", {
    "context_precision": MapRow(
        "context precision", ("question", "contexts", "reference"), "judge: is each node useful for the reference?",
        "DeepEval ContextualPrecisionMetric; Ragas LLMContextPrecisionWithReference", "01", "context_precision", "cp"),
    "context_precision_without_reference": MapRow(
        "context precision without reference", ("question", "contexts", "answer"),
        "judge: was each node used for the answer?",
        "Ragas LLMContextPrecisionWithoutReference; Ragas ContextUtilization (the same, renamed)", "12",
        "context_precision_without_reference"),
    "context_recall": MapRow(
        "context recall", ("question", "contexts", "reference"), "judge: is each reference sentence attributable?",
        "DeepEval ContextualRecallMetric; Ragas LLMContextRecall", "02", "context_recall", "cr"),
    "contextual_relevancy": MapRow(
        "contextual relevancy", ("question", "contexts"), "judge: is each context statement relevant?",
        "DeepEval ContextualRelevancyMetric", "03", "contextual_relevancy"),
    "context_entity_recall": MapRow(
        "context entity recall", ("contexts", "reference"), "judge extracts entities; set overlap",
        "Ragas ContextEntityRecall", "04", "context_entity_recall"),
    "faithfulness": MapRow(
        "faithfulness", ("contexts", "answer"), "judge: claims, then is each claim supported?",
        "DeepEval FaithfulnessMetric; Ragas Faithfulness", "05", "faithfulness", "faith"),
    "word_overlap": MapRow(
        "word overlap (evaluate()'s default)", ("contexts", "answer"),
        "share of the answer's content words found in the contexts, no judge; chosen on the evidence",
        "none: DeepEval and Ragas ask a judge", "14"),
    "answer_relevancy": MapRow(
        "answer relevancy (statements)", ("question", "answer"), "judge: statements, then is each relevant?",
        "DeepEval AnswerRelevancyMetric", "06", "answer_relevancy", "ar"),
    "answer_relevancy_embedding": MapRow(
        "answer relevancy (embeddings)", ("question", "answer"), "judge writes questions; cosine to the real one",
        "Ragas ResponseRelevancy (AnswerRelevancy)", "06", "answer_relevancy_embedding"),
    "semantic_similarity": MapRow(
        "semantic similarity", ("answer", "reference"), "cosine of two embeddings, no judge",
        "Ragas SemanticSimilarity", "07"),
    "answer_correctness": MapRow(
        "answer correctness", ("question", "answer", "reference"), "judge: TP/FP/FN statements, plus similarity",
        "Ragas AnswerCorrectness", "07", "answer_correctness"),
    "precision_at_k": MapRow(
        "ranking measures (MAP, nDCG, MRR...)", ("contexts", "labels"), _RANKING_HOW, "trec_eval (via pytrec_eval)",
        "08"),
})


@dataclass(frozen=True)
class MetricInfo:
    """One metric: what it reads, whether it needs a reference, what it judges, how it is computed.

    ``step`` is the judge step whose call records measure its cost (None for metrics that
    need no judge, so cost nothing to run); ``peers`` names the DeepEval and Ragas classes a student will meet.
    """

    name: str
    needs: tuple[str, ...]
    component: str
    step: str | None
    how: str
    peers: str
    notebook: str

    @property
    def reference_free(self) -> bool:
        """Whether the metric runs without a reference answer or relevance labels."""
        return "reference" not in self.needs and "labels" not in self.needs


def entries() -> tuple[MetricInfo, ...]:
    """The map's rows (:data:`MAP`, in its order), each with its component from the metric's spec."""
    return tuple(MetricInfo(row.name, row.needs, SPECS[key].component, row.step, row.how, row.peers, row.notebook)
                 for key, row in MAP.items() if key in SPECS)


def __getattr__(name: str) -> Any:
    if name == "METRICS":  # read live, so a metric registered after import is on the map
        return entries()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get(name: str) -> MetricInfo:
    """The entry of the map named ``name``."""
    name = identifier("name", name, "one of " + ", ".join(m.name for m in entries()))
    for info in entries():
        if info.name == name:
            return info
    raise InputError("name", "one of " + ", ".join(m.name for m in entries()), name)


def _needs(info: MetricInfo) -> str:
    marks = {"question": "Q", "contexts": "C", "answer": "A", "reference": "R", "labels": "L"}
    return "".join(marks[f] for f in info.needs)


def rows(costs: Mapping[str, StepCost] | None = None) -> list[dict[str, Any]]:
    """The map as rows: name, needs, reference-free, component, and measured calls/tokens per case."""
    costs = None if costs is None else check_costs(costs)
    out = []
    for info in entries():
        cost = costs.get(info.step) if costs is not None and info.step else None
        row: dict[str, Any] = {"metric": info.name, "needs": _needs(info), "reference_free": info.reference_free,
                               "component": info.component, "step": info.step}
        if cost is not None:
            row.update(cases=cost.cases, calls=cost.per_case("calls"), prompt_tokens=cost.per_case("prompt_tokens"),
                       completion_tokens=cost.per_case("completion_tokens"), seconds=cost.per_case("seconds"))
        else:
            none = 0.0 if info.step is None else None  # no judge: nothing to pay; not recorded: unknown
            row.update(cases=0, calls=none, prompt_tokens=none, completion_tokens=none, seconds=none)
        out.append(row)
    return out


def _num(value: Any, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def table(costs: Mapping[str, StepCost] | None = None) -> str:
    """The map as fixed-width text (rows under 100 characters).

    needs: Q question, C contexts, A answer, R reference answer, L relevance labels.
    calls, prompt and completion tokens and seconds are means per case; "-" where the
    records hold no case of that metric, 0 where the metric asks no judge.
    """
    head = f"{'metric':<37} {'needs':<5} {'ref-free':<8} {'judges':<10} {'calls':>5} {'prompt':>6} {'compl':>5} {'s':>5}"
    lines = [head, "-" * len(head)]
    for row in rows(costs):
        lines.append(f"{cut(label(row['metric']), 37):<37} {row['needs']:<5} {'yes' if row['reference_free'] else 'no':<8} "
                     f"{row['component']:<10} {_num(row['calls'], '5.2f'):>5} {_num(row['prompt_tokens'], '6.0f'):>6} "
                     f"{_num(row['completion_tokens'], '5.0f'):>5} {_num(row['seconds'], '5.1f'):>5}")
    return "\n".join(lines)


def cost_table(costs: Mapping[str, StepCost], price_in: float, price_out: float) -> str:
    """Per 1,000 cases, for each measured step: calls, tokens (thousands), dollars and hours."""
    costs = check_costs(costs)
    price_in, price_out = checked_price("price_in", price_in), checked_price("price_out", price_out)
    head = f"{'judge step':<27} {'cases':>5} {'calls':>6} {'k prompt':>8} {'k compl':>7} {'dollars':>8} {'hours':>6}"
    lines = [head, "-" * len(head)]
    for step, cost in costs.items():
        c = cost_per_1000(cost, price_in, price_out)
        lines.append(f"{cut(label(step), 27):<27} {cost.cases:>5} {c['calls']:>6.0f} {c['prompt_tokens'] / 1000:>8.0f} "
                     f"{c['completion_tokens'] / 1000:>7.0f} {c['dollars']:>8.3f} {c['hours']:>6.2f}")
    return "\n".join(lines)


TRIAD: tuple[dict[str, str], ...] = (
    {"leg": "context relevance", "link": "question -> contexts",
     "ours": "contextual relevancy",
     "catches": "retrieval of off-topic or padded passages"},
    {"leg": "groundedness", "link": "contexts -> answer",
     "ours": "word overlap (word_overlap) or claims (faithfulness)",
     "catches": "words or claims the contexts do not support"},
    {"leg": "answer relevance", "link": "answer -> question",
     "ours": "answer relevancy (statements or embeddings)",
     "catches": "answers that drift, pad or dodge the question"},
)


def triad() -> list[dict[str, str]]:
    """The three legs of the RAG triad, with our metric for each and what it catches."""
    return [dict(leg) for leg in TRIAD]


def triad_table() -> str:
    """The triad as fixed-width text (rows under 100 characters)."""
    lines = [f"{'leg':<18} {'link':<21} ours / catches", "-" * 80]
    for leg in TRIAD:
        lines.append(f"{leg['leg']:<18} {leg['link']:<21} {leg['ours']}")
        lines.append(f"{'':<18} {'':<21} catches: {leg['catches']}")
    return "\n".join(lines)


def peer_table() -> str:
    """Each metric beside the DeepEval or Ragas classes a student will meet, one class per line."""
    lines = []
    for m in entries():
        for i, peer in enumerate(m.peers.split("; ")):
            lines.append(f"{cut(label(m.name), 37) if i == 0 else '':<37} {peer}")
    return "\n".join(lines)


def reference_free() -> list[str]:
    """The names of the metrics that need neither a reference answer nor relevance labels (:func:`label` gives the
    name the tables show)."""
    return [m.name for m in entries() if m.reference_free]
