"""The library's own metrics and designs, each one :class:`~ragmetrics_edu.metrics.specs.MetricSpec`.

Registered in this order, which is the order evaluate(), the explorers and the command line list
them in. A judge step is named as ``"judges.<module>:<function>"`` (see :class:`Ask`), so this
module imports no judge.
"""

from __future__ import annotations

from ..ranking import (
    average_precision,
    hit_at_k,
    hit_rate_at_k,
    mean_average_precision,
    mean_reciprocal_rank,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    recall_at_k,
    reciprocal_rank,
)
from . import inputs
from .checked import score_checked
from .context_precision import context_precision
from .correctness import answer_correctness
from .embedding import answer_relevancy_embedding, semantic_similarity
from .entities import context_entity_recall
from .overlap import word_overlap
from .reanswer import score_reanswer
from .reference_free import context_precision_without_reference
from .rubric import aspect_critic_score, g_eval_score
from .specs import SPECS, Ask, MetricSpec, register
from .statements import answer_relevancy, context_recall, contextual_relevancy, faithfulness
from .support import support_score
from .views import Chart, RankingView, Shape, StatementView

__all__: list[str] = []

_Q, _A, _C, _G, _J, _E = "question", "answer", "contexts", "ground_truth", "judge", "embedder"

SPECS_BUILTIN: tuple[MetricSpec, ...] = (
    MetricSpec(
        "context_precision", "Context precision", context_precision, component="retriever",
        ask=Ask("judges.steps:context_precision", (_J, _Q, _C, _G)), design="a relevance verdict per node",
        steps=("context_precision",), verdict_column="relevant",
        variants=("deepeval", "ragas", "average_precision"), view=RankingView((("Context precision (DeepEval)", "deepeval", "Context precision (DeepEval)"),
                          ("Context precision (Ragas)", "ragas", "Context precision (Ragas)"),
                          ("Context precision (average precision)", "average_precision", "Average precision"))),
        reads=inputs.RANKED_VERDICTS),
    MetricSpec(
        "context_precision_without_reference", "Context precision without reference",
        context_precision_without_reference, component="retr+gen", variants=("ragas",)),
    MetricSpec(
        "context_recall", "Context recall", context_recall, component="retriever",
        ask=Ask("judges.steps:context_recall", (_J, _G, _C), (("question", _Q),)),
        design="an attribution per reference statement", steps=("context_recall",),
        verdict_column="verdict",
        variants=("deepeval", "ragas"), view=StatementView(Shape.ATTRIBUTED, ("attributable", "attributable"), decompose=True,
                           hint="can each statement of the expected output be attributed to a retrieved node?"),
        reads=inputs.STATEMENT_VERDICTS),
    MetricSpec(
        "contextual_relevancy", "Contextual relevancy", contextual_relevancy, component="retriever",
        ask=Ask("judges.steps:contextual_relevancy", (_J, _Q, _C)), design="relevant statements per node",
        steps=("contextual_relevancy",), verdict_column="verdict",
        variants=("deepeval", "ragas_sentences"), view=StatementView(Shape.PER_NODE, ("relevant", "relevant"),
                           hint="is each statement extracted from the retrieved nodes relevant to the question?"),
        reads=inputs.VERDICTS_PER_NODE),
    MetricSpec(
        "context_entity_recall", "Context entity recall", context_entity_recall, component="retriever",
        ask=Ask("judges.steps:context_entity_recall", (_J, _G, _C)), design="entities, then set overlap",
        steps=("context_entity_recall",),
        reads=inputs.ENTITY_LISTS),
    # what DeepEval and Ragas call faithfulness: claims, then a verdict per claim (the explorers, the catalogue and
    # the command line score its verdicts; evaluate() asks a judge for them)
    MetricSpec(
        "faithfulness", "Faithfulness", faithfulness, component="generator",
        ask=Ask("judges.steps:faithfulness", (_J, _A, _C), (("question", _Q),)),
        design="claims, then a verdict per claim (DeepEval, Ragas)",
        steps=("faithfulness.claims", "faithfulness.verdicts"), verdict_column="verdict", variants=("deepeval", "ragas"),
        view=StatementView(Shape.CLAIMS, ("counts", "faithful"), item="claim", idk=True, decompose=True,
                           hint="does the retrieved context back each claim of the answer (yes), contradict it (no), "
                                "or not say (idk)?"),
        reads=inputs.STATEMENT_VERDICTS),
    # evaluate()'s default faithfulness design: the one a written rule chose on the dev parts of HaluEval and RAGTruth
    # (no judged design beat it significantly; course.against_people and course.alignment, notebooks 14 and 15)
    MetricSpec(
        "word_overlap", "Word overlap", word_overlap, of="faithfulness", component="generator",
        ask=Ask(word_overlap, (_A, _C)),
        design="the share of the answer's content words found in the contexts (no judge)"),
    MetricSpec(
        "faithfulness_overlap_reanswer", "Faithfulness (word overlap and re-answer)", score_reanswer,
        of="faithfulness", component="generator",
        ask=Ask("judges.reanswer:faithfulness_reanswer", (_J, _A, _C), (("question", _Q),)),
        design="0.9 x word overlap + 0.1 x agreement with the judge's own answer", steps=("faithfulness.reanswer",)),
    MetricSpec(
        "faithfulness_checked", "Faithfulness (checked claims)", score_checked, of="faithfulness", component="generator",
        ask=Ask("judges.checked:faithfulness_checked", (_J, _A, _C), (("question", _Q),)),
        design="claims from question and answer, verdicts with quotes checked in the context",
        steps=("faithfulness.claims_qa", "faithfulness.quoted"),
        verdict_column="verdict"),
    MetricSpec(
        "faithfulness_support", "Faithfulness (support per sentence)", support_score, of="faithfulness",
        component="generator", ask=Ask("judges.support:faithfulness_support", (_J, _A, _C), (("question", _Q),)),
        design="a yes/no per sentence, read as p(yes); the least supported sentence; unsupported sentences as spans",
        steps=("faithfulness.support",), variants=("min", "mean", "min_claims")),
    MetricSpec(
        "answer_relevancy", "Answer relevancy", answer_relevancy, component="generator",
        ask=Ask("judges.steps:answer_relevancy", (_J, _Q, _A)), design="statements, then a relevance verdict each",
        steps=("answer_relevancy.statements", "answer_relevancy.verdicts"), verdict_column="verdict",
        variants=("deepeval",), view=StatementView(Shape.STATEMENTS, ("relevant", "relevant"), idk=True,
                           hint="does each statement of the answer address the question (idk: ambiguous)?"),
        reads=inputs.STATEMENT_VERDICTS),
    MetricSpec(
        "answer_relevancy_embedding", "Answer relevancy (embeddings)", answer_relevancy_embedding,
        component="generator", embedder=True,
        ask=Ask("judges.steps:answer_relevancy_embedding", (_J, _Q, _A), (("embedder", _E),)),
        design="questions written from the answer, cosine to the real one", steps=("answer_relevancy_embedding",)),
    MetricSpec(
        "answer_correctness", "Answer correctness", answer_correctness, component="end to end", embedder=True,
        ask=Ask("judges.steps:answer_correctness", (_J, _Q, _A, _G), (("embedder", _E),)),
        design="TP/FP/FN statements, plus similarity",
        steps=("answer_correctness.statements", "answer_correctness.classification"), reads=inputs.STATEMENT_COUNTS),
    MetricSpec(
        "semantic_similarity", "Semantic similarity", semantic_similarity, component="end to end", embedder=True,
        ask=Ask(semantic_similarity, (_A, _G, _E)), design="cosine of two embeddings (no judge)",
        reads=inputs.TWO_TEXTS),
    # rubric judges on a criterion the user writes (evaluate(criteria=...)); by default, faithfulness to the context
    MetricSpec(
        "g_eval", "G-Eval", g_eval_score, component="generator",
        ask=Ask("judges.rubric:g_eval", (_J, _A, _C), (("question", _Q), ("criteria", "criteria"))),
        design="a rubric score from evaluation steps (G-Eval)", steps=("g_eval.steps", "g_eval.score"), variants=("paper", "deepeval")),
    MetricSpec(
        "aspect_critic", "Aspect critic", aspect_critic_score, component="generator",
        ask=Ask("judges.rubric:aspect_critic", (_J, _A, _C), (("question", _Q), ("definition", "criteria"))),
        design="yes/no votes on one aspect (Ragas AspectCritic)", steps=("aspect_critic",), verdict_column="verdict"),
    MetricSpec("precision_at_k", "Precision@k", precision_at_k, component="retriever",
               view=RankingView((("Precision@k", None, "Precision@k"),), cutoff=True, aliases=("precision",)),
               reads=inputs.RANKED_VERDICTS),
    MetricSpec("recall_at_k", "Recall@k", recall_at_k, component="retriever", reads=inputs.RANKED_VERDICTS),
    MetricSpec("average_precision", "Average precision", average_precision, component="retriever", reads=inputs.RANKED_VERDICTS),
    MetricSpec("mean_average_precision", "Mean average precision", mean_average_precision, component="retriever"),
    MetricSpec("reciprocal_rank", "Reciprocal rank", reciprocal_rank, component="retriever",
               view=RankingView((("MRR (reciprocal rank of this query)", None, "Reciprocal rank"),), Chart.RECIPROCAL,
                                aliases=("mrr",)),
               reads=inputs.RANKED_VERDICTS),
    MetricSpec("mean_reciprocal_rank", "Mean reciprocal rank", mean_reciprocal_rank, component="retriever"),
    MetricSpec("ndcg_at_k", "nDCG@k", ndcg_at_k, component="retriever", view=RankingView((("nDCG@k", None, "nDCG@k"),), Chart.DISCOUNT, cutoff=True, aliases=("ndcg",)),
               reads=inputs.GAINS),
    MetricSpec("hit_at_k", "Hit@k", hit_at_k, component="retriever", reads=inputs.RANKED_VERDICTS),
    MetricSpec("hit_rate_at_k", "Hit rate@k", hit_rate_at_k, component="retriever"),
    MetricSpec("r_precision", "R-precision", r_precision, component="retriever", reads=inputs.RANKED_VERDICTS),
)

for _spec in SPECS_BUILTIN:
    register(_spec)
SPECS.fix()
