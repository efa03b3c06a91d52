"""Rubric judges' arithmetic: G-Eval's weighted score and an aspect critic's majority vote.

Pure functions of what a judge said (the score tokens' probabilities, sampled scores, votes); the
requests that get them live in :mod:`ragmetrics_edu.designs.g_eval` and :mod:`ragmetrics_edu.designs.aspect_critic`.

**G-Eval** (Liu et al., 2023) asks for a score on a small scale and reads it as an expectation:
``weighted = Σ p(s) · s`` over the scale's scores, where ``p`` is the model's probability for each
score token, renormalised over the scores in range. Where a server gives no probabilities, the paper
itself estimates the same expectation by sampling n scores and averaging them. Variants:

- ``"paper"``: every score token in range counts; scale 1–5 by default;
- ``"deepeval"``: DeepEval's ``GEval`` rule: tokens under 1 % probability are dropped before
  renormalising; scale 0–10 by default.

Both report ``score = (weighted − low) / (high − low)`` in [0, 1] (DeepEval divides its 0–10 score by
10, the same thing), and keep the weighted score on its scale and the most likely score beside it.

**Aspect critic** (after Ragas' ``AspectCritic``): a yes/no verdict on a written aspect, asked n times; the
score is the majority (1 or 0), as Ragas documents ``strictness``; like Ragas, an even n is made odd
(2 becomes 3). Ragas 0.4.0+3 itself asks the model once (``_ascore`` generates with n=1), so its score is
that single verdict whatever the strictness: ours with ``strictness=1`` equals it. ``yes_share`` keeps the
share of yes votes, a graded score for ranking answers.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..cores import aspect_critic as aspect_critic_core
from ..cores import computed_by
from ..cores import g_eval as core
from ..errors import InputError
from ..results import MetricResult
from ..validate import as_list, integer, probability, text
from . import checks
from .checks import scale_of
from .rubric_explained import aspect_critic_result, g_eval_result

__all__ = ["g_eval_score", "aspect_critic_score", "votes_for", "G_EVAL_VARIANTS", "DEEPEVAL_MIN_PROBABILITY", "scale_of"]

G_EVAL_VARIANTS = checks.G_EVAL_VARIANTS

#: DeepEval's GEval drops score tokens whose probability is under 1 % before weighting
DEEPEVAL_MIN_PROBABILITY = core.DEEPEVAL_MIN_PROBABILITY


@computed_by("g_eval")
def g_eval_score(probabilities: Mapping[int, float] | None = None, *, samples: Sequence[int] | None = None,
                 reply_score: int | None = None, variant: str = "paper", scale: tuple[int, int] | None = None,
                 threshold: float | None = None) -> MetricResult:
    """G-Eval's score from the score tokens' ``probabilities`` (score -> p), else from sampled scores.

    ``samples``: the scores of n sampled replies (the paper's estimate where no probabilities exist).
    ``reply_score``: the score the reply wrote (shown beside the weighted one). With neither
    probabilities nor samples the reply's own score is used, and the result says so.
    """
    variant, low, high, probs, samples, reply_score, threshold = checks.g_eval(
        variant, scale, threshold, samples, reply_score, probabilities)
    try:
        score, rows, values = core.g_eval(low, high, variant, probs, samples, reply_score)
    except ZeroDivisionError:  # no kept score has a probability above 0
        raise InputError("probabilities", "at least one score with a probability above 0", probabilities) from None
    return g_eval_result(score, rows, values, variant, probs, samples, reply_score, threshold, probabilities)


_YES = {"yes": True, "no": False, "1": True, "0": False}


def _vote(i: int, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _YES:
        return _YES[value.strip().lower()]
    raise InputError(f"votes[{i}]", "yes or no, 1 or 0, or True/False", value)


def votes_for(strictness: int) -> int:
    """How many votes an aspect critic asks for: ``strictness``, made odd as Ragas does (2 becomes 3), so a
    majority always exists."""
    strictness = integer("strictness", strictness, low=1, high=50)
    return strictness + 1 if strictness % 2 == 0 else strictness


@computed_by("aspect_critic")
def aspect_critic_score(votes: Sequence[Any], *, aspect: str = "", threshold: float | None = None) -> MetricResult:
    """An aspect critic's verdict: the majority of ``votes`` (yes/no each); ``yes_share`` keeps the share of yes.

    An even number of votes is refused: Ragas makes ``strictness`` odd so a majority always exists."""
    votes = as_list("votes", votes, "a non-empty list of yes/no votes")
    if not votes:
        raise InputError("votes", "a non-empty list of yes/no votes", votes)
    aspect = text("aspect", aspect)
    threshold = probability("threshold", threshold)
    flags = [_vote(i, v) for i, v in enumerate(votes)]
    if len(flags) % 2 == 0:
        raise InputError("votes", "an odd number of votes (Ragas turns strictness 2 into 3)", f"{len(flags)} votes")

    score, rows, values = aspect_critic_core.aspect_critic(flags, aspect)

    return aspect_critic_result(score, rows, values, threshold)
