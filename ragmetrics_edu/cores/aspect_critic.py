"""Aspect critic (after Ragas' AspectCritic): the majority of n yes/no votes on a written aspect.

    score     = [#yes > n/2]        n is odd (Ragas makes strictness odd: 2 becomes 3), so a majority exists
    yes_share = #yes / n            a graded score, for ranking answers
"""

#: the step table's columns this core fills
COLUMNS = ("vote", "verdict")


def aspect_critic(votes, aspect=""):
    n = len(votes)
    yes = sum(votes)  # a vote is True (yes) or False (no)
    yes_share = yes / n
    score = 1.0 if yes * 2 > n else 0.0
    rows = [{"vote": i, "verdict": "yes" if vote else "no"} for i, vote in enumerate(votes, start=1)]
    return score, rows, {"yes": yes, "votes": n, "yes_share": yes_share, "aspect": aspect}
