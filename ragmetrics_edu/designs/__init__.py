"""The library's metric designs, one module each: its spec, its judge steps' contracts, the function that asks
a judge and scores, and its prompts beside it (``designs/prompts/``).

Importing this package registers every built-in design, in the order of the imports below (the order evaluate(),
the explorers and the command line list them in). :data:`ragmetrics_edu.metrics.SPECS` imports it the first time
it is read, so ``metrics.REGISTRY``, evaluate(), the explorers and ``ragmetrics-edu score`` all see every design
without importing this package themselves, and ``import ragmetrics_edu`` stays fast.

Each judged design's function asks a judge and returns the :class:`~ragmetrics_edu.results.MetricResult` of its
arithmetic (in :mod:`ragmetrics_edu.metrics`) with ``.calls`` holding every call::

    from ragmetrics_edu import designs, judges
    judge = judges.OpenAIJudge("gpt-4o-mini", seed=7, cache_dir=".judge-cache")
    r = designs.faithfulness(judge, answer="...", context=["...", "..."])
    r.score, r.steps, r.calls          # the score, the step table, every call made

Calls per case at default settings:

==============================  =====  ================================================
design                          calls  what one call returns
==============================  =====  ================================================
context_precision                 1    a verdict per node, keyed node_1 … node_n
context_recall                    1    the expected output's statements, each with a node or null
contextual_relevancy              1    per node, its statements, each judged
context_entity_recall             1    the entities of the reference and of the context
faithfulness                      2    1: the answer's claims; 2: yes/no/idk per claim
answer_relevancy                  2    1: the answer's statements; 2: yes/no/idk per statement
answer_relevancy_embedding        1    n questions, each with a noncommittal flag
answer_correctness                2    1: statements of answer and ground truth; 2: TP/FP/FN
g_eval                            2    1: evaluation steps (none when ``steps=`` given); 2: a score (+ samples)
aspect_critic                     1    a yes/no vote, asked ``strictness`` times (made odd; 1 by default)
==============================  =====  ================================================

(``tests/library/test_hand_kept_lists.py`` fails when a registered judged metric is missing from this table.)

Given items (``claims=`` for faithfulness, ``statements=`` for answer_relevancy and context_recall) skip the
extraction: one call fewer, verdicts aligned with the items given (see :mod:`ragmetrics_edu.judges.same_items`).
A second call is skipped when the first found nothing to judge; a repair request is added only when a reply is
unusable. ``reason=True`` adds one call for a written reason.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

from ..metrics import SPECS

# Each module registers its design when imported: the order below is the registration order.
# isort: off
from .context_precision import context_precision
from . import context_precision_without_reference
from .context_recall import context_recall
from .contextual_relevancy import contextual_relevancy
from .context_entity_recall import context_entity_recall
from .faithfulness import faithfulness
from . import word_overlap
from .faithfulness_reanswer import faithfulness_reanswer, reanswer_reply
from .faithfulness_checked import PIPELINES, faithfulness_checked
from .faithfulness_support import faithfulness_support, support_request
from .faithfulness_support_batched import faithfulness_support_batched
from .faithfulness_quote import faithfulness_quote
from .answer_relevancy import answer_relevancy
from .answer_relevancy_embedding import answer_relevancy_embedding
from .answer_correctness import answer_correctness
from . import semantic_similarity
from .g_eval import FAITHFULNESS_CRITERIA, SAMPLE_TEMPERATURE, evaluation_steps, g_eval
from .aspect_critic import FAITHFULNESS_ASPECT, aspect_critic
from . import ranking
# isort: on

_SHARED = frozenset({"common", "schemas"})  # helpers the design modules share; they register nothing


def _discover() -> None:
    """Import every other design module in this folder, by name, after the ordered ones above.

    A contributor's new ``designs/<name>.py`` registers without an edit here; ``designs.<name>`` is then its
    function of the same name when it has one (as for the built-ins above), else the module.
    """
    for found in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if found.ispkg or found.name in _SHARED or f"{__name__}.{found.name}" in sys.modules:
            continue
        module = importlib.import_module(f"{__name__}.{found.name}")
        globals()[found.name] = getattr(module, found.name, module)


_discover()
SPECS.fix()  # the built-in designs stay registered (unregister refuses them)

__all__ = ["FAITHFULNESS_ASPECT", "FAITHFULNESS_CRITERIA", "PIPELINES", "SAMPLE_TEMPERATURE", "answer_correctness",
           "answer_relevancy", "answer_relevancy_embedding", "aspect_critic", "context_entity_recall",
           "context_precision", "context_precision_without_reference", "context_recall", "contextual_relevancy",
           "evaluation_steps", "faithfulness", "faithfulness_checked", "faithfulness_reanswer", "faithfulness_support",
           "faithfulness_support_batched", "faithfulness_quote",
           "g_eval", "ranking", "reanswer_reply", "semantic_similarity", "support_request", "word_overlap"]
