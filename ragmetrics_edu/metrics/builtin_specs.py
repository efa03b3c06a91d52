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
from .checked import score_checked
from .context_precision import context_precision
from .correctness import answer_correctness
from .embedding import answer_relevancy_embedding, semantic_similarity
from .entities import context_entity_recall
from .overlap import word_overlap
from .reanswer import score_reanswer
from .reference_free import context_precision_without_reference
from .rubric import aspect_critic_score, g_eval_score
from .specs import SPECS, Ask, MapRow, MetricSpec, register
from .statements import answer_relevancy, context_recall, contextual_relevancy, faithfulness
from .support import support_score

__all__: list[str] = []

_Q, _A, _C, _G, _J, _E = "question", "answer", "contexts", "ground_truth", "judge", "embedder"
_RANKING_HOW = "arithmetic on relevance labels, no judge"

SPECS_BUILTIN: tuple[MetricSpec, ...] = (
    MetricSpec(
        "context_precision", "Context precision", context_precision, short="cp", component="retriever",
        ask=Ask("judges.steps:context_precision", (_J, _Q, _C, _G)), design="a relevance verdict per node",
        steps=("context_precision",), prompts=("context_precision",), verdict_column="relevant",
        variants=("deepeval", "ragas", "average_precision"), explorer="ranking", chart="precision",
        choices=(("Context precision (DeepEval)", "deepeval", "Context precision (DeepEval)"),
                 ("Context precision (Ragas)", "ragas", "Context precision (Ragas)"),
                 ("Context precision (average precision)", "average_precision", "Average precision")),
        score_input="verdicts",
        map_row=MapRow(10, "context precision", ("question", "contexts", "reference"),
                       "judge: is each node useful for the reference?",
                       "DeepEval ContextualPrecisionMetric; Ragas LLMContextPrecisionWithReference", "01",
                       "context_precision")),
    MetricSpec(
        "context_precision_without_reference", "Context precision without reference",
        context_precision_without_reference, component="retr+gen", variants=("ragas",),
        map_row=MapRow(20, "context precision without reference", ("question", "contexts", "answer"),
                       "judge: was each node used for the answer?",
                       "Ragas LLMContextPrecisionWithoutReference; Ragas ContextUtilization (the same, renamed)",
                       "12", "context_precision_without_reference")),
    MetricSpec(
        "context_recall", "Context recall", context_recall, short="cr", component="retriever",
        ask=Ask("judges.steps:context_recall", (_J, _G, _C), (("question", _Q),)),
        design="an attribution per reference statement", steps=("context_recall",), prompts=("context_recall",),
        verdict_column="verdict",
        variants=("deepeval", "ragas"), explorer="statements", shape="attributed",
        counted=("attributable", "attributable"), decompose=True,
        hint="can each statement of the expected output be attributed to a retrieved node?",
        score_input="statement verdicts",
        map_row=MapRow(30, "context recall", ("question", "contexts", "reference"),
                       "judge: is each reference sentence attributable?",
                       "DeepEval ContextualRecallMetric; Ragas LLMContextRecall", "02", "context_recall")),
    MetricSpec(
        "contextual_relevancy", "Contextual relevancy", contextual_relevancy, component="retriever",
        ask=Ask("judges.steps:contextual_relevancy", (_J, _Q, _C)), design="relevant statements per node",
        steps=("contextual_relevancy",), prompts=("contextual_relevancy",), verdict_column="verdict",
        variants=("deepeval", "ragas_sentences"), explorer="statements", shape="per_node",
        counted=("relevant", "relevant"),
        hint="is each statement extracted from the retrieved nodes relevant to the question?",
        score_input="verdicts per node",
        map_row=MapRow(40, "contextual relevancy", ("question", "contexts"),
                       "judge: is each context statement relevant?", "DeepEval ContextualRelevancyMetric", "03",
                       "contextual_relevancy")),
    MetricSpec(
        "context_entity_recall", "Context entity recall", context_entity_recall, component="retriever",
        ask=Ask("judges.steps:context_entity_recall", (_J, _G, _C)), design="entities, then set overlap",
        steps=("context_entity_recall",), prompts=("context_entity_recall",),
        score_input="--reference and --context",
        map_row=MapRow(50, "context entity recall", ("contexts", "reference"),
                       "judge extracts entities; set overlap", "Ragas ContextEntityRecall", "04",
                       "context_entity_recall")),
    # evaluate()'s faithfulness is word overlap, the design chosen by a written rule on the dev parts of HaluEval
    # and RAGTruth (no judge beat it significantly; course.against_people.study, notebook 14); compute is the
    # claims rule, which the explorers, the catalogue and the command line score verdicts with
    MetricSpec(
        "faithfulness", "Faithfulness", faithfulness, short="faith", component="generator",
        ask=Ask(word_overlap, (_A, _C)), design="word overlap (no judge)", variants=("deepeval", "ragas"),
        explorer="statements", shape="claims", item="claim", idk=True, counted=("counts", "faithful"),
        decompose=True, score_input="statement verdicts",
        hint="does the retrieved context back each claim of the answer (yes), contradict it (no), or not say (idk)?",
        map_row=MapRow(70, "word overlap (evaluate()'s faithfulness)", ("contexts", "answer"),
                       "share of the answer's content words found in the contexts, no judge; chosen on the evidence",
                       "none: DeepEval and Ragas ask a judge", "14")),
    MetricSpec(
        "faithfulness_overlap_reanswer", "Faithfulness (word overlap and re-answer)", score_reanswer,
        of="faithfulness", component="generator",
        ask=Ask("judges.reanswer:faithfulness_reanswer", (_J, _A, _C), (("question", _Q),)),
        design="0.9 x word overlap + 0.1 x agreement with the judge's own answer", steps=("faithfulness.reanswer",),
        prompts=("faithfulness_reanswer",)),
    MetricSpec(
        "faithfulness_claims", "Faithfulness (claims, then verdicts)", faithfulness, of="faithfulness",
        component="generator", ask=Ask("judges.steps:faithfulness", (_J, _A, _C), (("question", _Q),)),
        design="claims, then a verdict per claim (DeepEval, Ragas)",
        steps=("faithfulness.claims", "faithfulness.verdicts"), prompts=("faithfulness_claims", "faithfulness_verdicts"),
        verdict_column="verdict", variants=("deepeval", "ragas"),
        map_row=MapRow(60, "faithfulness", ("contexts", "answer"),
                       "judge: claims, then is each claim supported? (evaluate(): faithfulness_claims)",
                       "DeepEval FaithfulnessMetric; Ragas Faithfulness", "05", "faithfulness")),
    MetricSpec(
        "faithfulness_checked", "Faithfulness (checked claims)", score_checked, of="faithfulness", component="generator",
        ask=Ask("judges.checked:faithfulness_checked", (_J, _A, _C), (("question", _Q),)),
        design="claims from question and answer, verdicts with quotes checked in the context",
        steps=("faithfulness.claims_qa", "faithfulness.quoted"), prompts=("faithfulness_claims_qa", "faithfulness_quoted"),
        verdict_column="verdict"),
    MetricSpec(
        "faithfulness_support", "Faithfulness (support per sentence)", support_score, of="faithfulness",
        component="generator", ask=Ask("judges.support:faithfulness_support", (_J, _A, _C), (("question", _Q),)),
        design="a yes/no per sentence, read as p(yes); the least supported sentence; unsupported sentences as spans",
        steps=("faithfulness.support",), prompts=("sentence_support",), variants=("min", "mean", "min_claims")),
    MetricSpec(
        "answer_relevancy", "Answer relevancy", answer_relevancy, short="ar", component="generator",
        ask=Ask("judges.steps:answer_relevancy", (_J, _Q, _A)), design="statements, then a relevance verdict each",
        steps=("answer_relevancy.statements", "answer_relevancy.verdicts"),
        prompts=("answer_relevancy_statements", "answer_relevancy_verdicts"), verdict_column="verdict",
        variants=("deepeval",), explorer="statements", shape="statements", idk=True, counted=("relevant", "relevant"),
        hint="does each statement of the answer address the question (idk: ambiguous)?",
        score_input="statement verdicts",
        map_row=MapRow(80, "answer relevancy (statements)", ("question", "answer"),
                       "judge: statements, then is each relevant?", "DeepEval AnswerRelevancyMetric", "06",
                       "answer_relevancy")),
    MetricSpec(
        "answer_relevancy_embedding", "Answer relevancy (embeddings)", answer_relevancy_embedding,
        component="generator", embedder=True,
        ask=Ask("judges.steps:answer_relevancy_embedding", (_J, _Q, _A), (("embedder", _E),)),
        design="questions written from the answer, cosine to the real one", steps=("answer_relevancy_embedding",),
        prompts=("answer_relevancy_questions",),
        map_row=MapRow(90, "answer relevancy (embeddings)", ("question", "answer"),
                       "judge writes questions; cosine to the real one", "Ragas ResponseRelevancy (AnswerRelevancy)",
                       "06", "answer_relevancy_embedding")),
    MetricSpec(
        "answer_correctness", "Answer correctness", answer_correctness, component="end to end", embedder=True,
        ask=Ask("judges.steps:answer_correctness", (_J, _Q, _A, _G), (("embedder", _E),)),
        design="TP/FP/FN statements, plus similarity",
        steps=("answer_correctness.statements", "answer_correctness.classification"),
        prompts=("answer_correctness_statements", "answer_correctness_classify"), score_input="--tp, --fp and --fn",
        map_row=MapRow(110, "answer correctness", ("question", "answer", "reference"),
                       "judge: TP/FP/FN statements, plus similarity", "Ragas AnswerCorrectness", "07",
                       "answer_correctness")),
    MetricSpec(
        "semantic_similarity", "Semantic similarity", semantic_similarity, component="end to end", embedder=True,
        ask=Ask(semantic_similarity, (_A, _G, _E)), design="cosine of two embeddings (no judge)",
        score_input="--answer and --ground-truth",
        map_row=MapRow(100, "semantic similarity", ("answer", "reference"), "cosine of two embeddings, no judge",
                       "Ragas SemanticSimilarity", "07")),
    # rubric judges on a criterion the user writes (evaluate(criteria=...)); by default, faithfulness to the context
    MetricSpec(
        "g_eval", "G-Eval", g_eval_score, component="generator",
        ask=Ask("judges.rubric:g_eval", (_J, _A, _C), (("question", _Q), ("criteria", "criteria"))),
        design="a rubric score from evaluation steps (G-Eval)", steps=("g_eval.steps", "g_eval.score"),
        prompts=("g_eval_steps", "g_eval_score"), variants=("paper", "deepeval")),
    MetricSpec(
        "aspect_critic", "Aspect critic", aspect_critic_score, component="generator",
        ask=Ask("judges.rubric:aspect_critic", (_J, _A, _C), (("question", _Q), ("definition", "criteria"))),
        design="yes/no votes on one aspect (Ragas AspectCritic)", steps=("aspect_critic",),
        prompts=("aspect_critic",), verdict_column="verdict"),
    MetricSpec("precision_at_k", "Precision@k", precision_at_k, component="retriever",
               explorer="ranking", cutoff=True, choices=(("Precision@k", None, "Precision@k"),),
               aliases=("precision",),
               score_input="verdicts",
               map_row=MapRow(120, "ranking measures (MAP, nDCG, MRR...)", ("contexts", "labels"), _RANKING_HOW,
                              "trec_eval (via pytrec_eval)", "08")),
    MetricSpec("recall_at_k", "Recall@k", recall_at_k, component="retriever", score_input="verdicts"),
    MetricSpec("average_precision", "Average precision", average_precision, component="retriever", score_input="verdicts"),
    MetricSpec("mean_average_precision", "Mean average precision", mean_average_precision, component="retriever"),
    MetricSpec("reciprocal_rank", "Reciprocal rank", reciprocal_rank, component="retriever",
               explorer="ranking", chart="reciprocal",
               choices=(("MRR (reciprocal rank of this query)", None, "Reciprocal rank"),), aliases=("mrr",),
               score_input="verdicts"),
    MetricSpec("mean_reciprocal_rank", "Mean reciprocal rank", mean_reciprocal_rank, component="retriever"),
    MetricSpec("ndcg_at_k", "nDCG@k", ndcg_at_k, component="retriever", explorer="ranking",
               chart="discount", cutoff=True, choices=(("nDCG@k", None, "nDCG@k"),), aliases=("ndcg",),
               score_input="gains"),
    MetricSpec("hit_at_k", "Hit@k", hit_at_k, component="retriever", score_input="verdicts"),
    MetricSpec("hit_rate_at_k", "Hit rate@k", hit_rate_at_k, component="retriever"),
    MetricSpec("r_precision", "R-precision", r_precision, component="retriever", score_input="verdicts"),
)

for _spec in SPECS_BUILTIN:
    register(_spec)
SPECS.fix()
