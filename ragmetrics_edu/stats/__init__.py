"""How sure can we be? Confidence intervals and paired tests for per-question scores.

Every function takes plain lists of scores (one per question) and returns a
:class:`StatResult` with the estimate, its interval, a two-sided p-value where there is
one, an effect size, the per-question table (``steps``), the resampled means or null
distribution (``distribution``, summarised in ``summary``), ``explain()`` and ``plot()``.

* :func:`bootstrap_ci` – percentile bootstrap interval of one system's mean score;
* :func:`paired_bootstrap` – percentile bootstrap interval of the mean difference a − b;
* :func:`grouped_bootstrap_ci` – the same for items clustered in groups (cases, pairs): resamples groups;
* :func:`permutation_test` – sign-flip permutation test (exact up to 20 non-zero pairs);
* :func:`sign_test` – exact binomial sign test on who won each question;
* :func:`adapted_resamples` – how many resamples a large set gets (never too few, never refused).

numpy is imported when a function runs, not when this module is imported.
"""

from __future__ import annotations

from .bootstrap import bootstrap_ci, paired_bootstrap
from .grouped import grouped_bootstrap_ci
from .inputs import adapted_resamples
from .paired_tests import permutation_test, sign_test
from .result import StatResult

__all__ = ["StatResult", "adapted_resamples", "bootstrap_ci", "grouped_bootstrap_ci", "paired_bootstrap", "permutation_test", "sign_test"]
