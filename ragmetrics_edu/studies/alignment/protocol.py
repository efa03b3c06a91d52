"""The written rule of lesson 15, fixed before the new designs were measured on all of RAGTruth dev (not blind:
notebook 15 section 2 says what was known then).

Lesson 14 chose word overlap by its own rule on 20 RAGTruth dev sources. This rule measures the designs that
ask the judge a small question (support per sentence), people's labels used as examples (few-shot) and a
combination learned on dev, on all 50 dev sources, and scores test once.
"""

from __future__ import annotations

__all__ = ["RULE", "BASELINE", "CANDIDATES", "RESAMPLES", "SEED", "LEVEL", "HALUEVAL_DEV_PAIRS", "SPAN_BASELINE",
           "EXPLORED"]

#: the baseline every candidate is paired with: counting words (no model), lesson 14's default
BASELINE = "word_overlap"

#: HaluEval dev, as lesson 14 measured it: the first 40 pairs (a right and a hallucinated answer each)
HALUEVAL_DEV_PAIRS = 40

#: the paired intervals: a bootstrap over sources (grouped), this many resamples, this seed, this level
RESAMPLES = 2000
SEED = 0
LEVEL = 0.95

#: every candidate the rule compares (name -> what it is); a candidate with no recording on all 50 dev sources
#: is reported as "not measured", never chosen
CANDIDATES = {
    "word_overlap": "word overlap (the default since lesson 14)",
    "support_min": "support per sentence, the least supported sentence's p(yes)",
    "support_mean": "support per sentence, the mean p(yes)",
    "support_min_claims": "support per sentence, the least supported sentence that claims something",
    "support_fewshot_min": "support per sentence with 4 examples from people's labels (other dev sources), lowest",
    "cheap_combination": "logistic regression on the cheap signals (word overlap, numbers and names missing, "
                         "lowest sentence overlap), cross-validated leaving one source out",
    "judge_combination": "the cheap combination plus the support design's lowest and mean p(yes), cross-validated "
                         "leaving one source out",
}

RULE = (
    "Candidates: the designs listed in CANDIDATES, each measured on every answer of all 50 RAGTruth dev sources "
    "(a combination by its leave-one-source-out cross-validated scores). For each: the dev AUC (hallucinated "
    "answers should score lower), its paired 95 % interval of the AUC difference from word overlap (a bootstrap "
    "over sources, 2000 resamples, seed 0) and the AUC within each answering model (stratified). A judged "
    "candidate whose HaluEval dev AUC is significantly below word overlap's (the paired 95 % interval of the "
    "difference lies wholly below 0) is excluded; a judged candidate with no HaluEval dev figure is reported but "
    "cannot be chosen. Among the rest, the highest RAGTruth dev AUC wins, and it replaces word overlap as "
    "evaluate()'s default faithfulness only if its paired interval against word overlap lies wholly above 0; "
    "otherwise counting words stays the default. The threshold (flag below it) is the F1-best on RAGTruth dev. "
    "The chosen design and word overlap are then scored once on the 55 test sources; nothing is chosen after that."
)

#: the no-call baseline the support design's spans are set beside. Not a blind rule: it was written down from a review
#: of the course that had already computed this baseline's span precision, recall and F1
SPAN_BASELINE = (
    "Spans without a judge: split each answer into the sentences the support design asks about; mark a sentence "
    "when its word coverage (the share of its content words found in the passages) is below the F1-best RAGTruth "
    "dev threshold of the answers' lowest sentence overlap (the cheap signal lowest_sentence_overlap, flag below "
    "it). The threshold is chosen on the dev answers' labels (hallucinated or not), never on the spans; its span "
    "precision, recall and F1 are then counted by character on the same dev answers as the support design's, "
    "summed over answers, and reported beside them whichever way they fall."
)

#: designs explored after the rule was written, on the first dev sources only: reported beside the one-request-a-
#: sentence design and G-Eval on the same answers, never candidates (pass -> what the lesson calls its score)
EXPLORED = {"support_batched": ("support_batched_min", "all sentences in one request, one JSON reply"),
            "support_entailment": ("support_entailment_min", "the NLI wording: does the premise entail the sentence?"),
            "support_quote": ("quote_min", "quote, then verify: a quote per sentence, checked by counting words")}
